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
        DType::Bool | DType::U8 | DType::F8E4Nv | DType::F8E5 => "unsigned char",
    }
}

/// The bits of a scalar argument held in C variable `name`.
pub(super) fn scalar_bits_expr(d: DType, name: &str) -> String {
    match d {
        DType::F32 => format!("(ku32)__float_as_uint({name})"),
        DType::F64 => format!("(ku64)__double_as_longlong({name})"),
        DType::Bool => format!("(ku8)({name} != 0)"),
        _ => format!("({})({name})", bits_type(d)),
    }
}

/// The C expression of unary `op` on the bits `a` of a `d` value.
pub(super) fn unary_c(op: UnOp, d: DType, a: &str) -> String {
    match op {
        UnOp::Not => format!("ksem_inot<{}>({a})", dt(d)),
        UnOp::LogicalNot => format!("({a} == 0 ? 1ull : 0ull)"),
        UnOp::Neg if d.is_float() => format!("({a} ^ ksignbit({}))", dt(d)),
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

/// The C expression of binary `op` on the bits `x`, `y` of operands of
/// type `aty` and (for pointer offsets) dtype `od`; each operand is used once.
pub(super) fn binary_c(
    op: BinOp,
    aty: &Type,
    od: DType,
    x: &str,
    y: &str,
    span: Span,
) -> LResult<String> {
    let d = aty.dtype();
    let dd = dt(d);
    let op = &op;
    Ok(if *op == BinOp::PtrAdd {
        format!("ksem_ptradd<{}>({x}, {y})", dt(od))
    } else if *op == BinOp::PtrDiff {
        format!("ksem_ptrdiff({x}, {y})")
    } else if *op == BinOp::PtrAddBytes {
        format!(
            "ksem_ptraddbytes<{}, {}>({x}, {y})",
            dt(od),
            d.bits().div_ceil(8)
        )
    } else if aty.is_ptr() {
        if !op.is_comparison() {
            return err(span, format!("{op:?} on pointers"));
        }
        format!("(ku64)ksem_icmp<KU64>({}, {x}, {y})", cmp_id(*op))
    } else if d.is_float() {
        match op {
            BinOp::Add => format!("ksem_fadd<{dd}>({x}, {y})"),
            BinOp::Sub => format!("ksem_fsub<{dd}>({x}, {y})"),
            BinOp::Mul => format!("ksem_fmul<{dd}>({x}, {y})"),
            BinOp::FDiv => format!("ksem_fdiv<{dd}>({x}, {y})"),
            BinOp::FRem => format!("ksem_frem<{dd}>({x}, {y})"),
            BinOp::Pow => format!("ksem_pow<{dd}>({x}, {y})"),
            BinOp::Atan2 => format!("ksem_atan2<{dd}>({x}, {y})"),
            BinOp::Hypot => format!("ksem_hypot<{dd}>({x}, {y})"),
            BinOp::CopySign => format!("ksem_copysign<{dd}>({x}, {y})"),
            BinOp::Ieee(o, r) => format!(
                "ksem_ieee2<{dd}>({}, {}, {x}, {y})",
                *o as u8,
                rounding_id(*r)
            ),
            BinOp::Min(m) | BinOp::Max(m) => format!(
                "ksem_fminmax<{dd}>({x}, {y}, {}, {})",
                matches!(op, BinOp::Max(_)),
                *m == NanMode::Propagate
            ),
            op if op.is_comparison() => {
                format!("(ku64)ksem_fcmp<{dd}>({}, {x}, {y})", cmp_id(*op))
            }
            _ => return err(span, format!("{op:?} on {d}")),
        }
    } else {
        match op {
            BinOp::Add => format!("ksem_iadd<{dd}>({x}, {y})"),
            BinOp::Sub => format!("ksem_isub<{dd}>({x}, {y})"),
            BinOp::Mul => format!("ksem_imul<{dd}>({x}, {y})"),
            BinOp::IDiv(r) | BinOp::IRem(r) => format!(
                "ksem_idivrem<{dd}>({x}, {y}, {}, {})",
                r.round == DivRound::Floor,
                matches!(op, BinOp::IRem(_))
            ),
            BinOp::And => format!("({x} & {y})"),
            BinOp::Or => format!("({x} | {y})"),
            BinOp::Xor => format!("({x} ^ {y})"),
            BinOp::Shl(r) => {
                format!("ksem_shl<{dd}>({x}, {y}, {})", shift_range_id(*r))
            }
            BinOp::Shr(k, r) => format!(
                "ksem_shr<{dd}>({x}, {y}, {}, {})",
                *k == ShrKind::Arith,
                shift_range_id(*r)
            ),
            BinOp::Min(_) => format!("ksem_imin<{dd}>({x}, {y})"),
            BinOp::Max(_) => format!("ksem_imax<{dd}>({x}, {y})"),
            BinOp::LogicalAnd => format!("(({x} != 0 && {y} != 0) ? 1ull : 0ull)"),
            BinOp::LogicalOr => format!("(({x} != 0 || {y} != 0) ? 1ull : 0ull)"),
            op if op.is_comparison() => {
                format!("(ku64)ksem_icmp<{dd}>({}, {x}, {y})", cmp_id(*op))
            }
            _ => return err(span, format!("{op:?} on {d}")),
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
