//! The one rule and message form for a call with the wrong number of
//! arguments, in every front end (CPython's: "f() takes 2 arguments but 3
//! were given"), and the check of any other count against the count it
//! must match, in the caller's words.

use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast;

/// Checks that a call of `what` passes from `min` to `max` arguments
/// (`given`); the error is CPython's form at `span`.
pub fn check_args(span: Span, what: &str, (min, max): (usize, usize), given: usize) -> DResult<()> {
    if (min..=max).contains(&given) {
        return Ok(());
    }
    let takes = match (min, max) {
        (0, 0) => "no arguments".to_string(),
        (n, m) if n == m => format!("{n} argument{}", if n == 1 { "" } else { "s" }),
        (0, m) => format!("at most {m} arguments"),
        (n, m) if m == usize::MAX => format!("at least {n} arguments"),
        (n, m) => format!("from {n} to {m} arguments"),
    };
    let were = if given == 1 { "was" } else { "were" };
    Err(Diagnostic::new(
        span,
        format!("{what} takes {takes} but {given} {were} given"),
    ))
}

/// Checks that a call of `what` passes exactly `n` arguments (`given`).
pub fn expect_args(span: Span, what: &str, n: usize, given: usize) -> DResult<()> {
    check_args(span, what, (n, n), given)
}

/// Checks that `got` things came where a rule takes from `min` to `max` of
/// them (a tuple's entries for a rank, names for values, a width for a
/// width); the error at `span` is `message(got)`, in the rule's own words.
pub fn count(
    span: Span,
    got: usize,
    (min, max): (usize, usize),
    message: impl FnOnce(usize) -> String,
) -> DResult<()> {
    if (min..=max).contains(&got) {
        return Ok(());
    }
    Err(Diagnostic::new(span, message(got)))
}

/// Checks that call `c` of `what` passes no keyword arguments.
pub fn no_keywords(c: &ast::ExprCall, what: &str, span: Span) -> DResult<()> {
    if c.keywords.is_empty() {
        return Ok(());
    }
    Err(Diagnostic::new(
        span,
        format!("{what} takes no keyword arguments"),
    ))
}

/// Checks that call `c` of `what` passes positional arguments only, from
/// `min` to `max` of them.
pub fn positional(c: &ast::ExprCall, what: &str, takes: (usize, usize), span: Span) -> DResult<()> {
    no_keywords(c, what, span)?;
    check_args(span, what, takes, c.args.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(r: DResult<()>) -> String {
        r.expect_err("refused").message
    }

    #[test]
    fn cpython_forms() {
        let s = Span::default();
        assert!(expect_args(s, "f()", 2, 2).is_ok());
        assert_eq!(
            msg(expect_args(s, "f()", 2, 3)),
            "f() takes 2 arguments but 3 were given"
        );
        assert_eq!(
            msg(expect_args(s, "f()", 1, 0)),
            "f() takes 1 argument but 0 were given"
        );
        assert_eq!(
            msg(expect_args(s, "f()", 0, 1)),
            "f() takes no arguments but 1 was given"
        );
        assert_eq!(
            msg(check_args(s, "f()", (0, 2), 3)),
            "f() takes at most 2 arguments but 3 were given"
        );
        assert_eq!(
            msg(check_args(s, "f()", (1, 2), 0)),
            "f() takes from 1 to 2 arguments but 0 were given"
        );
        assert!(check_args(s, "f()", (1, 2), 2).is_ok());
    }
}
