//! Host-side expressions: what Python computes when it imports a kernel's
//! module (`A = 1.0 // 0.1`, `BLOCK = 2 ** 8`, `SHAPE = (16, 16)`, `EPS =
//! max(1e-6, 1 / 1024)`), evaluated once for every front end on
//! [`PyValue`]s with CPython's rules ([`super::num`], [`super::value`]). A
//! front end supplies the names (module-level values it already knows) and
//! how a callee's dotted name resolves through its imports (`m.floor` →
//! `math.floor`).

use super::num::PyError;
use super::value::{compare, ops, Extra, NoExtra, PyValue};
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast;

/// What a front end knows of a module's names, for [`eval`].
pub trait HostNames<X: Extra = NoExtra> {
    /// The value a module-level name is bound to, if ksem knows it.
    fn value(&self, name: &str) -> Option<PyValue<X>>;
    /// The full dotted path a callee's name resolves to through the
    /// module's imports (`floor` after `from math import floor` →
    /// `math.floor`); builtins keep their own name.
    fn callee(&self, dotted: &str) -> String;
    /// The dialect's own reading of `e`, before the shared rules (Triton's
    /// heuristics read their dict of arguments and `triton.cdiv`): `None`
    /// where the shared rules decide, as they do for every front end by
    /// default.
    fn own(&self, _e: &ast::Expr) -> Option<Result<PyValue<X>, NoValue>> {
        None
    }
}

/// Why a host expression has no value: it is not one ksem evaluates (a
/// call it does not know, a name of something else), or Python raises on
/// it.
#[derive(Clone, Debug, PartialEq)]
pub enum NoValue {
    /// Not an expression ksem evaluates on the host.
    Unknown,
    /// Python raises when it evaluates the expression: the module cannot
    /// be imported as written.
    Raises(PyError),
    /// The dialect's own reason ([`HostNames::own`]), in its words.
    Other(String),
    /// The dialect's own error, located and complete ([`HostNames::own`]:
    /// TileLang's query of a device ksem's target does not have).
    Located(Box<Diagnostic>),
}

impl From<PyError> for NoValue {
    fn from(e: PyError) -> NoValue {
        NoValue::Raises(e)
    }
}

/// A known answer, an unknown one, or Python's exception.
fn known<T>(r: Option<Result<T, PyError>>) -> Result<T, NoValue> {
    r.ok_or(NoValue::Unknown)?.map_err(NoValue::Raises)
}

/// The value `e` evaluates to when Python runs it on the host: literals,
/// names, tuple displays, subscripts, unary and binary operators,
/// comparison chains, `and`/`or`, conditional expressions, and the
/// builtins and `math` functions of [`ops`].
pub fn eval<X: Extra>(e: &ast::Expr, names: &dyn HostNames<X>) -> Result<PyValue<X>, NoValue> {
    eval_at(e, names).map_err(|(why, _)| why)
}

/// [`eval`], with the innermost sub-expression of `e` that has no value
/// where it has none (where a dialect reports it).
pub fn eval_at<'e, X: Extra>(
    e: &'e ast::Expr,
    names: &dyn HostNames<X>,
) -> Result<PyValue<X>, (NoValue, &'e ast::Expr)> {
    if let Some(r) = names.own(e) {
        return r.map_err(|why| (why, e));
    }
    let here = |why: NoValue| (why, e);
    let unknown = || (NoValue::Unknown, e);
    Ok(match e {
        ast::Expr::Constant(c) => known(PyValue::literal(&c.value)).map_err(here)?,
        ast::Expr::Name(n) => names.value(n.id.as_str()).ok_or_else(unknown)?,
        ast::Expr::Tuple(t) => PyValue::Tuple(
            t.elts
                .iter()
                .map(|x| eval_at(x, names))
                .collect::<Result<_, _>>()?,
        ),
        ast::Expr::Subscript(s) => {
            let (v, i) = (eval_at(&s.value, names)?, eval_at(&s.slice, names)?);
            // a dialect's object is indexed by the dialect's rules
            if matches!(v, PyValue::Type(_) | PyValue::Path(_) | PyValue::Extra(_)) {
                return Err(unknown());
            }
            ops::index(&v, &i).map_err(|err| here(err.into()))?
        }
        ast::Expr::UnaryOp(u) => {
            let x = eval_at(&u.operand, names)?;
            known(ops::unary(u.op, &x).transpose()).map_err(here)?
        }
        ast::Expr::BinOp(b) => {
            let (x, y) = (eval_at(&b.left, names)?, eval_at(&b.right, names)?);
            known(ops::binop(b.op, &x, &y)).map_err(here)?
        }
        ast::Expr::Compare(c) => {
            let mut left = eval_at(&c.left, names)?;
            for (op, r) in c.ops.iter().zip(&c.comparators) {
                let right = eval_at(r, names)?;
                if !known(compare::compare(*op, &left, &right).transpose()).map_err(here)? {
                    return Ok(PyValue::bool(false));
                }
                left = right;
            }
            PyValue::bool(true)
        }
        ast::Expr::BoolOp(b) => {
            // the operand that decides, itself
            let is_and = matches!(b.op, ast::BoolOp::And);
            let mut last = PyValue::bool(is_and);
            for v in &b.values {
                last = eval_at(v, names)?;
                if last.truthy().ok_or((NoValue::Unknown, v))? != is_and {
                    break;
                }
            }
            last
        }
        ast::Expr::IfExp(i) => {
            let test = eval_at(&i.test, names)?;
            if test.truthy().ok_or((NoValue::Unknown, &*i.test))? {
                eval_at(&i.body, names)?
            } else {
                eval_at(&i.orelse, names)?
            }
        }
        ast::Expr::Call(c) if c.keywords.is_empty() => {
            let f = super::dotted(&c.func).ok_or_else(unknown)?;
            let path = names.callee(&f);
            let args = c
                .args
                .iter()
                .map(|a| eval_at(a, names))
                .collect::<Result<Vec<_>, _>>()?;
            known(match path.strip_prefix("math.") {
                Some(m) => ops::math(m, &args),
                None => ops::builtin(&path, &args),
            })
            .map_err(here)?
        }
        _ => return Err(unknown()),
    })
}

/// The value of a module-level assignment's expression as a module scan
/// keeps it: `None` where ksem does not know it, and the error at `span`
/// where Python raises on it.
pub fn at_import<X: Extra>(
    e: &ast::Expr,
    names: &dyn HostNames<X>,
    span: Span,
) -> DResult<Option<PyValue<X>>> {
    match eval(e, names) {
        Ok(v) => Ok(Some(v)),
        Err(NoValue::Unknown | NoValue::Other(_)) => Ok(None),
        Err(NoValue::Raises(err)) => Err(raises_at_import(span, err)),
        Err(NoValue::Located(d)) => Err(*d),
    }
}

/// The error for a module-level expression Python raises on when it
/// imports the file (the real system never gets to compile the kernel).
pub fn raises_at_import(span: Span, err: PyError) -> Diagnostic {
    Diagnostic::new(
        span,
        format!("Python raises {err} here when it imports the module"),
    )
}
