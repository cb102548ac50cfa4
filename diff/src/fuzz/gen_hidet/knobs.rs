//! The Hidet generator's feature switches ([`Knobs`], the config's
//! `hidet`), and [`KNOBS`]: each with how it shows in a printed program, in
//! the order swarm mode draws them. Every switch is on by default, and a
//! program generated with all of them on is the one the generator made
//! before the switches existed (a switch is read only after the random
//! choice it may veto).

use crate::fuzz::gen::Knob;
use crate::fuzz::shows::{self, indented};

/// Which constructs Hidet programs may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knobs {
    /// `cuda_kernel`s (one-thread `cpu_kernel`s only where off).
    pub cuda_kernel: bool,
    /// 2-d blocks (`threadIdx.y`).
    pub ids_2d: bool,
    /// A `shared_tensor` exchanged between `syncthreads()` barriers.
    pub shared: bool,
    /// Divergent `if`/`else` statements.
    pub branches: bool,
    /// `for` and `while` loops with `break`/`continue`.
    pub loops: bool,
    /// `atomic_*` updates whose totals do not depend on the order.
    pub atomics: bool,
    /// Pointers into the inputs (`~a0[i]`, `p + k`, `p - a0`).
    pub pointers: bool,
    /// Local tensors with layouts.
    pub layouts: bool,
    /// Complex numbers.
    pub complex: bool,
    /// Local tensors of vector types and their lanes.
    pub vectors: bool,
    /// `/`, `//` and `%`.
    pub division: bool,
    /// `&`, `|`, `^`, `<<`, `>>` (the guards' own `&`/`|` stay).
    pub bitwise: bool,
}

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs {
            cuda_kernel: true,
            ids_2d: true,
            shared: true,
            branches: true,
            loops: true,
            atomics: true,
            pointers: true,
            layouts: true,
            complex: true,
            vectors: true,
            division: true,
            bitwise: true,
        }
    }
}

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

/// The switches, in the order swarm mode draws them.
pub const KNOBS: &[Knob] = &[
    Knob {
        name: "cuda_kernel",
        switch: |c| &mut c.hidet.cuda_kernel,
        shows: |s| s.contains("'cuda_kernel'"),
    },
    Knob {
        name: "ids_2d",
        switch: |c| &mut c.hidet.ids_2d,
        shows: |s| s.contains("threadIdx.y"),
    },
    Knob {
        name: "shared",
        switch: |c| &mut c.hidet.shared,
        shows: |s| body_has(s, &["shared_tensor(", "syncthreads()"]),
    },
    Knob {
        name: "branches",
        switch: |c| &mut c.hidet.branches,
        shows: shows::branch,
    },
    Knob {
        name: "loops",
        switch: |c| &mut c.hidet.loops,
        shows: has_loop,
    },
    Knob {
        name: "atomics",
        switch: |c| &mut c.hidet.atomics,
        shows: |s| body_has(s, &["atomic_"]),
    },
    Knob {
        name: "pointers",
        switch: |c| &mut c.hidet.pointers,
        shows: |s| body_has(s, &["~a0", "~a1", "~a2"]),
    },
    Knob {
        name: "layouts",
        switch: |c| &mut c.hidet.layouts,
        shows: |s| body_has(s, &["layout="]),
    },
    Knob {
        name: "complex",
        switch: |c| &mut c.hidet.complex,
        shows: |s| body_has(s, &["make_complex(", "real(", "imag(", "conj("]),
    },
    Knob {
        name: "vectors",
        switch: |c| &mut c.hidet.vectors,
        shows: |s| {
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
    },
    Knob {
        name: "division",
        switch: |c| &mut c.hidet.division,
        shows: |s| body_has(s, &[" / ", "//"]),
    },
    Knob {
        name: "bitwise",
        switch: |c| &mut c.hidet.bitwise,
        shows: |s| body_has(s, &["^", "<<", ">>"]),
    },
];
