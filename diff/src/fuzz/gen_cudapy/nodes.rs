//! The IR that CUDA Python elaborates each generated construct to, built
//! with the front end's own typing rules (`frontend::cudapy::types`), so
//! that the printed program elaborates back to the same kernel.

use ksem_interp::dtype::DType;
use ksem_interp::frontend::cudapy::types::{self, INT_DIV};
use ksem_interp::ir::build::{bin, convert, dtype_of, float_const, int_const, mk, unary};
use ksem_interp::ir::*;
use ksem_interp::span::Span;

/// Generated nodes have no source position (the printed text gets one).
pub const S: Span = Span { line: 0, col: 0 };

/// An arithmetic operator of the generated programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    TrueDiv,
    FloorDiv,
    Mod,
}

/// A bitwise operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bitwise {
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

/// An int64 literal.
pub fn int(v: i64) -> Expr {
    int_const(DType::I64, v as i128, S)
}

/// A float64 literal.
pub fn float(v: f64) -> Expr {
    float_const(DType::F64, v, S)
}

/// `a OP b` (integer `//` and `%`; float `%` is `math.fmod`, see [`fmod`]).
pub fn arith(op: Arith, a: Expr, b: Expr) -> Expr {
    let (da, db) = (dtype_of(&a), dtype_of(&b));
    let c = types::promote(da, db);
    let (bop, to) = match op {
        Arith::Add => (types::nsw_op(IntArith::Add, c), c),
        Arith::Sub => (types::nsw_op(IntArith::Sub, c), c),
        Arith::Mul => (types::nsw_op(IntArith::Mul, c), c),
        Arith::TrueDiv => (BinOp::FDiv, types::truediv_type(da, db)),
        Arith::FloorDiv => (BinOp::IDiv(INT_DIV), types::floordiv_result(c)),
        Arith::Mod => (BinOp::IRem(INT_DIV), c),
    };
    bin(bop, convert(a, to), convert(b, to), S)
}

/// `math.fmod(a, b)`: float32 for two float32 operands, else float64.
pub fn fmod(a: Expr, b: Expr) -> Expr {
    let f32s = dtype_of(&a) == DType::F32 && dtype_of(&b) == DType::F32;
    let d = if f32s { DType::F32 } else { DType::F64 };
    bin(BinOp::FRem, convert(a, d), convert(b, d), S)
}

/// `a OP b` on integers (a right shift is arithmetic for a signed type).
pub fn bitwise(op: Bitwise, a: Expr, b: Expr) -> Expr {
    let c = types::compare_type(dtype_of(&a), dtype_of(&b));
    let c = match op {
        Bitwise::Shl | Bitwise::Shr => types::promote(dtype_of(&a), dtype_of(&b)),
        _ => c,
    };
    let bop = match op {
        Bitwise::And => BinOp::And,
        Bitwise::Or => BinOp::Or,
        Bitwise::Xor => BinOp::Xor,
        Bitwise::Shl => BinOp::Shl(ShiftRange::Ub),
        Bitwise::Shr if c.is_signed_int() => BinOp::Shr(ShrKind::Arith, ShiftRange::Ub),
        Bitwise::Shr => BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
    };
    bin(bop, convert(a, c), convert(b, c), S)
}

/// A comparison `a OP b` (bool).
pub fn compare(op: BinOp, a: Expr, b: Expr) -> Expr {
    let c = types::compare_type(dtype_of(&a), dtype_of(&b));
    bin(op, convert(a, c), convert(b, c), S)
}

/// `min(a, b)` / `max(a, b)` (a NaN operand is ignored): `Min`/`Max` of
/// the operands converted to their promoted type. Where one operand is a
/// float and the other is not, the printer writes the conversion
/// (`max(float64(n), x)`), since numba-cuda computes `max(n, x)` with
/// Python's algorithm instead (divergence N24).
pub fn min_max(is_min: bool, a: Expr, b: Expr) -> Expr {
    let c = types::promote(dtype_of(&a), dtype_of(&b));
    let op = if is_min {
        BinOp::Min(NanMode::Ignore)
    } else {
        BinOp::Max(NanMode::Ignore)
    };
    bin(op, convert(a, c), convert(b, c), S)
}

/// `min(max(x, lo), hi)` with float literal bounds.
pub fn clamp(x: Expr, lo: f64, hi: f64) -> Expr {
    min_max(true, min_max(false, x, float(lo)), float(hi))
}

/// `-x` / `~x`: an integer widens to 64 bits of its signedness.
pub fn negate(op: UnOp, x: Expr) -> Expr {
    let d = dtype_of(&x);
    let e = unary(op, x, S);
    if d.is_float() {
        e
    } else {
        convert(e, types::int_unary_result(d))
    }
}

/// `math.F(x)` (float32 stays float32, anything else computes in float64).
pub fn math(f: MathFn, x: Expr) -> Expr {
    let d = types::math_type(dtype_of(&x));
    unary(UnOp::Math(f), convert(x, d), S)
}

/// `abs(x)` (keeps the type).
pub fn abs(x: Expr) -> Expr {
    unary(UnOp::Math(MathFn::Abs), x, S)
}

/// An int32 id (`cuda.threadIdx.x` …).
pub fn id(kind: ExprKind) -> Expr {
    mk(kind, Type::scalar(DType::I32), S)
}

/// Component `d` of `cuda.grid(n)`: `threadIdx + blockIdx * blockDim` in int64.
pub fn grid(d: u8) -> Expr {
    let w = |k| convert(id(k), DType::I64);
    let prod = bin(
        BinOp::Mul,
        w(ExprKind::BlockId(d)),
        w(ExprKind::BlockDim(d)),
        S,
    );
    bin(BinOp::Add, w(ExprKind::ThreadId(d)), prod, S)
}

/// Component `d` of `cuda.gridsize(n)`: `blockDim * gridDim` in int64.
pub fn gridsize(d: u8) -> Expr {
    let w = |k| convert(id(k), DType::I64);
    bin(
        BinOp::Mul,
        w(ExprKind::BlockDim(d)),
        w(ExprKind::GridDim(d)),
        S,
    )
}

/// The pointer to element `index` of a one-dimensional array of `len`
/// elements at `base` (the index converted to int64).
pub fn element(base: Expr, index: Expr, len: usize) -> Expr {
    let ty = base.ty.clone();
    mk(
        ExprKind::ElemPtr {
            base: Box::new(base),
            indices: vec![convert(index, DType::I64)],
            dims: vec![len],
            neg: NegIndex::Wrap,
            offset: None,
        },
        ty,
        S,
    )
}

/// `cuda.atomic.OP(array, index, val)` on the element at `ptr`.
pub fn atomic(op: AtomicOp, ptr: Expr, val: Expr) -> Expr {
    let d = ptr.ty.dtype();
    mk(
        ExprKind::Atomic {
            op,
            ptr: Box::new(ptr),
            val: Box::new(convert(val, d)),
            cmp: None,
            mask: None,
        },
        Type::scalar(d),
        S,
    )
}
