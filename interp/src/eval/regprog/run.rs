//! The register program's runner: one program instance over slots and
//! register files that are allocated once per thread and reused by every
//! instance it runs.

use super::inst::*;
use super::lanes::{map1, map2, map2_try, Lane, Op};
use crate::dtype::DType;
use crate::eval::memory::{ptr_add, ptr_add_bytes, ptr_add_i64, ptr_parts, Access, Buffer};
use crate::eval::tile::{tree_reduce, tree_values, value_op};
use crate::ir::{BinOp, MathFn, UnOp};
use crate::ops;
use crate::span::Span;
use std::sync::atomic::{AtomicU64, Ordering};

/// The instance gives up: the tree evaluator runs it instead. Nothing it
/// did is visible (it gives up only before its first store).
#[derive(Debug)]
pub struct Bail;

type R<T = ()> = Result<T, Bail>;

/// What an instance runs against: the launch's buffers, the parameters'
/// bits per slot, the grid.
pub struct Ctx<'a> {
    /// The launch's global buffers.
    pub bufs: &'a [Buffer],
    /// (slot, bits) of every parameter the program reads.
    pub params: Vec<(Slot, u64)>,
    /// The launch's grid.
    pub grid: [u32; 3],
    /// Whether the instances run one after another on one thread.
    pub sequential: bool,
}

/// A thread's slots and registers, reused from one instance to the next.
#[derive(Default)]
pub struct State {
    slots: Vec<u64>,
    slot_ix: Vec<bool>,
    r32: Vec<Vec<u32>>,
    ix32: Vec<bool>,
    r64: Vec<Vec<u64>>,
    ix64: Vec<bool>,
    /// A row widened to 64-bit lanes (reductions the 32-bit path lacks).
    wide: Vec<u64>,
    /// Each store's (buffer, first element, active lanes), checked before
    /// any is made.
    targets: Vec<(usize, usize, usize)>,
}

/// A register file of one lane width.
trait File: Lane {
    fn file(st: &State) -> &Vec<Vec<Self>>;
    fn file_mut(st: &mut State) -> &mut Vec<Vec<Self>>;
    fn index(r: Reg) -> R<usize>;
}

impl File for u32 {
    fn file(st: &State) -> &Vec<Vec<u32>> {
        &st.r32
    }
    fn file_mut(st: &mut State) -> &mut Vec<Vec<u32>> {
        &mut st.r32
    }
    fn index(r: Reg) -> R<usize> {
        match r {
            Reg::W32(i) => Ok(i),
            Reg::W64(_) => Err(Bail),
        }
    }
}

impl File for u64 {
    fn file(st: &State) -> &Vec<Vec<u64>> {
        &st.r64
    }
    fn file_mut(st: &mut State) -> &mut Vec<Vec<u64>> {
        &mut st.r64
    }
    fn index(r: Reg) -> R<usize> {
        match r {
            Reg::W64(i) => Ok(i),
            Reg::W32(_) => Err(Bail),
        }
    }
}

/// Calls `$f::<T, U>` for the lane types of an input width (`$wa`: 64-bit)
/// and an output register.
macro_rules! widths {
    ($wa:expr, $dst:expr, $f:ident ( $($arg:expr),* )) => {
        match ($wa, $dst) {
            (false, Reg::W32(_)) => $f::<u32, u32>($($arg),*),
            (false, Reg::W64(_)) => $f::<u32, u64>($($arg),*),
            (true, Reg::W32(_)) => $f::<u64, u32>($($arg),*),
            (true, Reg::W64(_)) => $f::<u64, u64>($($arg),*),
        }
    };
}

impl State {
    /// Sizes the slots and register files for `p` (once per thread and
    /// program: later instances find them sized).
    fn fit(&mut self, p: &Program) {
        if self.slots.len() != p.slots {
            self.slots = vec![0; p.slots];
            self.slot_ix = vec![false; p.slots];
        }
        if self.r32.len() != p.regs32.len() {
            self.r32 = p.regs32.iter().map(|&n| Vec::with_capacity(n)).collect();
            self.ix32 = vec![false; p.regs32.len()];
        }
        if self.r64.len() != p.regs64.len() {
            self.r64 = p.regs64.iter().map(|&n| Vec::with_capacity(n)).collect();
            self.ix64 = vec![false; p.regs64.len()];
        }
    }

    fn reg_ix(&self, r: Reg) -> bool {
        match r {
            Reg::W32(i) => self.ix32[i],
            Reg::W64(i) => self.ix64[i],
        }
    }

    fn set_reg_ix(&mut self, r: Reg, ix: bool) {
        match r {
            Reg::W32(i) => self.ix32[i] = ix,
            Reg::W64(i) => self.ix64[i] = ix,
        }
    }

    /// Operand `s` as lanes of type `T`, and its inexact flag.
    fn op<T: File>(&self, s: Src) -> R<(Op<'_, T>, bool)> {
        Ok(match s {
            Src::Splat(x) => (Op::Splat(T::from64(self.slots[x])), self.slot_ix[x]),
            Src::Affine(b) => (Op::Affine(self.slots[b] as u32), self.slot_ix[b]),
            Src::Lanes(r) => (Op::Lanes(&T::file(self)[T::index(r)?]), self.reg_ix(r)),
        })
    }

    /// Register `r`'s lanes, taken out of its file to be written.
    fn take<U: File>(&mut self, r: Reg) -> R<Vec<U>> {
        Ok(std::mem::take(&mut U::file_mut(self)[U::index(r)?]))
    }

    /// Puts register `r`'s lanes back with their inexact flag.
    fn put<U: File>(&mut self, r: Reg, v: Vec<U>, ix: bool) -> R {
        U::file_mut(self)[U::index(r)?] = v;
        self.set_reg_ix(r, ix);
        Ok(())
    }

    fn set(&mut self, s: Slot, bits: u64, ix: bool) {
        self.slots[s] = bits;
        self.slot_ix[s] = ix;
    }
}

/// Runs one program instance `pid`; its accesses in program order, or
/// [`Bail`] before any store where it leaves the covered cases.
pub fn run(p: &Program, st: &mut State, cx: &Ctx, pid: [u32; 3]) -> R<Vec<Access>> {
    st.fit(p);
    for &(s, bits) in &cx.params {
        st.set(s, bits, false);
    }
    let mut log = Vec::with_capacity(p.accesses);
    for i in &p.insts {
        exec(i, st, cx, pid, &mut log)?;
    }
    st.targets.clear();
    for s in &p.stores {
        let Inst::Store { ptr, mask, n, .. } = s else {
            return Err(Bail);
        };
        let k = active_prefix(st, *mask, *n)?;
        if k == 0 {
            st.targets.push((usize::MAX, 0, 0));
            continue;
        }
        let (b, off) = contiguous(st, cx, *ptr, k)?;
        if cx.bufs[b].has_undefined() {
            return Err(Bail);
        }
        st.targets.push((b, off, k));
    }
    // every store checked: none gives up from here on
    for (s, &(b, off, k)) in p.stores.iter().zip(&st.targets) {
        let Inst::Store { value, span, .. } = s else {
            continue;
        };
        if k == 0 {
            continue; // no lane active: nothing stored, nothing logged
        }
        let buf = &cx.bufs[b];
        match *value {
            Src::Lanes(Reg::W32(r)) => {
                let ix = st.ix32[r];
                buf.store_run(off, &st.r32[r][..k], |_| ix, cx.sequential)
            }
            Src::Lanes(Reg::W64(r)) => {
                let ix = st.ix64[r];
                buf.store_run(off, &st.r64[r][..k], |_| ix, cx.sequential)
            }
            Src::Splat(x) | Src::Affine(x) => {
                let ix = st.slot_ix[x];
                buf.store_run(off, &[st.slots[x]], |_| ix, cx.sequential)
            }
        }
        log.push(access(b, off, k, true, *span));
    }
    Ok(log)
}

/// A plain access range of one instance (no lock: the register program
/// has no atomics).
fn access(b: usize, off: usize, n: usize, write: bool, span: Span) -> Access {
    Access {
        buf: b as u32,
        start: off as u64,
        len: n as u64,
        write,
        atomic: false,
        span,
        thread: None,
        lock: 0,
    }
}

/// Runs one instruction (not a store).
fn exec(i: &Inst, st: &mut State, cx: &Ctx, pid: [u32; 3], log: &mut Vec<Access>) -> R {
    match *i {
        Inst::Const { dst, bits } => st.set(dst, bits, false),
        Inst::BlockId { dst, axis } => st.set(dst, pid[axis as usize] as u64, false),
        Inst::GridDim { dst, axis } => st.set(dst, cx.grid[axis as usize] as u64, false),
        Inst::ScalarBinary {
            op,
            d,
            od,
            a,
            b,
            dst,
        } => {
            let (x, y) = (st.slots[a], st.slots[b]);
            let v = match op {
                BinOp::PtrAdd => ptr_add(x, ops::int_value(od, y)),
                BinOp::PtrAddBytes => ptr_add_bytes(x, ops::int_value(od, y), d).ok_or(Bail)?,
                _ => ops::binary(op, d, x, y).map_err(|_| Bail)?,
            };
            let ix = st.slot_ix[a] | st.slot_ix[b] | op.is_inexact();
            st.set(dst, v, ix);
        }
        Inst::ScalarUnary { op, d, a, dst } => {
            let v = ops::unary(op, d, st.slots[a]);
            st.set(dst, v, st.slot_ix[a] | approx(op));
        }
        Inst::ScalarCast {
            kind,
            from,
            to,
            a,
            dst,
        } => {
            let v = ops::cast(kind, from, to, st.slots[a]).map_err(|_| Bail)?;
            st.set(dst, v, st.slot_ix[a]);
        }
        Inst::ScalarSelect { c, a, b, dst } => {
            let pick = if st.slots[c] != 0 { a } else { b };
            st.set(dst, st.slots[pick], st.slot_ix[c] | st.slot_ix[pick]);
        }
        Inst::ScalarFma { d, r, a, b, c, dst } => {
            let v = crate::ieee::fma(d, r, st.slots[a], st.slots[b], st.slots[c]);
            let ix = st.slot_ix[a] | st.slot_ix[b] | st.slot_ix[c];
            st.set(dst, v, ix);
        }
        Inst::Binary {
            op,
            d,
            wa,
            a,
            b,
            n,
            dst,
        } => widths!(wa, dst, binary(st, op, d, a, b, n, dst))?,
        Inst::PtrAdd {
            bytes,
            d,
            od,
            a,
            b,
            n,
            dst,
        } => ptr_add_lanes(st, (bytes, d, od), a, b, n, dst)?,
        Inst::Unary {
            op,
            d,
            wa,
            a,
            n,
            dst,
        } => widths!(wa, dst, unary(st, op, d, a, n, dst))?,
        Inst::Cast {
            kind,
            from,
            to,
            wa,
            a,
            n,
            dst,
        } => widths!(
            wa,
            dst,
            cast(st, |x| ops::cast(kind, from, to, x).ok(), a, n, dst)
        )?,
        Inst::Select {
            c,
            wa,
            a,
            b,
            n,
            dst,
        } => widths!(wa, dst, select(st, c, a, b, n, dst))?,
        Inst::Fma {
            d,
            r,
            wa,
            a,
            b,
            c,
            n,
            dst,
        } => widths!(wa, dst, fma(st, (d, r), [a, b, c], n, dst))?,
        Inst::Materialize { form, n, dst } => materialize(st, form, n, dst)?,
        Inst::Load {
            ptr,
            mask,
            other,
            d,
            n,
            dst,
            span,
        } => load(st, cx, (ptr, mask, other), (d, n, dst), log, span)?,
        Inst::Reduce {
            ref comb,
            d,
            src,
            n,
            rows,
            dst,
        } => reduce(st, comb, d, src, (n, rows), dst)?,
        Inst::Store { .. } => return Err(Bail),
    }
    Ok(())
}

/// Whether unary `op` is approximate (its results inexact).
fn approx(op: UnOp) -> bool {
    matches!(op, UnOp::Math(f) if f.is_inexact())
}

/// [`Inst::Binary`] with `T` operand lanes and `U` result lanes.
fn binary<T: File, U: File>(
    st: &mut State,
    op: BinOp,
    d: DType,
    a: Src,
    b: Src,
    n: usize,
    dst: Reg,
) -> R {
    let mut out = st.take::<U>(dst)?;
    let ((x, fx), (y, fy)) = (st.op::<T>(a)?, st.op::<T>(b)?);
    let ok = match (op, d) {
        (BinOp::Add, DType::F32) => {
            map2(x, y, n, &mut out, ops::add_f32);
            true
        }
        (BinOp::Sub, DType::F32) => {
            map2(x, y, n, &mut out, ops::sub_f32);
            true
        }
        (BinOp::Mul, DType::F32) => {
            map2(x, y, n, &mut out, ops::mul_f32);
            true
        }
        (BinOp::FDiv, DType::F32) => {
            map2(x, y, n, &mut out, ops::div_f32);
            true
        }
        (BinOp::Max(m), DType::F32) => {
            map2(x, y, n, &mut out, |p, q| ops::minmax_f32(p, q, true, m));
            true
        }
        (BinOp::Min(m), DType::F32) => {
            map2(x, y, n, &mut out, |p, q| ops::minmax_f32(p, q, false, m));
            true
        }
        _ => match (ops::fast_binary(op, d), ops::fast_binary_partial(op, d)) {
            (Some(f), _) => {
                map2(x, y, n, &mut out, f);
                true
            }
            (None, Some(f)) => map2_try(x, y, n, &mut out, |p, q| {
                f(p, q).or_else(|| ops::binary(op, d, p, q).ok())
            }),
            (None, None) => map2_try(x, y, n, &mut out, |p, q| ops::binary(op, d, p, q).ok()),
        },
    };
    let ix = fx | fy | op.is_inexact();
    st.put(dst, out, ix)?;
    if ok {
        Ok(())
    } else {
        Err(Bail)
    }
}

/// [`Inst::PtrAdd`]: 64-bit pointer lanes moved by offsets of `od`.
fn ptr_add_lanes(
    st: &mut State,
    (bytes, d, od): (bool, DType, DType),
    a: Src,
    b: Src,
    n: usize,
    dst: Reg,
) -> R {
    let mut out = st.take::<u64>(dst)?;
    let (x, fx) = st.op::<u64>(a)?;
    let wide_offsets = od.bits() > 32;
    let (y, fy) = if wide_offsets {
        let (y, f) = st.op::<u64>(b)?;
        (OpAny::W64(y), f)
    } else {
        let (y, f) = st.op::<u32>(b)?;
        (OpAny::W32(y), f)
    };
    let get = |i: usize| match &y {
        OpAny::W32(o) => o.get(i),
        OpAny::W64(o) => o.get(i),
    };
    out.clear();
    let mut ok = true;
    for i in 0..n {
        let k = ops::int_value(od, get(i));
        let v = if bytes {
            match ptr_add_bytes(x.get(i), k, d) {
                Some(v) => v,
                None => {
                    ok = false;
                    break;
                }
            }
        } else {
            ptr_add(x.get(i), k)
        };
        out.push(v);
    }
    st.put(dst, out, fx | fy)?;
    if ok {
        Ok(())
    } else {
        Err(Bail)
    }
}

/// An operand of either lane width.
enum OpAny<'a> {
    W32(Op<'a, u32>),
    W64(Op<'a, u64>),
}

/// [`Inst::Unary`].
fn unary<T: File, U: File>(st: &mut State, op: UnOp, d: DType, a: Src, n: usize, dst: Reg) -> R {
    let mut out = st.take::<U>(dst)?;
    let (x, fx) = st.op::<T>(a)?;
    match (op, d) {
        (UnOp::Math(MathFn::Exp), DType::F32) => map1(x, n, &mut out, ops::exp_f32),
        (UnOp::Neg, DType::F32) => map1(x, n, &mut out, ops::neg_f32),
        (UnOp::Math(MathFn::Abs), DType::F32) => map1(x, n, &mut out, ops::abs_f32),
        _ => map1(x, n, &mut out, |v| ops::unary(op, d, v)),
    }
    st.put(dst, out, fx | approx(op))
}

/// [`Inst::Cast`] by the conversion `f` (`None`: UB).
fn cast<T: File, U: File>(
    st: &mut State,
    f: impl Fn(u64) -> Option<u64>,
    a: Src,
    n: usize,
    dst: Reg,
) -> R {
    let mut out = st.take::<U>(dst)?;
    let (x, fx) = st.op::<T>(a)?;
    out.clear();
    let mut ok = true;
    for i in 0..n {
        match f(x.get(i)) {
            Some(v) => out.push(U::from64(v)),
            None => {
                ok = false;
                break;
            }
        }
    }
    st.put(dst, out, fx)?;
    if ok {
        Ok(())
    } else {
        Err(Bail)
    }
}

/// [`Inst::Select`]: where the two values' inexact flags differ, the
/// result's is one flag only when every lane picks the same side.
fn select<T: File, U: File>(st: &mut State, c: Src, a: Src, b: Src, n: usize, dst: Reg) -> R {
    let mut out = st.take::<U>(dst)?;
    let (cs, fc) = st.op::<u32>(c)?;
    let ((x, fa), (y, fb)) = (st.op::<T>(a)?, st.op::<T>(b)?);
    out.clear();
    let (mut any_a, mut any_b) = (false, false);
    for i in 0..n {
        let pick = cs.get(i) != 0;
        any_a |= pick;
        any_b |= !pick;
        out.push(U::from64(if pick { x.get(i) } else { y.get(i) }));
    }
    let ix = match (fa == fb, any_a, any_b) {
        (true, _, _) => Some(fc | fa),
        (false, true, false) => Some(fc | fa),
        (false, false, true) => Some(fc | fb),
        _ if fc => Some(true),
        _ => None,
    };
    st.put(dst, out, ix.unwrap_or(false))?;
    ix.map(|_| ()).ok_or(Bail)
}

/// [`Inst::Fma`].
fn fma<T: File, U: File>(
    st: &mut State,
    (d, r): (DType, crate::float::Rounding),
    [a, b, c]: [Src; 3],
    n: usize,
    dst: Reg,
) -> R {
    let mut out = st.take::<U>(dst)?;
    let ((x, fa), (y, fb), (z, fc)) = (st.op::<T>(a)?, st.op::<T>(b)?, st.op::<T>(c)?);
    out.clear();
    out.extend((0..n).map(|i| U::from64(crate::ieee::fma(d, r, x.get(i), y.get(i), z.get(i)))));
    st.put(dst, out, fa | fb | fc)
}

/// [`Inst::Materialize`]: a symbolic value's lanes.
fn materialize(st: &mut State, form: Form, n: usize, dst: Reg) -> R {
    match dst {
        Reg::W32(_) => materialize_as::<u32>(st, form, n, dst),
        Reg::W64(_) => materialize_as::<u64>(st, form, n, dst),
    }
}

fn materialize_as<U: File>(st: &mut State, form: Form, n: usize, dst: Reg) -> R {
    let mut out = st.take::<U>(dst)?;
    out.clear();
    let lane = |base: Slot, i: usize| (st.slots[base] as u32).wrapping_add(i as u32) as u64;
    let ix = match form {
        Form::Affine(b) => {
            out.extend((0..n).map(|i| U::from64(lane(b, i))));
            st.slot_ix[b]
        }
        Form::Splat(s) => {
            out.resize(n, U::from64(st.slots[s]));
            st.slot_ix[s]
        }
        Form::Cmp {
            op,
            base,
            bound,
            affine_left,
        } => {
            let f = ops::fast_binary(op, DType::I32).ok_or(Bail)?;
            let s = st.slots[bound];
            out.extend((0..n).map(|i| {
                let v = lane(base, i);
                U::from64(if affine_left { f(v, s) } else { f(s, v) })
            }));
            st.slot_ix[base] | st.slot_ix[bound]
        }
        Form::AffinePtr { ptr, base } => {
            let p = st.slots[ptr];
            out.extend(
                (0..n).map(|i| U::from64(ptr_add_i64(p, lane(base, i) as u32 as i32 as i64))),
            );
            st.slot_ix[ptr] | st.slot_ix[base]
        }
    };
    st.put(dst, out, ix)
}

/// How many of `n` lanes of `mask` are active, where they are a prefix
/// (lanes `0..k`); an affine comparison is decided from its lanes' extremes
/// (given up where the int32 lanes wrap, or where the active lanes are not
/// a prefix).
fn active_prefix(st: &State, mask: MaskSrc, n: usize) -> R<usize> {
    Ok(match mask {
        MaskSrc::All => n,
        MaskSrc::Lanes(Src::Splat(s)) => {
            if st.slots[s] != 0 {
                n
            } else {
                0
            }
        }
        MaskSrc::Lanes(Src::Lanes(Reg::W32(r))) => {
            let m = &st.r32[r];
            let k = m.iter().position(|&x| x == 0).unwrap_or(m.len());
            if m[k..].iter().any(|&x| x != 0) {
                return Err(Bail);
            }
            k
        }
        MaskSrc::Lanes(_) => return Err(Bail),
        MaskSrc::AffineCmp {
            op,
            base,
            bound,
            affine_left,
        } => {
            let lo = st.slots[base] as u32 as i32 as i64;
            let hi = lo + n as i64 - 1;
            if hi > i32::MAX as i64 {
                return Err(Bail);
            }
            let s = st.slots[bound] as u32 as i32 as i64;
            // lanes below a bound: a prefix of `count` lanes
            let below = |count: i64| count.clamp(0, n as i64) as usize;
            // lanes above a bound: all of them, or none, or given up
            let above = |all: bool, none: bool| match (all, none) {
                (true, _) => Ok(n),
                (_, true) => Ok(0),
                _ => Err(Bail),
            };
            match (op, affine_left) {
                // lo + i < s, s > lo + i
                (BinOp::Lt, true) | (BinOp::Gt, false) => below(s - lo),
                (BinOp::Le, true) | (BinOp::Ge, false) => below(s - lo + 1),
                (BinOp::Gt, true) => above(lo > s, hi <= s)?,
                (BinOp::Ge, true) => above(lo >= s, hi < s)?,
                (BinOp::Lt, false) => above(s < lo, s >= hi)?,
                (BinOp::Le, false) => above(s <= lo, s > hi)?,
                _ => return Err(Bail),
            }
        }
    })
}

/// [`Inst::Load`]: the active prefix of lanes from one element after
/// another of a buffer holding only exact, defined elements, the rest
/// from `other` (or 0 where the load has none); given up where `other`
/// is undefined and some lane takes it, or inexact beside loaded lanes.
fn load(
    st: &mut State,
    cx: &Ctx,
    (ptr, mask, other): (PtrSrc, MaskSrc, Other),
    (d, n, dst): (DType, usize, Dst),
    log: &mut Vec<Access>,
    span: Span,
) -> R {
    let k = active_prefix(st, mask, n)?;
    let (fill, fill_ix) = match other {
        _ if k == n => (None, false),
        Other::Undef => return Err(Bail),
        Other::Absent => (None, false),
        Other::Val(s) => {
            let ix = match s {
                Src::Splat(x) | Src::Affine(x) => st.slot_ix[x],
                Src::Lanes(r) => st.reg_ix(r),
            };
            (Some(s), ix)
        }
    };
    if fill_ix && k > 0 {
        return Err(Bail);
    }
    let cells: &[AtomicU64] = if k > 0 {
        let (b, off) = contiguous(st, cx, ptr, k)?;
        let buf = &cx.bufs[b];
        if buf.has_undefined() || buf.has_inexact() {
            return Err(Bail);
        }
        log.push(access(b, off, k, false, span));
        &buf.cells[off..off + k]
    } else {
        &[]
    };
    let bool_ = d == DType::Bool;
    let bits = |c: &AtomicU64| {
        let v = c.load(Ordering::Relaxed);
        if bool_ {
            (v != 0) as u64
        } else {
            v
        }
    };
    match dst {
        Dst::Slot(s) => {
            let v = match (cells.first(), fill) {
                (Some(c), _) => bits(c),
                (None, Some(f)) => lane_of(st, f, 0),
                (None, None) => 0,
            };
            st.set(s, v, fill_ix);
        }
        Dst::Reg(r @ Reg::W32(_)) => fill_lanes::<u32>(st, r, cells, bool_, (fill, n), fill_ix)?,
        Dst::Reg(r @ Reg::W64(_)) => fill_lanes::<u64>(st, r, cells, bool_, (fill, n), fill_ix)?,
    }
    Ok(())
}

/// Lane `i` of operand `s`.
fn lane_of(st: &State, s: Src, i: usize) -> u64 {
    match s {
        Src::Splat(x) => st.slots[x],
        Src::Affine(b) => (st.slots[b] as u32).wrapping_add(i as u32) as u64,
        Src::Lanes(Reg::W32(r)) => st.r32[r][i] as u64,
        Src::Lanes(Reg::W64(r)) => st.r64[r][i],
    }
}

/// Register `r` = the loaded `cells` (bools as 0/1), then lanes from
/// `fill` (or 0) up to `n`.
fn fill_lanes<U: File>(
    st: &mut State,
    r: Reg,
    cells: &[AtomicU64],
    bool_: bool,
    (fill, n): (Option<Src>, usize),
    ix: bool,
) -> R {
    let mut out = st.take::<U>(r)?;
    out.clear();
    let bits = |c: &AtomicU64| c.load(Ordering::Relaxed);
    if bool_ {
        out.extend(cells.iter().map(|c| U::from64((bits(c) != 0) as u64)));
    } else {
        out.extend(cells.iter().map(|c| U::from64(bits(c))));
    }
    match fill {
        Some(f) => out.extend((cells.len()..n).map(|i| U::from64(lane_of(st, f, i)))),
        None => out.resize(n, U::default()),
    }
    st.put(r, out, ix)
}

/// The buffer and first element of `n` lanes of pointers that reach one
/// element after another, all inside one buffer.
fn contiguous(st: &State, cx: &Ctx, ptr: PtrSrc, n: usize) -> R<(usize, usize)> {
    let in_bounds = |p: u64| -> R<(usize, usize)> {
        let (b, off) = ptr_parts(p);
        let len = cx.bufs.get(b).ok_or(Bail)?.cells.len();
        let off = usize::try_from(off).map_err(|_| Bail)?;
        if off + n <= len {
            Ok((b, off))
        } else {
            Err(Bail)
        }
    };
    match ptr {
        PtrSrc::Affine { ptr, base } => {
            let lo = st.slots[base] as u32 as i32 as i64;
            if lo + n as i64 - 1 > i32::MAX as i64 {
                return Err(Bail);
            }
            // inside the buffer the first pointer was not clamped, nor
            // are the ones after it: lane i reaches element off + i
            in_bounds(ptr_add_i64(st.slots[ptr], lo))
        }
        PtrSrc::Lanes(Src::Splat(s)) if n == 1 => in_bounds(st.slots[s]),
        PtrSrc::Lanes(Src::Lanes(Reg::W64(r))) => {
            let ptrs = &st.r64[r];
            let first = *ptrs.first().ok_or(Bail)?;
            let consecutive = ptrs
                .iter()
                .zip(0u64..)
                .fold(true, |ok, (&p, j)| ok & (p == first.wrapping_add(j)));
            if !consecutive {
                return Err(Bail);
            }
            in_bounds(first)
        }
        PtrSrc::Lanes(_) => Err(Bail),
    }
}

/// [`Inst::Reduce`]: each row in the canonical tree order; float32
/// sums, maxima and minima on the 32-bit lanes themselves.
fn reduce(
    st: &mut State,
    comb: &crate::ir::Combiner,
    d: DType,
    src: Reg,
    (n, rows): (usize, usize),
    dst: Dst,
) -> R {
    let ix = st.reg_ix(src);
    let f32_op = match (value_op(comb), d, src) {
        (Some(op @ (BinOp::Add | BinOp::Max(_) | BinOp::Min(_))), DType::F32, Reg::W32(_)) => {
            Some(op)
        }
        _ => None,
    };
    let mut out = Vec::with_capacity(rows);
    for r in 0..rows {
        let v = match (f32_op, src) {
            (Some(op), Reg::W32(i)) => {
                let row = &st.r32[i][r * n..(r + 1) * n];
                match op {
                    BinOp::Max(m) => tree32(row, |a, b| ops::minmax_f32(a, b, true, m)),
                    BinOp::Min(m) => tree32(row, |a, b| ops::minmax_f32(a, b, false, m)),
                    _ => tree32(row, ops::add_f32),
                }
            }
            _ => {
                st.wide.clear();
                match src {
                    Reg::W32(i) => st
                        .wide
                        .extend(st.r32[i][r * n..(r + 1) * n].iter().map(|&x| x as u64)),
                    Reg::W64(i) => st.wide.extend_from_slice(&st.r64[i][r * n..(r + 1) * n]),
                }
                tree_reduce(comb, d, &st.wide, None).0
            }
        };
        out.push(v);
    }
    match dst {
        Dst::Slot(s) => st.set(s, *out.first().ok_or(Bail)?, ix),
        Dst::Reg(Reg::W32(r)) => {
            st.r32[r].clear();
            st.r32[r].extend(out.iter().map(|&v| v as u32));
            st.ix32[r] = ix;
        }
        Dst::Reg(Reg::W64(r)) => {
            st.r64[r] = out;
            st.ix64[r] = ix;
        }
    }
    Ok(())
}

/// The canonical tree over a row of 32-bit lanes with the element
/// function `f` (inlined).
#[inline(always)]
fn tree32(row: &[u32], f: impl Fn(u64, u64) -> u64) -> u64 {
    tree_values(row, None, |a: u32, b: u32| f(a as u64, b as u64) as u32).0 as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{IntDiv, NanMode};

    /// Edge values of a dtype's bits: zeros of both signs, ±1, extremes,
    /// NaN payloads of both signs, infinities, a subnormal.
    fn edges(d: DType) -> Vec<u64> {
        let f: Vec<u64> = [
            0.0f32,
            -0.0,
            1.0,
            -1.5,
            3.4e38,
            -3.4e38,
            1e-45,
            f32::INFINITY,
        ]
        .iter()
        .map(|v| v.to_bits() as u64)
        .chain([0x7fc0_0001, 0xffc0_0123, 0xff80_0000, 0x3dcc_cccd])
        .collect();
        let i: Vec<u64> = [0u64, 1, 2, 3, 0x7f, 0x80, 0xff, 0x7fff, 0x8000]
            .into_iter()
            .chain([0xffff, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 5, 31, 32])
            .collect();
        match d {
            DType::F32 => f,
            DType::Bool => vec![0, 1],
            _ => i.into_iter().map(|x| x & d.mask()).collect(),
        }
    }

    /// A state holding lanes `a` and `b` in 32-bit registers 0 and 1.
    fn state(a: &[u64], b: &[u64]) -> State {
        let mut st = State {
            r32: vec![
                a.iter().map(|&x| x as u32).collect(),
                b.iter().map(|&x| x as u32).collect(),
                Vec::new(),
            ],
            ix32: vec![false; 3],
            slots: vec![0; 2],
            slot_ix: vec![false; 2],
            ..State::default()
        };
        st.slots[0] = a[0];
        st
    }

    #[test]
    fn binary_lanes_agree_with_the_general_rule() {
        let ops_list = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::FDiv,
            BinOp::Max(NanMode::Propagate),
            BinOp::Max(NanMode::Ignore),
            BinOp::Min(NanMode::Propagate),
            BinOp::Min(NanMode::Ignore),
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Eq,
            BinOp::Ne,
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
            BinOp::IDiv(IntDiv::FLOOR),
            BinOp::IRem(IntDiv::TRUNC),
            BinOp::LogicalAnd,
        ];
        let dtypes = [DType::F32, DType::I32, DType::U32, DType::I16, DType::U8];
        for d in dtypes.into_iter().chain([DType::I8, DType::Bool]) {
            let e = edges(d);
            // every pair of edge values, lane by lane
            let a: Vec<u64> = e.iter().flat_map(|&x| e.iter().map(move |_| x)).collect();
            let b: Vec<u64> = e.iter().flat_map(|_| e.iter().copied()).collect();
            let valid = |op: BinOp| match d {
                DType::F32 => {
                    !matches!(
                        op,
                        BinOp::And | BinOp::Or | BinOp::Xor | BinOp::IDiv(_) | BinOp::IRem(_)
                    ) && op != BinOp::LogicalAnd
                }
                DType::Bool => matches!(
                    op,
                    BinOp::LogicalAnd | BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Eq | BinOp::Ne
                ),
                _ => !matches!(op, BinOp::FDiv | BinOp::LogicalAnd),
            };
            for op in ops_list.into_iter().filter(|&op| valid(op)) {
                let want: Vec<Option<u64>> = a
                    .iter()
                    .zip(&b)
                    .map(|(&x, &y)| ops::binary(op, d, x, y).ok())
                    .collect();
                // each operand as lanes, and the first as a splat
                for (sa, lanes_a) in [(Src::Lanes(Reg::W32(0)), true), (Src::Splat(0), false)] {
                    let mut st = state(&a, &b);
                    let dst = Reg::W32(2);
                    let r = binary::<u32, u32>(
                        &mut st,
                        op,
                        d,
                        sa,
                        Src::Lanes(Reg::W32(1)),
                        a.len(),
                        dst,
                    );
                    let want: Vec<Option<u64>> = if lanes_a {
                        want.clone()
                    } else {
                        b.iter()
                            .map(|&y| ops::binary(op, d, a[0], y).ok())
                            .collect()
                    };
                    if want.iter().all(Option::is_some) {
                        assert!(r.is_ok(), "{op:?} {d}");
                        let got: Vec<u64> = st.r32[2].iter().map(|&x| x as u64).collect();
                        let want: Vec<u64> = want.into_iter().flatten().collect();
                        assert_eq!(got, want, "{op:?} {d}");
                    } else {
                        // a lane the general rule reports as UB: given up
                        assert!(r.is_err(), "{op:?} {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn unary_lanes_and_reductions_agree_with_the_general_rule() {
        let e = edges(DType::F32);
        let unaries = [
            UnOp::Neg,
            UnOp::Math(MathFn::Exp),
            UnOp::Math(MathFn::Abs),
            UnOp::Math(MathFn::Log),
            UnOp::Math(MathFn::Sqrt),
        ];
        for op in unaries {
            let mut st = state(&e, &e);
            unary::<u32, u32>(
                &mut st,
                op,
                DType::F32,
                Src::Lanes(Reg::W32(0)),
                e.len(),
                Reg::W32(2),
            )
            .expect("no UB");
            let got: Vec<u64> = st.r32[2].iter().map(|&x| x as u64).collect();
            let want: Vec<u64> = e.iter().map(|&x| ops::unary(op, DType::F32, x)).collect();
            assert_eq!(got, want, "{op:?}");
            assert_eq!(st.ix32[2], approx(op), "{op:?}");
        }
        // rows of 3 (padding slots in the tree) and of the whole row
        let combiners = [
            crate::ir::Combiner::Sum,
            crate::ir::Combiner::Max(NanMode::Propagate),
            crate::ir::Combiner::Min(NanMode::Ignore),
            crate::ir::Combiner::ArgMax { value: false },
        ];
        for comb in &combiners {
            for n in [3, e.len()] {
                let rows = e.len() / n;
                let mut st = state(&e, &e);
                let dst = if rows == 1 {
                    Dst::Slot(1)
                } else {
                    Dst::Reg(Reg::W32(2))
                };
                reduce(&mut st, comb, DType::F32, Reg::W32(0), (n, rows), dst).expect("reduces");
                let got: Vec<u64> = match dst {
                    Dst::Slot(s) => vec![st.slots[s]],
                    _ => st.r32[2].iter().map(|&x| x as u64).collect(),
                };
                let want: Vec<u64> = (0..rows)
                    .map(|r| tree_reduce(comb, DType::F32, &e[r * n..(r + 1) * n], None).0)
                    .collect();
                assert_eq!(got, want, "{comb:?} rows of {n}");
            }
        }
    }
}
