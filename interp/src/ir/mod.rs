//! The IR: the one contract between the front ends, the evaluator and the
//! lowering. No dialect's words appear here: every implicit conversion is an
//! explicit node, every operation carries its exact meaning and UB policy,
//! dtype, shape and source span, and ids (block, thread, grid and block
//! dimensions) are nodes with a dimension.

pub mod build;
pub mod canon;
mod expr;
mod kernel;
mod op;
mod stmt;
mod types;
pub mod verify;
pub mod walk;

pub use expr::*;
pub use kernel::*;
pub use op::*;
pub use stmt::*;
pub use types::*;
