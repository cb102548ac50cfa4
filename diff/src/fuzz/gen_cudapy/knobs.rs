//! The CUDA Python generator's feature switches ([`Knobs`], the config's
//! `cudapy`), and [`KNOBS`]: each with how it shows in a printed program,
//! in the order swarm mode draws them. Every switch is on by default, and
//! a program generated with all of them on is the one the generator made
//! before the switches existed (a switch is read only after the random
//! choice it may veto).

use crate::fuzz::gen::Knob;
use crate::fuzz::shows;

/// Which constructs CUDA Python programs may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knobs {
    /// Thread ids of 2 and 3 dimensions (`cuda.grid(2)`, `cuda.grid(3)`);
    /// 1-d ids only where off.
    pub ids_nd: bool,
    /// A shared array exchanged between `cuda.syncthreads()` barriers.
    pub shared: bool,
    /// Divergent `if`/`else` statements.
    pub branches: bool,
    /// `for` loops (with `break`/`continue` and divergent trip counts).
    pub loops: bool,
    /// `cuda.atomic.*` updates whose totals do not depend on the order.
    pub atomics: bool,
    /// True division, `//`, `%` and `math.fmod`.
    pub division: bool,
    /// `&`, `|`, `^`, `<<`, `>>`.
    pub bitwise: bool,
    /// Conversions by a type object to a random dtype (`uint8(x)`; the
    /// int32 conversions that make a float an integer operand stay).
    pub conversions: bool,
    /// `math.sqrt`/`fabs`/`floor`/`ceil` and `abs`.
    pub math: bool,
    /// Conditional expressions (`a if c else b`).
    pub ifexp: bool,
    /// `and`/`or` in conditions.
    pub boolops: bool,
}

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs {
            ids_nd: true,
            shared: true,
            branches: true,
            loops: true,
            atomics: true,
            division: true,
            bitwise: true,
            conversions: true,
            math: true,
            ifexp: true,
            boolops: true,
        }
    }
}

/// The switches, in the order swarm mode draws them.
pub const KNOBS: &[Knob] = &[
    Knob {
        name: "ids_nd",
        switch: |c| &mut c.cudapy.ids_nd,
        shows: |s| shows::any(s, &["cuda.grid(2)", "cuda.grid(3)"]),
    },
    Knob {
        name: "shared",
        switch: |c| &mut c.cudapy.shared,
        shows: |s| shows::any(s, &["cuda.shared", "cuda.syncthreads"]),
    },
    Knob {
        name: "branches",
        switch: |c| &mut c.cudapy.branches,
        shows: shows::branch,
    },
    Knob {
        name: "loops",
        switch: |c| &mut c.cudapy.loops,
        shows: |s| shows::line_starts(s, "for "),
    },
    Knob {
        name: "atomics",
        switch: |c| &mut c.cudapy.atomics,
        shows: |s| s.contains("cuda.atomic"),
    },
    Knob {
        name: "division",
        switch: |c| &mut c.cudapy.division,
        shows: |s| shows::any(s, &["/", "math.fmod"]),
    },
    Knob {
        name: "bitwise",
        switch: |c| &mut c.cudapy.bitwise,
        shows: |s| shows::any(s, &["&", "|", "^", "<<", ">>"]),
    },
    Knob {
        name: "conversions",
        switch: |c| &mut c.cudapy.conversions,
        // (a float converted to another integer dtype than int32, clamped
        // first: the front end's implicit conversions print as `T(x)` too,
        // and a shared array's store converts to its dtype)
        shows: |s| {
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
    },
    Knob {
        name: "math",
        switch: |c| &mut c.cudapy.math,
        shows: |s| {
            shows::any(
                s,
                &["math.sqrt", "math.fabs", "math.floor", "math.ceil", "abs("],
            )
        },
    },
    Knob {
        name: "ifexp",
        switch: |c| &mut c.cudapy.ifexp,
        shows: |s| shows::in_lines(s, |l| !l.trim_start().starts_with("if "), &[" if "]),
    },
    Knob {
        name: "boolops",
        switch: |c| &mut c.cudapy.boolops,
        shows: |s| shows::any(s, &[" and ", " or "]),
    },
];
