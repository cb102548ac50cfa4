//! ksem's reference interpreter: the typed program, exact element semantics,
//! the Triton front end, and the evaluator.

pub mod dtype;
pub mod float;
pub mod launch;
pub mod ops;
pub mod span;
pub mod typed;
