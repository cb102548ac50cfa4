//! Hidet's scalar operations, each decided here once: the Hidet type of a
//! result, the casts Hidet inserts, the value the generated C computes.
//! The elaborator (`elab`) and the Hidet program generator of the fuzzer
//! build their IR with these functions, so the two cannot disagree.
//!
//! Both operands of `+ - * / // % & | ^` and of a comparison are cast to
//! Hidet's promoted type where their Hidet type differs from it (a Python
//! number's constant cast to a type keeps the number's value), then C
//! computes; `+ - * /` whose Hidet type is an integer narrower than 32 bits
//! (bool included) are cast back to it. `x + 0`, `x * 1`, … are `x` itself.
//! Shifts are C's on the left operand's promoted type. `a > b` promotes as
//! `b < a` (Hidet rewrites it so).

use super::types::{self, Named};
use crate::dtype::DType;
use crate::ir::build::*;
use crate::ir::*;
use crate::span::{DResult, Diagnostic, Span};

/// C's integer `/` and `%`: truncation; a zero divisor is UB.
pub const C_DIV: IntDiv = IntDiv {
    round: DivRound::Trunc,
    zero: DivZero::Ub,
};

/// A Python number of the script, before it meets a Hidet value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lit {
    Int(i128),
    Float(f64),
    Bool(bool),
}

impl Lit {
    fn as_f64(self) -> f64 {
        match self {
            Lit::Int(i) => i as f64,
            Lit::Float(f) => f,
            Lit::Bool(b) => b as u8 as f64,
        }
    }
}

/// A scalar operand: the C expression computing it, its Hidet type while
/// transpiling (`hty`: what a variable it defines is declared as), its type
/// after Hidet's passes have cast the operands of every operation to their
/// promoted type (`pty`: they differ for `& | ^`, typed as the left operand
/// while transpiling and as the promoted type after), and the Python number
/// it came from (if it is one).
#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    pub e: Expr,
    pub hty: DType,
    pub pty: DType,
    pub lit: Option<Lit>,
}

impl Scalar {
    /// A Hidet value (not a Python number).
    pub fn num(e: Expr, hty: DType) -> Scalar {
        Scalar {
            e,
            hty,
            pty: hty,
            lit: None,
        }
    }

    /// A Python number as the constant Hidet makes of it (an `int` is
    /// `int32`, printed as a decimal literal, so C reads one that does not
    /// fit as `long`; a `float` is the `float32` literal `'{}f'`).
    pub fn literal(v: Lit, span: Span) -> DResult<Scalar> {
        let (e, hty) = match v {
            Lit::Int(i) => {
                let c = if fits(i, DType::I32) {
                    DType::I32
                } else if fits(i, DType::I64) {
                    DType::I64
                } else {
                    return Err(Diagnostic::new(
                        span,
                        format!("the integer {i} does not fit 64 bits"),
                    ));
                };
                (int_const(c, i, span), DType::I32)
            }
            Lit::Float(f) => (f32_literal(f, span), DType::F32),
            Lit::Bool(b) => (konst(DType::Bool, b as u64, span), DType::Bool),
        };
        Ok(Scalar {
            e,
            hty,
            pty: hty,
            lit: Some(v),
        })
    }

    /// Whether it is the constant `k`: a Python number, or a Hidet value
    /// made only of constants (Hidet folds those as it builds them, so
    /// `x | (u32(5) & u32(2))` is `x | 0`, which is `x`).
    fn is_const(&self, k: f64) -> bool {
        if let Some(l) = self.lit {
            return l.as_f64() == k;
        }
        let d = dtype_of(&self.e);
        fold(&self.e).is_some_and(|b| {
            if d.is_float() {
                crate::float::to_f64(d, b) == k
            } else {
                crate::ops::int_value(d, b) as f64 == k
            }
        })
    }
}

/// A binary operator of the script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

impl Op {
    /// The operator as the script writes it.
    pub fn text(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::FloorDiv => "//",
            Op::Mod => "%",
            Op::And => "&",
            Op::Or => "|",
            Op::Xor => "^",
            Op::Shl => "<<",
            Op::Shr => ">>",
        }
    }
}

/// Whether integer `v` fits dtype `d`.
pub fn fits(v: i128, d: DType) -> bool {
    let bits = d.bits();
    if d.is_signed_int() {
        let lim = 1i128 << (bits - 1);
        (-lim..lim).contains(&v)
    } else {
        (0..(1i128 << bits)).contains(&v)
    }
}

/// A Python float as the `float32` literal Hidet prints for it
/// (`'{}f'.format(value)`): the shortest decimal of the double, read as a
/// float by the C compiler (rounded once, to nearest even).
pub fn f32_literal(f: f64, span: Span) -> Expr {
    let text = format!("{f:?}");
    let v: f32 = text.parse().unwrap_or(f as f32);
    konst(DType::F32, v.to_bits() as u64, span)
}

/// A Python number as the constant of type `t` Hidet makes when it casts
/// the number's constant to `t` (the cast of a constant is a constant with
/// the number's own value, printed as a `t` literal): a double keeps the
/// full value, a float is the `'{}f'` literal, a half that literal
/// converted, an integer type wraps Python's `int()` of the value.
pub fn literal_as(v: Lit, t: DType, span: Span) -> Option<Expr> {
    let f = v.as_f64();
    Some(match t {
        DType::F64 => float_const(DType::F64, f, span),
        DType::F32 => f32_literal(f, span),
        d if d.is_float() => convert(f32_literal(f, span), d),
        DType::Bool => konst(DType::Bool, (f != 0.0) as u64, span),
        d => match v {
            Lit::Int(i) => int_const(d, i, span),
            _ if f.is_finite() => int_const(d, f.trunc() as i128, span),
            _ => return None,
        },
    })
}

/// An operand as Hidet passes it to an operation of promoted type `p`:
/// cast where its type (after Hidet's passes) is not `p`.
pub fn operand(v: &Scalar, p: DType, span: Span) -> Expr {
    if v.pty == p {
        return v.e.clone();
    }
    if let Some(c) = v.lit.and_then(|l| literal_as(l, p, span)) {
        return c;
    }
    convert(v.e.clone(), p)
}

/// The value stored into (or assigned to) a `t` slot: Hidet casts it where
/// its type is not `t`, a Python number keeping its value.
pub fn value_for(v: &Scalar, t: DType, span: Span) -> Expr {
    convert(operand(v, t, span), t)
}

/// Hidet's promotion, or its refusal.
pub fn promote(a: DType, b: DType, span: Span) -> DResult<DType> {
    types::promote(a, b).ok_or_else(|| {
        Diagnostic::new(
            span,
            format!("Can not promote type {} and {}", Named(a), Named(b)),
        )
    })
}

/// `l OP r` of two scalars (at least one a Hidet value).
pub fn binary(op: Op, l: &Scalar, r: &Scalar, span: Span) -> DResult<Scalar> {
    // Hidet returns the other operand itself for `x + 0`, `x - 0`, `x ^ 0`,
    // `x | 0`, `0 + x`, `0 ^ x`, `0 | x`, `x * 1`, `x / 1`, `1 * x` when it
    // builds the expression (measured: an i64 `x * 1.0` is x, exactly;
    // −0.0 + 0.0 stays −0.0): no operation is left
    let identity = match op {
        Op::Add | Op::Sub | Op::Xor | Op::Or if r.is_const(0.0) => Some(l),
        Op::Mul | Op::Div | Op::FloorDiv if r.is_const(1.0) => Some(l),
        Op::Add | Op::Xor | Op::Or if l.is_const(0.0) => Some(r),
        Op::Mul if l.is_const(1.0) => Some(r),
        _ => None,
    };
    if let Some(x) = identity.filter(|x| x.lit.is_none()) {
        return Ok(x.clone());
    }
    // the type while transpiling (`promote_type`, a bitwise operator's left
    // operand) and after the passes cast each operation's operands to the
    // promotion of their own (post-pass) types
    let pre = promote(l.hty, r.hty, span)?;
    let post = promote(l.pty, r.pty, span)?;
    let (hty, pty) = match op {
        Op::And | Op::Or | Op::Xor => (l.hty, post),
        Op::Shl | Op::Shr => (l.hty, l.pty),
        _ => (pre, post),
    };
    let promoted = post;
    let needs_int = |c: DType| -> DResult<()> {
        if c.is_float() {
            let help = if op == Op::Mod {
                "Hidet writes C's `%`, which floats do not have: compute a - b * floor(a / b)"
            } else {
                "convert the operands to an integer type first"
            };
            return Err(
                Diagnostic::new(span, format!("`{}` needs integer operands", op.text()))
                    .with_help(help),
            );
        }
        Ok(())
    };
    let e = match op {
        Op::Shl | Op::Shr => {
            // no casts: C shifts the promoted left operand
            let (da, db) = (dtype_of(&l.e), dtype_of(&r.e));
            needs_int(if da.is_float() { da } else { db })?;
            let lt = types::c_promote(da);
            let cnt = convert(convert(r.e.clone(), types::c_promote(db)), lt);
            let bop = if op == Op::Shl {
                BinOp::Shl(ShiftRange::Ub)
            } else if lt.is_signed_int() {
                BinOp::Shr(ShrKind::Arith, ShiftRange::Ub)
            } else {
                BinOp::Shr(ShrKind::Logical, ShiftRange::Ub)
            };
            bin(bop, convert(l.e.clone(), lt), cnt, span)
        }
        _ => {
            let a = operand(l, promoted, span);
            let b = operand(r, promoted, span);
            let c = types::c_arith(dtype_of(&a), dtype_of(&b));
            let bop = match op {
                Op::Add => BinOp::Add,
                Op::Sub => BinOp::Sub,
                Op::Mul => BinOp::Mul,
                Op::Div | Op::FloorDiv if c.is_float() => BinOp::FDiv,
                Op::Div | Op::FloorDiv => BinOp::IDiv(C_DIV),
                Op::Mod => {
                    needs_int(c)?;
                    BinOp::IRem(C_DIV)
                }
                Op::And | Op::Or | Op::Xor => {
                    needs_int(c)?;
                    match op {
                        Op::And => BinOp::And,
                        Op::Or => BinOp::Or,
                        _ => BinOp::Xor,
                    }
                }
                Op::Shl | Op::Shr => unreachable!("handled above"),
            };
            let v = bin(bop, convert(a, c), convert(b, c), span);
            // Hidet's code generator casts a narrow integer result of
            // `+ - * /` back to its type (bool included: `(bool)(a + b)`)
            let arith = matches!(op, Op::Add | Op::Sub | Op::Mul | Op::Div | Op::FloorDiv);
            if arith && pty.is_int() && pty.bits() < 32 {
                convert(v, pty)
            } else {
                v
            }
        }
    };
    Ok(Scalar {
        e,
        hty,
        pty,
        lit: None,
    })
}

/// A comparison `l CMP r` (`cmp` one of Eq, Ne, Lt, Le, Gt, Ge): bool.
pub fn compare(cmp: BinOp, l: &Scalar, r: &Scalar, span: Span) -> DResult<Scalar> {
    // Hidet writes `a > b` as `b < a` (and `>=` as `<=`): its promotion
    // table, which is not symmetric, sees the operands swapped
    let p = if matches!(cmp, BinOp::Gt | BinOp::Ge) {
        promote(r.pty, l.pty, span)?
    } else {
        promote(l.pty, r.pty, span)?
    };
    let a = operand(l, p, span);
    let b = operand(r, p, span);
    let c = types::c_arith(dtype_of(&a), dtype_of(&b));
    Ok(Scalar::num(
        bin(cmp, convert(a, c), convert(b, c), span),
        DType::Bool,
    ))
}

/// `-x`: C's negation of the promoted value, of `x`'s Hidet type.
pub fn neg(x: &Scalar, span: Span) -> Scalar {
    let c = types::c_promote(dtype_of(&x.e));
    Scalar {
        e: unary(UnOp::Neg, convert(x.e.clone(), c), span),
        hty: x.hty,
        pty: x.pty,
        lit: None,
    }
}

/// The truth of a scalar as a bool (C's `x != 0`).
pub fn truth(e: Expr, span: Span) -> Expr {
    let d = dtype_of(&e);
    if d == DType::Bool {
        return e;
    }
    let zero = konst(d, 0, span);
    bin(BinOp::Ne, e, zero, span)
}

/// `T(x)` (and `cast(x, T)`): a Python number becomes a constant of the
/// type (Hidet prints a typed C literal; the dtype call range-checks an
/// integer, measured: "Value 300 is out of range for int8"); a Hidet value
/// is converted as C's cast does.
pub fn cast(x: &Scalar, d: DType, span: Span) -> DResult<Scalar> {
    let e = match x.lit {
        Some(Lit::Int(i)) => {
            if d.is_float() {
                float_const(d, i as f64, span)
            } else if d == DType::Bool {
                konst(DType::Bool, (i != 0) as u64, span)
            } else {
                if !fits(i, d) {
                    return Err(Diagnostic::new(
                        span,
                        format!("Value {i} is out of range for {}", Named(d)),
                    ));
                }
                int_const(d, i, span)
            }
        }
        Some(Lit::Float(f)) => {
            if d == DType::F32 {
                f32_literal(f, span)
            } else if d.is_float() {
                float_const(d, f, span)
            } else if d == DType::Bool {
                konst(DType::Bool, (f != 0.0) as u64, span)
            } else {
                if !f.is_finite() {
                    return Err(Diagnostic::new(
                        span,
                        format!("{}({f}) while transpiling", Named(d)),
                    ));
                }
                int_const(d, f.trunc() as i128, span)
            }
        }
        _ => convert(x.e.clone(), d),
    };
    Ok(Scalar::num(e, d))
}

/// `bitwise_not(x)` of an integer: C's `~` of the promoted value, of `x`'s
/// Hidet type.
pub fn bitwise_not(x: &Scalar, span: Span) -> DResult<Scalar> {
    let d = dtype_of(&x.e);
    if d.is_float() {
        return Err(Diagnostic::new(span, "bitwise_not needs an integer"));
    }
    let c = types::c_promote(d);
    Ok(Scalar {
        e: unary(UnOp::Not, convert(x.e.clone(), c), span),
        hty: x.hty,
        pty: x.pty,
        lit: None,
    })
}

/// `not x`: bool.
pub fn not(x: &Scalar, span: Span) -> Scalar {
    Scalar::num(
        unary(UnOp::LogicalNot, truth(x.e.clone(), span), span),
        DType::Bool,
    )
}

/// `threadIdx.x` and friends (`kind` one of the id nodes): C's `unsigned
/// int` values, of Hidet type `int32` (Hidet prints CUDA's own variables).
pub fn cuda_index(kind: ExprKind, span: Span) -> Scalar {
    let e = mk(kind, Type::scalar(DType::I32), span);
    Scalar::num(convert(e, DType::U32), DType::I32)
}

/// The C type of `a if c else b` for branches computing in `a` and `b`.
pub fn if_exp_type(a: DType, b: DType) -> DType {
    if a == DType::Bool && b == DType::Bool {
        DType::Bool
    } else {
        types::c_arith(a, b)
    }
}

/// `atomic_OP(ptr, value)` (`cmp`: the compared value of a CAS): the node
/// whose value is the element's old value, the operands converted to the
/// element's type as C's call converts them.
pub fn atomic(op: AtomicOp, ptr: Expr, val: &Scalar, cmp: Option<&Scalar>, span: Span) -> Expr {
    let d = ptr.ty.dtype();
    mk(
        ExprKind::Atomic {
            op,
            ptr: Box::new(ptr),
            val: Box::new(convert(val.e.clone(), d)),
            cmp: cmp.map(|c| Box::new(convert(c.e.clone(), d))),
            mask: None,
        },
        Type::scalar(d),
        span,
    )
}

/// `p - q` of two pointers to numbers of one dtype: the number of elements
/// between them, which C computes as a `ptrdiff_t` (`int64`) and Hidet
/// types `int32` (measured: tools/probes/hidet/refuse.json, vecptr.json).
pub fn ptr_diff(p: Expr, q: Expr, span: Span) -> Scalar {
    let e = mk(
        ExprKind::Binary(BinOp::PtrDiff, Box::new(p), Box::new(q)),
        Type::scalar(DType::I64),
        span,
    );
    Scalar {
        e,
        hty: DType::I32,
        pty: DType::I32,
        lit: None,
    }
}
