//! The Hidet generator's feature switches ([`Knobs`], the config's
//! `hidet`), and [`KNOBS`]: each with how it shows in a printed program, in
//! the order swarm mode draws them. Every switch is on by default, and a
//! program generated with all of them on is the one the generator made
//! before the switches existed (a switch is read only after the random
//! choice it may veto).

use crate::fuzz::gen::knobs;
use crate::fuzz::shows::{self, indented};

/// Whether a line of the kernel's body contains any of `needles`.
fn body_has(src: &str, needles: &[&str]) -> bool {
    shows::in_lines(src, indented, needles)
}

/// Whether `src` has a generated loop: a `while`, a `for` over a divergent
/// trip count, or a `break`/`continue` (a cpu_kernel's loop over the
/// elements and the loops that fill local tensors are neither).
fn has_loop(src: &str) -> bool {
    body_has(src, &["while ", "in range((t % "])
        || src
            .lines()
            .any(|l| matches!(l.trim(), "break" | "continue"))
}

knobs! {
    /// Which constructs Hidet programs may contain.
    hidet;
    /// `cuda_kernel`s (one-thread `cpu_kernel`s only where off).
    cuda_kernel: |s| s.contains("'cuda_kernel'"),
    /// 2-d blocks (`threadIdx.y`).
    ids_2d: |s| s.contains("threadIdx.y"),
    /// A `shared_tensor` exchanged between `syncthreads()` barriers.
    shared: |s| body_has(s, &["shared_tensor(", "syncthreads()"]),
    /// Divergent `if`/`else` statements.
    branches: shows::branch,
    /// `for` and `while` loops with `break`/`continue`.
    loops: has_loop,
    /// `atomic_*` updates whose totals do not depend on the order.
    atomics: |s| body_has(s, &["atomic_"]),
    /// Pointers into the inputs (`~a0[i]`, `p + k`, `p - a0`).
    pointers: |s| body_has(s, &["~a0", "~a1", "~a2"]),
    /// Local tensors with layouts.
    layouts: |s| body_has(s, &["layout="]),
    /// Complex numbers.
    complex: |s| body_has(s, &["make_complex(", "real(", "imag(", "conj("]),
    /// Local tensors of vector types and their lanes.
    vectors: |s| {
        body_has(
            s,
            &[
                "float32x4",
                "float32x8",
                "int8x4",
                "uint8x4",
                "float16x2",
                "bfloat16x2",
            ],
        )
    },
    /// `/`, `//` and `%`.
    division: |s| body_has(s, &[" / ", "//"]),
    /// `&`, `|`, `^`, `<<`, `>>` (the guards' own `&`/`|` stay).
    bitwise: |s| body_has(s, &["^", "<<", ">>"]),
}
