//! The register program: a tile program compiled once per kernel and
//! launch shape into a flat list of instructions over reused, typed
//! registers, run once per program instance. The tree evaluator
//! (`eval::tile`) stays the meaning: the register program covers the
//! common straight-line case and gives an instance up (before it changed
//! anything) wherever it leaves it, and the tree evaluator runs that
//! instance instead, so every result bit, UB report, race report and
//! inexact flag is the tree evaluator's.
//!
//! - `inst`: the data (slots, registers, operand forms, instructions);
//! - `compile`: the compiler from the typed IR;
//! - `lanes`: lane loops over 32- and 64-bit lanes;
//! - `run`: the runner.
//!
//! What it covers: kernels of `let`s and stores only (no loops, `if`s,
//! prints or atomics) where no load follows the first store; constants,
//! program ids, `arange`, broadcasts of one element, reshapes, casts,
//! unary and binary element operations, selects, fused multiply-adds,
//! loads and stores whose lanes are all active and reach one element after
//! another, reductions (builtin combiners) along the last axis. An
//! `arange` shifted by scalars stays symbolic (a base slot: lane i is
//! base + i), and so do pointers moved by it and its comparisons with a
//! scalar, so that a `ptr + offs` access and an `offs < n` mask are decided
//! contiguous and all-active once per instance, not per lane. A value of
//! one element lives in a slot and a broadcast of it is never copied.
//! Instances give up on a partial mask, a non-contiguous or out-of-bounds
//! access, a buffer holding undefined (or, for loads, inexact) elements,
//! and any lane the general element rule reports as UB.
//!
//! Element values come from `crate::ops` (the element functions the tree
//! evaluator's fast paths inline, or `ops::binary`/`ops::unary`/
//! `ops::cast` themselves), so a rule lives in one place.

mod compile;
mod inst;
mod lanes;
mod run;

pub use compile::compile;
pub use inst::Program;
pub use run::{run, Ctx, State};
