//! Python values while transpiling: what Hidet's transpiler computes with
//! Python's own rules before any C is generated. The rules are CPython's,
//! decided once in `py::value` (and `py::num` for numbers).

use super::*;
use crate::frontend::py::num::{PyError, PyNum};
use crate::frontend::py::value::{compare, ops};

/// The Python value a host value is, if it is one (a number or a string).
fn host_value(v: &Val) -> Option<PyValue> {
    Some(match v {
        Val::Int(i) => PyValue::int(*i),
        Val::Bool(b) => PyValue::bool(*b),
        Val::Float(f) => PyValue::float(*f),
        Val::Str(s) => PyValue::Str(s.clone()),
        _ => return None,
    })
}

impl From<PyNum> for Val {
    fn from(n: PyNum) -> Val {
        match n {
            PyNum::Bool(b) => Val::Bool(b),
            PyNum::Int(i) => Val::Int(i),
            PyNum::Float(f) => Val::Float(f),
        }
    }
}

/// The transpiler's value of a Python result (`None` for a kind it has no
/// value of: a tuple, `None`).
fn from_host(v: PyValue) -> Option<Val> {
    match v {
        PyValue::Num(n) => Some(Val::from(n)),
        PyValue::Str(s) => Some(Val::Str(s)),
        _ => None,
    }
}

/// The truth of a value known while transpiling.
pub(super) fn host_truth(v: &Val) -> Option<bool> {
    match v {
        Val::Num { e, .. } if e.ty.dtype() == DType::Bool => fold(e).map(|b| b != 0),
        other => host_value(other)?.truthy(),
    }
}

/// Python's `l op r` on two host values (`Some(Err)`: Python raises;
/// `None`: not two host values, or a result the transpiler has no value
/// of).
pub(super) fn host_binop(op: ast::Operator, l: &Val, r: &Val) -> Option<Result<Val, PyError>> {
    let (x, y) = (host_value(l)?, host_value(r)?);
    match ops::binop(op, &x, &y)? {
        Ok(v) => from_host(v).map(Ok),
        Err(e) => Some(Err(e)),
    }
}

/// Python's comparison of two host values (`None` where Python raises or
/// they are not both host values).
pub(super) fn host_cmp(op: ast::CmpOp, l: &Val, r: &Val) -> Option<bool> {
    compare::compare(op, &host_value(l)?, &host_value(r)?)
        .ok()
        .flatten()
}
