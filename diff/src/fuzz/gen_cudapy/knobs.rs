//! The CUDA Python generator's feature switches ([`Knobs`], the config's
//! `cudapy`), and [`KNOBS`]: each with how it shows in a printed program,
//! in the order swarm mode draws them. Every switch is on by default, and
//! a program generated with all of them on is the one the generator made
//! before the switches existed (a switch is read only after the random
//! choice it may veto).

use crate::fuzz::gen::knobs;
use crate::fuzz::shows;

knobs! {
    /// Which constructs CUDA Python programs may contain.
    cudapy;
    /// Thread ids of 2 and 3 dimensions (`cuda.grid(2)`, `cuda.grid(3)`);
    /// 1-d ids only where off.
    ids_nd: |s| shows::any(s, &["cuda.grid(2)", "cuda.grid(3)"]),
    /// A shared array exchanged between `cuda.syncthreads()` barriers.
    shared: |s| shows::any(s, &["cuda.shared", "cuda.syncthreads"]),
    /// Divergent `if`/`else` statements.
    branches: shows::branch,
    /// `for` loops (with `break`/`continue` and divergent trip counts).
    loops: |s| shows::line_starts(s, "for "),
    /// `cuda.atomic.*` updates whose totals do not depend on the order.
    atomics: |s| s.contains("cuda.atomic"),
    /// True division, `//`, `%` and `math.fmod`.
    division: |s| shows::any(s, &["/", "math.fmod"]),
    /// `&`, `|`, `^`, `<<`, `>>`.
    bitwise: |s| shows::any(s, &["&", "|", "^", "<<", ">>"]),
    /// Conversions by a type object to a random dtype (`uint8(x)`; the
    /// int32 conversions that make a float an integer operand stay).
    // (a float converted to another integer dtype than int32, clamped
    // first: the front end's implicit conversions print as `T(x)` too,
    // and a shared array's store converts to its dtype)
    conversions: |s| {
        shows::in_lines(
            s,
            |l| !l.trim_start().starts_with("s["),
            &[
                "int8(min(max(",
                "int16(min(max(",
                "int64(min(max(",
                "uint32(min(max(",
            ],
        )
    },
    /// `math.sqrt`/`fabs`/`floor`/`ceil` and `abs`.
    math: |s| {
        shows::any(
            s,
            &["math.sqrt", "math.fabs", "math.floor", "math.ceil", "abs("],
        )
    },
    /// Conditional expressions (`a if c else b`).
    ifexp: |s| shows::in_lines(s, |l| !l.trim_start().starts_with("if "), &[" if "]),
    /// `and`/`or` in conditions.
    boolops: |s| shows::any(s, &[" and ", " or "]),
}
