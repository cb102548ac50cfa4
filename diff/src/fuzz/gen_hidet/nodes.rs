//! The IR that the Hidet front end elaborates each construct to, built with
//! its own typing rules (`frontend::hidet::types`: Hidet's promotion table
//! for the type, C's usual arithmetic conversions for the value), so that
//! the printed program elaborates back to the same kernel. The printer
//! (`print::hidet`) uses the same builders to recognise a construct in the
//! IR, so a rule lives here once for both.
//!
//! A value is an [`HVal`]: the C expression (typed with the C type it
//! computes in), Hidet's type of it, and, for a Python number that has not
//! met a Hidet value yet, the number (Hidet's transpiler keeps it a Python
//! value until then).

use ksem_interp::dtype::DType;
use ksem_interp::frontend::hidet::ops;
use ksem_interp::ir::build::{bin, convert, dtype_of, int_const, konst, mk};
use ksem_interp::ir::*;
use ksem_interp::span::Span;

/// Generated nodes have no source position (the printed text gets one).
pub const S: Span = Span { line: 0, col: 0 };

/// A value of the script: `frontend::hidet::ops::Scalar` (its C
/// expression, Hidet type and Python number).
pub type HVal = ops::Scalar;
pub use ops::{fits, Lit, Op};

/// A Python float as the `float32` literal Hidet prints for it.
pub fn f32_literal(f: f64) -> Expr {
    ops::f32_literal(f, S)
}

/// A Python int (an `int32` constant; the generator's numbers fit 64 bits).
pub fn int(v: i128) -> HVal {
    ops::Scalar::literal(Lit::Int(v), S)
        .unwrap_or_else(|_| HVal::num(int_const(DType::I64, v, S), DType::I32))
}

/// A Python float: a `float32` constant.
pub fn float(v: f64) -> HVal {
    ops::Scalar::literal(Lit::Float(v), S).unwrap_or_else(|_| HVal::num(f32_literal(v), DType::F32))
}

/// A Python bool, as Hidet's `boolean(…)` makes it (a Hidet value).
pub fn boolean(b: bool) -> HVal {
    HVal::num(konst(DType::Bool, b as u64, S), DType::Bool)
}

/// `T(number)`: a constant of the type; `None` where Hidet refuses it.
pub fn typed_const(d: DType, v: Lit) -> Option<HVal> {
    let x = ops::Scalar::literal(v, S).ok()?;
    ops::cast(&x, d, S).ok()
}

/// The value stored into (or assigned to) a `t` slot.
pub fn value_for(v: &HVal, t: DType) -> Expr {
    ops::value_for(v, t, S)
}

/// `a OP b`; `None` where Hidet (or ksem) refuses it, or both are Python
/// numbers (Python arithmetic while transpiling: not generated).
pub fn binop(op: Op, l: &HVal, r: &HVal) -> Option<HVal> {
    if l.lit.is_some() && r.lit.is_some() {
        return None;
    }
    ops::binary(op, l, r, S).ok()
}

/// A comparison (bool); `None` as for [`binop`].
pub fn compare(op: BinOp, l: &HVal, r: &HVal) -> Option<HVal> {
    if l.lit.is_some() && r.lit.is_some() {
        return None;
    }
    ops::compare(op, l, r, S).ok()
}

/// The truth of a condition (C's `x != 0`).
pub fn truth(v: &HVal) -> Expr {
    ops::truth(v.e.clone(), S)
}

/// `-x` of a Hidet value.
pub fn neg(x: &HVal) -> Option<HVal> {
    x.lit.is_none().then(|| ops::neg(x, S))
}

/// `bitwise_not(x)` of a Hidet integer.
pub fn bitwise_not(x: &HVal) -> Option<HVal> {
    if x.lit.is_some() {
        return None;
    }
    ops::bitwise_not(x, S).ok()
}

/// `not x` of a Hidet value.
pub fn not(x: &HVal) -> Option<HVal> {
    x.lit.is_none().then(|| ops::not(x, S))
}

/// `T(x)`.
pub fn cast(x: &HVal, d: DType) -> HVal {
    ops::cast(x, d, S).unwrap_or_else(|_| HVal::num(convert(x.e.clone(), d), d))
}

/// `threadIdx.x` and friends.
pub fn cuda_index(kind: ExprKind) -> HVal {
    ops::cuda_index(kind, S)
}

/// An index of a tensor or pointer (C's conversion to `int64`).
pub fn index(v: &HVal) -> Expr {
    convert(v.e.clone(), DType::I64)
}

/// The element `indices` of a tensor at `base` of shape `dims`, with the
/// layout's offset where it is not row-major (the indices must be
/// variables or constants: Hidet holds others in temporaries).
pub fn element(base: Expr, indices: Vec<Expr>, dims: Vec<usize>, offset: Option<Expr>) -> Expr {
    let ty = base.ty.clone();
    mk(
        ExprKind::ElemPtr {
            base: Box::new(base),
            indices,
            dims,
            neg: NegIndex::Ub,
            offset: offset.map(Box::new),
        },
        ty,
        S,
    )
}

/// `p + k` / `p[k]`'s address for a pointer `p`.
pub fn ptr_add(p: Expr, k: &HVal) -> Expr {
    bin(BinOp::PtrAdd, p, index(k), S)
}

/// `p - q` of two pointers to one dtype (elements between them).
pub fn ptr_diff(p: Expr, q: Expr) -> HVal {
    ops::ptr_diff(p, q, S)
}

/// `atomic_OP(ptr, v)`'s value (its old value has the element's type).
pub fn atomic(op: AtomicOp, ptr: Expr, v: &HVal) -> Expr {
    ops::atomic(op, ptr, v, None, S)
}

/// The C type of `a if c else b` for branches with C expressions `a`, `b`.
pub fn if_exp_type(a: &Expr, b: &Expr) -> DType {
    ops::if_exp_type(dtype_of(a), dtype_of(b))
}
