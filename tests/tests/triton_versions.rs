//! Triton's language rules that changed after 3.6 (`interp/src/frontend/
//! triton/version.rs`): a launch names the release it follows
//! (`"target": {"triton": "3.9"}`), by default 3.6. The release each rule
//! starts at was read in Triton's wheels (3.6.0, 3.7.0, 3.7.1, 3.8.0,
//! 3.9.0: `semantic.minus` and `semantic.atomic_cas`); the expected bits
//! below follow from IEEE 754 by hand, as written beside each.

use ksem_tests::serde_json::{json, Value as Json};
use ksem_tests::*;

/// A launch of `args` on one program for Triton release `version` (None:
/// no `"target"`, the default).
fn launch_for(version: Option<&str>, args: Json) -> ksem_interp::launch::Launch {
    let mut j = json!({"grid": [1], "args": args});
    if let Some(v) = version {
        j["target"] = json!({ "triton": v });
    }
    try_launch(&j.to_string()).unwrap_or_else(|e| panic!("launch refused: {e}"))
}

const NEG: &str = "offs = tl.arange(0, 4)
tl.store(y_ptr + offs, -tl.load(x_ptr + offs))";

fn neg_bits(version: Option<&str>) -> Vec<u64> {
    // +0.0, -0.0, 1.5 and a quiet NaN with the sign bit clear
    let x = json!({"buffer": {"dtype": "float32", "bits": ["0x00000000", "0x80000000", "0x3fc00000", "0x7fc00000"]}});
    let l = launch_for(version, json!({"x_ptr": x, "y_ptr": zeros("float32", 4)}));
    bits(&run_clean(&kernel("x_ptr, y_ptr", NEG), &l), "y_ptr")
}

/// Triton 3.6 and 3.7 compute `-x` as `0 - x`: 0 - (+0.0) = +0.0 (IEEE's
/// exact zero sum is +0 in round-to-nearest), 0 - (-0.0) = +0.0, 0 - 1.5 =
/// -1.5 (0xbfc00000), and 0 - NaN is float32's arithmetic NaN 0x7fffffff
/// (docs/semantics.md, "NaN bits": arithmetic producing a NaN gives it,
/// measured on sm_90; the operand's NaN does not propagate).
#[test]
fn minus_before_3_8_is_zero_minus_x() {
    let want = vec![0x0000_0000, 0x0000_0000, 0xbfc0_0000, 0x7fff_ffff];
    assert_eq!(neg_bits(None), want);
    assert_eq!(neg_bits(Some("3.6")), want);
    assert_eq!(neg_bits(Some("3.7.1")), want);
}

/// From Triton 3.8 on, `-x` of a float is `fneg`: only the sign bit flips,
/// so +0.0 → -0.0 (0x80000000), -0.0 → +0.0, 1.5 → -1.5 and the NaN gets its
/// sign bit set (0xffc00000). Triton's own `test_neg_preserves_signed_zero`
/// (3.9-era) asks for signbit [True, False] of `-[0.0, -0.0]`.
#[test]
fn minus_from_3_8_flips_the_sign_bit() {
    let want = vec![0x8000_0000, 0x0000_0000, 0xbfc0_0000, 0xffc0_0000];
    assert_eq!(neg_bits(Some("3.8")), want);
    assert_eq!(neg_bits(Some("3.9.0")), want);
}

/// Integers keep `0 - x` in every release: -(-128) of int8 wraps to -128.
#[test]
fn integer_minus_wraps_in_every_release() {
    let src = kernel(
        "x_ptr, y_ptr",
        "offs = tl.arange(0, 2)\ntl.store(y_ptr + offs, -tl.load(x_ptr + offs))",
    );
    for v in [None, Some("3.9")] {
        let l = launch_for(
            v,
            json!({"x_ptr": buf("int8", json!([-128, 5])), "y_ptr": zeros("int8", 2)}),
        );
        assert_eq!(bits(&run_clean(&src, &l), "y_ptr"), vec![0x80, 0xfb]);
    }
}

const CAS: &str = "offs = tl.arange(0, 1)
old = tl.atomic_cas(p_ptr + offs, tl.load(c_ptr + offs), tl.load(v_ptr + offs))
tl.store(o_ptr + offs, old)";

fn cas_args(p: &str, c: &str) -> Json {
    let h = |b: &str| json!({"buffer": {"dtype": "float16", "bits": [b]}});
    json!({"p_ptr": h(p), "c_ptr": h(c), "v_ptr": h("0x4200"), "o_ptr": zeros("float16", 1)})
}

/// Triton 3.6's compiler fails on a 16-bit compare-and-swap (measured on an
/// H100, docs/divergences.md), so ksem refuses it for 3.6, naming the
/// release that runs it.
#[test]
fn sixteen_bit_cas_is_refused_for_3_6() {
    let src = kernel("p_ptr, c_ptr, v_ptr, o_ptr", CAS);
    let d = refused(&src, &launch_for(None, cas_args("0x3c00", "0x3c00")));
    assert_diag(
        &src,
        &d,
        loc1(&src, "tl.atomic_cas"),
        &[
            "tl.atomic_cas on float16",
            "Triton 3.6's compiler fails",
            "Triton 3.7 and later run it",
        ],
        None,
    );
}

/// From 3.7 on it runs, comparing bits: memory 1.0 (0x3c00) equals cmp 1.0,
/// so 3.0 (0x4200) is written and the old 1.0 returned; memory -0.0
/// (0x8000) against cmp +0.0 (0x0000) is equal as floats but not as bits,
/// so nothing is written and -0.0 is returned.
#[test]
fn sixteen_bit_cas_compares_bits_from_3_7() {
    let src = kernel("p_ptr, c_ptr, v_ptr, o_ptr", CAS);
    let r = run_clean(&src, &launch_for(Some("3.7"), cas_args("0x3c00", "0x3c00")));
    assert_eq!(bits(&r, "p_ptr"), vec![0x4200]);
    assert_eq!(bits(&r, "o_ptr"), vec![0x3c00]);
    let r = run_clean(&src, &launch_for(Some("3.9"), cas_args("0x8000", "0x0000")));
    assert_eq!(bits(&r, "p_ptr"), vec![0x8000]);
    assert_eq!(bits(&r, "o_ptr"), vec![0x8000]);
}

/// A release ksem has no rules for, or one written wrongly, is a launch
/// error that names `target.triton`.
#[test]
fn a_release_before_3_6_or_malformed_is_a_launch_error() {
    for (v, needle) in [
        ("3.5", "older than Triton 3.6"),
        ("2.3.1", "older than Triton 3.6"),
        ("3", "is not a Triton release"),
        ("3.x", "is not a Triton release"),
        ("3.9.0.1", "is not a Triton release"),
    ] {
        let text = json!({"grid": [1], "args": {}, "target": {"triton": v}}).to_string();
        let e = try_launch(&text).expect_err(v);
        assert!(
            e.contains("target.triton") && e.contains(needle),
            "{v}: {e}"
        );
    }
}

/// `a @ b` of an M×K by K×2 tile (row-major buffers), K a parameter.
fn dot_kernel(k: usize, precision: &str) -> String {
    kernel(
        "a_ptr, b_ptr, c_ptr",
        &format!(
            "m = tl.arange(0, 2)
k = tl.arange(0, {k})
a = tl.load(a_ptr + m[:, None] * {k} + k[None, :])
b = tl.load(b_ptr + k[:, None] * 2 + m[None, :])
c = tl.dot(a, b{precision})
tl.store(c_ptr + m[:, None] * 2 + m[None, :], c)"
        ),
    )
}

/// a = [[1, 2, ..., K], [K+1, ..., 2K]], b = all ones: each row of the
/// product is its row's sum, 1+..+K and (K+1)+..+2K.
fn dot_args(dtype: &str, k: usize) -> Json {
    let a: Vec<u64> = (1..=2 * k as u64).collect();
    json!({"a_ptr": buf(dtype, json!(a)), "b_ptr": buf(dtype, json!(vec![1; 2 * k])),
           "c_ptr": zeros(dtype, 4)})
}

/// Triton 3.6's NVIDIA backend asks K >= 16 of a float64 or float32 `tl.dot`
/// (`min_dot_size`: 32 for 8-bit operands, 16 for every other width).
#[test]
fn dot_k_below_16_is_refused_for_3_6() {
    for (dtype, k) in [("float64", 4), ("float32", 8)] {
        let src = dot_kernel(k, "");
        let d = refused(&src, &launch_for(None, dot_args(dtype, k)));
        assert_diag(
            &src,
            &d,
            loc1(&src, "tl.dot"),
            &["K >= 16 (Triton 3.6 on NVIDIA GPUs)", &format!("K is {k}")],
            None,
        );
    }
}

/// From 3.8 on the smallest K is 4 for 64-bit and 8 for 32-bit operands:
/// K = 4 in float64 gives the rows' sums 1+2+3+4 = 10 (0x4024000000000000)
/// and 5+6+7+8 = 26 (0x403a000000000000); K = 8 in float32 (ieee) gives
/// 36 (0x42100000) and 9+..+16 = 100 (0x42c80000); every value is exact.
#[test]
fn dot_k_follows_the_width_from_3_8() {
    let r = run_clean(
        &dot_kernel(4, ""),
        &launch_for(Some("3.9"), dot_args("float64", 4)),
    );
    let (ten, twenty_six) = (0x4024_0000_0000_0000, 0x403a_0000_0000_0000);
    assert_eq!(bits(&r, "c_ptr"), vec![ten, ten, twenty_six, twenty_six]);
    let src = dot_kernel(8, ", input_precision=\"ieee\"");
    let r = run_clean(&src, &launch_for(Some("3.8"), dot_args("float32", 8)));
    assert_eq!(
        bits(&r, "c_ptr"),
        vec![0x4210_0000, 0x4210_0000, 0x42c8_0000, 0x42c8_0000]
    );
}

/// Below the new bounds 3.9 still refuses: float32 with K = 4 asks K >= 8.
#[test]
fn dot_k_below_the_width_bound_is_refused_from_3_8() {
    let src = dot_kernel(4, "");
    let d = refused(&src, &launch_for(Some("3.9"), dot_args("float32", 4)));
    assert_diag(
        &src,
        &d,
        loc1(&src, "tl.dot"),
        &["K >= 8 (Triton 3.9 on NVIDIA GPUs)", "K is 4"],
        None,
    );
}
