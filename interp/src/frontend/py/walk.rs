//! The one statement walker every front end shares. It decides once, for
//! every dialect, how a kernel's statements are dispatched: `pass` and
//! docstrings (nothing), `if` (a condition known while elaborating takes
//! its branch alone; otherwise the dialect's runtime `if`), `break` and
//! `continue` outside a loop, `for … else` and `while … else`, the forms
//! of `range(…)`'s arguments, aug-assign as `t = t op v`, and the standard
//! refusals (`try`, `with`, `class`, nested `def`, `import`, `global`,
//! `del`, `raise`, `assert`, `match`, `async`), each with one message form
//! ("X is not supported in a D kernel", at the statement) and the
//! dialect's alternative as its help. Each dialect implements [`Walk`]:
//! what an assignment binds, what a runtime condition lowers to, its loops.

use super::unsupported;
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Ranged};

/// A statement a dialect refuses (or, for some, handles in its own hook):
/// the walker names it in one message form; the dialect gives the help.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// `try` / `try*`
    Try,
    /// `with` / `async with`
    With,
    /// `class C: …`
    Class,
    /// `def` / `async def` inside the kernel
    NestedDef,
    /// `import` / `from … import` inside the kernel
    Import,
    /// `global` / `nonlocal`
    Global,
    /// `del`
    Delete,
    /// `raise`
    Raise,
    /// `assert`
    Assert,
    /// `match`
    Match,
    /// `async for`
    AsyncFor,
    /// `x: T = v`
    AnnAssign,
    /// `for … else`
    ForElse,
    /// `while … else`
    WhileElse,
    /// any other statement
    Other,
}

impl Refused {
    /// What the refusal calls the statement.
    pub fn what(self) -> &'static str {
        match self {
            Refused::Try => "`try`/`except`",
            Refused::With => "a `with` statement",
            Refused::Class => "a `class` definition",
            Refused::NestedDef => "a nested function definition",
            Refused::Import => "`import` inside a kernel",
            Refused::Global => "`global`/`nonlocal`",
            Refused::Delete => "`del`",
            Refused::Raise => "`raise`",
            Refused::Assert => "`assert`",
            Refused::Match => "`match`",
            Refused::AsyncFor => "`async for`",
            Refused::AnnAssign => "an annotated assignment",
            Refused::ForElse => "`for … else`",
            Refused::WhileElse => "`while … else`",
            Refused::Other => "this statement",
        }
    }

    /// The alternative a dialect that has no more specific one offers.
    pub fn default_help(self) -> &'static str {
        match self {
            Refused::Try => "check conditions with `if`",
            Refused::With => "write the statements without `with`",
            Refused::Class => "define classes outside the kernel",
            Refused::NestedDef => "define the helper at module level and call it",
            Refused::Import => "import at module level",
            Refused::Global => "pass the value as a parameter",
            Refused::Delete => "leave the variable alone",
            Refused::Raise => "check conditions with `if`",
            Refused::Assert => "test the condition with `if`",
            Refused::Match => "use if/elif/else",
            Refused::AsyncFor => "use `for i in range(...)`",
            Refused::AnnAssign => "assign without an annotation",
            Refused::ForElse | Refused::WhileElse => {
                "set a flag before `break` and test it after the loop"
            }
            Refused::Other => "use assignments, if, for over range, while, break, continue",
        }
    }

    /// The kind of a statement that is refused unless a dialect handles it.
    fn of(s: &ast::Stmt) -> Refused {
        use ast::Stmt as S;
        match s {
            S::Try(_) | S::TryStar(_) => Refused::Try,
            S::With(_) | S::AsyncWith(_) => Refused::With,
            S::ClassDef(_) => Refused::Class,
            S::FunctionDef(_) | S::AsyncFunctionDef(_) => Refused::NestedDef,
            S::Import(_) | S::ImportFrom(_) => Refused::Import,
            S::Global(_) | S::Nonlocal(_) => Refused::Global,
            S::Delete(_) => Refused::Delete,
            S::Raise(_) => Refused::Raise,
            S::Assert(_) => Refused::Assert,
            S::Match(_) => Refused::Match,
            S::AsyncFor(_) => Refused::AsyncFor,
            S::AnnAssign(_) => Refused::AnnAssign,
            _ => Refused::Other,
        }
    }
}

/// A condition as elaboration finds it: known now, or computed at run time.
pub enum Truth<C> {
    /// Decided while elaborating: only the branch taken is elaborated.
    Known(bool),
    /// Computed at run time: the dialect's runtime `if`.
    Runtime(C),
}

/// What a dialect fills in around the shared walker.
pub trait Walk: Sized {
    /// A runtime condition, as the dialect lowers it.
    type Cond;

    /// The dialect's name in messages ("a Triton kernel").
    const DIALECT: &'static str;
    /// The position of a syntax node.
    fn span_of(&self, node: &impl Ranged) -> Span;
    /// The alternative the dialect offers for a refused statement.
    fn help(&self, r: Refused) -> &'static str {
        r.default_help()
    }
    /// Whether a `break`/`continue` here has a loop to leave.
    fn in_loop(&self) -> bool;
    /// Why a `break`/`continue` here has none, where the dialect says more.
    fn loop_help(&self) -> Option<&'static str> {
        None
    }

    /// Elaborates a statement list (the body of a branch decided while
    /// elaborating): by default each statement through [`stmt`].
    fn stmts(&mut self, body: &[ast::Stmt]) -> DResult<()> {
        body.iter().try_for_each(|s| stmt(self, s))
    }
    /// The dialect's own statements (`with T.Kernel`, a `raise` numba
    /// compiles, a closure): `None` where the walker decides.
    fn own_statement(&mut self, _s: &ast::Stmt, _span: Span) -> Option<DResult<()>> {
        None
    }
    /// An expression statement other than a constant (a docstring).
    fn expr_statement(&mut self, e: &ast::Expr, span: Span) -> DResult<()>;
    /// `t = v` (and `a = b = v`).
    fn assign_statement(&mut self, a: &ast::StmtAssign, span: Span) -> DResult<()>;
    /// `t: T = v`: refused unless the dialect declares with annotations.
    fn ann_assign_statement(&mut self, _a: &ast::StmtAnnAssign, span: Span) -> DResult<()> {
        refuse(self, Refused::AnnAssign, span)
    }
    /// `t op= v` ([`desugar_aug_assign`] where it is `t = t op v`).
    fn aug_assign_statement(&mut self, a: &ast::StmtAugAssign, span: Span) -> DResult<()>;
    /// An `if`'s condition: known while elaborating, or a runtime one.
    fn if_condition(&mut self, test: &ast::Expr, span: Span) -> DResult<Truth<Self::Cond>>;
    /// An `if` whose condition is computed at run time.
    fn runtime_branches(&mut self, c: Self::Cond, i: &ast::StmtIf, span: Span) -> DResult<()>;
    /// A `for` loop (its `else` already refused).
    fn for_statement(&mut self, f: &ast::StmtFor, span: Span) -> DResult<()>;
    /// A `while` loop (its `else` already refused).
    fn while_statement(&mut self, w: &ast::StmtWhile, span: Span) -> DResult<()>;
    /// `break` (`is_break`) or `continue` inside a loop.
    fn jump(&mut self, is_break: bool, span: Span) -> DResult<()>;
    /// `return` / `return v`.
    fn return_statement(&mut self, r: &ast::StmtReturn, span: Span) -> DResult<()>;
}

/// The refusal of statement kind `r` at `span` in `w`'s dialect.
pub fn refuse<W: Walk, T>(w: &W, r: Refused, span: Span) -> DResult<T> {
    unsupported(span, r.what(), W::DIALECT, w.help(r))
}

/// Elaborates one statement through `w`'s hooks.
pub fn stmt<W: Walk>(w: &mut W, s: &ast::Stmt) -> DResult<()> {
    use ast::Stmt as S;
    let span = w.span_of(s);
    if let Some(r) = w.own_statement(s, span) {
        return r;
    }
    match s {
        S::Pass(_) => Ok(()),
        // a docstring, or another constant: evaluating it does nothing
        S::Expr(e) if matches!(&*e.value, ast::Expr::Constant(_)) => Ok(()),
        S::Expr(e) => w.expr_statement(&e.value, span),
        S::Assign(a) => w.assign_statement(a, span),
        S::AnnAssign(a) => w.ann_assign_statement(a, span),
        S::AugAssign(a) => w.aug_assign_statement(a, span),
        S::If(i) => match w.if_condition(&i.test, span)? {
            Truth::Known(b) => w.stmts(if b { &i.body } else { &i.orelse }),
            Truth::Runtime(c) => w.runtime_branches(c, i, span),
        },
        S::For(f) if !f.orelse.is_empty() => refuse(w, Refused::ForElse, span),
        S::For(f) => w.for_statement(f, span),
        S::While(l) if !l.orelse.is_empty() => refuse(w, Refused::WhileElse, span),
        S::While(l) => w.while_statement(l, span),
        S::Break(_) | S::Continue(_) => {
            let is_break = matches!(s, S::Break(_));
            if !w.in_loop() {
                let kw = if is_break { "break" } else { "continue" };
                let d = Diagnostic::new(span, format!("`{kw}` outside a loop"));
                return Err(match w.loop_help() {
                    Some(h) => d.with_help(h.to_string()),
                    None => d,
                });
            }
            w.jump(is_break, span)
        }
        S::Return(r) => w.return_statement(r, span),
        other => refuse(w, Refused::of(other), span),
    }
}

/// `t op= v` as `t = t op v`, the target read once as an expression (a
/// dialect whose aug-assign means exactly that).
pub trait Desugar {
    /// The dialect's value.
    type Value;
    /// Evaluates an expression.
    fn eval(&mut self, e: &ast::Expr) -> DResult<Self::Value>;
    /// `a op b`.
    fn binary(
        &mut self,
        op: ast::Operator,
        a: Self::Value,
        b: Self::Value,
        span: Span,
    ) -> DResult<Self::Value>;
    /// Assigns to a target.
    fn assign_to(&mut self, target: &ast::Expr, v: Self::Value) -> DResult<()>;
}

/// `t op= v` elaborated as `t = t op v`: the target's value, then `v`,
/// then the operation (Python's order of evaluation).
pub fn desugar_aug_assign<D: Desugar>(
    d: &mut D,
    a: &ast::StmtAugAssign,
    span: Span,
) -> DResult<()> {
    let cur = d.eval(&a.target)?;
    let rhs = d.eval(&a.value)?;
    let v = d.binary(a.op, cur, rhs, span)?;
    d.assign_to(&a.target, v)
}

/// Checks that `values` values unpack into `targets` targets (`a, b = t`),
/// with CPython's messages where they do not.
pub fn unpack(values: usize, targets: usize, span: Span) -> DResult<()> {
    if values > targets {
        return Err(Diagnostic::new(
            span,
            format!("too many values to unpack (expected {targets})"),
        ));
    }
    if values < targets {
        return Err(Diagnostic::new(
            span,
            format!("not enough values to unpack (expected {targets}, got {values})"),
        ));
    }
    Ok(())
}

/// The (start, end, step) of `name(args…)` with `range`'s argument forms:
/// `(end)`, `(start, end)`, `(start, end, step)`; `zero`/`one` make the
/// defaults. Other counts are refused with CPython's message.
pub fn range_args<V>(
    name: &str,
    mut args: Vec<V>,
    zero: impl Fn() -> V,
    one: impl Fn() -> V,
    span: Span,
) -> DResult<(V, V, V)> {
    match args.len() {
        0 => Err(Diagnostic::new(
            span,
            format!("{name} expected at least 1 argument, got 0"),
        )),
        1 => Ok((zero(), args.remove(0), one())),
        2 => {
            let end = args.pop().expect("two");
            Ok((args.remove(0), end, one()))
        }
        3 => {
            let step = args.pop().expect("three");
            let end = args.pop().expect("three");
            Ok((args.remove(0), end, step))
        }
        n => Err(Diagnostic::new(
            span,
            format!("{name} expected at most 3 arguments, got {n}"),
        )),
    }
}

/// The refusal of a constant step of 0 (CPython's `ValueError`).
pub fn zero_step(span: Span) -> Diagnostic {
    Diagnostic::new(span, "range() arg 3 must not be zero")
}

/// How many values `range(start, end, step)` takes (CPython's rule: with a
/// positive step those below `end`, with a negative one those above it);
/// `step` is not 0.
pub fn trip_count(start: i128, end: i128, step: i128) -> u128 {
    let (lo, hi, s) = if step > 0 {
        (start, end, step)
    } else {
        (end, start, -step)
    };
    if lo >= hi {
        return 0;
    }
    ((hi - lo - 1) / s + 1) as u128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trip_count_follows_the_step_sign() {
        // hand-counted: range(0, 10, 3) = 0 3 6 9; range(10, 0, -3) = 10 7 4 1;
        // range(5, 5) and range(0, 5, -1) are empty; range(-3, 3, 2) = -3 -1 1
        assert_eq!(trip_count(0, 10, 3), 4);
        assert_eq!(trip_count(10, 0, -3), 4);
        assert_eq!(trip_count(5, 5, 1), 0);
        assert_eq!(trip_count(0, 5, -1), 0);
        assert_eq!(trip_count(-3, 3, 2), 3);
    }

    #[test]
    fn unpack_counts_as_cpython_says() {
        // CPython 3.11: `a, b = 1, 2, 3` and `a, b, c = 1, 2`
        let s = Span::default();
        assert!(unpack(2, 2, s).is_ok());
        let e = unpack(3, 2, s).expect_err("refused");
        assert_eq!(e.message, "too many values to unpack (expected 2)");
        let e = unpack(2, 3, s).expect_err("refused");
        assert_eq!(e.message, "not enough values to unpack (expected 3, got 2)");
    }

    #[test]
    fn range_forms_default_start_and_step() {
        let s = Span::default();
        let f = |v: Vec<i32>| range_args("range", v, || 0, || 1, s);
        assert_eq!(f(vec![7]).ok(), Some((0, 7, 1)));
        assert_eq!(f(vec![2, 7]).ok(), Some((2, 7, 1)));
        assert_eq!(f(vec![2, 7, 3]).ok(), Some((2, 7, 3)));
        let e = f(vec![]).expect_err("refused");
        assert_eq!(e.message, "range expected at least 1 argument, got 0");
        let e = f(vec![1, 2, 3, 4]).expect_err("refused");
        assert_eq!(e.message, "range expected at most 3 arguments, got 4");
    }
}
