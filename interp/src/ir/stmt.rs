//! Statements of the IR: structured control flow, where `break`,
//! `continue` and `return` are statements that clear threads, not errors.

use super::expr::Expr;
use super::kernel::{ArrayId, VarId};
use crate::span::Span;

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// Set a variable.
    Let(VarId, Expr),
    Store {
        ptr: Expr,
        value: Expr,
        mask: Option<Expr>,
        span: Span,
    },
    If {
        cond: Expr,
        then_body: Block,
        else_body: Block,
    },
    /// `for var in range(start, end, step)` (Python range semantics; step != 0).
    For {
        var: VarId,
        start: Expr,
        end: Expr,
        step: Expr,
        body: Block,
        span: Span,
        /// `Some` where the iterations are independent (TileLang's
        /// `T.Parallel`): they run in order, and two of them touching one
        /// element where one writes is a data race.
        parallel: Option<Parallel>,
    },
    While {
        cond: Expr,
        body: Block,
        span: Span,
    },
    /// Leaves the innermost loop (for the threads that reach it).
    Break,
    /// Goes to the innermost loop's next iteration.
    Continue,
    /// Leaves the kernel (for the threads that reach it).
    Return,
    /// Block-wide barrier: every live thread of the block must reach it.
    Barrier {
        span: Span,
    },
    /// Prints `prefix` and the values of `args` to stderr (device print).
    Print {
        prefix: String,
        args: Vec<Expr>,
        span: Span,
    },
}

/// What a loop of independent iterations knows.
#[derive(Clone, Debug, PartialEq)]
pub struct Parallel {
    /// Arrays allocated in the loop's body: each iteration has its own.
    pub private: Vec<ArrayId>,
}

/// A sequence of statements.
pub type Block = Vec<Stmt>;
