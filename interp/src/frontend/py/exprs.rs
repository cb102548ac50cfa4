//! The expression forms a kernel language refuses, named once for every
//! front end (as `walk.rs` names the refused statements): one message form
//! ("X is not supported in a D kernel", at the expression), the dialect's
//! alternative as its help.

use super::unsupported;
use crate::span::{DResult, Span};
use rustpython_parser::ast;

/// A Python expression form some kernel language refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `lambda x: …`
    Lambda,
    /// `[x for …]`
    ListComp,
    /// `{x for …}`
    SetComp,
    /// `{k: v for …}`
    DictComp,
    /// `(x for …)`
    GeneratorExp,
    /// `[a, b]`
    ListLiteral,
    /// `{k: v}`
    DictLiteral,
    /// `{a, b}`
    SetLiteral,
    /// `f"…"`
    FString,
    /// `await x`, `yield x`, `yield from x`
    AwaitYield,
    /// `(x := v)`
    Walrus,
    /// `*x`
    Starred,
    /// `a[i:j]`
    Slice,
}

impl Form {
    /// The form of `e`, if it is one of these.
    pub fn of(e: &ast::Expr) -> Option<Form> {
        use ast::Expr as E;
        Some(match e {
            E::Lambda(_) => Form::Lambda,
            E::ListComp(_) => Form::ListComp,
            E::SetComp(_) => Form::SetComp,
            E::DictComp(_) => Form::DictComp,
            E::GeneratorExp(_) => Form::GeneratorExp,
            E::List(_) => Form::ListLiteral,
            E::Dict(_) => Form::DictLiteral,
            E::Set(_) => Form::SetLiteral,
            E::JoinedStr(_) | E::FormattedValue(_) => Form::FString,
            E::Await(_) | E::Yield(_) | E::YieldFrom(_) => Form::AwaitYield,
            E::NamedExpr(_) => Form::Walrus,
            E::Starred(_) => Form::Starred,
            E::Slice(_) => Form::Slice,
            _ => return None,
        })
    }

    /// What the refusal calls the form.
    pub fn what(self) -> &'static str {
        match self {
            Form::Lambda => "`lambda`",
            Form::ListComp => "a list comprehension",
            Form::SetComp => "a set comprehension",
            Form::DictComp => "a dict comprehension",
            Form::GeneratorExp => "a generator expression",
            Form::ListLiteral => "a list literal",
            Form::DictLiteral => "a dict literal",
            Form::SetLiteral => "a set literal",
            Form::FString => "an f-string",
            Form::AwaitYield => "`await`/`yield`",
            Form::Walrus => "the walrus operator `:=`",
            Form::Starred => "`*` unpacking",
            Form::Slice => "slicing",
        }
    }
}

/// The refusal of expression `e` at `span` in `dialect`: its [`Form`]'s
/// name ("this expression" for another), with the help `help` gives.
pub fn refuse<T>(
    e: &ast::Expr,
    span: Span,
    dialect: &str,
    help: impl Fn(Option<Form>) -> &'static str,
) -> DResult<T> {
    let form = Form::of(e);
    let what = form.map_or("this expression", Form::what);
    unsupported(span, what, dialect, help(form))
}
