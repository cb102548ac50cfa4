//! Python's comparisons of host values: `==` by value across kinds (`1 ==
//! 1.0 == True`; values of unrelated kinds are unequal), the orderings of
//! numbers, strings (by code point) and tuples or lists (each against its
//! own kind, lexicographic, decided by the first pair of elements that
//! differ, else by the lengths), `in` over a tuple, a list or a string, and
//! `is`.

use super::{Extra, PyValue};
use crate::frontend::py::num::{self, PyError, PyResult};
use rustpython_parser::ast::CmpOp;
use std::cmp::Ordering;

/// Python's `a == b` (`None` where the host cannot know it: a dialect
/// object that says so, such as a runtime tensor).
pub fn py_eq<X: Extra>(a: &PyValue<X>, b: &PyValue<X>) -> Option<bool> {
    use PyValue as V;
    Some(match (a, b) {
        (V::Extra(x), other) | (other, V::Extra(x)) => return x.py_eq(other),
        (V::Num(x), V::Num(y)) => num::order(*x, *y) == Some(Ordering::Equal),
        (V::Str(x), V::Str(y)) => x == y,
        (V::None, V::None) => true,
        (V::Type(x), V::Type(y)) => x == y,
        (V::Type(d), V::Str(s)) | (V::Str(s), V::Type(d)) => X::dtype_eq_str(*d, s),
        (V::Path(x), V::Path(y)) => x == y,
        (V::Tuple(x), V::Tuple(y)) | (V::List(x), V::List(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            for (p, q) in x.iter().zip(y) {
                if !py_eq(p, q)? {
                    return Some(false);
                }
            }
            true
        }
        _ => false,
    })
}

/// Python's `a is b` for values whose identity CPython fixes: `None`,
/// `True`/`False`, dtype objects and modules are singletons; ints of
/// CPython's small-int cache (-5..=256) and strings (literals are
/// interned) are one object per value. Values of different kinds are
/// never one object. `None` where identity depends on how the values were
/// made (two equal floats or tuples).
pub fn py_is<X: Extra>(a: &PyValue<X>, b: &PyValue<X>) -> Option<bool> {
    use crate::frontend::py::num::PyNum as N;
    use PyValue as V;
    Some(match (a, b) {
        (V::None, V::None) => true,
        (V::Num(N::Bool(x)), V::Num(N::Bool(y))) => x == y,
        (V::Num(N::Int(x)), V::Num(N::Int(y))) if x != y => false,
        (V::Num(N::Int(x)), V::Num(N::Int(_))) => {
            if (-5..=256).contains(x) {
                true
            } else {
                return None;
            }
        }
        (V::Num(N::Float(x)), V::Num(N::Float(y))) if x != y => false,
        (V::Str(x), V::Str(y)) => x == y,
        (V::Type(x), V::Type(y)) => x == y,
        (V::Path(x), V::Path(y)) => x == y,
        (V::Extra(x), V::Extra(_)) => return x.py_eq(b),
        (V::Tuple(x), V::Tuple(y)) | (V::List(x), V::List(y)) if x.len() != y.len() => false,
        (V::Num(N::Float(_)), V::Num(N::Float(_)))
        | (V::Tuple(_), V::Tuple(_))
        | (V::List(_), V::List(_)) => return None,
        _ => false,
    })
}

/// The ordering of two values where Python orders them (numbers, strings);
/// `Ok(None)` for unordered numbers (NaN), `Err` (Python's `TypeError`) for
/// plain values it does not order (`1 < "a"`, `None < 1`), `Err(None)` for
/// a dialect's objects, whose ordering is the dialect's.
fn order<X: Extra>(
    op: CmpOp,
    a: &PyValue<X>,
    b: &PyValue<X>,
) -> Result<Option<Ordering>, Option<PyError>> {
    use PyValue as V;
    match (a, b) {
        (V::Num(x), V::Num(y)) => Ok(num::order(*x, *y)),
        (V::Str(x), V::Str(y)) => Ok(Some(x.cmp(y))),
        (V::Tuple(_), V::Tuple(_)) | (V::List(_), V::List(_)) => {
            unreachable!("sequences are ordered by `ordered`")
        }
        // a dialect's objects (numba's types are ordered) are its own
        (V::Type(_) | V::Path(_) | V::Extra(_), _) | (_, V::Type(_) | V::Path(_) | V::Extra(_)) => {
            Err(None)
        }
        _ => Err(Some(PyError::Type(format!(
            "'{}' not supported between instances of '{}' and '{}'",
            symbol(op),
            a.type_name(),
            b.type_name()
        )))),
    }
}

fn symbol(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Lt => "<",
        CmpOp::LtE => "<=",
        CmpOp::Gt => ">",
        CmpOp::GtE => ">=",
        _ => "==",
    }
}

/// An ordering comparison: lexicographic for tuples and lists (the first pair of
/// elements that are not equal decides, compared with `op` itself; else
/// the lengths), by value for numbers and strings.
fn ordered<X: Extra>(op: CmpOp, a: &PyValue<X>, b: &PyValue<X>) -> PyResult<Option<bool>> {
    if let (PyValue::Tuple(x), PyValue::Tuple(y)) | (PyValue::List(x), PyValue::List(y)) = (a, b) {
        for (p, q) in x.iter().zip(y) {
            match py_eq(p, q) {
                Some(true) => {}
                Some(false) => return ordered(op, p, q),
                None => return Ok(None),
            }
        }
        return Ok(Some(holds(op, Some(x.len().cmp(&y.len())))));
    }
    match order(op, a, b) {
        Ok(o) => Ok(Some(holds(op, o))),
        Err(None) => Ok(None),
        Err(Some(e)) => Err(e),
    }
}

/// Whether an ordering satisfies `op` (an unordered pair satisfies none).
fn holds(op: CmpOp, o: Option<Ordering>) -> bool {
    use Ordering::*;
    match op {
        CmpOp::Lt => o == Some(Less),
        CmpOp::LtE => matches!(o, Some(Less | Equal)),
        CmpOp::Gt => o == Some(Greater),
        CmpOp::GtE => matches!(o, Some(Greater | Equal)),
        _ => false,
    }
}

/// Python's `a in b`: a tuple or list holds an element equal to `a`; a string
/// holds `a` as a substring.
fn contains<X: Extra>(a: &PyValue<X>, b: &PyValue<X>) -> PyResult<Option<bool>> {
    match (a, b) {
        (_, PyValue::Tuple(items) | PyValue::List(items)) => {
            for x in items {
                match py_eq(a, x) {
                    Some(true) => return Ok(Some(true)),
                    Some(false) => {}
                    None => return Ok(None),
                }
            }
            Ok(Some(false))
        }
        (PyValue::Str(x), PyValue::Str(y)) => Ok(Some(y.contains(x.as_str()))),
        (_, PyValue::Str(_)) => Err(PyError::Type(format!(
            "'in <string>' requires string as left operand, not {}",
            a.type_name()
        ))),
        _ => Err(PyError::Type(format!(
            "argument of type '{}' is not iterable",
            b.type_name()
        ))),
    }
}

/// Python's `a op b` for a comparison operator: `Ok(None)` where the host
/// cannot know the answer (a runtime tensor, identity of equal floats),
/// `Err` where Python raises.
pub fn compare<X: Extra>(op: CmpOp, a: &PyValue<X>, b: &PyValue<X>) -> PyResult<Option<bool>> {
    let not = |r: Option<bool>| r.map(|t| !t);
    Ok(match op {
        CmpOp::Eq => py_eq(a, b),
        CmpOp::NotEq => not(py_eq(a, b)),
        CmpOp::Is => py_is(a, b),
        CmpOp::IsNot => not(py_is(a, b)),
        CmpOp::In => contains(a, b)?,
        CmpOp::NotIn => not(contains(a, b)?),
        CmpOp::Lt | CmpOp::LtE | CmpOp::Gt | CmpOp::GtE => ordered(op, a, b)?,
    })
}
