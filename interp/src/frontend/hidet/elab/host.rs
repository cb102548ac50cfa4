//! Python values while transpiling: what Hidet's transpiler computes with
//! Python's own rules before any C is generated. The arithmetic is
//! CPython's, decided once in `py::num`.

use super::*;
use crate::frontend::py::num::{self, PyError, PyNum};

/// The Python number a host value is, if it is one.
fn host_num(v: &Val) -> Option<PyNum> {
    match v {
        Val::Int(i) => Some(PyNum::Int(*i)),
        Val::Bool(b) => Some(PyNum::Bool(*b)),
        Val::Float(f) => Some(PyNum::Float(*f)),
        _ => None,
    }
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

/// The truth of a value known while transpiling.
pub(super) fn host_truth(v: &Val) -> Option<bool> {
    match v {
        Val::Num { e, .. } if e.ty.dtype() == DType::Bool => fold(e).map(|b| b != 0),
        other => host_num(other).map(PyNum::truthy),
    }
}

/// Python's arithmetic on two host numbers (`Some(Err)`: Python raises;
/// `None`: not two host numbers).
pub(super) fn host_binop(op: ast::Operator, l: &Val, r: &Val) -> Option<Result<Val, PyError>> {
    let (x, y) = (host_num(l)?, host_num(r)?);
    Some(num::binop(op, x, y).map(Val::from))
}

/// Python's comparison of two host numbers.
pub(super) fn host_cmp(op: ast::CmpOp, l: &Val, r: &Val) -> Option<bool> {
    num::compare(op, host_num(l)?, host_num(r)?).ok()
}
