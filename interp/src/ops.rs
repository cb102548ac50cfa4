//! Exact element semantics of every operation of the typed program, on raw
//! bit patterns. The evaluator applies these lane by lane; the CUDA lowering
//! must agree with them bit for bit.

use crate::dtype::DType;
use crate::float::{self, Overflow, Rounding};
use crate::hazard;
use crate::ir::{AtomicOp, BinOp, CastKind, DivRound, MathFn, NanMode, ShiftRange, ShrKind, UnOp};

/// The kinds of undefined behaviour (one table: `ub.rs`); element
/// operations return the kind they hit.
pub use crate::ub::UbKind;

/// Sign-extends (signed dtypes) or zero-extends the bits of an integer dtype.
pub fn int_value(d: DType, bits: u64) -> i128 {
    let b = d.bits();
    if d.is_signed_int() {
        ((bits << (64 - b)) as i64 >> (64 - b)) as i128
    } else {
        (bits & d.mask()) as i128
    }
}

fn wrap(d: DType, v: i128) -> u64 {
    (v as u64) & d.mask()
}

/// Value of a float element as f64 (exact).
pub fn fval(d: DType, bits: u64) -> f64 {
    float::to_f64(d, bits)
}

/// Rounds an f64 result into float dtype `d` (NaN: the GPU's arithmetic NaN).
pub fn fround(d: DType, v: f64) -> u64 {
    if v.is_nan() {
        return float::nan_bits(d);
    }
    float::from_f64(d, v, Rounding::NearestEven, Overflow::Infinity)
}

/// Round-to-odd sum of two f64: exact `a + b` rounded so that a later
/// rounding to a format of at most 51 bits of precision is correct.
fn add_round_odd(a: f64, b: f64) -> f64 {
    let s = a + b;
    if !s.is_finite() {
        return s;
    }
    // TwoSum error term.
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    if err == 0.0 || s.to_bits() & 1 == 1 {
        return s;
    }
    let toward = if err > 0.0 {
        f64::INFINITY
    } else {
        f64::NEG_INFINITY
    };
    next_toward(s, toward)
}

fn next_toward(x: f64, t: f64) -> f64 {
    if x == t {
        return x;
    }
    let b = x.to_bits();
    if x == 0.0 {
        let tiny = f64::from_bits(1);
        return if t > 0.0 { tiny } else { -tiny };
    }
    let up = (t > x) == (x > 0.0);
    f64::from_bits(if up { b + 1 } else { b - 1 })
}

/// `a*b + c` rounded once into float dtype `d`.
pub fn fma(d: DType, a: u64, b: u64, c: u64) -> u64 {
    if d == DType::F64 {
        let r = f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c));
        return float::f64_result(r, &[a, b, c]);
    }
    let (x, y, z) = (fval(d, a), fval(d, b), fval(d, c));
    let p = x * y; // exact: at most 2*24 significant bits
    fround(d, add_round_odd(p, z))
}

fn cmp_f(op: BinOp, x: f64, y: f64) -> bool {
    match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        // (callers name the six comparisons; every other op has its arm there)
        _ => unreachable!("not a comparison"),
    }
}

fn cmp_i(op: BinOp, x: i128, y: i128) -> bool {
    match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        // (callers name the six comparisons; every other op has its arm there)
        _ => unreachable!("not a comparison"),
    }
}

/// A float type min/max can pick between: the one rule ([`min_max_pick`])
/// runs on float32 values (the inlined reductions) and on the f64 values
/// every other format widens to.
trait PickFloat: PartialOrd + Copy {
    fn nan(self) -> bool;
    fn negative(self) -> bool;
}

impl PickFloat for f32 {
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn negative(self) -> bool {
        self.is_sign_negative()
    }
}

impl PickFloat for f64 {
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn negative(self) -> bool {
        self.is_sign_negative()
    }
}

/// Float maximum (`max` true) or minimum of `a` and `b` (values `x`, `y`):
/// NaN per `mode` (`nan`: the format's NaN); -0.0 orders below +0.0.
#[inline(always)]
fn min_max_pick<T: PickFloat>(
    x: T,
    y: T,
    a: u64,
    b: u64,
    nan: u64,
    max: bool,
    mode: NanMode,
) -> u64 {
    match (x.nan(), y.nan()) {
        (true, true) => return nan,
        (true, false) | (false, true) if mode == NanMode::Propagate => return nan,
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    let a_first = if x == y {
        // equal values: only the zero signs can differ
        x.negative() != max
    } else if max {
        x > y
    } else {
        x < y
    };
    if a_first {
        a
    } else {
        b
    }
}

/// Float minimum/maximum: NaN per `mode`; -0.0 orders below +0.0.
fn fminmax(d: DType, a: u64, b: u64, max: bool, mode: NanMode) -> u64 {
    min_max_pick(fval(d, a), fval(d, b), a, b, float::nan_bits(d), max, mode)
}

fn f32_of(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

/// A float32 result's bits (NaN: the GPU's arithmetic NaN).
fn canon32(r: f32) -> u64 {
    if r.is_nan() {
        0x7fff_ffff
    } else {
        r.to_bits() as u64
    }
}

/// float32 `a + b` ([`fast_binary`]'s, named so callers can inline it).
#[inline]
pub fn add_f32(a: u64, b: u64) -> u64 {
    canon32(f32_of(a) + f32_of(b))
}

/// float32 `a * b` ([`fast_binary`]'s, named so callers can inline it).
#[inline]
pub fn mul_f32(a: u64, b: u64) -> u64 {
    canon32(f32_of(a) * f32_of(b))
}

/// float32 `a - b` ([`fast_binary`]'s, named so callers can inline it).
#[inline]
pub fn sub_f32(a: u64, b: u64) -> u64 {
    canon32(f32_of(a) - f32_of(b))
}

/// float32 `a / b` ([`fast_binary`]'s, named so callers can inline it).
#[inline]
pub fn div_f32(a: u64, b: u64) -> u64 {
    canon32(f32_of(a) / f32_of(b))
}

/// float32 `exp(a)` ([`unary`]'s `Math(Exp)`: the f64 exponential of the
/// exact value, rounded to nearest even; NaN: the GPU's arithmetic NaN),
/// named so callers can inline it.
#[inline]
pub fn exp_f32(a: u64) -> u64 {
    let r = (f32_of(a) as f64).exp();
    if r.is_nan() {
        float::nan_bits(DType::F32)
    } else {
        (r as f32).to_bits() as u64
    }
}

/// float32 `-a` ([`unary`]'s `Neg`: the sign bit flipped, NaNs too),
/// named so callers can inline it.
#[inline]
pub fn neg_f32(a: u64) -> u64 {
    a ^ 0x8000_0000
}

/// float32 `abs(a)` ([`unary`]'s `Math(Abs)`: the sign bit cleared),
/// named so callers can inline it.
#[inline]
pub fn abs_f32(a: u64) -> u64 {
    a & 0x7fff_ffff
}

/// [`unary`] over a whole operand, appending every lane's value to `out`
/// with the element function inlined into the loop: float32 `exp`,
/// negation and `abs`. False, `out` untouched, for every other pair.
pub fn fast_unary_slices(op: UnOp, d: DType, a: &[u64], out: &mut Vec<u64>) -> bool {
    if d != DType::F32 {
        return false;
    }
    match op {
        UnOp::Math(MathFn::Exp) => out.extend(a.iter().map(|&x| exp_f32(x))),
        UnOp::Neg => out.extend(a.iter().map(|&x| neg_f32(x))),
        UnOp::Math(MathFn::Abs) => out.extend(a.iter().map(|&x| abs_f32(x))),
        _ => return false,
    }
    true
}

/// float32 maximum (`max` true) or minimum of `a` and `b` as
/// [`binary`]'s `Max`/`Min` with NaN `mode` (-0.0 below +0.0), on the
/// float32 values themselves, for reductions to inline.
#[inline]
pub fn minmax_f32(a: u64, b: u64, max: bool, mode: NanMode) -> u64 {
    let nan = float::nan_bits(DType::F32);
    min_max_pick(f32_of(a), f32_of(b), a, b, nan, max, mode)
}

/// `fast_int::$f::<W, S>($args)` for an integer dtype `$d` of W bits,
/// signed when S (one monomorphised element function per dtype); `$other`
/// for the rest.
macro_rules! int_dispatch {
    ($d:expr, $f:ident, ($($arg:expr),*), $other:expr) => {
        match $d {
            DType::I8 => fast_int::$f::<8, true>($($arg),*),
            DType::I16 => fast_int::$f::<16, true>($($arg),*),
            DType::I32 => fast_int::$f::<32, true>($($arg),*),
            DType::I64 => fast_int::$f::<64, true>($($arg),*),
            DType::U8 => fast_int::$f::<8, false>($($arg),*),
            DType::U16 => fast_int::$f::<16, false>($($arg),*),
            DType::U32 => fast_int::$f::<32, false>($($arg),*),
            DType::U64 => fast_int::$f::<64, false>($($arg),*),
            _ => $other,
        }
    };
}

/// Appends `f(a[i], b[i])` for every lane to `out`; an operand of one
/// element stands for every lane. `f` is a type parameter, so a named
/// element function inlines into the loop.
#[inline]
fn map2(a: &[u64], b: &[u64], out: &mut Vec<u64>, f: impl Fn(u64, u64) -> u64) -> bool {
    if a.len() == b.len() {
        out.extend(a.iter().zip(b).map(|(&x, &y)| f(x, y)));
    } else if a.len() == 1 {
        let x = a[0];
        out.extend(b.iter().map(|&y| f(x, y)));
    } else {
        let y = b[0];
        out.extend(a.iter().map(|&x| f(x, y)));
    }
    true
}

/// [`fast_binary`] over whole operands: appends `op(a[i], b[i])` for every
/// lane to `out` (an operand of one element stands for every lane), with
/// [`fast_binary`]'s element function inlined into the loop for float32
/// arithmetic and every integer dtype, and called through its pointer for
/// the other pairs. False, `out` untouched, where [`fast_binary`] has no
/// function for the pair or the operands' lengths do not match.
pub fn fast_binary_slices(op: BinOp, d: DType, a: &[u64], b: &[u64], out: &mut Vec<u64>) -> bool {
    if !(a.len() == b.len() || a.len() == 1 || b.len() == 1) {
        return false;
    }
    let inlined = match d {
        DType::F32 => match op {
            BinOp::Add => map2(a, b, out, add_f32),
            BinOp::Sub => map2(a, b, out, sub_f32),
            BinOp::Mul => map2(a, b, out, mul_f32),
            BinOp::FDiv => map2(a, b, out, div_f32),
            _ => false,
        },
        _ => int_dispatch!(d, slices, (op, a, b, out), false),
    };
    if inlined {
        return true;
    }
    match fast_binary(op, d) {
        Some(f) => map2(a, b, out, f),
        None => false,
    }
}

/// Appends `f(a[i], b[i])` for every lane to `out` while `f` gives a
/// value (as [`map2`]); false at the first lane where it gives none.
#[inline]
fn map2_partial(
    a: &[u64],
    b: &[u64],
    out: &mut Vec<u64>,
    f: impl Fn(u64, u64) -> Option<u64>,
) -> bool {
    let n = a.len().max(b.len());
    let (sa, sb) = (a.len() == 1, b.len() == 1);
    for i in 0..n {
        let x = if sa { a[0] } else { a[i] };
        let y = if sb { b[0] } else { b[i] };
        match f(x, y) {
            Some(v) => out.push(v),
            None => return false,
        }
    }
    true
}

/// [`fast_binary_partial`] over whole operands, its element function
/// inlined into the lane loop: true when it gave every lane's value
/// (appended to `out`); false where it has no function for the pair, the
/// operands' lengths do not match, or some lane needs [`binary`] itself
/// (`out` then holds a prefix the caller discards).
pub fn fast_binary_partial_slices(
    op: BinOp,
    d: DType,
    a: &[u64],
    b: &[u64],
    out: &mut Vec<u64>,
) -> bool {
    if !(a.len() == b.len() || a.len() == 1 || b.len() == 1) {
        return false;
    }
    int_dispatch!(d, partial_slices, (op, a, b, out), false)
}

/// A specialised element function for the hottest (op, dtype) pairs; it
/// computes exactly what [`binary`] computes (no UB is possible for these).
pub fn fast_binary(op: BinOp, d: DType) -> Option<fn(u64, u64) -> u64> {
    Some(match (op, d) {
        (BinOp::Add, DType::F32) => add_f32,
        (BinOp::Sub, DType::F32) => sub_f32,
        (BinOp::Mul, DType::F32) => mul_f32,
        (BinOp::FDiv, DType::F32) => div_f32,
        (BinOp::LogicalAnd, DType::Bool) => |a, b| ((a != 0) && (b != 0)) as u64,
        (BinOp::Max(NanMode::Propagate), DType::F32) => {
            |a, b| minmax_f32(a, b, true, NanMode::Propagate)
        }
        (BinOp::Max(NanMode::Ignore), DType::F32) => |a, b| minmax_f32(a, b, true, NanMode::Ignore),
        (BinOp::Min(NanMode::Propagate), DType::F32) => {
            |a, b| minmax_f32(a, b, false, NanMode::Propagate)
        }
        (BinOp::Min(NanMode::Ignore), DType::F32) => {
            |a, b| minmax_f32(a, b, false, NanMode::Ignore)
        }
        _ => return int_dispatch!(d, total, (op), None),
    })
}

/// A specialised element function for operations that can be UB: it gives
/// what [`binary`] gives where that is a value, and `None` where [`binary`]
/// itself must decide (the caller then asks it). Integer shifts.
pub fn fast_binary_partial(op: BinOp, d: DType) -> Option<fn(u64, u64) -> Option<u64>> {
    int_dispatch!(d, partial, (op), None)
}

/// Integer element functions of a `W`-bit dtype, signed when `S`, on the
/// bit patterns themselves (no i128), for [`fast_binary`] and
/// [`fast_binary_partial`]; each computes what [`binary`] computes.
mod fast_int {
    use crate::ir::{BinOp, ShiftRange, ShrKind};

    fn mask<const W: u32>() -> u64 {
        if W == 64 {
            u64::MAX
        } else {
            (1u64 << W) - 1
        }
    }
    /// The value as a signed (`S`) or unsigned number, ordered as i128 would be.
    fn key<const W: u32, const S: bool>(a: u64) -> i128 {
        if S {
            (((a << (64 - W)) as i64) >> (64 - W)) as i128
        } else {
            (a & mask::<W>()) as i128
        }
    }
    fn add<const W: u32>(a: u64, b: u64) -> u64 {
        a.wrapping_add(b) & mask::<W>()
    }
    fn sub<const W: u32>(a: u64, b: u64) -> u64 {
        a.wrapping_sub(b) & mask::<W>()
    }
    fn mul<const W: u32>(a: u64, b: u64) -> u64 {
        a.wrapping_mul(b) & mask::<W>()
    }
    fn and(a: u64, b: u64) -> u64 {
        a & b
    }
    fn or(a: u64, b: u64) -> u64 {
        a | b
    }
    fn xor(a: u64, b: u64) -> u64 {
        a ^ b
    }
    fn eq<const W: u32>(a: u64, b: u64) -> u64 {
        ((a ^ b) & mask::<W>() == 0) as u64
    }
    fn ne<const W: u32>(a: u64, b: u64) -> u64 {
        ((a ^ b) & mask::<W>() != 0) as u64
    }
    fn lt<const W: u32, const S: bool>(a: u64, b: u64) -> u64 {
        (key::<W, S>(a) < key::<W, S>(b)) as u64
    }
    fn le<const W: u32, const S: bool>(a: u64, b: u64) -> u64 {
        (key::<W, S>(a) <= key::<W, S>(b)) as u64
    }
    fn gt<const W: u32, const S: bool>(a: u64, b: u64) -> u64 {
        (key::<W, S>(a) > key::<W, S>(b)) as u64
    }
    fn ge<const W: u32, const S: bool>(a: u64, b: u64) -> u64 {
        (key::<W, S>(a) >= key::<W, S>(b)) as u64
    }
    fn min<const W: u32, const S: bool>(a: u64, b: u64) -> u64 {
        if key::<W, S>(a) <= key::<W, S>(b) {
            a
        } else {
            b
        }
    }
    fn max<const W: u32, const S: bool>(a: u64, b: u64) -> u64 {
        if key::<W, S>(a) >= key::<W, S>(b) {
            a
        } else {
            b
        }
    }

    /// The UB-free operations.
    pub fn total<const W: u32, const S: bool>(op: BinOp) -> Option<fn(u64, u64) -> u64> {
        Some(match op {
            BinOp::Add => add::<W>,
            BinOp::Sub => sub::<W>,
            BinOp::Mul => mul::<W>,
            BinOp::And => and,
            BinOp::Or => or,
            BinOp::Xor => xor,
            BinOp::Eq => eq::<W>,
            BinOp::Ne => ne::<W>,
            BinOp::Lt => lt::<W, S>,
            BinOp::Le => le::<W, S>,
            BinOp::Gt => gt::<W, S>,
            BinOp::Ge => ge::<W, S>,
            BinOp::Min(_) => min::<W, S>,
            BinOp::Max(_) => max::<W, S>,
            _ => return None,
        })
    }

    /// [`total`]'s operations over whole operands (`super::map2`), each
    /// element function inlined into its loop; false for the others.
    pub fn slices<const W: u32, const S: bool>(
        op: BinOp,
        a: &[u64],
        b: &[u64],
        out: &mut Vec<u64>,
    ) -> bool {
        use super::map2;
        match op {
            BinOp::Add => map2(a, b, out, add::<W>),
            BinOp::Sub => map2(a, b, out, sub::<W>),
            BinOp::Mul => map2(a, b, out, mul::<W>),
            BinOp::And => map2(a, b, out, and),
            BinOp::Or => map2(a, b, out, or),
            BinOp::Xor => map2(a, b, out, xor),
            BinOp::Eq => map2(a, b, out, eq::<W>),
            BinOp::Ne => map2(a, b, out, ne::<W>),
            BinOp::Lt => map2(a, b, out, lt::<W, S>),
            BinOp::Le => map2(a, b, out, le::<W, S>),
            BinOp::Gt => map2(a, b, out, gt::<W, S>),
            BinOp::Ge => map2(a, b, out, ge::<W, S>),
            BinOp::Min(_) => map2(a, b, out, min::<W, S>),
            BinOp::Max(_) => map2(a, b, out, max::<W, S>),
            _ => false,
        }
    }

    /// The shift amount `b` where it is in 0..W, else `None` (UB, which
    /// `binary` reports).
    fn amount<const W: u32, const S: bool>(b: u64) -> Option<u32> {
        let y = key::<W, S>(b);
        (0..W as i128).contains(&y).then_some(y as u32)
    }
    fn shl<const W: u32, const S: bool>(a: u64, b: u64) -> Option<u64> {
        amount::<W, S>(b).map(|s| (a << s) & mask::<W>())
    }
    fn shr_logical<const W: u32, const S: bool>(a: u64, b: u64) -> Option<u64> {
        amount::<W, S>(b).map(|s| (a & mask::<W>()) >> s)
    }
    fn shr_arith<const W: u32, const S: bool>(a: u64, b: u64) -> Option<u64> {
        amount::<W, S>(b).map(|s| ((key::<W, true>(a) >> s) as u64) & mask::<W>())
    }

    /// [`partial`]'s operations over whole operands
    /// (`super::map2_partial`); false for the others.
    pub fn partial_slices<const W: u32, const S: bool>(
        op: BinOp,
        a: &[u64],
        b: &[u64],
        out: &mut Vec<u64>,
    ) -> bool {
        use super::map2_partial;
        match op {
            BinOp::Shl(ShiftRange::Ub) => map2_partial(a, b, out, shl::<W, S>),
            BinOp::Shr(ShrKind::Logical, ShiftRange::Ub) => {
                map2_partial(a, b, out, shr_logical::<W, S>)
            }
            BinOp::Shr(ShrKind::Arith, ShiftRange::Ub) => {
                map2_partial(a, b, out, shr_arith::<W, S>)
            }
            _ => false,
        }
    }

    /// Shifts whose out-of-range amounts are UB.
    pub fn partial<const W: u32, const S: bool>(op: BinOp) -> Option<fn(u64, u64) -> Option<u64>> {
        Some(match op {
            BinOp::Shl(ShiftRange::Ub) => shl::<W, S>,
            BinOp::Shr(ShrKind::Logical, ShiftRange::Ub) => shr_logical::<W, S>,
            BinOp::Shr(ShrKind::Arith, ShiftRange::Ub) => shr_arith::<W, S>,
            _ => return None,
        })
    }
}

/// Applies a binary operation to two elements of dtype `d` (the operands'
/// dtype; comparisons return bool bits 0/1).
pub fn binary(op: BinOp, d: DType, a: u64, b: u64) -> Result<u64, UbKind> {
    if let BinOp::Ieee(o, r) = op {
        return Ok(crate::ieee::binary(o, d, r, a, b));
    }
    if d.is_float() {
        return Ok(binary_float(op, d, a, b));
    }
    let (x, y) = (int_value(d, a), int_value(d, b));
    let bits = d.bits();
    Ok(match op {
        BinOp::Add => wrap(d, x + y),
        BinOp::Sub => wrap(d, x - y),
        BinOp::Mul => wrap(d, x.wrapping_mul(y)),
        BinOp::NoSignedWrap(arith) => {
            hazard::check(hazard::binary(op, d), d, a, b)?;
            return binary(arith.op(), d, a, b);
        }
        BinOp::IDiv(r) | BinOp::IRem(r) => {
            // UB as the op declares it; what is left is defined
            // (`DivZero::Zero`: 0 by zero, MIN / -1 wraps, MIN % -1 is 0)
            hazard::check(hazard::binary(op, d), d, a, b)?;
            let is_div = matches!(op, BinOp::IDiv(_));
            if y == 0 {
                return Ok(0);
            }
            if d.is_signed_int() && y == -1 && x == d.int_range().0 {
                return Ok(if is_div { wrap(d, x) } else { 0 });
            }
            let q = match r.round {
                DivRound::Trunc => x / y,
                DivRound::Floor => floor_div(x, y),
            };
            let m = x - q * y;
            wrap(d, if is_div { q } else { m })
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::LogicalAnd => ((a != 0) && (b != 0)) as u64,
        BinOp::LogicalOr => ((a != 0) || (b != 0)) as u64,
        BinOp::Shl(range) => {
            hazard::check(hazard::binary(op, d), d, a, b)?;
            wrap(d, x << shift_amount(range, bits, y))
        }
        BinOp::Shr(kind, range) => {
            hazard::check(hazard::binary(op, d), d, a, b)?;
            let s = shift_amount(range, bits, y);
            match kind {
                ShrKind::Arith => {
                    // the bits as a two's-complement value of the width
                    let w = d.bits();
                    let v = ((a << (64 - w)) as i64 >> (64 - w)) as i128;
                    wrap(d, v >> s)
                }
                ShrKind::Logical => ((a & d.mask()) as u128 >> s) as u64,
            }
        }
        BinOp::Min(_) => {
            if x <= y {
                a
            } else {
                b
            }
        }
        BinOp::Max(_) => {
            if x >= y {
                a
            } else {
                b
            }
        }
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            cmp_i(op, x, y) as u64
        }
        // (the evaluators move pointers themselves; `Ieee` is handled above)
        BinOp::PtrAdd
        | BinOp::PtrAddBytes
        | BinOp::PtrDiff
        | BinOp::FDiv
        | BinOp::FRem
        | BinOp::Pow
        | BinOp::Atan2
        | BinOp::Hypot
        | BinOp::CopySign
        | BinOp::Ieee(..) => {
            unreachable!("{op:?} on integers is rejected by elaboration")
        }
    })
}

/// The shift amount `y` of a `bits`-wide value under `range`, where the
/// op's hazard (`hazard::binary`) has let it through. Amounts of `bits` or
/// more (saturating) shift every bit out; the result is computed on i128,
/// so up to 127 is exact.
fn shift_amount(range: ShiftRange, bits: u32, y: i128) -> u32 {
    match range {
        ShiftRange::Ub => y as u32,
        ShiftRange::Mask => (y as u32) & (bits - 1),
        ShiftRange::Saturate => y.min(bits as i128) as u32,
    }
}

/// Python floor division of integers.
pub fn floor_div(x: i128, y: i128) -> i128 {
    let q = x / y;
    if (x % y != 0) && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

fn binary_float(op: BinOp, d: DType, a: u64, b: u64) -> u64 {
    // f64 holds at least 2p+2 bits for every narrower format, so computing
    // in f64 and rounding once more is correctly rounded for + - * / and fmod.
    let (x, y) = if d == DType::F64 {
        (f64::from_bits(a), f64::from_bits(b))
    } else {
        (fval(d, a), fval(d, b))
    };
    let r = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::FDiv => x / y,
        BinOp::FRem => x % y,
        BinOp::Min(m) => return fminmax(d, a, b, false, m),
        BinOp::Max(m) => return fminmax(d, a, b, true, m),
        BinOp::Pow => x.powf(y),
        BinOp::Atan2 => x.atan2(y),
        BinOp::Hypot => x.hypot(y),
        BinOp::CopySign => return copysign_bits(d, a, b),
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            return cmp_f(op, x, y) as u64
        }
        BinOp::IDiv(_)
        | BinOp::IRem(_)
        | BinOp::And
        | BinOp::Or
        | BinOp::Xor
        | BinOp::Shl(_)
        | BinOp::Shr(..)
        | BinOp::LogicalAnd
        | BinOp::LogicalOr
        | BinOp::PtrAdd
        | BinOp::PtrAddBytes
        | BinOp::PtrDiff
        | BinOp::NoSignedWrap(_)
        | BinOp::Ieee(..) => unreachable!("{op:?} on floats is rejected by elaboration"),
    };
    if d == DType::F64 {
        // float64's NaN rule: an operand's NaN propagates (float.rs)
        float::f64_result(r, &[a, b])
    } else {
        fround(d, r)
    }
}

/// `a` with the sign bit of `b` (float dtype `d`).
/// A "fnuz" format has no -0 (its pattern is the NaN): a zero or NaN
/// keeps its bits.
fn copysign_bits(d: DType, a: u64, b: u64) -> u64 {
    let sign = 1u64 << (d.bits() - 1);
    if matches!(d, DType::F8E4B8 | DType::F8E5B16) && a & (sign - 1) == 0 {
        return a;
    }
    (a & !sign) | (b & sign)
}

/// The new value of an atomic read-modify-write of an element of dtype `d`
/// holding `old`, with operand `val` (and `cmp` for compare-and-swap).
pub fn atomic_rmw(op: AtomicOp, d: DType, old: u64, val: u64, cmp: Option<u64>) -> u64 {
    let (old, val) = (old & d.mask(), val & d.mask());
    let bin = |b| binary(b, d, old, val).unwrap_or(old);
    let gt = |x: u64, y: u64| bin_cmp(d, BinOp::Gt, x, y);
    let nan = |x: u64| d.is_float() && float::is_nan(d, x);
    let signed = |x: u64| ((x << (64 - d.bits())) as i64) >> (64 - d.bits());
    let sign_set = val >> (d.bits() - 1) != 0;
    match op {
        // float64: a NaN passes through unquieted, the operand's first
        // (numba-cuda and Triton on sm_90, measured)
        AtomicOp::Add if d == DType::F64 && nan(val) => val,
        AtomicOp::Add if d == DType::F64 && nan(old) => old,
        AtomicOp::Add if d.is_float() => {
            let flush = |x| float::flush_subnormal_f32(d, x);
            flush(binary(BinOp::Add, d, flush(val), flush(old)).unwrap_or(old))
        }
        AtomicOp::Add => bin(BinOp::Add),
        AtomicOp::BitsMax if sign_set => old.min(val),
        AtomicOp::BitsMax => {
            if signed(val) > signed(old) {
                val
            } else {
                old
            }
        }
        AtomicOp::BitsMin if sign_set => old.max(val),
        AtomicOp::BitsMin => {
            if signed(val) < signed(old) {
                val
            } else {
                old
            }
        }
        AtomicOp::Sub => bin(BinOp::Sub),
        AtomicOp::NanMax | AtomicOp::NanMin if nan(old) => val,
        AtomicOp::Max | AtomicOp::NanMax => {
            if gt(val, old) {
                val
            } else {
                old
            }
        }
        AtomicOp::Min | AtomicOp::NanMin => {
            if gt(old, val) {
                val
            } else {
                old
            }
        }
        AtomicOp::And => bin(BinOp::And),
        AtomicOp::Or => bin(BinOp::Or),
        AtomicOp::Xor => bin(BinOp::Xor),
        AtomicOp::Exch => val,
        AtomicOp::Cas => {
            if Some(old) == cmp.map(|c| c & d.mask()) {
                val
            } else {
                old
            }
        }
        AtomicOp::Inc => {
            if old >= val {
                0
            } else {
                (old + 1) & d.mask()
            }
        }
        AtomicOp::Dec => {
            if old == 0 || old > val {
                val
            } else {
                old - 1
            }
        }
    }
}

/// Whether the comparison `op` holds between `a` and `b` of dtype `d`.
fn bin_cmp(d: DType, op: BinOp, a: u64, b: u64) -> bool {
    binary(op, d, a, b).is_ok_and(|r| r != 0)
}

/// Applies a unary operation to an element of dtype `d`.
pub fn unary(op: UnOp, d: DType, a: u64) -> u64 {
    match op {
        UnOp::Not => !a & d.mask(),
        UnOp::LogicalNot => (a == 0) as u64,
        UnOp::Neg if d.is_float() => copysign_bits(d, a, !a),
        UnOp::Neg => a.wrapping_neg() & d.mask(),
        UnOp::Math(f) => math(f, d, a),
        UnOp::Ieee(o, r) => crate::ieee::unary(o, d, r, a),
    }
}

fn math(f: MathFn, d: DType, a: u64) -> u64 {
    if d.is_int() {
        // only abs applies to integers (elaboration guarantees it)
        let v = int_value(d, a);
        return wrap(d, v.wrapping_abs());
    }
    if f == MathFn::Abs {
        let fmt = d.float_format().expect("float");
        return a & !(1u64 << (fmt.exp_bits + fmt.man_bits));
    }
    let x = fval(d, a);
    let r = match f {
        MathFn::Exp => x.exp(),
        MathFn::Exp2 => x.exp2(),
        MathFn::Log => x.ln(),
        MathFn::Log2 => x.log2(),
        MathFn::Sqrt | MathFn::SqrtRn => x.sqrt(),
        MathFn::Rsqrt => 1.0 / x.sqrt(),
        MathFn::Sin => x.sin(),
        MathFn::Cos => x.cos(),
        MathFn::Sigmoid => 1.0 / (1.0 + (-x).exp()),
        MathFn::Erf => libm::erf(x),
        MathFn::Floor => x.floor(),
        MathFn::Ceil => x.ceil(),
        MathFn::Tan => x.tan(),
        MathFn::Asin => x.asin(),
        MathFn::Acos => x.acos(),
        MathFn::Atan => x.atan(),
        MathFn::Sinh => x.sinh(),
        MathFn::Cosh => x.cosh(),
        MathFn::Tanh => x.tanh(),
        // libm's (musl's) inverse hyperbolics: Rust's own overflow for large
        // inputs (asinh(1e300) = inf) and lose bits near the poles; musl's
        // acosh does not check its domain (x < 1 is NaN, as in C)
        MathFn::Asinh => libm::asinh(x),
        MathFn::Acosh if x < 1.0 => f64::NAN,
        MathFn::Acosh => libm::acosh(x),
        MathFn::Atanh => libm::atanh(x),
        MathFn::Expm1 => x.exp_m1(),
        MathFn::Log10 => x.log10(),
        MathFn::Log1p => x.ln_1p(),
        MathFn::Cbrt => x.cbrt(),
        MathFn::Erfc => libm::erfc(x),
        MathFn::Tgamma => libm::tgamma(x),
        // the magnitude only (C's lgamma, which keeps the sign in `signgam`)
        MathFn::Lgamma => libm::lgamma(x),
        MathFn::Exp10 => libm::exp10(x),
        MathFn::Abs => unreachable!(),
    };
    if d == DType::F64 {
        float::f64_result(r, &[a])
    } else {
        fround(d, r)
    }
}

/// Converts an element from dtype `from` to dtype `to`.
pub fn cast(kind: CastKind, from: DType, to: DType, a: u64) -> Result<u64, UbKind> {
    if from == to {
        return Ok(a);
    }
    let (rounding, overflow) = match kind {
        CastKind::Bitcast => return Ok(a & to.mask()),
        CastKind::Convert(r, o) => (r, o),
    };
    if to == DType::Bool {
        return Ok(if from.is_float() {
            (fval(from, a) != 0.0) as u64
        } else {
            (a & from.mask() != 0) as u64
        });
    }
    match (from.is_float(), to.is_float()) {
        (false, false) => Ok(wrap(to, int_value(from, a))),
        (false, true) => Ok(float::from_int(to, int_value(from, a), rounding)),
        (true, false) => {
            hazard::check(hazard::cast(kind, from, to), from, a, 0)?;
            // (in range: the hazard is checked above)
            float::to_int_trunc(fval(from, a), to).ok_or(UbKind::FloatToIntOutOfRange)
        }
        (true, true) => {
            if float::is_nan(from, a) {
                return Ok(float::convert_nan(from, to, a));
            }
            Ok(float::from_f64(to, fval(from, a), rounding, overflow))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::IntDiv;
    use crate::ir::{ShiftRange, ShrKind};

    #[test]
    fn trunc_and_floor_division_table() {
        // The TileLang seed's comparison table (a, b, truncdiv, truncmod, floordiv, floormod).
        let table = [
            (7, 2, 3, 1, 3, 1),
            (-7, 2, -3, -1, -4, 1),
            (7, -2, -3, 1, -4, -1),
            (-7, -2, 3, -1, 3, -1),
        ];
        let d = DType::I32;
        let b = |v: i128| wrap(d, v);
        for (x, y, td, tm, fd, fm) in table {
            assert_eq!(binary(BinOp::IDiv(IntDiv::TRUNC), d, b(x), b(y)), Ok(b(td)));
            assert_eq!(binary(BinOp::IRem(IntDiv::TRUNC), d, b(x), b(y)), Ok(b(tm)));
            assert_eq!(binary(BinOp::IDiv(IntDiv::FLOOR), d, b(x), b(y)), Ok(b(fd)));
            assert_eq!(binary(BinOp::IRem(IntDiv::FLOOR), d, b(x), b(y)), Ok(b(fm)));
        }
    }

    #[test]
    fn fast_paths_agree_with_the_general_rule() {
        let samples = edge_samples();
        let ops = edge_ops();
        let dtypes = edge_dtypes();
        let (mut total, mut partial) = (0, 0);
        for d in dtypes {
            for &op in &ops {
                let fast = fast_binary(op, d);
                let part = fast_binary_partial(op, d);
                total += fast.is_some() as usize;
                partial += part.is_some() as usize;
                if fast.is_none() && part.is_none() {
                    continue; // (the general rule may refuse the pair)
                }
                for &a in &samples {
                    for &b in &samples {
                        let (a, b) = (a & d.mask(), b & d.mask());
                        let general = binary(op, d, a, b);
                        if let Some(f) = fast {
                            assert_eq!(Ok(f(a, b)), general, "{op:?} {d} {a:#x} {b:#x}");
                        }
                        if let Some(Some(v)) = part.map(|f| f(a, b)) {
                            assert_eq!(Ok(v), general, "partial {op:?} {d} {a:#x} {b:#x}");
                        }
                        if part.is_some() && general.is_err() {
                            assert_eq!(part.and_then(|f| f(a, b)), None, "{op:?} {d} UB");
                        }
                    }
                }
            }
        }
        // float32: + - * / and four min/max; bool: and; each integer
        // dtype: 16 of the list (all but / and logical and) and 3 shifts
        assert_eq!(total, 8 + 1 + 8 * 16);
        assert_eq!(partial, 8 * 3);
    }

    #[test]
    fn slice_fast_paths_agree_with_the_general_rule() {
        let samples = edge_samples();
        let mut covered = 0;
        for d in edge_dtypes() {
            for op in edge_ops() {
                let lanes: Vec<u64> = samples.iter().map(|&a| a & d.mask()).collect();
                // every pair of samples, lane by lane, and each operand
                // as one element against all lanes
                let (mut xs, mut ys) = (Vec::new(), Vec::new());
                for &a in &lanes {
                    for &b in &lanes {
                        xs.push(a);
                        ys.push(b);
                    }
                }
                let mut out = Vec::new();
                if !fast_binary_slices(op, d, &xs, &ys, &mut out) {
                    assert!(out.is_empty());
                    assert!(
                        fast_binary(op, d).is_none(),
                        "{op:?} {d} has a fast function"
                    );
                    continue;
                }
                covered += 1;
                for (i, (&a, &b)) in xs.iter().zip(&ys).enumerate() {
                    assert_eq!(Ok(out[i]), binary(op, d, a, b), "{op:?} {d} {a:#x} {b:#x}");
                }
                for &one in &lanes {
                    let (mut left, mut right) = (Vec::new(), Vec::new());
                    assert!(fast_binary_slices(op, d, &[one], &lanes, &mut left));
                    assert!(fast_binary_slices(op, d, &lanes, &[one], &mut right));
                    for (i, &x) in lanes.iter().enumerate() {
                        assert_eq!(Ok(left[i]), binary(op, d, one, x), "{op:?} {d}");
                        assert_eq!(Ok(right[i]), binary(op, d, x, one), "{op:?} {d}");
                    }
                }
            }
        }
        // exactly the pairs `fast_binary` has
        assert_eq!(covered, 8 + 1 + 8 * 16);
        let mut out = Vec::new();
        assert!(!fast_binary_slices(
            BinOp::Add,
            DType::F32,
            &[1, 2],
            &[1, 2, 3],
            &mut out
        ));
    }

    #[test]
    fn partial_slice_fast_paths_agree_with_the_general_rule() {
        let samples = edge_samples();
        let mut covered = 0;
        for d in edge_dtypes() {
            for op in edge_ops() {
                let part = fast_binary_partial(op, d);
                let mut out = Vec::new();
                if part.is_none() {
                    assert!(!fast_binary_partial_slices(op, d, &[1], &[1], &mut out));
                    continue;
                }
                covered += 1;
                let f = part.expect("some");
                let lanes: Vec<u64> = samples.iter().map(|&a| a & d.mask()).collect();
                // one lane at a time: a value exactly where the element
                // function gives one, and then the general rule's
                for &a in &lanes {
                    for &b in &lanes {
                        out.clear();
                        let all = fast_binary_partial_slices(op, d, &[a], &[b], &mut out);
                        assert_eq!(all, f(a, b).is_some(), "{op:?} {d} {a:#x} {b:#x}");
                        if all {
                            assert_eq!(Ok(out[0]), binary(op, d, a, b), "{op:?} {d}");
                        }
                    }
                }
                // whole operands, amounts broadcast: all in range gives
                // every lane; one out of range gives false
                for &amount in &[0u64, 1, 7, d.bits() as u64 - 1, d.bits() as u64] {
                    out.clear();
                    let all = fast_binary_partial_slices(op, d, &lanes, &[amount], &mut out);
                    assert_eq!(all, amount < d.bits() as u64, "{op:?} {d} by {amount}");
                    for (i, &x) in lanes.iter().enumerate().filter(|_| all) {
                        assert_eq!(Ok(out[i]), binary(op, d, x, amount), "{op:?} {d}");
                    }
                }
            }
        }
        assert_eq!(covered, 8 * 3);
    }

    #[test]
    fn unary_and_minmax_fast_paths_agree_with_the_general_rule() {
        // every float32 edge sample, plus values where exp overflows,
        // underflows to a subnormal or zero, and NaN payloads of both signs
        let mut lanes: Vec<u64> = edge_samples().iter().map(|&a| a & 0xffff_ffff).collect();
        lanes.extend(
            [88.72f32, 88.73, -87.3, -103.0, -104.0, -150.0, 1e-30, -0.5]
                .iter()
                .map(|v| v.to_bits() as u64),
        );
        lanes.extend([0x7fc0_0001u64, 0xffc0_0123, 0x7f80_0001, 0xff80_0001]);
        let d = DType::F32;
        let ops = [UnOp::Math(MathFn::Exp), UnOp::Neg, UnOp::Math(MathFn::Abs)];
        for op in ops {
            let mut out = Vec::new();
            assert!(fast_unary_slices(op, d, &lanes, &mut out), "{op:?}");
            for (&a, &v) in lanes.iter().zip(&out) {
                assert_eq!(v, unary(op, d, a), "{op:?} {a:#x}");
            }
        }
        let mut out = Vec::new();
        let other = UnOp::Math(MathFn::Log);
        assert!(!fast_unary_slices(other, d, &lanes, &mut out) && out.is_empty());
        assert!(!fast_unary_slices(UnOp::Neg, DType::F64, &lanes, &mut out));
        for mode in [NanMode::Propagate, NanMode::Ignore] {
            for &a in &lanes {
                for &b in &lanes {
                    for max in [true, false] {
                        let op = if max {
                            BinOp::Max(mode)
                        } else {
                            BinOp::Min(mode)
                        };
                        let want = binary(op, d, a, b);
                        assert_eq!(
                            Ok(minmax_f32(a, b, max, mode)),
                            want,
                            "{op:?} {a:#x} {b:#x}"
                        );
                    }
                }
            }
        }
    }

    fn edge_samples() -> Vec<u64> {
        [
            0.0f32,
            -0.0,
            1.0,
            -1.5,
            3.4e38,
            f32::MIN_POSITIVE,
            1e-45,
            f32::INFINITY,
            f32::NAN,
            -f32::NAN,
            0.1,
        ]
        .iter()
        .map(|v| v.to_bits() as u64)
        .chain([0u64, 1, 2, 7, 8, 15, 16, 31, 32, 63, 64, 0x7f, 0x80, 0xff])
        .chain([
            0x7fff,
            0x8000,
            0xffff,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            12345,
        ])
        .chain([1 << 63, u64::MAX, i64::MAX as u64, 0x1234_5678_9abc_def0])
        .collect()
    }

    fn edge_ops() -> Vec<BinOp> {
        vec![
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::FDiv,
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
            BinOp::Eq,
            BinOp::Ne,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::LogicalAnd,
            BinOp::Min(NanMode::Propagate),
            BinOp::Min(NanMode::Ignore),
            BinOp::Max(NanMode::Propagate),
            BinOp::Max(NanMode::Ignore),
            BinOp::Shl(ShiftRange::Ub),
            BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
            BinOp::Shr(ShrKind::Arith, ShiftRange::Ub),
        ]
    }

    /// Every integer dtype and bool, and float32 (the float fast paths).
    fn edge_dtypes() -> Vec<DType> {
        DType::ALL
            .into_iter()
            .filter(|d| !d.is_float() || *d == DType::F32)
            .collect()
    }

    #[test]
    fn integer_ub() {
        let d = DType::I32;
        assert_eq!(
            binary(BinOp::IDiv(IntDiv::TRUNC), d, 5, 0),
            Err(UbKind::DivisionByZero)
        );
        assert_eq!(
            binary(BinOp::IRem(IntDiv::TRUNC), d, 5, 0),
            Err(UbKind::RemainderByZero)
        );
        assert_eq!(
            binary(BinOp::IDiv(IntDiv::TRUNC), d, 0x8000_0000, 0xffff_ffff),
            Err(UbKind::DivisionOverflow)
        );
        // unsigned: 0x80000000 / 0xffffffff is just 0
        assert_eq!(
            binary(
                BinOp::IDiv(IntDiv::TRUNC),
                DType::U32,
                0x8000_0000,
                0xffff_ffff
            ),
            Ok(0)
        );
        assert_eq!(
            binary(BinOp::Shl(ShiftRange::Ub), d, 1, 32),
            Err(UbKind::ShiftOutOfRange)
        );
        assert_eq!(
            binary(BinOp::Shl(ShiftRange::Ub), d, 1, 0xffff_ffff),
            Err(UbKind::ShiftOutOfRange)
        );
        assert_eq!(
            binary(BinOp::Shl(ShiftRange::Ub), d, 1, 31),
            Ok(0x8000_0000)
        );
    }

    #[test]
    fn shifts_by_signedness() {
        // -8 >> 1 arithmetic = -4 (0xfffffffc); logical on the same bits = 0x7ffffffc
        assert_eq!(
            binary(
                BinOp::Shr(ShrKind::Arith, ShiftRange::Ub),
                DType::I32,
                0xffff_fff8,
                1
            ),
            Ok(0xffff_fffc)
        );
        assert_eq!(
            binary(
                BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
                DType::U32,
                0xffff_fff8,
                1
            ),
            Ok(0x7fff_fffc)
        );
    }

    #[test]
    fn fma_rounds_once() {
        // a = 1 + 2^-23, b = 1 - 2^-23: a*b = 1 - 2^-46 exactly; c = -1.
        // fma = -2^-46 exactly; a*b rounded first gives 1.0 and then 0.
        let a = (1.0f32 + f32::EPSILON).to_bits() as u64;
        let b = (1.0f32 - f32::EPSILON).to_bits() as u64;
        let c = (-1.0f32).to_bits() as u64;
        assert_eq!(
            fma(DType::F32, a, b, c),
            (-(2f32.powi(-46))).to_bits() as u64
        );
        let prod = binary(BinOp::Mul, DType::F32, a, b).unwrap();
        assert_eq!(binary(BinOp::Add, DType::F32, prod, c), Ok(0));
    }

    #[test]
    fn float_to_int_ub_and_truncation() {
        let f = |v: f32| v.to_bits() as u64;
        let cv = CastKind::Convert(Rounding::NearestEven, Overflow::Infinity);
        assert_eq!(cast(cv, DType::F32, DType::I32, f(-2.7)), Ok(0xffff_fffe));
        assert_eq!(
            cast(cv, DType::F32, DType::I32, f(f32::NAN)),
            Err(UbKind::FloatToIntOutOfRange)
        );
        assert_eq!(
            cast(cv, DType::F32, DType::I32, f(3e9)),
            Err(UbKind::FloatToIntOutOfRange)
        );
        assert_eq!(cast(cv, DType::F32, DType::U8, f(255.9)), Ok(255));
        assert_eq!(cast(cv, DType::F32, DType::U8, f(-0.9)), Ok(0));
        assert_eq!(
            cast(cv, DType::F32, DType::U8, f(-1.0)),
            Err(UbKind::FloatToIntOutOfRange)
        );
    }

    #[test]
    fn min_max_nan_and_zero() {
        let d = DType::F32;
        let nan = f32::NAN.to_bits() as u64;
        let one = 1.0f32.to_bits() as u64;
        assert_eq!(binary(BinOp::Max(NanMode::Ignore), d, nan, one), Ok(one));
        assert_eq!(
            binary(BinOp::Max(NanMode::Propagate), d, nan, one),
            Ok(0x7fff_ffff)
        );
        let nz = (-0.0f32).to_bits() as u64;
        assert_eq!(binary(BinOp::Max(NanMode::Ignore), d, nz, 0), Ok(0));
        assert_eq!(binary(BinOp::Min(NanMode::Ignore), d, 0, nz), Ok(nz));
    }

    #[test]
    fn erf_reference_points() {
        // erf(0.5) = 0.5204998778130465, erf(3) = 0.9999779095030014 (A&S tables);
        // erf(±0) = ±0 and tiny arguments terminate (2x/sqrt(pi)).
        let e = |x: f64| f64::from_bits(unary(UnOp::Math(MathFn::Erf), DType::F64, x.to_bits()));
        assert!((e(0.5) - 0.5204998778130465).abs() < 2e-16);
        assert!((e(3.0) - 0.9999779095030014).abs() < 2e-16);
        assert_eq!(e(-0.5), -e(0.5));
        assert_eq!(e(0.0).to_bits(), 0);
        assert_eq!(e(-0.0).to_bits(), (-0.0f64).to_bits());
        assert!(e(1e-310) > 0.0);
    }

    #[test]
    fn inverse_hyperbolics_hold_at_the_extremes() {
        let f = |m: MathFn, x: f64| f64::from_bits(unary(UnOp::Math(m), DType::F64, x.to_bits()));
        // asinh(1e300) = ln(2e300) = ln 2 + 300 ln 10 = 691.4686..., not an overflow
        assert!((f(MathFn::Asinh, 1e300) - 691.4686750787736).abs() < 1e-9);
        assert!((f(MathFn::Asinh, -1e300) + 691.4686750787736).abs() < 1e-9);
        // acosh is defined from 1 (acosh(1) = 0); below it NaN, as in C
        assert_eq!(f(MathFn::Acosh, 1.0), 0.0);
        assert!(f(MathFn::Acosh, 0.5).is_nan() && f(MathFn::Acosh, -3.0).is_nan());
        // atanh(±1) = ±inf
        assert_eq!(f(MathFn::Atanh, 1.0), f64::INFINITY);
    }
}
