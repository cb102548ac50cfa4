//! `tl.dot_scaled` (Triton 3.9's interpreter, `runtime/interpreter.py`
//! `create_dot_scaled`): operands decoded to float32 (fp4 e2m1 two per byte,
//! the first element in the low nibble; fp8 e4m3/e5m2; fp16/bf16), each
//! multiplied by its e8m0 scale (2^(byte-127) per 32 elements of K, 255 NaN,
//! 0 zero with an fp16 operand and 2^-127 otherwise), then the float32
//! product from zero (k ascending) plus `acc`. Every expected value is
//! derived by hand in the test, never copied from ksem's output (those of
//! the first two tests and of `scale_bytes_255_and_0` are also what Triton
//! 3.9's interpreter stores, measured with `/work/venv24`: its NaN is
//! 0xffc00000, ksem's the canonical one).

use ksem_tests::serde_json::{json, Value as Json};
use ksem_tests::*;

/// A kernel computing `c = tl.dot_scaled(a, a_scale, FA, b, b_scale, FB,
/// EXTRA)` for an `a` of `ra`×`ca` (row-major, as stored), a `b` of
/// `rb`×`cb`, scales of `[rows, 1]` when `scales` names them, storing the
/// float32 M×N result to `c_ptr`.
fn scaled(
    a: (usize, usize),
    b: (usize, usize),
    scales: (bool, bool),
    call: &str,
    mn: (usize, usize),
) -> String {
    let load_scale = |name: &str, rows: usize, on: bool| {
        if on {
            format!("{name} = tl.load({name}_ptr + tl.arange(0, {rows})[:, None] + tl.arange(0, 1)[None, :])\n")
        } else {
            format!("{name} = None\n")
        }
    };
    let body = format!(
        "a = tl.load(a_ptr + tl.arange(0, {ra})[:, None] * {ca} + tl.arange(0, {ca})[None, :])
b = tl.load(b_ptr + tl.arange(0, {rb})[:, None] * {cb} + tl.arange(0, {cb})[None, :])
{sa}{sb}c = {call}
tl.store(c_ptr + tl.arange(0, {m})[:, None] * {n} + tl.arange(0, {n})[None, :], c)",
        ra = a.0,
        ca = a.1,
        rb = b.0,
        cb = b.1,
        sa = load_scale("sa", mn.0, scales.0),
        sb = load_scale("sb", mn.1, scales.1),
        m = mn.0,
        n = mn.1,
    );
    kernel("a_ptr, b_ptr, sa_ptr, sb_ptr, c_ptr", &body)
}

/// The launch: buffers `a`, `b` (dtype, data), scales (uint8) and `c`.
fn args(a: (&str, Json), b: (&str, Json), sa: Json, sb: Json, c_len: usize) -> Json {
    json!({"a_ptr": buf(a.0, a.1), "b_ptr": buf(b.0, b.1),
           "sa_ptr": buf("uint8", sa), "sb_ptr": buf("uint8", sb),
           "c_ptr": zeros("float32", c_len)})
}

/// e2m1 lhs (2×32 packed as 2×16 bytes) scaled, float16 rhs (32×2) unscaled.
/// Row 0's bytes 0x21: low nibble 0b0001 = 0.5 (the subnormal), high 0b0010
/// = 1.0, so the row is [0.5, 1, 0.5, 1, …]; scale byte 128 = 2^1 makes it
/// [1, 2, 1, 2, …]. Row 1's bytes 0x8f: low 0b1111 = -(1.5·2^2) = -6, high
/// 0b1000 = -0.0; scale 126 = 2^-1: [-3, -0, -3, -0, …]. rhs column 0 is k,
/// column 1 all ones. c[0][0] = Σ_even k + 2·Σ_odd k = 240 + 2·256 = 752 =
/// 1.46875·2^9 = 0x443c0000; c[0][1] = 16·1 + 16·2 = 48 = 1.5·2^5 =
/// 0x42400000; c[1][0] = -3·240 = -720 = -1.40625·2^9 = 0xc4340000; c[1][1]
/// = -3·16 = -48 = 0xc2400000.
#[test]
fn e2m1_lhs_unpacks_low_nibble_first_and_scales_by_e8m0() {
    let src = scaled(
        (2, 16),
        (32, 2),
        (true, false),
        "tl.dot_scaled(a, sa, \"e2m1\", b, sb, \"fp16\")",
        (2, 2),
    );
    let mut a = vec![0x21; 16];
    a.extend(vec![0x8f; 16]);
    let b: Vec<Json> = (0..32).flat_map(|k| [json!(k), json!(1)]).collect();
    let l = launch(
        &[1],
        args(
            ("uint8", json!(a)),
            ("float16", json!(b)),
            json!([128, 126]),
            json!([0, 0]),
            4,
        ),
    );
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "c_ptr"),
        vec![0x443c0000, 0x42400000, 0xc4340000, 0xc2400000]
    );
}

/// e2m1 packed along M (`lhs_k_pack=False`): one row of 32 bytes 0x21 holds
/// rows 0 (low nibbles, 0.5) and 1 (high nibbles, 1.0); scales 127 = 1.
/// rhs column 0 all ones, column 1 is k (Σk = 496): c = [[16, 248], [32,
/// 496]] = 0x41800000, 0x43780000, 0x42000000, 0x43f80000.
#[test]
fn e2m1_packed_along_m_unpacks_rows() {
    let src = scaled(
        (1, 32),
        (32, 2),
        (true, false),
        "tl.dot_scaled(a, sa, \"e2m1\", b, sb, \"fp16\", lhs_k_pack=False)",
        (2, 2),
    );
    let b: Vec<Json> = (0..32).flat_map(|k| [json!(1), json!(k)]).collect();
    let l = launch(
        &[1],
        args(
            ("uint8", json!(vec![0x21; 32])),
            ("float16", json!(b)),
            json!([127, 127]),
            json!([0, 0]),
            4,
        ),
    );
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "c_ptr"),
        vec![0x41800000, 0x43780000, 0x42000000, 0x43f80000]
    );
}

/// float16 lhs (2×32: row 0 ones, row 1 a one at k = 0), e4m3 rhs (32×2
/// uint8) with its scale given per column of N. Column 0: 0x38 = 2^(7-7) =
/// 1.0 everywhere, scale 127 = 1: c[0][0] = 32 = 0x42000000, c[1][0] = 1 =
/// 0x3f800000. Column 1: 0x7e = 1.75·2^(15-7) = 448 at k = 0, then 0x01 =
/// 2^-6·2^-3 = 2^-9 (the smallest subnormal), scale 120 = 2^-7: 3.5 and
/// 2^-16 each, so c[0][1] = 3.5 + 31·2^-16, exact in float32 (its unit in
/// [2, 4) is 2^-22; 31·2^-16 = 1984 = 0x7c0 units): 0x40600000 + 0x7c0 =
/// 0x406007c0; c[1][1] = 3.5 = 0x40600000.
#[test]
fn e4m3_rhs_scale_is_given_per_column() {
    let src = scaled(
        (2, 32),
        (32, 2),
        (false, true),
        "tl.dot_scaled(a, sa, \"fp16\", b, sb, \"e4m3\")",
        (2, 2),
    );
    let mut a = vec![1; 32];
    a.extend((0..32).map(|k| (k == 0) as i32));
    let b: Vec<Json> = (0..32)
        .flat_map(|k| [json!(0x38), json!(if k == 0 { 0x7e } else { 0x01 })])
        .collect();
    let l = launch(
        &[1],
        args(
            ("float16", json!(a)),
            ("uint8", json!(b)),
            json!([0, 0]),
            json!([127, 120]),
            4,
        ),
    );
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "c_ptr"),
        vec![0x42000000, 0x406007c0, 0x3f800000, 0x40600000]
    );
}

/// Scale byte 255 is NaN (the interpreter's fma of infinity by 0), which
/// the product carries; byte 0 is 2^-127 (float32 0x00400000, subnormal)
/// where the product computes in bfloat16 (no fp16 operand) and +0.0 where
/// an operand is fp16. e5m2 lhs 0x3c = 2^(15-15) = 1.0 at k = 0 (row 0)
/// and zeros, rhs ones: row 0 of the product is its scale.
#[test]
fn scale_bytes_255_and_0() {
    let call = |fb: &str| format!("tl.dot_scaled(a, sa, \"e5m2\", b, sb, \"{fb}\")");
    let mut a = vec![0; 64];
    a[0] = 0x3c;
    a[32] = 0x3c;
    for (fb, dt, want1) in [("bf16", "bfloat16", 0x400000u64), ("fp16", "float16", 0)] {
        let src = scaled((2, 32), (32, 1), (true, false), &call(fb), (2, 1));
        let l = launch(
            &[1],
            args(
                ("uint8", json!(a)),
                (dt, json!(vec![1; 32])),
                json!([255, 0]),
                json!([0]),
                2,
            ),
        );
        let r = run_clean(&src, &l);
        let c = bits(&r, "c_ptr");
        assert_eq!(
            c[0] & 0x7f80_0000,
            0x7f80_0000,
            "{fb}: NaN expected, got {:#x}",
            c[0]
        );
        assert_ne!(c[0] & 0x007f_ffff, 0, "{fb}: NaN expected, got {:#x}", c[0]);
        assert_eq!(c[1], want1, "{fb}: scale byte 0");
    }
}

/// `acc` is added after the product computed from zero (the interpreter's
/// `np.matmul(lhs, rhs) + acc`): e4m3 0x38 = 1.0 times float16 ones over 32
/// elements is 32; with acc = 0.5 the result is 32.5 = 1.015625·2^5 =
/// 0x42020000.
#[test]
fn acc_is_added_after_the_product() {
    let src = scaled(
        (1, 32),
        (32, 1),
        (false, false),
        "tl.dot_scaled(a, None, \"e4m3\", b, None, \"fp16\", acc=tl.full((1, 1), 0.5, tl.float32))",
        (1, 1),
    );
    let l = launch(
        &[1],
        args(
            ("uint8", json!(vec![0x38; 32])),
            ("float16", json!(vec![1; 32])),
            json!([0]),
            json!([0]),
            1,
        ),
    );
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "c_ptr"), vec![0x42020000]);
}

/// Triton's checks (semantic.py `dot_scaled`, core.py), each refused at the
/// call with exit 2.
#[test]
fn dot_scaled_refusals() {
    let l = launch(
        &[1],
        args(
            ("uint8", json!(vec![0; 64])),
            ("float16", json!(vec![0; 64])),
            json!([0, 0]),
            json!([0, 0]),
            4,
        ),
    );
    let cases: [(&str, &str); 5] = [
        (
            "tl.dot_scaled(a, sa, \"e3m2\", b, sb, \"fp16\")",
            "Invalid float format: e3m2",
        ),
        (
            "tl.dot_scaled(a, sa, \"e4m3\", b, sb, \"fp16\", lhs_k_pack=False)",
            "only mxfp4 inputs",
        ),
        (
            "tl.dot_scaled(a, sa, \"e2m1\", b, sb, \"fp16\", out_dtype=tl.float16)",
            "Only float32",
        ),
        (
            "tl.dot_scaled(b, sa, \"e2m1\", b, sb, \"fp16\")",
            "e2m1 format must be packed as uint8",
        ),
        (
            "tl.dot_scaled(a, sa, \"e4m3\", a, sb, \"fp16\")",
            "Unexpected dtype",
        ),
    ];
    for (call, msg) in cases {
        let src = scaled((2, 32), (32, 2), (true, false), call, (2, 2));
        let d = refused(&src, &l);
        let at = loc1(&src, "tl.dot_scaled");
        assert_diag(&src, &d, at, &[msg], None);
    }
}

/// Formats given as constexpr parameters (Triton's test passes `type_a`,
/// `type_b`): the string "fp16" reaches the kernel as the dtype it names,
/// and means the format. e4m3 0x40 = 2^(8-7) = 2 (scale 127 = 1) times
/// float16 ones over 32 elements: 64 = 0x42800000.
#[test]
fn formats_as_constexpr_parameters() {
    let src = kernel(
        "a_ptr, b_ptr, sa_ptr, c_ptr, FA: tl.constexpr, FB: tl.constexpr",
        "a = tl.load(a_ptr + tl.arange(0, 32)[None, :])
b = tl.load(b_ptr + tl.arange(0, 32)[:, None])
sa = tl.load(sa_ptr + tl.arange(0, 1)[:, None] + tl.arange(0, 1)[None, :])
tl.store(c_ptr + tl.arange(0, 1)[:, None] + tl.arange(0, 1)[None, :], tl.dot_scaled(a, sa, FA, b, None, FB))",
    );
    let l = launch(
        &[1],
        json!({"a_ptr": buf("uint8", json!(vec![0x40; 32])), "b_ptr": buf("float16", json!(vec![1; 32])),
               "sa_ptr": buf("uint8", json!([127])), "c_ptr": zeros("float32", 1),
               "FA": cx(json!("e4m3")), "FB": cx(json!("fp16"))}),
    );
    assert_eq!(bits(&run_clean(&src, &l), "c_ptr"), vec![0x42800000]);
}
