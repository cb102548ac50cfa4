//! The statement skeleton every printer shares: a block of statements, a
//! body nested one level deeper (`pass` where it printed nothing), and the
//! structured statements whose Python text is the same in every dialect
//! (`if`/`else`, `while`, `break`, `continue`, `return`). A printer fills in
//! how one statement prints and how a condition reads.

use super::pattern::Source;
use ksem_interp::ir::{Expr, Stmt, VarId};

/// A printer's result: the text, or why the program has no form.
pub type PResult<T> = Result<T, String>;

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
