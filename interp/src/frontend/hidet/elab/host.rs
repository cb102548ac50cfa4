//! Python values while transpiling: what Hidet's transpiler computes with
//! Python's own rules before any C is generated.

use super::*;

/// Python's floor division of two host integers (`None` for a zero divisor).
pub fn py_floordiv(x: i128, y: i128) -> Option<i128> {
    (y != 0).then(|| crate::ops::floor_div(x, y))
}

/// Python's modulo of two host integers (`None` for a zero divisor).
pub(super) fn py_mod(x: i128, y: i128) -> Option<i128> {
    Some(x - py_floordiv(x, y)? * y)
}

/// The truth of a value known while transpiling.
pub(super) fn host_truth(v: &Val) -> Option<bool> {
    match v {
        Val::Bool(b) => Some(*b),
        Val::Int(i) => Some(*i != 0),
        Val::Float(f) => Some(*f != 0.0),
        Val::Num { e, .. } if e.ty.dtype() == DType::Bool => fold(e).map(|b| b != 0),
        _ => None,
    }
}

/// Python's arithmetic on two host numbers (`Some(None)`: division by zero;
/// `None`: not two host numbers).
pub(super) fn host_binop(op: ast::Operator, l: &Val, r: &Val) -> Option<Option<Val>> {
    use ast::Operator as O;
    let as_int = |v: &Val| match v {
        Val::Int(i) => Some(*i),
        Val::Bool(b) => Some(*b as i128),
        _ => None,
    };
    let as_f = |v: &Val| match v {
        Val::Int(i) => Some(*i as f64),
        Val::Bool(b) => Some(*b as u8 as f64),
        Val::Float(f) => Some(*f),
        _ => None,
    };
    if let (Some(x), Some(y)) = (as_int(l), as_int(r)) {
        return Some(match op {
            O::Add => x.checked_add(y).map(Val::Int),
            O::Sub => x.checked_sub(y).map(Val::Int),
            O::Mult => x.checked_mul(y).map(Val::Int),
            O::FloorDiv => py_floordiv(x, y).map(Val::Int),
            O::Mod => py_mod(x, y).map(Val::Int),
            O::Div => (y != 0).then(|| Val::Float(x as f64 / y as f64)),
            O::BitAnd => Some(Val::Int(x & y)),
            O::BitOr => Some(Val::Int(x | y)),
            O::BitXor => Some(Val::Int(x ^ y)),
            O::LShift => (0..64)
                .contains(&y)
                .then(|| x.checked_shl(y as u32))
                .flatten()
                .map(Val::Int),
            O::RShift => (0..128).contains(&y).then(|| Val::Int(x >> y)),
            O::Pow => (0..64)
                .contains(&y)
                .then(|| x.checked_pow(y as u32))
                .flatten()
                .map(Val::Int),
            O::MatMult => None,
        });
    }
    if let (Some(x), Some(y)) = (as_f(l), as_f(r)) {
        return Some(match op {
            O::Add => Some(Val::Float(x + y)),
            O::Sub => Some(Val::Float(x - y)),
            O::Mult => Some(Val::Float(x * y)),
            O::Div => (y != 0.0).then(|| Val::Float(x / y)),
            O::FloorDiv => (y != 0.0).then(|| Val::Float((x / y).floor())),
            O::Mod => (y != 0.0).then(|| {
                let m = x % y;
                Val::Float(if m != 0.0 && (m < 0.0) != (y < 0.0) {
                    m + y
                } else {
                    m
                })
            }),
            O::Pow => Some(Val::Float(x.powf(y))),
            _ => None,
        });
    }
    None
}

/// Python's comparison of two host numbers.
pub(super) fn host_cmp(op: ast::CmpOp, l: &Val, r: &Val) -> Option<bool> {
    use ast::CmpOp as C;
    let f = |v: &Val| match v {
        Val::Int(i) => Some(*i as f64),
        Val::Bool(b) => Some(*b as u8 as f64),
        Val::Float(f) => Some(*f),
        _ => None,
    };
    if let (Val::Int(x), Val::Int(y)) = (l, r) {
        return Some(match op {
            C::Eq => x == y,
            C::NotEq => x != y,
            C::Lt => x < y,
            C::LtE => x <= y,
            C::Gt => x > y,
            C::GtE => x >= y,
            _ => return None,
        });
    }
    let (x, y) = (f(l)?, f(r)?);
    Some(match op {
        C::Eq => x == y,
        C::NotEq => x != y,
        C::Lt => x < y,
        C::LtE => x <= y,
        C::Gt => x > y,
        C::GtE => x >= y,
        _ => return None,
    })
}
