//! numba's `Optional` of a number: a device function that returns None on
//! some paths (`return`, `return None`) and a number on others returns
//! both the number and whether None was returned (`Val::Optional`). `x is
//! None` / `x is not None` test that flag; where a number is needed the
//! number is used (numba unwraps the Optional; on a None path it is the
//! result variable no `return` wrote, an undefined value).

use super::*;

impl Elab<'_> {
    /// `a is None`, `a is not None` (either side) of an Optional: its flag
    /// (negated for `is not`); `None` for any other comparison.
    pub(super) fn none_test(&mut self, op: ast::CmpOp, a: &Val, b: &Val) -> Option<Expr> {
        let flag = match (a, b) {
            (Val::Optional(f, _), Val::None) | (Val::None, Val::Optional(f, _)) => f.clone(),
            _ => return None,
        };
        let span = flag.span;
        match op {
            ast::CmpOp::Is => Some(flag),
            ast::CmpOp::IsNot => Some(bin(BinOp::Eq, flag, konst(DType::Bool, 0, span), span)),
            _ => None,
        }
    }
}
