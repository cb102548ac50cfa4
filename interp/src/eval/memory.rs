//! Launch memory: the global buffers every block shares, pointers into
//! them, and the access log that race detection reads.

use crate::dtype::DType;
use crate::ir::{Kernel, ParamKind, VarId};
use crate::launch::{ArgSpec, BufferResult, Launch};
use crate::span::Span;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::OnceLock;

/// One global buffer of the launch.
pub struct Buffer {
    pub name: String,
    pub dtype: DType,
    pub cells: Vec<AtomicU64>,
    /// Per element: whether its value is inexact; allocated by the first
    /// inexact value stored (until then every element is exact).
    inexact: LazyCells<AtomicBool>,
    /// Per element: the last atomic operation applied (0: none, else 1 +
    /// its index in `AtomicOp::ALL`), to tell when different operations
    /// meet on one element; allocated by the first atomic.
    last_atomic: LazyCells<AtomicU8>,
    /// Per element: how its plain stores went ([`Buffer::store`]): 0 none,
    /// 1 one, 2 more, each after the first storing the bits already there,
    /// 3 a store after the first changed them. A race between stores of
    /// identical bits is told apart from one between different bits by it.
    writes: LazyCells<AtomicU8>,
    /// Per element: whether its value is undefined (a buffer the launch
    /// left uninitialised, `"init": "none"`, until a store writes it);
    /// allocated only for such buffers.
    undefined: LazyCells<AtomicBool>,
}

/// One cell per element of a buffer, all of them the default (false, 0)
/// until the first write of another value allocates them: most kernels
/// store no inexact value and run no atomic.
struct LazyCells<T> {
    len: usize,
    cells: OnceLock<Vec<T>>,
}

impl<T: Default> LazyCells<T> {
    fn new(len: usize) -> Self {
        LazyCells {
            len,
            cells: OnceLock::new(),
        }
    }
    /// The cells, if any was written.
    #[inline]
    fn get(&self) -> Option<&[T]> {
        self.cells.get().map(|v| v.as_slice())
    }
    /// Cells holding `init` from the start.
    fn holding(init: Vec<T>) -> Self {
        LazyCells {
            len: init.len(),
            cells: OnceLock::from(init),
        }
    }
    /// The cells, allocated now if need be.
    fn force(&self) -> &[T] {
        self.cells
            .get_or_init(|| (0..self.len).map(|_| T::default()).collect())
    }
    /// Every cell back to the default, keeping an allocation made (every
    /// reader takes absent cells as all default, so the state is the one
    /// [`LazyCells::new`] gives).
    fn clear(&mut self) {
        if let Some(v) = self.cells.get_mut() {
            v.iter_mut().for_each(|c| *c = T::default());
        }
    }
}

/// Records in `w`, an element's store state (`Buffer::writes`), a plain
/// store of `bits` over `old`: the one rule both [`Buffer::store`] and
/// [`Buffer::store_run`] follow.
#[inline]
fn record_store(w: &AtomicU8, old: u64, bits: u64) {
    let state = w.load(Ordering::Relaxed);
    let next = match state {
        0 => 1,
        3 => 3,
        _ if old == bits => 2,
        _ => 3,
    };
    if next != state {
        w.store(next, Ordering::Relaxed);
    }
}

impl Buffer {
    /// A buffer holding `bits`, written by nothing yet (on the rayon pool
    /// when `parallel`); the elements `undefined` marks hold no defined value.
    fn new(
        name: &str,
        dtype: DType,
        bits: &[u64],
        undefined: Option<&[bool]>,
        parallel: bool,
    ) -> Buffer {
        let n = bits.len();
        Buffer {
            name: name.to_string(),
            dtype,
            cells: collect(parallel, n, |i| AtomicU64::new(bits[i])),
            inexact: LazyCells::new(n),
            last_atomic: LazyCells::new(n),
            writes: LazyCells::new(n),
            undefined: match undefined {
                Some(u) => LazyCells::holding(u.iter().map(|&x| AtomicBool::new(x)).collect()),
                None => LazyCells::new(n),
            },
        }
    }

    /// Whether element `i` holds an undefined value (never written in a
    /// buffer the launch left uninitialised).
    #[inline]
    pub fn undefined(&self, i: usize) -> bool {
        self.undefined
            .get()
            .is_some_and(|u| u[i].load(Ordering::Relaxed))
    }

    /// Marks element `i` as holding an undefined value (a store of an
    /// unchanged copy of uninitialised memory).
    pub fn set_undefined(&self, i: usize) {
        self.undefined.force()[i].store(true, Ordering::Relaxed);
    }

    /// Marks element `i` written with a defined value.
    #[inline]
    pub fn set_defined(&self, i: usize) {
        if let Some(u) = self.undefined.get() {
            u[i].store(false, Ordering::Relaxed);
        }
    }

    /// A plain (not atomic) store of `bits` to element `i`.
    #[inline]
    pub fn store(&self, i: usize, bits: u64) {
        let old = self.cells[i].swap(bits, Ordering::Relaxed);
        record_store(&self.writes.force()[i], old, bits);
    }

    /// Plain stores of `vals` to the elements from `off` on, in order, as
    /// [`Buffer::store`], [`Buffer::set_inexact`] (lane `j` inexact where
    /// `inexact(j)`) and [`Buffer::set_defined`] lane by lane do.
    ///
    /// `exclusive`: no other thread touches the buffer meanwhile (the
    /// blocks run one after another), so reading the old bits and writing
    /// the new ones is the swap itself, without its locked instruction.
    pub fn store_run<T: Copy + Into<u64>>(
        &self,
        off: usize,
        vals: &[T],
        inexact: impl Fn(usize) -> bool,
        exclusive: bool,
    ) {
        let n = vals.len();
        let cells = &self.cells[off..off + n];
        let writes = &self.writes.force()[off..off + n];
        for ((c, w), &bits) in cells.iter().zip(writes).zip(vals) {
            let bits: u64 = bits.into();
            let old = if exclusive {
                let old = c.load(Ordering::Relaxed);
                c.store(bits, Ordering::Relaxed);
                old
            } else {
                c.swap(bits, Ordering::Relaxed)
            };
            record_store(w, old, bits);
        }
        match self.inexact.get() {
            Some(f) => {
                let f = &f[off..off + n];
                for (j, x) in f.iter().enumerate() {
                    x.store(inexact(j), Ordering::Relaxed);
                }
            }
            // (no flags yet: an exact lane has nothing to clear)
            None => (0..n)
                .filter(|&j| inexact(j))
                .for_each(|j| self.set_inexact(off + j, true)),
        }
        if let Some(u) = self.undefined.get() {
            u[off..off + n]
                .iter()
                .for_each(|x| x.store(false, Ordering::Relaxed));
        }
    }

    /// Whether some element may hold an undefined value.
    #[inline]
    pub fn has_undefined(&self) -> bool {
        self.undefined.get().is_some()
    }

    /// Whether some element may hold an inexact value.
    #[inline]
    pub fn has_inexact(&self) -> bool {
        self.inexact.get().is_some()
    }

    /// Whether every plain store to element `i` after the first stored the
    /// bits already there (so all of them stored the same bits).
    pub fn stores_identical(&self, i: usize) -> bool {
        self.writes
            .get()
            .is_none_or(|w| w[i].load(Ordering::Relaxed) != 3)
    }

    /// Whether element `i`'s value is inexact.
    #[inline]
    pub fn inexact(&self, i: usize) -> bool {
        self.inexact
            .get()
            .is_some_and(|f| f[i].load(Ordering::Relaxed))
    }

    /// Marks element `i`'s value inexact or exact.
    #[inline]
    pub fn set_inexact(&self, i: usize, inexact: bool) {
        match self.inexact.get() {
            Some(f) => f[i].store(inexact, Ordering::Relaxed),
            None if inexact => self.inexact.force()[i].store(true, Ordering::Relaxed),
            None => {}
        }
    }

    /// Records atomic `id` (`contention::last_atomic_id`) as the last on
    /// element `i`; the one before (0: none).
    pub fn swap_last_atomic(&self, i: usize, id: u8) -> u8 {
        self.last_atomic.force()[i].swap(id, Ordering::Relaxed)
    }

    /// Puts the buffer back into the state [`Buffer::new`] gives for
    /// `bits` (`None`: zeros) and `undefined`, in place.
    fn reset(&mut self, bits: Option<&[u64]>, undefined: Option<&[bool]>) {
        match bits {
            Some(bits) => {
                for (c, &b) in self.cells.iter_mut().zip(bits) {
                    *c.get_mut() = b;
                }
            }
            None => self.cells.iter_mut().for_each(|c| *c.get_mut() = 0),
        }
        self.inexact.clear();
        self.last_atomic.clear();
        self.writes.clear();
        match undefined {
            Some(u) => match self.undefined.cells.get_mut() {
                Some(cells) => {
                    for (c, &x) in cells.iter_mut().zip(u) {
                        *c.get_mut() = x;
                    }
                }
                None => {
                    self.undefined =
                        LazyCells::holding(u.iter().map(|&x| AtomicBool::new(x)).collect())
                }
            },
            None => self.undefined.clear(),
        }
    }

    /// The buffer's contents now, copied.
    pub fn result(&self) -> BufferResult {
        let n = self.cells.len();
        let flags = |c: Option<&[AtomicBool]>, absent: Vec<bool>| match c {
            Some(f) => f.iter().map(|x| x.load(Ordering::Relaxed)).collect(),
            None => absent,
        };
        BufferResult {
            name: self.name.clone(),
            dtype: self.dtype,
            bits: self
                .cells
                .iter()
                .map(|c| c.load(Ordering::Relaxed))
                .collect(),
            inexact: flags(self.inexact.get(), vec![false; n]),
            undefined: flags(self.undefined.get(), Vec::new()),
        }
    }

    /// The buffer's final contents; the cells become the result's bits
    /// in place (no copy, no fresh memory).
    pub fn into_result(self) -> BufferResult {
        let n = self.cells.len();
        let inexact = match self.inexact.cells.into_inner() {
            Some(f) => f.into_iter().map(AtomicBool::into_inner).collect(),
            None => vec![false; n],
        };
        let undefined = match self.undefined.cells.into_inner() {
            Some(u) => u.into_iter().map(AtomicBool::into_inner).collect(),
            None => Vec::new(),
        };
        BufferResult {
            name: self.name,
            dtype: self.dtype,
            bits: self.cells.into_iter().map(AtomicU64::into_inner).collect(),
            inexact,
            undefined,
        }
    }
}

/// `(0..n).map(f)` as a vector, computed on the rayon pool when `parallel`.
fn collect<T: Send>(parallel: bool, n: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    if parallel {
        (0..n).into_par_iter().map(f).collect()
    } else {
        (0..n).map(f).collect()
    }
}

/// The launch's global memory plus the initial value of every parameter variable.
pub struct Global {
    pub bufs: Vec<Buffer>,
    /// (parameter variable, its bits: a pointer to its buffer or a scalar).
    pub params: Vec<(VarId, u64)>,
}

/// Where one buffer of the launch starts from: its name, element type,
/// initial bits (`None`: `len` zeros, an output the kernel makes) and the
/// elements the launch left undefined.
struct BufferInit<'l> {
    name: &'l str,
    dtype: DType,
    bits: Option<&'l [u64]>,
    len: usize,
    undefined: Option<&'l [bool]>,
}

impl Global {
    /// Allocates the launch's buffers for `kernel`'s parameters (on the
    /// rayon pool when `parallel`).
    pub fn new(kernel: &Kernel, launch: &Launch, parallel: bool) -> Global {
        let (inits, params) = initial_state(kernel, launch);
        let bufs = inits
            .iter()
            .map(|b| {
                let zeros;
                let bits = match b.bits {
                    Some(bits) => bits,
                    None => {
                        zeros = vec![0; b.len];
                        &zeros
                    }
                };
                Buffer::new(b.name, b.dtype, bits, b.undefined, parallel)
            })
            .collect();
        Global { bufs, params }
    }

    /// Puts every buffer back into the state [`Global::new`] gives for the
    /// same kernel and launch, in place (no allocation: the memory stays
    /// warm, as a real launch's tensors do between launches).
    pub fn reset(&mut self, kernel: &Kernel, launch: &Launch) {
        let (inits, _) = initial_state(kernel, launch);
        for (buf, init) in self.bufs.iter_mut().zip(&inits) {
            buf.reset(init.bits, init.undefined);
        }
    }

    /// Every buffer's final contents.
    pub fn into_results(self) -> Vec<BufferResult> {
        self.bufs.into_iter().map(Buffer::into_result).collect()
    }

    /// Every buffer's contents now, copied.
    pub fn results(&self) -> Vec<BufferResult> {
        self.bufs.iter().map(Buffer::result).collect()
    }
}

/// The launch's buffers for `kernel`'s parameters, in the order
/// [`Global::new`] allocates them, and each parameter variable's initial
/// bits (a pointer to its buffer, or a scalar).
fn initial_state<'l>(
    kernel: &'l Kernel,
    launch: &'l Launch,
) -> (Vec<BufferInit<'l>>, Vec<(VarId, u64)>) {
    let mut bufs: Vec<BufferInit<'l>> = Vec::new();
    let mut params = Vec::new();
    let mut views = Vec::new();
    let from_launch = |name: &'l str, spec: &'l ArgSpec| match spec {
        ArgSpec::Buffer {
            dtype,
            bits,
            undefined,
            ..
        } => Some(BufferInit {
            name,
            dtype: *dtype,
            bits: Some(bits),
            len: bits.len(),
            undefined: undefined.as_deref(),
        }),
        _ => None,
    };
    for p in &kernel.params {
        match (launch.arg(&p.name), p.var) {
            (
                Some(ArgSpec::Buffer {
                    view: Some(view), ..
                }),
                Some(v),
            ) => views.push((v, view)),
            (Some(spec @ ArgSpec::Buffer { .. }), Some(v)) => {
                params.push((v, make_ptr(bufs.len(), 0)));
                bufs.extend(from_launch(&p.name, spec));
            }
            (Some(ArgSpec::Scalar { bits, .. }), Some(v)) => params.push((v, *bits)),
            (None, Some(v)) => {
                // an output the kernel makes, not passed by the launch
                let (ParamKind::Pointer(dtype), Some(&(_, n))) = (
                    &p.kind,
                    kernel.fresh.iter().find(|(name, _)| *name == p.name),
                ) else {
                    continue;
                };
                params.push((v, make_ptr(bufs.len(), 0)));
                bufs.push(BufferInit {
                    name: &p.name,
                    dtype: *dtype,
                    bits: None,
                    len: n,
                    undefined: None,
                });
            }
            _ => {}
        }
    }
    // a view points into its base's memory; a base the kernel does not
    // take as a parameter is allocated all the same (the launch parsed
    // it as a buffer argument)
    for (v, view) in views {
        let at = match bufs.iter().position(|b| b.name == view.of) {
            Some(i) => i,
            None => {
                let Some(init) = launch.arg(&view.of).and_then(|a| from_launch(&view.of, a)) else {
                    continue; // the launch parser checked the base
                };
                bufs.push(init);
                bufs.len() - 1
            }
        };
        params.push((v, make_ptr(at, view.offset as i64)));
    }
    (bufs, params)
}

/// Bits of a pointer that hold the element offset; the rest name the buffer.
pub const PTR_OFFSET_BITS: u32 = 48;

/// The buffer index and element offset of a pointer.
#[inline]
pub fn ptr_parts(p: u64) -> (usize, i64) {
    let buf = (p >> PTR_OFFSET_BITS) as usize;
    let off = ((p << (64 - PTR_OFFSET_BITS)) as i64) >> (64 - PTR_OFFSET_BITS);
    (buf, off)
}

/// A pointer to element `off` of buffer `buf`.
#[inline]
pub fn make_ptr(buf: usize, off: i64) -> u64 {
    ((buf as u64) << PTR_OFFSET_BITS) | ((off as u64) & ((1u64 << PTR_OFFSET_BITS) - 1))
}

/// `p` moved by `delta` elements (offsets saturate far outside any buffer).
pub fn ptr_add(p: u64, delta: i128) -> u64 {
    // in i64: a sum past i64's range saturates, and is clamped just the same
    ptr_add_i64(p, delta.clamp(i64::MIN as i128, i64::MAX as i128) as i64)
}

/// [`ptr_add`] of an offset that fits in i64.
#[inline]
pub fn ptr_add_i64(p: u64, delta: i64) -> u64 {
    let (buf, off) = ptr_parts(p);
    let no = off.saturating_add(delta).clamp(-(1i64 << 46), 1i64 << 46);
    make_ptr(buf, no)
}

/// `p`, a pointer to `d` numbers, moved by `bytes` bytes (`PtrAddBytes`);
/// `None` where the bytes are not a whole number of elements (UB: memory
/// holds typed numbers, so no pointer addresses the middle of one).
pub fn ptr_add_bytes(p: u64, bytes: i128, d: DType) -> Option<u64> {
    let size = i128::from(d.bits().div_ceil(8));
    (bytes % size == 0).then(|| ptr_add(p, bytes / size))
}

/// The multi-dimensional index of flat element `i` of `shape` (row-major).
pub fn unravel(shape: &[usize], mut i: usize) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        let n = shape[d].max(1);
        idx[d] = i % n;
        i /= n;
    }
    idx
}

/// A recorded range of global memory accesses by one block, for race detection.
#[derive(Clone, Debug)]
pub struct Access {
    pub buf: u32,
    pub start: u64,
    pub len: u64,
    pub write: bool,
    /// Atomic accesses do not race with each other.
    pub atomic: bool,
    pub span: Span,
    /// The (first) thread that made the access (SIMT programs).
    pub thread: Option<u32>,
    /// The lock the program held while accessing (0: none; else
    /// [`lock_key`] of the lock's element): accesses under one lock do
    /// not race (tile programs; `tile::Instance::held`).
    pub lock: u64,
}

/// The key of global element `idx` of buffer `buf` as a lock (never 0).
pub fn lock_key(buf: usize, idx: usize) -> u64 {
    ((buf as u64 + 1) << PTR_OFFSET_BITS) | idx as u64
}

/// Accumulates consecutive element accesses into ranges.
#[derive(Default)]
pub struct Runs {
    cur: Option<Access>,
}

impl Runs {
    /// Records one access of element `idx` of buffer `buf`.
    pub fn push(&mut self, log: &mut Vec<Access>, a: Access) {
        if let Some(c) = &mut self.cur {
            if c.buf == a.buf
                && c.start + c.len == a.start
                && c.write == a.write
                && c.atomic == a.atomic
                && c.span == a.span
                && c.lock == a.lock
            {
                c.len += a.len;
                return;
            }
        }
        self.flush(log);
        self.cur = Some(a);
    }
    /// Ends the current range.
    pub fn flush(&mut self, log: &mut Vec<Access>) {
        if let Some(c) = self.cur.take() {
            log.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inexact_flags_and_atomic_tags_start_clear_and_read_back() {
        let b = Buffer::new("x", DType::F32, &[1, 2, 3], None, false);
        // storing exact values allocates nothing; every element reads exact
        b.set_inexact(1, false);
        assert!(b.inexact.get().is_none());
        assert!((0..3).all(|i| !b.inexact(i)));
        // the first inexact value allocates the flags; exact again clears
        b.set_inexact(2, true);
        b.set_inexact(0, true);
        b.set_inexact(0, false);
        assert_eq!(
            (0..3).map(|i| b.inexact(i)).collect::<Vec<_>>(),
            [false, false, true]
        );
        assert!(b.last_atomic.get().is_none());
        assert_eq!(b.swap_last_atomic(1, 4), 0);
        assert_eq!(b.swap_last_atomic(1, 2), 4);
        assert_eq!(b.swap_last_atomic(0, 2), 0);
        b.cells[1].store(9, Ordering::Relaxed);
        let r = b.into_result();
        assert_eq!(r.bits, [1, 9, 3]);
        assert_eq!(r.inexact, [false, false, true]);
        let r = Buffer::new("y", DType::I32, &[5, 6], None, true).into_result();
        assert_eq!((r.bits, r.inexact), (vec![5, 6], vec![false, false]));
    }

    #[test]
    fn ptr_add_is_the_exact_sum_clamped() {
        let offs = [
            0i64,
            5,
            -7,
            (1 << 46) - 1,
            -(1 << 46),
            (1 << 47) - 1,
            -(1 << 47),
        ];
        let deltas = [
            0i128,
            1,
            -1,
            i32::MIN as i128,
            i32::MAX as i128,
            1 << 46,
            -(1 << 46) - 3,
            i64::MAX as i128,
            i64::MIN as i128,
            i64::MAX as i128 + 9,
            i64::MIN as i128 - 9,
            i128::MAX / 3,
            i128::MIN / 3,
        ];
        for buf in [0, 3] {
            for &off in &offs {
                for &delta in &deltas {
                    // the rule in exact arithmetic: offsets saturate at ±2^46
                    let exact = (off as i128 + delta).clamp(-(1 << 46), 1 << 46) as i64;
                    let p = make_ptr(buf, off);
                    assert_eq!(ptr_add(p, delta), make_ptr(buf, exact), "{off} + {delta}");
                }
            }
        }
    }
}
