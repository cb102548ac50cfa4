//! `tl.dot` in the Triton front end (issue 12): Triton 3.6's typing rules and
//! refusals, and ksem's one order of operations (each result element starts
//! from the accumulator, then k ascending, `r = r + a·b` with every product
//! and every sum rounded in the accumulator's dtype, no fma; float32 operands
//! rounded to tf32 first under the default `input_precision="tf32"`; a
//! float16 result is the float32 sum rounded once, then acc, as Triton's
//! interpreter computes it).
//! Every expected value is derived by hand in the test (bit patterns written
//! out), never copied from ksem's output.

use ksem_interp::dtype::DType;
use ksem_interp::launch::Launch;
use ksem_tests::serde_json::{json, Value as Json};
use ksem_tests::*;

/// A kernel that loads `a` (M×K, row-major from `a_ptr`) and `b` (K×N from
/// `b_ptr`), then runs `body`, which may store an M×N tile with `out(ptr, v)`.
fn mm(params: &str, body: &str) -> String {
    kernel(
        &format!("a_ptr, b_ptr, {params}M: tl.constexpr, N: tl.constexpr, K: tl.constexpr"),
        &format!(
            "rm = tl.arange(0, M)[:, None]
rn = tl.arange(0, N)[None, :]
rk = tl.arange(0, K)
a = tl.load(a_ptr + rm * K + rk[None, :])
b = tl.load(b_ptr + rk[:, None] * N + rn)
{body}"
        ),
    )
}

/// The launch of [`mm`]: `a` and `b` of `dt` with the given values, the
/// sizes, and `extra` arguments.
fn mm_launch(dt: &str, a: Json, b: Json, mnk: [usize; 3], extra: Json) -> Launch {
    let mut args = json!({"a_ptr": buf(dt, a), "b_ptr": buf(dt, b),
        "M": cx(json!(mnk[0])), "N": cx(json!(mnk[1])), "K": cx(json!(mnk[2]))});
    for (k, v) in extra.as_object().expect("an object") {
        args[k] = v.clone();
    }
    launch(&[1], args)
}

/// The elaborated type of the variable `name` (its last binding).
fn var_type(src: &str, l: &Launch, name: &str) -> ksem_interp::ir::Type {
    let k = elaborate(src, l).unwrap_or_else(|e| panic!("{}", e.render()));
    let i = k
        .vars
        .iter()
        .rposition(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no variable {name}"));
    k.vars[i].1.clone()
}

/// A (rows × cols) row-major matrix whose element (i, j) is `f(i, j)`
/// (whole numbers written as JSON integers, so integer buffers take them).
fn mat(rows: usize, cols: usize, f: impl Fn(usize, usize) -> f64) -> Json {
    json!((0..rows * cols)
        .map(|x| {
            let v = f(x / cols, x % cols);
            if v.fract() == 0.0 && v.abs() < 1e15 {
                json!(v as i64)
            } else {
                json!(v)
            }
        })
        .collect::<Vec<Json>>())
}

// ----- exact products of small integers ----------------------------------------

/// float16 operands, float32 result. a = [[1]*16, [0, 1, …, 15]],
/// b = columns [1]*16 and [0, 1, …, 15]: c = [[16, Σk], [Σk, Σk²]] with
/// Σk = 120, Σk² = 15·16·31/6 = 1240, all exact. float32 bits: 16 = 2^4
/// (0x41800000); 120 = 1.875·2^6 (exponent 133 = 0x85, mantissa .875 =
/// 0x700000: 0x42f00000); 1240 = 0b10011011000 = 1.0011011b·2^10 (exponent
/// 137 = 0x89, mantissa 0x1b0000: 0x449b0000).
#[test]
fn float16_dot_of_integers_is_exact_in_float32() {
    let src = mm(
        "c_ptr, ",
        "c = tl.dot(a, b)\ntl.store(c_ptr + rm * N + rn, c)",
    );
    let l = mm_launch(
        "float16",
        mat(2, 16, |i, k| if i == 0 { 1.0 } else { k as f64 }),
        mat(16, 2, |k, j| if j == 0 { 1.0 } else { k as f64 }),
        [2, 2, 16],
        json!({"c_ptr": zeros("float32", 4)}),
    );
    assert_eq!(var_type(&src, &l, "c").dtype(), DType::F32);
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "c_ptr"),
        vec![0x41800000, 0x42f00000, 0x42f00000, 0x449b0000]
    );
}

/// The (2, 16) × (16, 2) operands of the float32 order tests: row 0 of `a`
/// is all ones and column 0 of `b` is 13 ones, 0, 2^25, -2^25 (the order of
/// the sum decides it); a[1][0] = b[0][1] = 1 + 2^-12 (its product rounds).
fn order_and_tie_operands() -> (Json, Json) {
    let e = 1.0 + 2f64.powi(-12);
    let mut col0 = vec![1.0; 13];
    col0.extend([0.0, 2f64.powi(25), -2f64.powi(25)]);
    let a = mat(2, 16, |i, k| match (i, k) {
        (0, _) => 1.0,
        (1, 0) => e,
        _ => 0.0,
    });
    let b = mat(16, 2, |k, j| {
        if j == 0 {
            col0[k]
        } else if k == 0 {
            e
        } else {
            0.0
        }
    });
    (a, b)
}

/// The order is visible in float32 (`input_precision="ieee"`; the same with
/// `allow_tf32=False`). Row 0 of a is all ones, column 0 of b is
/// [1 ×13, 0, 2^25, -2^25]: k ascending gives 13, then 13 + 2^25 rounds to
/// 2^25 + 12 (the spacing there is 4), then 12 — 12.0 = 0x41400000 (the exact
/// sum is 13; k descending gives 13, DESIGN.md's pairwise tree gives 8:
/// 1 + 2^25 -> 2^25, 1 - 2^25 -> -2^25, 2 ± 2^25 -> ±2^25 (ties to even),
/// then 4 + 2^25 (exact) and 3 - 2^25 -> 4 - 2^25, whose sum is 8).
/// Element (1, 1) starts from acc = -1: a[1][0] = b[0][1] = 1 + 2^-12, whose
/// product 1 + 2^-11 + 2^-24 rounds (a tie, to even) to 1 + 2^-11; then
/// -1 + (1 + 2^-11) = 2^-11 = 0x3a000000 (a fused multiply-add would keep the
/// 2^-24: 0x3a000400). (0, 1) and (1, 0) are 1·(1 + 2^-12) = 0x3f800800
/// (every other product is 0, and 0·±2^25 = +0).
#[test]
fn float32_dot_adds_rounded_products_in_ascending_k() {
    let body = "c0 = tl.load(c_ptr + rm * N + rn)
tl.store(c_ptr + rm * N + rn, tl.dot(a, b, c0, input_precision=\"ieee\"))
tl.store(d_ptr + rm * N + rn, tl.dot(a, b, acc=c0, allow_tf32=False))";
    let src = mm("c_ptr, d_ptr, ", body);
    let (a, b) = order_and_tie_operands();
    let l = mm_launch(
        "float32",
        a,
        b,
        [2, 2, 16],
        json!({"c_ptr": buf("float32", json!([0.0, 0.0, 0.0, -1.0])),
               "d_ptr": zeros("float32", 4)}),
    );
    let r = run_clean(&src, &l);
    let want = vec![0x41400000, 0x3f800800, 0x3f800800, 0x3a000000];
    assert_eq!(bits(&r, "c_ptr"), want);
    assert_eq!(bits(&r, "d_ptr"), want);
}

/// The default for float32 operands is tf32 (Triton 3.6: `input_precision`
/// None and `allow_tf32` None or True): each operand is rounded to 10
/// mantissa bits, to nearest even, before the product. With the inputs of
/// the test above, 1 + 2^-12 becomes 1.0 (2^-12 is below half of tf32's
/// spacing 2^-10), so (0, 1) and (1, 0) are 1.0 = 0x3f800000 and (1, 1) is
/// -1 + 1·1 = +0.0; 1, 0 and ±2^25 are tf32 values, so (0, 0) is 12 again.
///
/// Ties: with a = [[0, 1, 0…], [1, 0, …]], c[0][1] = b[1][1] and c[1][1] =
/// b[0][1] (column 0 of b is 0). b[0][1] = 1 + 2^-11 (0x3f801000) is halfway
/// between 1 and 1 + 2^-10 and rounds to the even 1.0; b[1][1] = 1 + 3·2^-11
/// (0x3f803000) is halfway between 1 + 2^-10 and 1 + 2^-9 and rounds to the
/// even 1 + 2^-9 (0x3f804000). "ieee" and "tf32x3" (which ksem computes as
/// "ieee") keep the operands; "TF32" is "tf32" (Triton lower-cases it).
#[test]
fn float32_dot_rounds_operands_to_tf32_by_default() {
    let body = "tl.store(c_ptr + rm * N + rn, tl.dot(a, b, tl.load(c_ptr + rm * N + rn)))
tl.store(d_ptr + rm * N + rn, tl.dot(a, b, tl.load(d_ptr + rm * N + rn), allow_tf32=True))";
    let src = mm("c_ptr, d_ptr, ", body);
    let (a, b) = order_and_tie_operands();
    let l = mm_launch(
        "float32",
        a,
        b,
        [2, 2, 16],
        json!({"c_ptr": buf("float32", json!([0.0, 0.0, 0.0, -1.0])),
               "d_ptr": buf("float32", json!([0.0, 0.0, 0.0, -1.0]))}),
    );
    let r = run_clean(&src, &l);
    let want = vec![0x41400000, 0x3f800000, 0x3f800000, 0x00000000];
    assert_eq!(bits(&r, "c_ptr"), want);
    assert_eq!(bits(&r, "d_ptr"), want);

    let src = mm(
        "c_ptr, p, ",
        "tl.store(c_ptr + rm * N + rn, tl.dot(a, b, input_precision=p))",
    );
    let t = |p: &str| {
        let l = mm_launch(
            "float32",
            mat(2, 16, |i, k| {
                if (i, k) == (0, 1) || (i, k) == (1, 0) {
                    1.0
                } else {
                    0.0
                }
            }),
            mat(16, 2, |k, j| match (k, j) {
                (0, 1) => 1.0 + 2f64.powi(-11),
                (1, 1) => 1.0 + 3.0 * 2f64.powi(-11),
                _ => 0.0,
            }),
            [2, 2, 16],
            json!({"c_ptr": zeros("float32", 4), "p": cx(json!(p))}),
        );
        bits(&run_clean(&src, &l), "c_ptr")
    };
    assert_eq!(t("tf32"), vec![0, 0x3f804000, 0, 0x3f800000]);
    assert_eq!(t("TF32"), vec![0, 0x3f804000, 0, 0x3f800000]);
    assert_eq!(t("ieee"), vec![0, 0x3f803000, 0, 0x3f801000]);
    assert_eq!(t("tf32x3"), vec![0, 0x3f803000, 0, 0x3f801000]);
}

/// tf32 and ieee differ where an operand has bits below tf32's mantissa:
/// a[1][0] = 1, b[0][1] = 1 + 2^-12 gives 1 + 2^-12 (0x3f800800) in ieee and
/// 1.0 in tf32; bfloat16 operands are unaffected by the precision (their 8
/// bits fit).
#[test]
fn input_precision_only_changes_float32_operands() {
    let src = mm(
        "c_ptr, d_ptr, ",
        "tl.store(c_ptr + rm * N + rn, tl.dot(a, b, input_precision=\"ieee\"))
tl.store(d_ptr + rm * N + rn, tl.dot(a, b))",
    );
    let l = mm_launch(
        "float32",
        mat(2, 16, |i, k| if i == 1 && k == 0 { 1.0 } else { 0.0 }),
        mat(16, 2, |k, j| {
            if k == 0 && j == 1 {
                1.0 + 2f64.powi(-12)
            } else {
                0.0
            }
        }),
        [2, 2, 16],
        json!({"c_ptr": zeros("float32", 4), "d_ptr": zeros("float32", 4)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "c_ptr"), vec![0, 0, 0, 0x3f800800]);
    assert_eq!(bits(&r, "d_ptr"), vec![0, 0, 0, 0x3f800000]);
}

// ----- int8, out_dtype, acc= ---------------------------------------------------------

/// int8 operands accumulate exactly in int32, wrapping. K = 32 (Triton's
/// minimum for 8-bit operands). Row 0 of a is [-128]*32, row 1 [127, -1, 0…];
/// column 0 of b is [-128]*32, column 1 [-128, 5, 0…].
/// Without acc: (0, 0) = 32·16384 = 524288 = 0x80000; (0, 1) = 16384 - 640
/// = 15744 = 0x3d80; (1, 0) = -16256 + 128 = -16128 = 0xffffc100; (1, 1) =
/// -16256 - 5 = -16261 = 0xffffc07b.
/// With acc = [[0, 2^31 - 1], [0, 0]] and out_dtype=tl.int32: (0, 1) =
/// 2147483647 + 15744 wraps to 2147483647 + 15744 - 2^32 = -2147467905 =
/// 0x80003d7f.
#[test]
fn int8_dot_accumulates_in_int32_and_wraps() {
    let src = mm(
        "c_ptr, d_ptr, ",
        "c = tl.dot(a, b)
tl.store(c_ptr + rm * N + rn, c)
acc = tl.load(d_ptr + rm * N + rn)
tl.store(d_ptr + rm * N + rn, tl.dot(a, b, acc, out_dtype=tl.int32))",
    );
    let l = mm_launch(
        "int8",
        mat(2, 32, |i, k| match (i, k) {
            (0, _) => -128.0,
            (1, 0) => 127.0,
            (1, 1) => -1.0,
            _ => 0.0,
        }),
        mat(32, 2, |k, j| match (k, j) {
            (_, 0) => -128.0,
            (0, 1) => -128.0,
            (1, 1) => 5.0,
            _ => 0.0,
        }),
        [2, 2, 32],
        json!({"c_ptr": zeros("int32", 4),
               "d_ptr": buf("int32", json!([0, 2147483647, 0, 0]))}),
    );
    assert_eq!(var_type(&src, &l, "c").dtype(), DType::I32);
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "c_ptr"),
        vec![0x80000, 0x3d80, 0xffffc100, 0xffffc07b]
    );
    assert_eq!(
        bits(&r, "d_ptr"),
        vec![0x80000, 0x80003d7f, 0xffffc100, 0xffffc07b]
    );
}

/// `out_dtype=tl.float16` with float16 operands, as Triton's interpreter
/// computes it (numpy's float16 matmul, measured:
/// `tools/probes/triton_interp/dot_f16_acc_interp.json`): the product from
/// zero in float32, rounded once to float16, then `acc` added in float16.
/// With a row of ones and a column [2048, 1 ×15] the float32 sum is 2063
/// exactly; rounded to float16 (spacing 2 at 2048) it is a tie between 2062
/// (mantissa 7, odd) and 2064 (mantissa 8, even): 2064 = 0x6808 (exponent
/// 11 + 15 = 26 → 0x6800, mantissa 8). (Rounding each step to float16, the
/// rule before, kept 2048 = 0x6800: each 2048 + 1 ties to the even 2048.)
/// With `acc` = 3 in float16: 2064 + 3 = 2067 ties between 2066 (mantissa 9)
/// and 2068 (mantissa 10): 2068 = 0x680a (acc added first in float32 would
/// give 2066 = 0x6809). In float32 (the default) it is 2063 = 0x4500f000
/// (exponent 138, mantissa 15·2^12 = 0xf000). `acc += tl.dot(a, b)` adds the
/// product computed from zero to acc afterwards: 0.5 + 2063 = 2063.5 =
/// 0x4500f800.
#[test]
fn out_dtype_float16_rounds_the_float32_sum_once() {
    let src = mm(
        "h_ptr, f_ptr, g_ptr, c_ptr, ",
        "h = tl.dot(a, b, out_dtype=tl.float16)
tl.store(h_ptr + rm * N + rn, h)
tl.store(f_ptr + rm * N + rn, tl.dot(a, b))
acc = tl.full((M, N), 0.5, tl.float32)
acc += tl.dot(a, b)
tl.store(g_ptr + rm * N + rn, acc)
c = tl.full((M, N), 3.0, tl.float16)
tl.store(c_ptr + rm * N + rn, tl.dot(a, b, c, out_dtype=tl.float16))",
    );
    let l = mm_launch(
        "float16",
        mat(1, 16, |_, _| 1.0),
        mat(16, 1, |k, _| if k == 0 { 2048.0 } else { 1.0 }),
        [1, 1, 16],
        json!({"h_ptr": zeros("float16", 1), "f_ptr": zeros("float32", 1),
               "g_ptr": zeros("float32", 1), "c_ptr": zeros("float16", 1)}),
    );
    assert_eq!(var_type(&src, &l, "h").dtype(), DType::F16);
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "h_ptr"), vec![0x6808]);
    assert_eq!(bits(&r, "f_ptr"), vec![0x4500f000]);
    assert_eq!(bits(&r, "g_ptr"), vec![0x4500f800]);
    assert_eq!(bits(&r, "c_ptr"), vec![0x680a]);
}

/// Result dtypes (Triton 3.6 semantic.py `dot`): float16 and fp8 operands
/// give out_dtype (float32 by default, float16 on request); bfloat16 and
/// float32 give float32 whatever out_dtype says (without acc); float64 gives
/// float64; int8 gives int32; two different fp8 formats may meet.
#[test]
fn dot_result_dtypes() {
    let cases: [(&str, &str, &str, usize, DType); 8] = [
        ("float16", "float16", "", 16, DType::F32),
        (
            "float16",
            "float16",
            ", out_dtype=tl.float16",
            16,
            DType::F16,
        ),
        ("bfloat16", "bfloat16", "", 16, DType::F32),
        (
            "float32",
            "float32",
            ", out_dtype=tl.float16",
            16,
            DType::F32,
        ),
        ("float64", "float64", "", 16, DType::F64),
        ("int8", "int8", "", 32, DType::I32),
        ("float8e5", "float8e4nv", "", 32, DType::F32),
        (
            "float8e4nv",
            "float8e4nv",
            ", out_dtype=tl.float16",
            32,
            DType::F16,
        ),
    ];
    for (da, db, extra, k, want) in cases {
        let src = kernel(
            "a_ptr, b_ptr",
            &format!(
                "r = tl.arange(0, 16)
s = tl.arange(0, {k})
a = tl.load(a_ptr + r[:, None] * {k} + s[None, :])
b = tl.load(b_ptr + s[:, None] * 16 + r[None, :])
c = tl.dot(a, b{extra})"
            ),
        );
        let l = launch(
            &[1],
            json!({"a_ptr": zeros(da, 16 * k), "b_ptr": zeros(db, 16 * k)}),
        );
        let t = var_type(&src, &l, "c");
        assert_eq!(
            (t.dtype(), t.shape.clone()),
            (want, vec![16, 16]),
            "{da} x {db}{extra}"
        );
    }
}

/// Batched (B, M, K) × (B, K, N): a[b] = (b + 1)·I (2×16 with ones at (0, 0)
/// and (1, 1)), b[t][k][j] = 10t + 2k + j for k < 2: c[t] = (t + 1)·b[t][:2]
/// = [[0, 1], [2, 3]] and 2·[[10, 11], [12, 13]] = [[20, 22], [24, 26]].
#[test]
fn batched_dot_multiplies_each_batch() {
    let src = kernel(
        "a_ptr, b_ptr, c_ptr",
        "a = tl.reshape(tl.load(a_ptr + tl.arange(0, 64)), (2, 2, 16))
b = tl.reshape(tl.load(b_ptr + tl.arange(0, 64)), (2, 16, 2))
c = tl.dot(a, b, input_precision=\"ieee\")
tl.store(c_ptr + tl.arange(0, 8), tl.reshape(c, (8,)))",
    );
    let a: Vec<f64> = (0..64)
        .map(|x| {
            let (t, i, k) = (x / 32, (x / 16) % 2, x % 16);
            if i == k {
                (t + 1) as f64
            } else {
                0.0
            }
        })
        .collect();
    let b: Vec<f64> = (0..64)
        .map(|x| {
            let (t, k, j) = (x / 32, (x / 2) % 16, x % 2);
            (10 * t + 2 * k + j) as f64
        })
        .collect();
    let l = launch(
        &[1],
        json!({"a_ptr": buf("float32", json!(a)), "b_ptr": buf("float32", json!(b)),
               "c_ptr": zeros("float32", 8)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "c_ptr"),
        f32_bits(&[0.0, 1.0, 2.0, 3.0, 20.0, 22.0, 24.0, 26.0])
    );
}

// ----- refusals (exit 2, at the call) -----------------------------------------------

/// Each refused call, with Triton 3.6's reason.
#[test]
fn dots_triton_refuses_are_refused_at_the_call() {
    let l = launch(
        &[1],
        json!({"h_ptr": zeros("float16", 256), "f_ptr": zeros("float32", 256),
               "i_ptr": zeros("int8", 512), "u_ptr": zeros("uint8", 512),
               "s_ptr": zeros("int16", 256), "c_ptr": zeros("int32", 256)}),
    );
    let cases: [(&str, &str, Option<&str>); 15] = [
        ("tl.dot(h8, h8t)", "K >= 16", Some("at least 16")),
        ("tl.dot(i16, i16t)", "K >= 32", None),
        (
            "tl.dot(h, h)",
            "equal reduction dimensions (16 and 8)",
            None,
        ),
        (
            "tl.dot(h, ft)",
            "Both operands must be same dtype. Got fp16 and fp32",
            Some("b.to(a.dtype)"),
        ),
        ("tl.dot(u, ut)", "only int8 supported!", None),
        (
            "tl.dot(s, st)",
            "Unsupported lhs dtype int16",
            Some("int8, uint8"),
        ),
        (
            "tl.dot(h, ht, out_dtype=tl.bfloat16)",
            "out_dtype=bfloat16 is unsupported",
            None,
        ),
        (
            "tl.dot(h, ht, out_dtype=tl.float64)",
            "only in float16 or float32",
            None,
        ),
        (
            "tl.dot(i, it, c)",
            "accumulator has dtype int32 but out_dtype is fp32",
            Some("out_dtype=tl.int32"),
        ),
        (
            "tl.dot(f, ft, c32h, out_dtype=tl.float16)",
            "computes in fp32",
            None,
        ),
        (
            "tl.dot(f, ft, input_precision=\"ieee\", allow_tf32=False)",
            "Only one of input_precision and allow_tf32",
            None,
        ),
        (
            "tl.dot(f, ft, input_precision=\"tf64\")",
            "input_precision must be one of",
            None,
        ),
        ("tl.dot(v, v)", "equal ranks >= 2", None),
        (
            "tl.dot(h, ht, ht)",
            "accumulator shape is incompatible",
            None,
        ),
        (
            "tl.dot(h, ht, max_num_imprecise_acc=k)",
            "max_num_imprecise_acc must be a compile-time integer",
            None,
        ),
    ];
    for (call, msg, help) in cases {
        let src = kernel(
            "h_ptr, f_ptr, i_ptr, u_ptr, s_ptr, c_ptr",
            &format!(
                "r = tl.arange(0, 8)[:, None]
q = tl.arange(0, 16)[None, :]
w = tl.arange(0, 32)[None, :]
h = tl.load(h_ptr + r * 16 + q)
ht = tl.trans(h)
h8 = tl.load(h_ptr + r * 8 + tl.arange(0, 8)[None, :])
h8t = tl.trans(h8)
f = tl.load(f_ptr + r * 16 + q)
ft = tl.trans(f)
i = tl.load(i_ptr + r * 32 + w)
it = tl.trans(i)
i16 = tl.load(i_ptr + r * 16 + q)
i16t = tl.trans(i16)
u = tl.load(u_ptr + r * 32 + w)
ut = tl.trans(u)
s = tl.load(s_ptr + r * 16 + q)
st = tl.trans(s)
c = tl.load(c_ptr + r * 8 + tl.arange(0, 8)[None, :])
c32h = c.to(tl.float16)
v = tl.arange(0, 16).to(tl.float16)
k = tl.program_id(0)
x = {call}"
            ),
        );
        let d = refused(&src, &l);
        assert_diag(&src, &d, loc1(&src, call), &[msg], help);
    }
}

/// `a @ b`: Triton 3.6's code generator has no method for the operator and
/// refuses it ("AST binary operator 'MatMult' is not (currently)
/// implemented"); ksem refuses it the same way and names tl.dot.
#[test]
fn matmul_operator_is_refused_as_triton_refuses_it() {
    let src = mm("c_ptr, ", "tl.store(c_ptr + rm * N + rn, a @ b)");
    let l = mm_launch(
        "float16",
        json!(vec![0.0; 32]),
        json!(vec![0.0; 32]),
        [2, 2, 16],
        json!({"c_ptr": zeros("float32", 4)}),
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "a @ b"),
        &["`@` is not supported by Triton 3.6", "MatMult"],
        Some("tl.dot(a, b)"),
    );
}

/// Through the CLI: a refused dot exits with 2 and names the line and column.
#[test]
fn cli_refused_dot_exits_2_with_its_position() {
    let Some(bin) = ksem_or_skip("cli_refused_dot_exits_2_with_its_position") else {
        return;
    };
    let src = mm("c_ptr, ", "tl.store(c_ptr + rm * N + rn, tl.dot(a, b))");
    let args = json!({"a_ptr": buf("float16", json!(vec![0.0; 16])),
        "b_ptr": buf("float16", json!(vec![0.0; 16])), "c_ptr": zeros("float32", 4),
        "M": cx(json!(2)), "N": cx(json!(2)), "K": cx(json!(8))});
    let (line, col) = loc1(&src, "tl.dot(a, b)");
    let out = cli_case(&bin, "run", &src, &launch_json(&[1], args), &[]);
    out.assert_code(2);
    assert!(
        out.stderr.starts_with(&format!(
            "{FILE}:{line}:{col}: error: tl.dot of shapes [2, 8] and [8, 2]"
        )),
        "stderr:\n{}",
        out.stderr
    );
}
