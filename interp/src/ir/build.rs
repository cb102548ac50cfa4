//! Building IR nodes: the small constructors every front end uses, and
//! constant folding by the evaluator's own element semantics.

use super::expr::{Expr, ExprKind};
use super::kernel::ArrayId;
use super::op::{BinOp, CastKind, UnOp};
use super::types::{AddrSpace, Elem, Type};
use crate::dtype::DType;
use crate::float::{Overflow, Rounding};
use crate::span::Span;

/// A node of `kind` with type `ty` at `span`.
pub fn mk(kind: ExprKind, ty: Type, span: Span) -> Expr {
    Expr { kind, ty, span }
}

/// The base pointer of array `id`: its first `d` element in `space`.
pub fn array_base(id: ArrayId, d: DType, space: AddrSpace, span: Span) -> Expr {
    mk(
        ExprKind::ArrayBase(id),
        Type {
            elem: Elem::Ptr(d, space),
            shape: vec![],
        },
        span,
    )
}

/// A 0-d constant of dtype `d` holding `bits`.
pub fn konst(d: DType, bits: u64, span: Span) -> Expr {
    mk(ExprKind::Const(bits & d.mask()), Type::scalar(d), span)
}

/// A 0-d integer constant of dtype `d` (wrapped to its width).
pub fn int_const(d: DType, v: i128, span: Span) -> Expr {
    konst(d, v as u64, span)
}

/// A 0-d float constant of dtype `d` (rounded to nearest even).
pub fn float_const(d: DType, v: f64, span: Span) -> Expr {
    konst(d, crate::ops::fround(d, v), span)
}

/// `a op b`: a comparison is bool of `a`'s shape, anything else has `a`'s type.
pub fn bin(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
    let ty = if op.is_comparison() {
        Type::num(DType::Bool, a.ty.shape.clone())
    } else {
        a.ty.clone()
    };
    mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, span)
}

/// `op a`: `not` is bool, anything else has `a`'s type.
pub fn unary(op: UnOp, a: Expr, span: Span) -> Expr {
    let ty = if op == UnOp::LogicalNot {
        Type::scalar(DType::Bool)
    } else {
        a.ty.clone()
    };
    mk(ExprKind::Unary(op, Box::new(a)), ty, span)
}

/// `c ? a : b` with `a`'s type.
pub fn select(c: Expr, a: Expr, b: Expr, span: Span) -> Expr {
    let ty = a.ty.clone();
    mk(
        ExprKind::Select(Box::new(c), Box::new(a), Box::new(b)),
        ty,
        span,
    )
}

/// The element of dtype `d` at `ptr`.
pub fn load(ptr: Expr, d: DType, span: Span) -> Expr {
    mk(
        ExprKind::Load {
            ptr: Box::new(ptr),
            mask: None,
            other: None,
        },
        Type::scalar(d),
        span,
    )
}

/// Value conversion as the SIMT front ends use it (stores, coercion,
/// `int16(x)`, `astype`): round to nearest even, overflow to infinity;
/// float → int truncates (UB out of range).
pub const CONVERT: CastKind = CastKind::Convert(Rounding::NearestEven, Overflow::Infinity);

/// `e` converted to dtype `d` by [`CONVERT`] (itself where it has dtype `d`).
pub fn convert(e: Expr, d: DType) -> Expr {
    if dtype_of(&e) == d {
        return e;
    }
    let span = e.span;
    mk(ExprKind::Cast(Box::new(e), CONVERT), Type::scalar(d), span)
}

/// The pointer to part `k` of the element at `p`: a lane of a vector
/// element, the real (0) or imaginary (1) part of a complex one (Hidet's
/// compound elements, whose parts are consecutive elements of their type).
pub fn part_ptr(p: &Expr, k: i64, span: Span) -> Expr {
    if k == 0 {
        return p.clone();
    }
    bin(
        BinOp::PtrAdd,
        p.clone(),
        int_const(DType::I64, k as i128, span),
        span,
    )
}

/// A 0-d pointer as the `uint64` that memory holds it as.
pub fn pointer_bits(p: Expr) -> Expr {
    let span = p.span;
    mk(
        ExprKind::Cast(Box::new(p), CastKind::Bitcast),
        Type::scalar(DType::U64),
        span,
    )
}

/// The pointer of type `ty` whose representation is the `uint64` `bits`.
pub fn bits_pointer(bits: Expr, ty: Type) -> Expr {
    let span = bits.span;
    mk(ExprKind::Cast(Box::new(bits), CastKind::Bitcast), ty, span)
}

/// The dtype of a value (for pointers: the pointee's).
pub fn dtype_of(e: &Expr) -> DType {
    e.ty.dtype()
}

/// The bits of an expression made only of constants, computed as it would be
/// at run time (`None` where it reads anything else or would be UB).
pub fn fold(e: &Expr) -> Option<u64> {
    use crate::ops;
    match &e.kind {
        ExprKind::Const(b) => Some(*b),
        ExprKind::Unary(op, x) => Some(ops::unary(*op, dtype_of(x), fold(x)?)),
        ExprKind::Cast(x, k) => ops::cast(*k, dtype_of(x), dtype_of(e), fold(x)?).ok(),
        ExprKind::Binary(op, a, b) if !op.is_ptr_add() => {
            ops::binary(*op, dtype_of(a), fold(a)?, fold(b)?).ok()
        }
        _ => None,
    }
}

/// The value of a constant integer expression.
pub fn fold_int(e: &Expr) -> Option<i128> {
    let d = dtype_of(e);
    (d.is_int() && !e.ty.is_ptr())
        .then(|| fold(e))
        .flatten()
        .map(|b| crate::ops::int_value(d, b))
}
