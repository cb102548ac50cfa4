//! The standalone reproduction script of a finding (`repro.py`), one
//! template per real system under `scripts/`: the finding's program
//! verbatim, its launch with every input as bits, ksem's expected bits, and
//! the few lines that launch the kernel on that system alone (no ksem) and
//! compare. The comparison (`scripts/common.py`) and the bits-to-tensor
//! helpers (`scripts/torch_bits.py`) are written once and shared.

use serde_json::Value as Json;

/// What a script is filled with.
pub struct Fill<'a> {
    /// The finding's name (`fuzz_12_345`).
    pub name: &'a str,
    /// The program's source, verbatim.
    pub source: &'a str,
    /// The kernel's name in the program.
    pub kernel: &'a str,
    /// The launch: every buffer as bits, scalars with their bits.
    pub launch: &'a Json,
    /// The differing buffers' expected (ksem's) bits.
    pub expected: &'a Json,
}

/// Triton's script: the GPU, or Triton's interpreter.
pub const TRITON: &str = include_str!("scripts/triton.py");
/// numba-cuda's script: the GPU, or numba's simulator.
pub const NUMBA: &str = include_str!("scripts/numba.py");
/// TileLang's script: its C target on the CPU.
pub const TILELANG: &str = include_str!("scripts/tilelang.py");
/// Hidet's script: a `cpu_kernel` built with g++.
pub const HIDET: &str = include_str!("scripts/hidet.py");

/// The script that reproduces the finding on a system alone, from that
/// system's `template` (its registry entry's `bug_script`).
pub fn script(template: &str, f: &Fill) -> String {
    let json = |v: &Json| serde_json::to_string(v).expect("json");
    // the program goes in last, so that nothing in it is taken for a
    // placeholder
    template
        .replace("# __COMMON__\n", include_str!("scripts/common.py"))
        .replace("# __TORCH_BITS__\n", include_str!("scripts/torch_bits.py"))
        .replace("__NAME__", f.name)
        .replace("__KERNEL__", f.kernel)
        .replace("__LAUNCH__", &json(f.launch))
        .replace("__EXPECTED__", &json(f.expected))
        .replace("# __PROGRAM__\n", &with_newline(f.source))
}

/// `s` ending in exactly one newline.
fn with_newline(s: &str) -> String {
    format!("{}\n", s.trim_end_matches('\n'))
}
