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
//! loads and stores whose active lanes are a prefix (all, some or none;
//! a load's other lanes take its `other`) and reach one element after
//! another, reductions (builtin combiners) along the last axis. An
//! `arange` shifted by scalars stays symbolic (a base slot: lane i is
//! base + i), and so do pointers moved by it and its comparisons with a
//! scalar, so that a `ptr + offs` access is decided contiguous, and an
//! `offs < n` mask's active lanes counted, once per instance, not per
//! lane. A value of one element lives in a slot and a broadcast of it is
//! never copied.
//! Instances give up where the active lanes are not a prefix, a load
//! without `other` has a masked-off lane (an undefined value), an access is
//! not contiguous or leaves its buffer, a buffer holds undefined (or, for
//! loads, inexact) elements, or a lane's general element rule is UB.
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
