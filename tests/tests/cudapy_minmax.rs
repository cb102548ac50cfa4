//! CUDA Python's builtin `min`/`max` (divergence N24, fixed): numba-cuda
//! 0.30.4 sends a call on exactly two floats to libdevice's `fmin`/`fmax`
//! (a NaN operand ignored, `max(-0.0, 0.0)` = +0.0), and every other call
//! (a float with an int, three or more operands) through Python's
//! algorithm: pairwise `v if v > acc else acc` (`<` for `min`), so a NaN
//! first operand propagates, a later one is skipped and ties keep the
//! first. The expected bits come from numba-cuda measured on an NVIDIA
//! H200 (`tools/probes/numba/minmax_mixed.json`, the probe's kernel run
//! unchanged here) and from the hand reasoning beside each further case.

use ksem_interp::launch::{parse_launch, Launch};
use ksem_tests::*;
use serde_json::json;

const NAN: u64 = 0x7ff8_0000_0000_0000;
const MZ: u64 = 0x8000_0000_0000_0000; // -0.0
const PZ: u64 = 0;
const ONE: u64 = 0x3ff0_0000_0000_0000;

fn kern(params: &str, body: &str) -> String {
    format!(
        "from numba import cuda, float32, int64\n\n@cuda.jit\ndef k({params}):\n{}\n",
        indent(body)
    )
}

fn hex(v: &[u64]) -> Vec<String> {
    v.iter().map(|x| format!("{x:#x}")).collect()
}

/// One thread; `f` = float64 [nan, -0.0, 1.0], `n` = int64 [0], `out`
/// float64 of `len`.
fn one_thread(len: usize) -> Launch {
    let text = json!({"grid": [1], "block": [1], "args": {
        "f": {"buffer": {"dtype": "float64", "bits": hex(&[NAN, MZ, ONE])}},
        "n": {"buffer": {"dtype": "int64", "data": [0]}},
        "out": zeros("float64", len),
    }})
    .to_string();
    parse_launch(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// The kernel of `tools/probes/numba/minmax_mixed.py`, read from the probe
/// itself (its `@cuda.jit` function, up to the blank line after it), so the
/// test runs exactly what was measured.
fn probe_kernel() -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tools/probes/numba/minmax_mixed.py");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let start = text.find("@cuda.jit\n").expect("the probe's kernel");
    let end = text[start..].find("\n\n").map_or(text.len(), |e| start + e);
    format!("from numba import cuda\n\n\n{}\n", &text[start..end])
}

#[test]
fn every_probe_case_has_numbas_measured_bits() {
    let probe = probe_json("numba/minmax_mixed.json");
    let cases = probe["results"].as_array().expect("results");
    let numba: Vec<u64> = cases
        .iter()
        .map(|c| hex_list(&json!([c["numba"]]))[0])
        .collect();
    assert_eq!(numba.len(), 16);
    let src = probe_kernel();
    let got = bits(&run_clean(&src, &one_thread(16)), "out");
    for (i, c) in cases.iter().enumerate() {
        assert_eq!(
            got[i], numba[i],
            "case {i} {}: ksem {:#x}, numba-cuda {:#x}",
            c["case"], got[i], numba[i]
        );
    }
}

#[test]
fn the_probe_cases_follow_the_two_rules_by_hand() {
    // Python's algorithm (float with int, or three operands): NaN first
    // stays (no `v > nan` holds), NaN later is skipped (`nan > acc` is
    // false), ties keep the first (`0.0 > -0.0` is false); fmax/fmin on
    // two floats: NaN ignored, max of the zeros +0, min -0.
    let want = [
        NAN, PZ, NAN, PZ, // max/min(nan, 0), (0, nan)
        MZ, PZ, MZ, PZ, // max/min(-0.0, 0), (0, -0.0): the first
        ONE, ONE, // fmax(nan, 1.0), fmax(1.0, nan)
        PZ, MZ, // fmax(-0.0, 0.0) = +0, fmin(0.0, -0.0) = -0
        NAN, ONE, NAN, // three operands: NaN first kept, later skipped
        MZ,  // max(-0.0, 0.0, -0.0): ties keep the first
    ];
    let src = probe_kernel();
    assert_eq!(
        hex(&bits(&run_clean(&src, &one_thread(16)), "out")),
        hex(&want)
    );
}

#[test]
fn float32_pairs_are_fminf_and_a_later_larger_value_replaces_the_first() {
    // float32(nan) with float32(1): fmaxf ignores the NaN; two float32
    // zeros: fminf gives -0. Three operands 1.5, nan, 2.5 (Python's
    // example in numba's do_minmax): 2.5 > 1.5 replaces, nan is skipped.
    // An int and an int: 3 > -2, the integer max.
    let body = "\
a = float32(f[0])
b = float32(f[2])
out[0] = max(a, b)
out[1] = min(float32(0.0), float32(f[1]))
out[2] = max(f[2] + 0.5, f[0], f[2] + 1.5)
out[3] = max(n[0] - 2, n[0] + 3)
out[4] = min(n[0] + 3, f[1], n[0] - 2)";
    // out[4]: acc = 3 (int), then -0.0 < 3.0 replaces (float), then
    // -2.0 < -0.0 replaces: -2.0
    let want = [
        ONE,
        MZ,
        2.5f64.to_bits(),
        3.0f64.to_bits(),
        (-2.0f64).to_bits(),
    ];
    let src = kern("f, n, out", body);
    assert_eq!(
        hex(&bits(&run_clean(&src, &one_thread(5)), "out")),
        hex(&want)
    );
}

#[test]
fn a_bool_with_a_float_is_pythons_algorithm() {
    // max(True, nan): acc = 1.0, `nan > 1.0` false, keep 1.0;
    // max(nan, False): acc = nan, `0.0 > nan` false, keep nan (fmax would
    // give 0.0)
    let body = "\
t = f[2] > 0.0
out[0] = max(t, f[0])
out[1] = max(f[0], f[2] < 0.0)";
    let src = kern("f, n, out", body);
    assert_eq!(
        hex(&bits(&run_clean(&src, &one_thread(2)), "out")),
        hex(&[ONE, NAN])
    );
}
