//! Scalar lowering: the C expression of one element operation (unary,
//! binary, conversion, fma) on the raw bits of its operands, every one a
//! call into the runtime of `runtime.cuh`, which reproduces ksem-interp's
//! `ops.rs` bit for bit; and the C names and types of values. The tile and
//! SIMT lowerings build their code from these.

use super::program::{err, LResult};
use crate::ids::{self, cmp_id, shift_range_id};
use ksem_interp::dtype::DType;
use ksem_interp::float::{Overflow, Rounding};
use ksem_interp::ir::*;
use ksem_interp::span::Span;
use std::fmt::Write as _;

/// The C macro of a dtype's runtime id.
pub(super) fn dt(d: DType) -> &'static str {
    ids::dtype_macro(d)
}

/// A C identifier made of a Python name.
pub(super) fn ident(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            s.push(c);
        } else {
            let _ = write!(s, "_u{:x}_", c as u32);
        }
    }
    s
}

/// The C name of variable `v` of `k`.
pub(super) fn var_name(k: &Kernel, v: VarId) -> String {
    format!("v{v}_{}", ident(&k.vars[v].0))
}

/// The unsigned C type holding the bits of a dtype.
pub(super) fn bits_type(d: DType) -> &'static str {
    match d.storage_bits() {
        8 => "ku8",
        16 => "ku16",
        32 => "ku32",
        // (a storage width, not an op: 64 is the only one left)
        _ => "ku64",
    }
}

/// The C type holding a value of a type (pointers: 64-bit encoded).
pub(super) fn storage_type(ty: &Type) -> &'static str {
    match ty.elem {
        Elem::Ptr(..) => "ku64",
        Elem::Num(d) => bits_type(d),
    }
}

/// The bytes of one element of a type as the generated code holds it.
pub(super) fn storage_bytes(ty: &Type) -> usize {
    match ty.elem {
        Elem::Ptr(..) => 8,
        Elem::Num(d) => d.storage_bits() as usize / 8,
    }
}

/// The C element type of buffers and scalar arguments of a dtype.
pub fn c_elem_type(d: DType) -> &'static str {
    match d {
        DType::F32 => "float",
        DType::F64 => "double",
        DType::I8 => "signed char",
        DType::I16 => "short",
        DType::I32 => "int",
        DType::I64 => "long long",
        DType::U16 | DType::F16 | DType::BF16 => "unsigned short",
        DType::U32 => "unsigned int",
        DType::U64 => "unsigned long long",
        DType::Bool
        | DType::U8
        | DType::F8E4Nv
        | DType::F8E5
        | DType::F8E4B15
        | DType::F8E4B8
        | DType::F8E5B16 => "unsigned char",
    }
}

/// The bits of a scalar argument held in C variable `name`.
pub(super) fn scalar_bits_expr(d: DType, name: &str) -> String {
    match d {
        DType::F32 => format!("(ku32)__float_as_uint({name})"),
        DType::F64 => format!("(ku64)__double_as_longlong({name})"),
        DType::Bool => format!("(ku8)({name} != 0)"),
        // (a dtype, not an op: every other C element type holds the bits)
        _ => format!("({})({name})", bits_type(d)),
    }
}

/// The C expression of unary `op` on the bits `a` of a `d` value.
pub(super) fn unary_c(op: UnOp, d: DType, a: &str) -> String {
    match op {
        UnOp::Not => format!("ksem_inot<{}>({a})", dt(d)),
        UnOp::LogicalNot => format!("({a} == 0 ? 1ull : 0ull)"),
        UnOp::Neg if d.is_float() => format!("ksem_copysign<{}>({a}, ~{a})", dt(d)),
        UnOp::Neg => format!("((0ull - {a}) & kmask({}))", dt(d)),
        UnOp::Math(_) if d.is_int() => format!("ksem_iabs<{}>({a})", dt(d)),
        UnOp::Math(f) => format!("ksem_math<{}>({}, {a})", dt(d), ids::math_macro(f)),
        UnOp::Ieee(o, r) => format!(
            "ksem_ieee1<{}>({}, {}, {a})",
            dt(d),
            ieee_unary_id(o),
            rounding_id(r)
        ),
    }
}

/// The C expression of `a * b + c` of dtype `d` rounded once by `r`.
pub(super) fn fma_c(d: DType, r: Rounding, a: &str, b: &str, c: &str) -> String {
    match r {
        Rounding::NearestEven => format!("ksem_fma<{}>({a}, {b}, {c})", dt(d)),
        r => format!(
            "ksem_ieee_fma<{}>({}, {a}, {b}, {c})",
            dt(d),
            rounding_id(r)
        ),
    }
}

/// The runtime's number for a rounded unary operation (`ksem_ieee1`).
fn ieee_unary_id(o: IeeeUnary) -> u8 {
    match o {
        IeeeUnary::Sqrt => 0,
        IeeeUnary::Rcp => 1,
        IeeeUnary::Rsqrt => 2,
    }
}

/// The runtime's number for a rounding mode (0 rn, 1 rz, 2 ru, 3 rd).
fn rounding_id(r: Rounding) -> u8 {
    match r {
        Rounding::NearestEven => 0,
        Rounding::TowardZero => 1,
        Rounding::Up => 2,
        Rounding::Down => 3,
    }
}

/// The C expression of a conversion of the bits `a` from `from` to `to`.
pub(super) fn cast_c(kind: CastKind, from: DType, to: DType, a: &str) -> String {
    match kind {
        CastKind::Bitcast => format!("ksem_bitcast<{}, {}>({a})", dt(from), dt(to)),
        CastKind::Convert(r, o) => format!(
            "ksem_cvt<{}, {}>({a}, {}, {})",
            dt(from),
            dt(to),
            r == Rounding::TowardZero,
            o == Overflow::Saturate
        ),
    }
}

/// The operands of a binary operation as the runtime tells them apart.
#[derive(Clone, Copy)]
enum Operands {
    Ptr,
    Float,
    Int,
}

/// The C expression of binary `op` on the bits `x`, `y` of operands of
/// type `aty` and (for pointer offsets) dtype `od`; each operand is used once.
/// Every op has its arm here (a new one does not compile without its rule);
/// an op on operands it does not take is a lowering error.
pub(super) fn binary_c(
    op: BinOp,
    aty: &Type,
    od: DType,
    x: &str,
    y: &str,
    span: Span,
) -> LResult<String> {
    use BinOp::*;
    use Operands::{Float, Int, Ptr};
    let d = aty.dtype();
    let dd = dt(d);
    let operands = if aty.is_ptr() {
        Ptr
    } else if d.is_float() {
        Float
    } else {
        Int
    };
    Ok(match (op, operands) {
        // where it is defined, the wrapping op's value; an overflow is UB,
        // which the interpreter reports
        (NoSignedWrap(a), _) => return binary_c(a.op(), aty, od, x, y, span),
        (PtrAdd, _) => format!("ksem_ptradd<{}>({x}, {y})", dt(od)),
        (PtrDiff, _) => format!("ksem_ptrdiff({x}, {y})"),
        (PtrAddBytes, _) => format!(
            "ksem_ptraddbytes<{}, {}>({x}, {y})",
            dt(od),
            d.bits().div_ceil(8)
        ),
        (Eq | Ne | Lt | Le | Gt | Ge, Ptr) => {
            format!("(ku64)ksem_icmp<KU64>({}, {x}, {y})", cmp_id(op))
        }
        (Eq | Ne | Lt | Le | Gt | Ge, Float) => {
            format!("(ku64)ksem_fcmp<{dd}>({}, {x}, {y})", cmp_id(op))
        }
        (Eq | Ne | Lt | Le | Gt | Ge, Int) => {
            format!("(ku64)ksem_icmp<{dd}>({}, {x}, {y})", cmp_id(op))
        }
        (
            Add | Sub | Mul | FDiv | IDiv(_) | IRem(_) | FRem | And | Or | Xor | Shl(_) | Shr(..)
            | Min(_) | Max(_) | LogicalAnd | LogicalOr | Pow | Atan2 | Hypot | CopySign | Ieee(..),
            Ptr,
        ) => return err(span, format!("{op:?} on pointers")),
        (Add, Float) => format!("ksem_fadd<{dd}>({x}, {y})"),
        (Sub, Float) => format!("ksem_fsub<{dd}>({x}, {y})"),
        (Mul, Float) => format!("ksem_fmul<{dd}>({x}, {y})"),
        (FDiv, Float) => format!("ksem_fdiv<{dd}>({x}, {y})"),
        (FRem, Float) => format!("ksem_frem<{dd}>({x}, {y})"),
        (Pow, Float) => format!("ksem_pow<{dd}>({x}, {y})"),
        (Atan2, Float) => format!("ksem_atan2<{dd}>({x}, {y})"),
        (Hypot, Float) => format!("ksem_hypot<{dd}>({x}, {y})"),
        (CopySign, Float) => format!("ksem_copysign<{dd}>({x}, {y})"),
        (Ieee(o, r), Float) => format!(
            "ksem_ieee2<{dd}>({}, {}, {x}, {y})",
            o as u8,
            rounding_id(r)
        ),
        (Min(m) | Max(m), Float) => format!(
            "ksem_fminmax<{dd}>({x}, {y}, {}, {})",
            matches!(op, Max(_)),
            m == NanMode::Propagate
        ),
        (Add, Int) => format!("ksem_iadd<{dd}>({x}, {y})"),
        (Sub, Int) => format!("ksem_isub<{dd}>({x}, {y})"),
        (Mul, Int) => format!("ksem_imul<{dd}>({x}, {y})"),
        (IDiv(r) | IRem(r), Int) => format!(
            "ksem_idivrem<{dd}>({x}, {y}, {}, {})",
            r.round == DivRound::Floor,
            matches!(op, IRem(_))
        ),
        (And, Int) => format!("({x} & {y})"),
        (Or, Int) => format!("({x} | {y})"),
        (Xor, Int) => format!("({x} ^ {y})"),
        (Shl(r), Int) => format!("ksem_shl<{dd}>({x}, {y}, {})", shift_range_id(r)),
        (Shr(k, r), Int) => format!(
            "ksem_shr<{dd}>({x}, {y}, {}, {})",
            k == ShrKind::Arith,
            shift_range_id(r)
        ),
        (Min(_), Int) => format!("ksem_imin<{dd}>({x}, {y})"),
        (Max(_), Int) => format!("ksem_imax<{dd}>({x}, {y})"),
        (LogicalAnd, Int) => format!("(({x} != 0 && {y} != 0) ? 1ull : 0ull)"),
        (LogicalOr, Int) => format!("(({x} != 0 || {y} != 0) ? 1ull : 0ull)"),
        (IDiv(_) | IRem(_) | And | Or | Xor | Shl(_) | Shr(..) | LogicalAnd | LogicalOr, Float)
        | (FDiv | FRem | Pow | Atan2 | Hypot | CopySign | Ieee(..), Int) => {
            return err(span, format!("{op:?} on {d}"))
        }
    })
}

/// The C lines of a Python `range(lo, hi, st)` loop over variable `var` of
/// dtype `d` with temporaries `t`: the trip count, the loop header (its body
/// follows, then `}`), the iteration guard and the variable's update.
pub(super) fn range_loop(
    var: &str,
    d: DType,
    [lo, hi, st]: [&str; 3],
    t: &[String; 4],
) -> [String; 4] {
    let [tl, ts, tn, it] = t;
    [
        format!(
            "const ku64 {tl} = {lo}, {ts} = {st}, {tn} = ksem_trip_count<{}>({tl}, {hi}, {ts});",
            dt(d)
        ),
        format!("for (ku64 {it} = 0; {it} < {tn}; ++{it}) {{"),
        "if (++ksem_iters > KSEM_MAX_ITERS) return;".to_string(),
        format!("{var} = ({tl} + {it} * {ts}) & kmask({});", dt(d)),
    ]
}
