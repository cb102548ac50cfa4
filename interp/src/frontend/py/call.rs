//! A call site as the front ends' call handlers take it: the name a handler
//! dispatches on, the call expression and the span errors point at, with
//! the argument checks of [`super::arity`] as accessors, so a handler does
//! not re-read the call's arguments and keywords by hand.

use super::arity;
use crate::span::{DResult, Span};
use rustpython_parser::ast;

/// Keyword argument `name` of call `c`.
pub fn keyword<'a>(c: &'a ast::ExprCall, name: &str) -> Option<&'a ast::Expr> {
    c.keywords
        .iter()
        .find(|k| k.arg.as_deref() == Some(name))
        .map(|k| &k.value)
}

/// Argument `name` of call `c`: its keyword argument, else its positional
/// argument `pos` (Python refuses a call that passes both).
pub fn arg<'a>(c: &'a ast::ExprCall, name: &str, pos: usize) -> Option<&'a ast::Expr> {
    keyword(c, name).or_else(|| c.args.get(pos))
}

/// One call of a builtin, intrinsic or helper, as its handler sees it.
#[derive(Clone, Copy)]
pub struct Call<'a> {
    /// The name the handler dispatches on: a dotted path, or its tail below
    /// the module a dispatcher stripped ([`Call::below`]).
    pub name: &'a str,
    /// The call expression.
    pub expr: &'a ast::ExprCall,
    /// Where errors about the call point.
    pub span: Span,
}

impl<'a> Call<'a> {
    /// The call `expr` of `name`, reported at `span`.
    pub fn new(name: &'a str, expr: &'a ast::ExprCall, span: Span) -> Self {
        Call { name, expr, span }
    }

    /// The same call under another name.
    pub fn named(self, name: &'a str) -> Self {
        Call { name, ..self }
    }

    /// The call renamed to its name's tail below `prefix` (`"math."` of
    /// `"math.sin"` gives `"sin"`); `None` where the name is not below it.
    pub fn below(self, prefix: &str) -> Option<Self> {
        Some(self.named(self.name.strip_prefix(prefix)?))
    }

    /// The positional arguments as written.
    pub fn args(&self) -> &'a [ast::Expr] {
        &self.expr.args
    }

    /// The keyword arguments as written.
    pub fn keywords(&self) -> &'a [ast::Keyword] {
        &self.expr.keywords
    }

    /// Keyword argument `name` ([`keyword`]).
    pub fn keyword(&self, name: &str) -> Option<&'a ast::Expr> {
        keyword(self.expr, name)
    }

    /// Argument `name`, by keyword or at position `pos` ([`arg`]).
    pub fn arg(&self, name: &str, pos: usize) -> Option<&'a ast::Expr> {
        arg(self.expr, name, pos)
    }

    /// Refuses keyword arguments in CPython's words for `what`.
    pub fn no_keywords(&self, what: &str) -> DResult<()> {
        arity::no_keywords(self.expr, what, self.span)
    }

    /// The positional arguments, checked to be from `min` to `max` of them
    /// with no keywords (CPython's words for `what`).
    pub fn positional(&self, what: &str, takes: (usize, usize)) -> DResult<&'a [ast::Expr]> {
        arity::positional(self.expr, what, takes, self.span)?;
        Ok(self.args())
    }

    /// The positional arguments, checked to be exactly `n` (keywords are
    /// left to the handler).
    pub fn exactly(&self, what: &str, n: usize) -> DResult<&'a [ast::Expr]> {
        arity::expect_args(self.span, what, n, self.args().len())?;
        Ok(self.args())
    }
}
