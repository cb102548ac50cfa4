//! Triton's other fp8 formats, `tl.float8e4b15`, `tl.float8e4b8` and
//! `tl.float8e5b16` (docs/semantics.md, "Triton's other fp8 formats").
//! Decoding and `tl.abs` are compared with Triton 3.9's interpreter on every
//! bit pattern (`tools/probes/triton_interp/fp8_b_formats.py`, run with
//! `TRITON_INTERPRET=1` under /work/venv24; its output is
//! `fp8_b_formats.json`), except where ksem follows the compiled path
//! instead (the "fnuz" NaN 0x80, which the interpreter reads as -0.0).
//! Conversions into the formats follow compiled Triton (the interpreter's
//! rounding is broken: it turns 2.0 into float8e4b15 1.0); the expected bits
//! are derived by hand below.

use ksem_tests::serde_json::{json, Value as Json};
use ksem_tests::*;

const FORMATS: [&str; 3] = ["float8e4b15", "float8e4b8", "float8e5b16"];

fn measured() -> Json {
    probe_json("triton_interp/fp8_b_formats.json")
}

fn ints(j: &Json) -> Vec<u64> {
    j.as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_u64().expect("an integer"))
        .collect()
}

fn hex(v: &[u64]) -> Json {
    json!(v.iter().map(|b| format!("{b:#x}")).collect::<Vec<_>>())
}

/// Every pattern of fp8 format `f` converted to float32, float16 and
/// bfloat16, and its `tl.abs`.
fn up(f: &str) -> [Vec<u64>; 4] {
    let src = kernel(
        "x_ptr, f32_ptr, f16_ptr, bf16_ptr, abs_ptr",
        "offs = tl.arange(0, 256)
x = tl.load(x_ptr + offs)
tl.store(f32_ptr + offs, x.to(tl.float32))
tl.store(f16_ptr + offs, x.to(tl.float16))
tl.store(bf16_ptr + offs, x.to(tl.bfloat16))
tl.store(abs_ptr + offs, tl.abs(x))",
    );
    let pats: Vec<u64> = (0..256).collect();
    let l = launch(
        &[1],
        json!({
            "x_ptr": {"buffer": {"dtype": f, "bits": hex(&pats)}},
            "f32_ptr": zeros("float32", 256),
            "f16_ptr": zeros("float16", 256),
            "bf16_ptr": zeros("bfloat16", 256),
            "abs_ptr": zeros(f, 256),
        }),
    );
    let r = run_clean(&src, &l);
    ["f32_ptr", "f16_ptr", "bf16_ptr", "abs_ptr"].map(|n| bits(&r, n))
}

/// Decoding every pattern and `tl.abs` (the sign bit cleared) agree with
/// the interpreter, but for the float16 results of float8e4b15's and
/// float8e5b16's subnormals (the interpreter's float16 path breaks them;
/// ksem's are exact, as its float32 results and compiled Triton's
/// float8e4b15 bit shift are) and the "fnuz" formats' 0x80: their one NaN (AMD's
/// definition of the formats, the only compiled path that runs them),
/// which the interpreter's generic decoder reads as -0.0. ksem gives the
/// wider formats' canonical NaN there: float32 0x7fffffff, float16 0x7fff,
/// bfloat16 0x7fff (docs/semantics.md, "NaN bits").
#[test]
fn decoding_and_abs_of_every_pattern_match_the_interpreter() {
    let m = measured();
    for f in FORMATS {
        let [f32s, f16s, bf16s, abs] = up(f);
        let fnuz = f != "float8e4b15";
        for (got, key, nan) in [
            (&f32s, "to_f32", 0x7fff_ffff),
            (&f16s, "to_f16", 0x7fff),
            (&bf16s, "to_bf16", 0x7fff),
        ] {
            let mut want = ints(&m[f][key]);
            if fnuz {
                want[0x80] = nan;
            }
            if key == "to_f16" && f != "float8e4b8" {
                // the interpreter's float16 path loses these subnormals (its
                // float32 results are right): each is m * 2^-17 for mantissa
                // m, float16's subnormal m << 7 (m * 2^7 * 2^-24)
                for p in (1..8).chain(0x81..0x88) {
                    if p & 0x7f < (1 << if f == "float8e4b15" { 3 } else { 2 }) {
                        want[p as usize] = ((p & 0x80) << 8) | ((p & 0x7f) << 7);
                    }
                }
            }
            assert_eq!(got, &want, "{f} {key}");
        }
        assert_eq!(abs, ints(&m[f]["abs"]), "{f} abs");
    }
}

/// The decoded values by hand: float8e4b15 is float16 without its top
/// exponent bit and low 7 mantissa bits (bias 15 both), so 0x78 = 2^0 = 1.0
/// (float32 0x3f800000), 0x7f = 1.875 (0x3ff00000), 0x01 = 2^-14 * 1/8 =
/// 2^-17 (0x37000000), all finite; float8e4b8 0x7f = 2^(15-8) * 1.875 = 240
/// (0x43700000); float8e5b16 0x7f = 2^(31-16) * 1.75 = 57344 (0x47600000).
#[test]
fn decoded_values_by_hand() {
    let [e4b15, ..] = up("float8e4b15");
    assert_eq!(
        [e4b15[0x78], e4b15[0x7f], e4b15[0x01], e4b15[0xff]],
        [0x3f80_0000, 0x3ff0_0000, 0x3700_0000, 0xbff0_0000]
    );
    let [e4b8, ..] = up("float8e4b8");
    assert_eq!(e4b8[0x7f], 0x4370_0000);
    let [e5b16, ..] = up("float8e5b16");
    assert_eq!(e5b16[0x7f], 0x4760_0000);
}

/// float32 values `vals` converted to fp8 format `f` (default rounding, then
/// `fp_downcast_rounding="rtz"`).
fn down(f: &str, vals: &[u64]) -> (Vec<u64>, Vec<u64>) {
    // (tl.arange needs a power of two: padded with zeros, cut off after)
    let n = vals.len().next_power_of_two();
    let mut padded = vals.to_vec();
    padded.resize(n, 0);
    let src = kernel(
        "x_ptr, rn_ptr, rz_ptr, N: tl.constexpr",
        &format!(
            "offs = tl.arange(0, N)
x = tl.load(x_ptr + offs)
tl.store(rn_ptr + offs, x.to(tl.{f}))
tl.store(rz_ptr + offs, x.to(tl.{f}, fp_downcast_rounding=\"rtz\"))"
        ),
    );
    let l = launch(
        &[1],
        json!({
            "x_ptr": {"buffer": {"dtype": "float32", "bits": hex(&padded)}},
            "rn_ptr": zeros(f, n),
            "rz_ptr": zeros(f, n),
            "N": cx(json!(n)),
        }),
    );
    let r = run_clean(&src, &l);
    let cut = |name| bits(&r, name)[..vals.len()].to_vec();
    (cut("rn_ptr"), cut("rz_ptr"))
}

/// Into float8e4b15, compiled Triton's one conversion (float16 source; a
/// float32 source is rounded to float16 first with the cast's rounding):
/// clamp the magnitude to 1.875, then round its float16 bits half away from
/// zero at 7 bits, for either rounding mode.
/// - 1.0 → 0x78; 1.8125 (the midpoint of 1.75 = 0x7e and 1.875 = 0x7f) →
///   0x7f, away from zero (ties-to-even would give 0x7e), also under rtz;
/// - 2.0, 1e6 and +inf clamp to 0x7f, -inf to 0xff; -0.0 → 0x80;
/// - NaN → 0xff: the clamp is max(x, -1.875) then min(·, 1.875) with
///   LLVM's maxnum/minnum, which drop the NaN for -1.875;
/// - 2^-18, half the smallest subnormal 2^-17, rounds away to 0x01;
/// - 1.0625 - 2^-13 (0x3f87fc00) rounds to float16 1.0625 first (its ulp
///   there is 2^-10), the midpoint of 0x78 and 0x79, then away to 0x79;
///   under rtz the float16 step truncates to 1.0625 - 2^-10 → 0x78.
#[test]
fn conversions_into_e4b15_follow_compiled_triton() {
    let vals = [
        0x3f80_0000, // 1.0
        0x3fe8_0000, // 1.8125
        0x4000_0000, // 2.0
        0x4974_2400, // 1e6
        0x7f80_0000, // +inf
        0xff80_0000, // -inf
        0x8000_0000, // -0.0
        0x7fc0_0000, // NaN
        0x3680_0000, // 2^-18
        0x3f87_fc00, // 1.0625 - 2^-13
    ];
    let (rn, rz) = down("float8e4b15", &vals);
    assert_eq!(
        rn,
        [0x78, 0x7f, 0x7f, 0x7f, 0x7f, 0xff, 0x80, 0xff, 0x01, 0x79]
    );
    assert_eq!(
        rz,
        [0x78, 0x7f, 0x7f, 0x7f, 0x7f, 0xff, 0x80, 0xff, 0x01, 0x78]
    );
}

/// Into the "fnuz" formats, ksem's fp8 rule (rounded once, to nearest even
/// or toward zero; overflow and ±inf saturate), with the formats' own
/// specials: no -0 (-0.0 → 0x00) and NaN → 0x80.
/// - float8e4b8: 1.0 = 2^(8-8) → 0x40; 1.8125 is the midpoint of 1.75
///   (0x46) and 1.875 (0x47): even → 0x46, rtz → 0x46; 300 > 240 → 0x7f;
///   -inf → 0xff; 2^-10 is the smallest subnormal (2^(1-8) / 8) → 0x01;
/// - float8e5b16: 1.0 → 0x40; 1.875 is the midpoint of 1.75 (0x43) and 2.0
///   (0x44): even → 0x44, rtz → 0x43; 1e6 > 57344 → 0x7f.
#[test]
fn conversions_into_fnuz_formats() {
    let vals = [
        0x3f80_0000, // 1.0
        0x3fe8_0000, // 1.8125
        0x4396_0000, // 300.0
        0xff80_0000, // -inf
        0x8000_0000, // -0.0
        0x7fc0_0000, // NaN
        0x3a80_0000, // 2^-10
    ];
    let (rn, rz) = down("float8e4b8", &vals);
    assert_eq!(rn, [0x40, 0x46, 0x7f, 0xff, 0x00, 0x80, 0x01]);
    assert_eq!(rz, [0x40, 0x46, 0x7f, 0xff, 0x00, 0x80, 0x01]);
    let vals = [
        0x3f80_0000, // 1.0
        0x3ff0_0000, // 1.875
        0x4974_2400, // 1e6
        0x8000_0000, // -0.0
        0x7fc0_0000, // NaN
    ];
    let (rn, rz) = down("float8e5b16", &vals);
    assert_eq!(rn, [0x40, 0x44, 0x7f, 0x00, 0x80]);
    assert_eq!(rz, [0x40, 0x43, 0x7f, 0x00, 0x80]);
}

/// `-x` from Triton 3.8 on (`fneg`, tests/tests/triton_versions.rs) of a
/// "fnuz" format flips the sign of numbers only: -(0x00) stays 0x00 (0x80
/// would be the NaN) and -(NaN 0x80) stays the NaN; -(1.0 = 0x40) is 0xc0.
/// float8e4b15 flips the sign bit of every pattern. Before 3.8 `-x` is
/// `0 - x`: +0 for either zero, the NaN for the "fnuz" NaN.
#[test]
fn negation_keeps_fnuz_zero_and_nan() {
    let src = kernel(
        "x_ptr, y_ptr",
        "offs = tl.arange(0, 4)\ntl.store(y_ptr + offs, -tl.load(x_ptr + offs))",
    );
    for (f, version, want) in [
        ("float8e4b8", "3.9", [0x00, 0x80, 0xc0, 0x40]),
        ("float8e5b16", "3.9", [0x00, 0x80, 0xc0, 0x40]),
        ("float8e4b15", "3.9", [0x80, 0x00, 0xc0, 0x40]),
        ("float8e4b8", "3.6", [0x00, 0x80, 0xc0, 0x40]),
        ("float8e4b15", "3.6", [0x00, 0x00, 0xc0, 0x40]),
    ] {
        let j = json!({
            "grid": [1],
            "target": {"triton": version},
            "args": {
                "x_ptr": {"buffer": {"dtype": f, "bits": ["0x0", "0x80", "0x40", "0xc0"]}},
                "y_ptr": zeros(f, 4),
            },
        });
        let l = try_launch(&j.to_string()).expect("launch");
        assert_eq!(bits(&run_clean(&src, &l), "y_ptr"), want, "{f} {version}");
    }
}
