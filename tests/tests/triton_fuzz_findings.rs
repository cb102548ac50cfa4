//! Kernels that real-system campaigns found, reduced, with ksem's values
//! checked against a hand computation (the real system's wrong values are
//! recorded in `docs/bugs/`).

use ksem_tests::serde_json::json;
use ksem_tests::*;

/// Fuzz seed 4306 program 1508 (issue 27), as `ksem reduce` left it against
/// Triton 3.6 on an H200 (`docs/bugs/ptxas-int16-eq-minus-one/`): real
/// Triton's `tl.where((t3 == 0) | (t3 == -1), c4, t3)` is wrong in some
/// lanes at ptxas's default optimisation (right at -O0). Here with inputs
/// chosen so each row shows one case. By hand:
///
/// - `x1` is bool (0 in even columns, 1 in odd ones), `c3` int16 per row:
///   `t3 = x1 - c3` is int16 (bool with int16), wrapping;
/// - `c2` is all -7, so `v1`, the sum of eight of them, is -56 in every row;
/// - the divisor is `c4 = 3` where `t3` is 0 or -1, else `t3`, and `//` of
///   ints truncates toward zero (C's, as Triton's).
///
/// | row | c3 | x1 = 0: t3, divisor, -56 // d | x1 = 1: t3, divisor, -56 // d |
/// | 0 | 1 | -1, 3, -18 | 0, 3, -18 |
/// | 1 | -1 | 1, 1, -56 | 2, 2, -28 |
/// | 2 | -32768 | 32768 wraps to -32768, -32768, 0 | 32769 wraps to -32767, -32767, 0 |
/// | 3 | 9 | -9, -9, 6 | -8, -8, 7 |
/// | 4-15 | 0 | 0, 3, -18 | 1, 1, -56 |
#[test]
fn program_1508_reduced_matches_the_hand_computation() {
    let src = kernel(
        "in1_ptr, out0_ptr, c1_ptr, c2_ptr, c3_ptr, c4_ptr",
        "cols = tl.arange(0, 8)
offs = tl.load(c1_ptr + tl.reshape(tl.arange(0, 16), (16, 1))) + cols
x1 = tl.load(in1_ptr + offs)
v1 = tl.reshape(tl.sum(tl.load(c2_ptr + (tl.reshape(tl.arange(0, 16), (16, 1)) + tl.arange(0, 8))), axis=1), (16, 1))
t3 = x1 - tl.load(c3_ptr + tl.reshape(tl.arange(0, 16), (16, 1)))
b2 = v1 // tl.where((t3 == 0) | (t3 == -1), tl.load(c4_ptr), t3)
tl.store(out0_ptr + offs, b2)",
    );
    let x1: Vec<bool> = (0..128).map(|i| i % 2 == 1).collect();
    let mut c3 = vec![0i64; 16];
    c3[..4].copy_from_slice(&[1, -1, -32768, 9]);
    let l = launch(
        &[1],
        json!({
            "in1_ptr": buf("bool", json!(x1)),
            "out0_ptr": zeros("int64", 128),
            "c1_ptr": buf("int32", json!((0..16).map(|r| r * 8).collect::<Vec<i64>>())),
            "c2_ptr": buf("int32", json!(vec![-7; 128])),
            "c3_ptr": buf("int16", json!(c3)),
            "c4_ptr": buf("int32", json!([3])),
        }),
    );
    let got: Vec<i64> = bits(&run_clean(&src, &l), "out0_ptr")
        .iter()
        .map(|&b| b as i64)
        .collect();
    let rows: [(i64, i64); 5] = [(-18, -18), (-56, -28), (0, 0), (6, 7), (-18, -56)];
    for (i, &g) in got.iter().enumerate() {
        let (r, col) = (i / 8, i % 8);
        let (even, odd) = rows[r.min(4)];
        let want = if col % 2 == 0 { even } else { odd };
        assert_eq!(g, want, "row {r} col {col}");
    }
}

/// Fuzz seed 1701 program 6341, reduced by hand to its cause
/// (`docs/bugs/triton-int-to-f16-known-zero-bits/`): compiled Triton folds
/// `x.to(tl.float16).to(tl.float32)` of an int whose low bits are known
/// zero into one int -> float32 conversion, so -2^25 stays -33554432.0. By
/// hand (IEEE-754 binary16: 11 significant bits, largest finite 65504; a
/// magnitude of 65520 or more rounds to inf):
///
/// | s | shift | s << shift | float16, widened |
/// | -1 | 25 | -33554432 | -inf (0xff800000) |
/// | -1 | 21 | -2097152 | -inf |
/// | 3 | 24 | 50331648 | +inf (0x7f800000) |
/// | -1 | 15 | -32768 | -32768.0 (0xc7000000, exact: one bit) |
/// | 2047 | 5 | 65504 | 65504.0 (0x477fe000, the largest finite) |
/// | 4095 | 4 | 65520 | +inf (halfway to 65536 rounds to even: inf) |
#[test]
fn program_6341_int_to_float16_overflows_before_widening() {
    let src = kernel(
        "out_ptr, s_ptr, k_ptr",
        "i = tl.arange(0, 8)
s = tl.load(s_ptr + i)
k = tl.load(k_ptr + i)
tl.store(out_ptr + i, (s << k).to(tl.float16).to(tl.float32))",
    );
    let rows: [(i64, i64, u64); 6] = [
        (-1, 25, 0xff80_0000),
        (-1, 21, 0xff80_0000),
        (3, 24, 0x7f80_0000),
        (-1, 15, 0xc700_0000),
        (2047, 5, 0x477f_e000),
        (4095, 4, 0x7f80_0000),
    ];
    let pad = |v: Vec<i64>| json!(v.into_iter().chain([0, 0]).collect::<Vec<i64>>());
    let l = launch(
        &[1],
        json!({
            "out_ptr": zeros("float32", 8),
            "s_ptr": buf("int32", pad(rows.iter().map(|r| r.0).collect())),
            "k_ptr": buf("int32", pad(rows.iter().map(|r| r.1).collect())),
        }),
    );
    let got = bits(&run_clean(&src, &l), "out_ptr");
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(got[i], r.2, "{} << {}", r.0, r.1);
    }
}
