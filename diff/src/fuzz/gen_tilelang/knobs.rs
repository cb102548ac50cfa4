//! The TileLang generator's feature switches ([`Knobs`], the config's
//! `tilelang`), and [`KNOBS`]: each with how it shows in a printed
//! program, in the order swarm mode draws them. Every switch is on by
//! default, and a program generated with all of them on is the one the
//! generator made before the switches existed (a switch is read only after
//! the random choice it may veto).

use crate::fuzz::gen::Knob;
use crate::fuzz::shows;

/// Which constructs TileLang programs may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knobs {
    /// A ragged last block (`N` not a multiple of `B`).
    pub ragged: bool,
    /// Module constants made of Python arithmetic (`K1 = B * -7 // 3`)
    /// and their reads.
    pub python_constants: bool,
    /// A tile staged through `T.alloc_shared` with `T.copy`.
    pub shared: bool,
    /// `T.atomic_add` into a histogram.
    pub atomics: bool,
    /// A `T.alloc_var` accumulator.
    pub accumulator: bool,
    /// `T.reduce_*` of a fragment.
    pub reductions: bool,
    /// Main loops other than `T.serial` (`T.Parallel`, `T.unroll`,
    /// `T.Pipelined`, `range`, `T.grid`).
    pub loop_kinds: bool,
    /// `if`/`else` statements.
    pub branches: bool,
    /// `T.if_then_else` expressions.
    pub ifexp: bool,
    /// `and`/`or` in conditions.
    pub boolops: bool,
    /// The five integer division forms and float `/`.
    pub division: bool,
    /// `&`, `|`, `^`, `<<`, `>>` (the guards' own `&`/`|` stay).
    pub bitwise: bool,
    /// `T.ieee_*` with rounding modes.
    pub ieee: bool,
}

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs {
            ragged: true,
            python_constants: true,
            shared: true,
            atomics: true,
            accumulator: true,
            reductions: true,
            loop_kinds: true,
            branches: true,
            ifexp: true,
            boolops: true,
            division: true,
            bitwise: true,
            ieee: true,
        }
    }
}

/// The value of module constant `name` (`N = 39`) in `src`.
fn constant(src: &str, name: &str) -> Option<usize> {
    let prefix = format!("{name} = ");
    src.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|v| v.trim().parse().ok())
}

/// Whether the last block is ragged: `N` is not a multiple of `B`.
fn ragged(src: &str) -> bool {
    match (constant(src, "N"), constant(src, "B")) {
        (Some(n), Some(b)) if b > 0 => n % b != 0,
        _ => false,
    }
}

/// Whether the main loop is another than `T.serial`.
fn other_loop(src: &str) -> bool {
    src.lines().map(str::trim).any(|l| {
        l.starts_with("for i in ") && !l.starts_with("for i in T.serial(")
            || l.starts_with("for r, c in T.grid(")
    })
}

/// The switches, in the order swarm mode draws them.
pub const KNOBS: &[Knob] = &[
    Knob {
        name: "ragged",
        switch: |c| &mut c.tilelang.ragged,
        shows: ragged,
    },
    Knob {
        name: "python_constants",
        switch: |c| &mut c.tilelang.python_constants,
        shows: |s| s.contains("K1"),
    },
    Knob {
        name: "shared",
        switch: |c| &mut c.tilelang.shared,
        shows: |s| s.contains("T.alloc_shared"),
    },
    Knob {
        name: "atomics",
        switch: |c| &mut c.tilelang.atomics,
        shows: |s| s.contains("T.atomic_add"),
    },
    Knob {
        name: "accumulator",
        switch: |c| &mut c.tilelang.accumulator,
        shows: |s| s.contains("T.alloc_var"),
    },
    Knob {
        name: "reductions",
        switch: |c| &mut c.tilelang.reductions,
        shows: |s| s.contains("T.reduce_"),
    },
    Knob {
        name: "loop_kinds",
        switch: |c| &mut c.tilelang.loop_kinds,
        shows: other_loop,
    },
    Knob {
        name: "branches",
        switch: |c| &mut c.tilelang.branches,
        shows: |s| shows::line_starts(s, "else:"),
    },
    Knob {
        name: "ifexp",
        switch: |c| &mut c.tilelang.ifexp,
        // (a reduction's fragment is filled with one, `F[r, c] = …`)
        shows: |s| {
            shows::in_lines(
                s,
                |l| !l.trim_start().starts_with("F["),
                &["T.if_then_else"],
            )
        },
    },
    Knob {
        name: "boolops",
        switch: |c| &mut c.tilelang.boolops,
        shows: |s| shows::any(s, &[" and ", " or "]),
    },
    Knob {
        name: "division",
        switch: |c| &mut c.tilelang.division,
        // (`T.grid(B // 2, 2)` is the grid loop's extent)
        shows: |s| {
            shows::in_lines(
                s,
                |l| shows::indented(l) && !l.contains("T.grid("),
                &[
                    "//", "%", " / ", "floordiv", "floormod", "truncdiv", "truncmod", "ceildiv",
                ],
            )
        },
    },
    Knob {
        name: "bitwise",
        switch: |c| &mut c.tilelang.bitwise,
        shows: |s| shows::any(s, &["^", "<<", ">>"]),
    },
    Knob {
        name: "ieee",
        switch: |c| &mut c.tilelang.ieee,
        shows: |s| s.contains("T.ieee_"),
    },
];
