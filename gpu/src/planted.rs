//! Planted bugs: a test-only switch that compiles the host build with one
//! deliberately wrong rule, so tests can show the fuzzer finds each (see
//! `ksem-diff`'s planted-bug test). Off unless a test turns one on.

use std::sync::atomic::{AtomicU8, Ordering};

/// A wrong rule the lowering can be built with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// Signed integer `//` and `%` floor where they must truncate.
    FloorDiv,
    /// Builtin reductions fold left to right instead of the canonical tree.
    ReduceSequential,
    /// float16 rounding truncates instead of rounding to nearest even.
    F16Truncate,
    /// Signed `>>` shifts in zeros instead of the sign.
    ShrLogical,
}

static PLANTED: AtomicU8 = AtomicU8::new(0);

/// Plants `bug` into every later host build (process-wide), or removes it.
pub fn set(bug: Option<Bug>) {
    let v = match bug {
        None => 0,
        Some(Bug::FloorDiv) => 1,
        Some(Bug::ReduceSequential) => 2,
        Some(Bug::F16Truncate) => 3,
        Some(Bug::ShrLogical) => 4,
    };
    PLANTED.store(v, Ordering::SeqCst);
}

/// The preprocessor definition that plants the current bug, if any.
pub fn define() -> Option<&'static str> {
    match PLANTED.load(Ordering::SeqCst) {
        1 => Some("-DKSEM_PLANT_FLOOR_DIV=1"),
        2 => Some("-DKSEM_PLANT_REDUCE_SEQ=1"),
        3 => Some("-DKSEM_PLANT_F16_TRUNC=1"),
        4 => Some("-DKSEM_PLANT_SHR_LOGICAL=1"),
        // (a stored number, not an op: 0 plants nothing)
        _ => None,
    }
}
