//! The TileLang generator's feature switches ([`Knobs`], the config's
//! `tilelang`), and [`KNOBS`]: each with how it shows in a printed
//! program, in the order swarm mode draws them. Every switch is on by
//! default, and a program generated with all of them on is the one the
//! generator made before the switches existed (a switch is read only after
//! the random choice it may veto).

use crate::fuzz::gen::knobs;
use crate::fuzz::shows;

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

knobs! {
    /// Which constructs TileLang programs may contain.
    tilelang;
    /// A ragged last block (`N` not a multiple of `B`).
    ragged: ragged,
    /// Module constants made of Python arithmetic (`K1 = B * -7 // 3`)
    /// and their reads.
    python_constants: |s| s.contains("K1"),
    /// A tile staged through `T.alloc_shared` with `T.copy`.
    shared: |s| s.contains("T.alloc_shared"),
    /// `T.atomic_add` into a histogram.
    atomics: |s| s.contains("T.atomic_add"),
    /// A `T.alloc_var` accumulator.
    accumulator: |s| s.contains("T.alloc_var"),
    /// `T.reduce_*` of a fragment.
    reductions: |s| s.contains("T.reduce_"),
    /// Main loops other than `T.serial` (`T.Parallel`, `T.unroll`,
    /// `T.Pipelined`, `range`, `T.grid`).
    loop_kinds: other_loop,
    /// `if`/`else` statements.
    branches: |s| shows::line_starts(s, "else:"),
    /// `T.if_then_else` expressions.
    // (a reduction's fragment is filled with one, `F[r, c] = …`)
    ifexp: |s| {
        shows::in_lines(
            s,
            |l| !l.trim_start().starts_with("F["),
            &["T.if_then_else"],
        )
    },
    /// `and`/`or` in conditions.
    boolops: |s| shows::any(s, &[" and ", " or "]),
    /// The five integer division forms and float `/`.
    // (`T.grid(B // 2, 2)` is the grid loop's extent)
    division: |s| {
        shows::in_lines(
            s,
            |l| shows::indented(l) && !l.contains("T.grid("),
            &[
                "//", "%", " / ", "floordiv", "floormod", "truncdiv", "truncmod", "ceildiv",
            ],
        )
    },
    /// `&`, `|`, `^`, `<<`, `>>` (the guards' own `&`/`|` stay).
    bitwise: |s| shows::any(s, &["^", "<<", ">>"]),
    /// `T.ieee_*` with rounding modes.
    ieee: |s| s.contains("T.ieee_"),
}
