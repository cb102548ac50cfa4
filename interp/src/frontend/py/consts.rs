//! Host-side number expressions: what Python computes when it imports a
//! kernel's module (`A = 1.0 // 0.1`, `BLOCK = 2 ** 8`, `EPS = max(1e-6,
//! 1 / 1024)`), evaluated once for every front end with [`super::num`]'s
//! CPython arithmetic. A front end supplies the names (module constants it
//! already knows) and how a callee's dotted name resolves through its
//! imports (`m.floor` → `math.floor`).

use super::num::{self, PyError, PyNum};
use crate::span::{Diagnostic, Span};
use rustpython_parser::ast::{self, Constant};

/// What a front end knows of a module's names, for [`eval`].
pub trait HostNames {
    /// The number a module-level name is bound to, if it is one.
    fn number(&self, name: &str) -> Option<PyNum>;
    /// The full dotted path a callee's name resolves to through the
    /// module's imports (`floor` after `from math import floor` →
    /// `math.floor`); builtins keep their own name.
    fn callee(&self, dotted: &str) -> String;
}

/// Why a host expression has no number: it is not one ksem folds (a call
/// it does not know, a name of something else), or Python raises on it.
#[derive(Clone, Debug, PartialEq)]
pub enum NotNumber {
    /// Not a number expression ksem evaluates on the host.
    Unknown,
    /// Python raises when it evaluates the expression: the module cannot
    /// be imported as written.
    Raises(PyError),
}

impl From<PyError> for NotNumber {
    fn from(e: PyError) -> NotNumber {
        NotNumber::Raises(e)
    }
}

/// A literal's number (`None` for other constants, and ints beyond
/// ksem's 128-bit limit give [`PyError::TooBig`]).
fn literal(c: &Constant) -> Option<Result<PyNum, PyError>> {
    Some(match c {
        Constant::Int(i) => i128::try_from(i)
            .map(PyNum::Int)
            .map_err(|_| PyError::TooBig),
        Constant::Float(f) => Ok(PyNum::Float(*f)),
        Constant::Bool(b) => Ok(PyNum::Bool(*b)),
        _ => return None,
    })
}

/// The number `e` evaluates to when Python runs it on the host: literals,
/// names, unary and binary operators, comparison chains, `and`/`or`,
/// conditional expressions, and the numeric builtins and `math` functions
/// of [`num`].
pub fn eval(e: &ast::Expr, names: &dyn HostNames) -> Result<PyNum, NotNumber> {
    use NotNumber::Unknown;
    Ok(match e {
        ast::Expr::Constant(c) => literal(&c.value).ok_or(Unknown)??,
        ast::Expr::Name(n) => names.number(n.id.as_str()).ok_or(Unknown)?,
        ast::Expr::UnaryOp(u) => num::unary(u.op, eval(&u.operand, names)?)?,
        ast::Expr::BinOp(b) => {
            let (x, y) = (eval(&b.left, names)?, eval(&b.right, names)?);
            num::binop(b.op, x, y)?
        }
        ast::Expr::Compare(c) => {
            let mut left = eval(&c.left, names)?;
            for (op, r) in c.ops.iter().zip(&c.comparators) {
                let right = eval(r, names)?;
                if !num::compare(*op, left, right).map_err(|_| Unknown)? {
                    return Ok(PyNum::Bool(false));
                }
                left = right;
            }
            PyNum::Bool(true)
        }
        ast::Expr::BoolOp(b) => {
            // the operand that decides, itself
            let is_and = matches!(b.op, ast::BoolOp::And);
            let mut last = PyNum::Bool(is_and);
            for v in &b.values {
                last = eval(v, names)?;
                if last.truthy() != is_and {
                    break;
                }
            }
            last
        }
        ast::Expr::IfExp(i) => {
            if eval(&i.test, names)?.truthy() {
                eval(&i.body, names)?
            } else {
                eval(&i.orelse, names)?
            }
        }
        ast::Expr::Call(c) if c.keywords.is_empty() => {
            let f = super::dotted(&c.func).ok_or(Unknown)?;
            let path = names.callee(&f);
            let args = c
                .args
                .iter()
                .map(|a| eval(a, names))
                .collect::<Result<Vec<_>, _>>()?;
            let r = match path.strip_prefix("math.") {
                Some(m) => num::math_call(m, &args),
                None => num::builtin_call(&path, &args),
            };
            r.ok_or(Unknown)??
        }
        _ => return Err(Unknown),
    })
}

/// The error for a module-level expression Python raises on when it
/// imports the file (the real system never gets to compile the kernel).
pub fn raises_at_import(span: Span, err: PyError) -> Diagnostic {
    Diagnostic::new(
        span,
        format!("Python raises {err} here when it imports the module"),
    )
}
