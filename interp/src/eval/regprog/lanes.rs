//! Lane loops of the register program: operands as 32- or 64-bit lanes,
//! and loops that apply an element function of `crate::ops` to every lane
//! (the function a type parameter, so a named one inlines into the loop).

/// A register lane: 32 bits for types at most 32 bits wide, else 64.
pub trait Lane: Copy + Default + Send + Sync + 'static {
    /// The lane's bits as the element functions take them.
    fn to64(self) -> u64;
    /// The lane holding `bits` (a value of the lane's type: its high bits
    /// are zero).
    fn from64(bits: u64) -> Self;
}

impl Lane for u32 {
    #[inline(always)]
    fn to64(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn from64(bits: u64) -> Self {
        bits as u32
    }
}

impl Lane for u64 {
    #[inline(always)]
    fn to64(self) -> u64 {
        self
    }
    #[inline(always)]
    fn from64(bits: u64) -> Self {
        bits
    }
}

/// An operand's lanes: one value for all, a slice, or int32 `base + i`.
#[derive(Clone, Copy)]
pub enum Op<'a, T> {
    /// The same value in every lane.
    Splat(T),
    /// One value per lane.
    Lanes(&'a [T]),
    /// int32 lanes `base + i`, wrapping.
    Affine(u32),
}

impl<T: Lane> Op<'_, T> {
    /// Lane `i`'s bits.
    #[inline(always)]
    pub fn get(&self, i: usize) -> u64 {
        match self {
            Op::Splat(x) => x.to64(),
            Op::Lanes(v) => v[i].to64(),
            Op::Affine(b) => b.wrapping_add(i as u32) as u64,
        }
    }
}

/// `out` = `f(a[i])` for `n` lanes.
#[inline(always)]
pub fn map1<T: Lane, U: Lane>(a: Op<T>, n: usize, out: &mut Vec<U>, f: impl Fn(u64) -> u64) {
    out.clear();
    match a {
        Op::Lanes(x) => out.extend(x.iter().map(|&x| U::from64(f(x.to64())))),
        Op::Splat(x) => out.resize(n, U::from64(f(x.to64()))),
        a => out.extend((0..n).map(|i| U::from64(f(a.get(i))))),
    }
}

/// `out` = `f(a[i], b[i])` for `n` lanes.
#[inline(always)]
pub fn map2<T: Lane, U: Lane>(
    a: Op<T>,
    b: Op<T>,
    n: usize,
    out: &mut Vec<U>,
    f: impl Fn(u64, u64) -> u64,
) {
    out.clear();
    match (a, b) {
        (Op::Lanes(x), Op::Lanes(y)) => out.extend(
            x.iter()
                .zip(y)
                .map(|(&x, &y)| U::from64(f(x.to64(), y.to64()))),
        ),
        (Op::Lanes(x), Op::Splat(y)) => {
            let y = y.to64();
            out.extend(x.iter().map(|&x| U::from64(f(x.to64(), y))))
        }
        (Op::Splat(x), Op::Lanes(y)) => {
            let x = x.to64();
            out.extend(y.iter().map(|&y| U::from64(f(x, y.to64()))))
        }
        (a, b) => out.extend((0..n).map(|i| U::from64(f(a.get(i), b.get(i))))),
    }
}

/// `out` = `f(a[i], b[i])` for `n` lanes while `f` gives a value; false at
/// the first lane where it gives none.
#[inline(always)]
pub fn map2_try<T: Lane, U: Lane>(
    a: Op<T>,
    b: Op<T>,
    n: usize,
    out: &mut Vec<U>,
    f: impl Fn(u64, u64) -> Option<u64>,
) -> bool {
    out.clear();
    for i in 0..n {
        match f(a.get(i), b.get(i)) {
            Some(v) => out.push(U::from64(v)),
            None => return false,
        }
    }
    true
}
