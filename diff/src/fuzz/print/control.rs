//! The statement skeleton every printer shares: a block of statements, a
//! body nested one level deeper (`pass` where it printed nothing), and the
//! structured statements whose Python text is the same in every dialect
//! (`if`/`else`, `while`, `break`, `continue`, `return`). A printer fills in
//! how one statement prints and how a condition reads.

use super::pattern::{Deferred, Pending, Source};
use ksem_interp::ir::{Expr, Kernel, Stmt, VarId};

/// A printer's result: the text, or why the program has no form.
pub type PResult<T> = Result<T, String>;

/// `Ok` where `e` can be a runtime condition: a bool value.
pub fn bool_condition(e: &Expr) -> PResult<()> {
    if e.ty.dtype() != ksem_interp::dtype::DType::Bool {
        return Err("a condition that is not bool".into());
    }
    Ok(())
}

/// A printer of statements; the provided methods are the shared skeleton.
pub trait Structured<'k> {
    /// The text being printed.
    fn source(&mut self) -> &mut Source;

    /// Prints the statement(s) starting at `b[i]`; how many it consumed.
    fn stmt_at(&mut self, b: &'k [Stmt], i: usize) -> PResult<usize>;

    /// The text of a runtime `if`/`while` condition.
    fn cond_text(&mut self, e: &'k Expr) -> PResult<String>;

    /// Entering a nested body; `var` is a loop's variable, bound in it.
    fn enter_body(&mut self, _var: Option<VarId>) {}

    /// Leaving a nested body.
    fn leave_body(&mut self) {}

    /// Appends one line at the current depth.
    fn line(&mut self, s: &str) {
        self.source().line(s);
    }

    /// The statements of `b` in order.
    fn block(&mut self, b: &'k [Stmt]) -> PResult<()> {
        let mut i = 0;
        while i < b.len() {
            i += self.stmt_at(b, i)?;
        }
        Ok(())
    }

    /// `b` as a body: `pass` where its statements printed nothing.
    fn body(&mut self, b: &'k [Stmt]) -> PResult<()> {
        let before = self.source().out.len();
        self.block(b)?;
        if self.source().out.len() == before {
            self.line("pass");
        }
        Ok(())
    }

    /// `b` as a body one level deeper (`var`: a loop variable bound in it).
    fn nested_in(&mut self, b: &'k [Stmt], var: Option<VarId>) -> PResult<()> {
        self.source().depth += 1;
        self.enter_body(var);
        let r = self.body(b);
        self.leave_body();
        self.source().depth -= 1;
        r
    }

    /// `b` as a body one level deeper.
    fn nested(&mut self, b: &'k [Stmt]) -> PResult<()> {
        self.nested_in(b, None)
    }

    /// Prints one of the shared structured statements (`if`, `while`,
    /// `break`, `continue`, `return`); each printer routes those its
    /// dialect has here.
    fn control(&mut self, s: &'k Stmt) -> PResult<()> {
        match s {
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => self.if_stmt(cond, then_body, else_body),
            Stmt::While { cond, body, .. } => {
                let c = self.cond_text(cond)?;
                self.line(&format!("while {c}:"));
                self.nested(body)
            }
            Stmt::Break => self.simple("break"),
            Stmt::Continue => self.simple("continue"),
            Stmt::Return => self.simple("return"),
            Stmt::Let(..)
            | Stmt::Store { .. }
            | Stmt::For { .. }
            | Stmt::Barrier { .. }
            | Stmt::Print { .. }
            | Stmt::Gemm(_) => Err("not a structured statement (a printer's own)".into()),
        }
    }

    /// One line of fixed text.
    fn simple(&mut self, s: &str) -> PResult<()> {
        self.line(s);
        Ok(())
    }

    /// `if c:` then `else:` where there is an else branch.
    fn if_stmt(
        &mut self,
        cond: &'k Expr,
        then_body: &'k [Stmt],
        else_body: &'k [Stmt],
    ) -> PResult<()> {
        let c = self.cond_text(cond)?;
        self.line(&format!("if {c}:"));
        self.nested(then_body)?;
        if !else_body.is_empty() {
            self.line("else:");
            self.nested(else_body)?;
        }
        Ok(())
    }
}

/// A store statement and its parts.
#[derive(Clone, Copy)]
pub struct StoreParts<'k> {
    /// The statement.
    pub stmt: &'k Stmt,
    /// Where it stores.
    pub ptr: &'k Expr,
    /// What it stores.
    pub value: &'k Expr,
    /// Its mask, where it has one.
    pub mask: Option<&'k Expr>,
}

/// The statements a printer prints its own way, or has no form for.
#[derive(Clone, Copy, Debug)]
pub enum Own<'k> {
    /// A parallel loop.
    ParallelFor,
    /// A barrier.
    Barrier,
    /// A device print: its prefix and arguments.
    Print(&'k str, &'k [Expr]),
    /// `T.gemm`.
    Gemm,
}

/// The dispatch over statements of a printer whose dialect has every
/// structured statement: the shared ones go to [`Structured::control`],
/// the others to the printer's hooks.
pub trait Statements<'k>: Structured<'k> {
    /// `v = e`.
    fn let_stmt(&mut self, v: VarId, e: &'k Expr) -> PResult<()>;

    /// A store statement.
    fn store_stmt(&mut self, st: StoreParts<'k>) -> PResult<()>;

    /// A sequential `for var in range(start, end, step)` loop.
    fn range_loop(&mut self, var: VarId, range: [&'k Expr; 3], body: &'k [Stmt]) -> PResult<()>;

    /// A statement `s` the dialect prints its own way, or has no form for.
    fn own_stmt(&mut self, s: &'k Stmt, own: Own<'k>) -> PResult<()>;

    /// Prints one statement.
    fn stmt(&mut self, s: &'k Stmt) -> PResult<()> {
        match s {
            Stmt::Let(v, e) => self.let_stmt(*v, e),
            Stmt::Store {
                ptr, value, mask, ..
            } => self.store_stmt(StoreParts {
                stmt: s,
                ptr,
                value,
                mask: mask.as_ref(),
            }),
            Stmt::If { .. } | Stmt::While { .. } | Stmt::Break | Stmt::Continue | Stmt::Return => {
                self.control(s)
            }
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
                parallel: None,
                ..
            } => self.range_loop(*var, [start, end, step], body),
            Stmt::For { .. } => self.own_stmt(s, Own::ParallelFor),
            Stmt::Barrier { .. } => self.own_stmt(s, Own::Barrier),
            Stmt::Print { prefix, args, .. } => self.own_stmt(s, Own::Print(prefix, args)),
            Stmt::Gemm(_) => self.own_stmt(s, Own::Gemm),
        }
    }
}

/// How a printer writes the deferred values (`a if c else b`, `a and b`)
/// that print where their result is read; the walk over their parts (the
/// condition, each branch's statements registered before its value) is
/// shared.
pub trait Deferring<'k>: Structured<'k> {
    /// Where the value is read (its result variable or node), for the
    /// printer's checks and messages.
    type At: Copy;
    /// What a branch's value prints as (its candidate forms).
    type Branch;
    /// What a deferred value prints as.
    type Out;

    /// The dialect's construct of a deferred if-expression, for errors.
    const WHAT: &'static str;

    /// The kernel, its [`super::pattern::Counts`] and the values registered
    /// and not yet printed.
    fn pending(&mut self) -> (&'k Kernel, (&[usize], &[usize]), &mut Pending<'k>);

    /// Registers the deferred value starting at `b[i]`; how many statements
    /// it takes (`None`: none starts there).
    fn defer_at(&mut self, b: &'k [Stmt], i: usize) -> Option<usize> {
        let (k, counts, pending) = self.pending();
        super::pattern::defer_at(k, counts, pending, b, i)
    }

    /// Registers the statements a branch computes before its value (each
    /// itself a deferred value).
    fn defer_branch(&mut self, pre: &'k [Stmt]) -> PResult<()> {
        let (k, counts, pending) = self.pending();
        super::pattern::defer_all(k, counts, pending, pre, Self::WHAT)
    }

    /// The candidates of a branch's value `e`.
    fn branch(&mut self, e: &'k Expr) -> PResult<Self::Branch>;

    /// `a if c else b` from the condition's text and both branches.
    fn if_exp(
        &mut self,
        at: Self::At,
        c: String,
        a: (&'k Expr, Self::Branch),
        b: (&'k Expr, Self::Branch),
    ) -> PResult<Self::Out>;

    /// The text of an operand of `and`/`or` (its condition text).
    fn bool_operand(&mut self, e: &'k Expr) -> PResult<String> {
        self.cond_text(e)
    }

    /// The boolean operator printed as `text`.
    fn bool_op(&mut self, at: Self::At, text: String) -> PResult<Self::Out>;

    /// Prints deferred value `d` read at `at`.
    fn print_deferred(&mut self, at: Self::At, d: Deferred<'k>) -> PResult<Self::Out> {
        match d {
            Deferred::IfExp(cond, then_pre, a, else_pre, b) => {
                let c = self.cond_text(cond)?;
                self.defer_branch(then_pre)?;
                let fa = self.branch(a)?;
                self.defer_branch(else_pre)?;
                let fb = self.branch(b)?;
                self.if_exp(at, c, (a, fa), (b, fb))
            }
            Deferred::BoolOp(and, first, pre, second) => {
                let x = self.bool_operand(first)?;
                self.defer_branch(pre)?;
                let y = self.bool_operand(second)?;
                let op = if and { "and" } else { "or" };
                self.bool_op(at, format!("({x} {op} {y})"))
            }
        }
    }
}
