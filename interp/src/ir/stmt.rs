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
    /// A matrix product on three arrays (TileLang's `T.gemm`). `body` is
    /// its meaning: the loop nest the front end writes, which every pass
    /// and backend runs as it runs any statements. `spec` describes the same
    /// product for an evaluator that computes it as one operation
    /// (`eval::simt`, where it must give exactly what `body` gives).
    Gemm(Box<Gemm>),
}

/// A matrix product `C = C + A·B` (or `A·B` with `clear`) on arrays: for
/// each C[i, j] in row-major order, for k ascending, `acc = acc + a·b` with
/// a and b converted to C's dtype (`build::CONVERT`), the product and the
/// sum each rounded in C's dtype; `body` spells it out.
#[derive(Clone, Debug, PartialEq)]
pub struct Gemm {
    pub spec: GemmSpec,
    pub body: Block,
    /// The `T.gemm` call.
    pub span: Span,
}

/// The operands and sizes of a [`Gemm`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmSpec {
    /// A: m×k (k×m when `trans_a`), row-major.
    pub a: ArrayId,
    /// B: k×n (n×k when `trans_b`), row-major.
    pub b: ArrayId,
    /// C: m×n, row-major; its dtype is the product's.
    pub c: ArrayId,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub trans_a: bool,
    pub trans_b: bool,
    /// C's old values are not read (`clear_accum`): every sum starts at 0.
    pub clear: bool,
}

/// What a loop of independent iterations knows.
#[derive(Clone, Debug, PartialEq)]
pub struct Parallel {
    /// Arrays allocated in the loop's body: each iteration has its own.
    pub private: Vec<ArrayId>,
}

/// A sequence of statements.
pub type Block = Vec<Stmt>;
