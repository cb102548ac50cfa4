//! Tuple-valued `tl.constexpr` arguments (issue 24): Triton's own tests pass
//! shapes and dtype lists as tuples (`shape=(4, 8)`); the launch JSON carries
//! them as arrays, and the kernel sees a Python tuple (indexing), its strings naming dtypes as dtypes. Expected values are derived
//! in the test.

use ksem_tests::serde_json::json;
use ksem_tests::*;

/// `SHAPE[0]` and `SHAPE[1]` give the tuple's ints; a dtype
/// name inside the tuple is that dtype: out[r][c] = r * 4 + c + 0.5 as float16.
#[test]
fn tuple_constexpr_is_a_tuple_of_its_values() {
    let src = kernel(
        "out_ptr, SHAPE: tl.constexpr, FILL: tl.constexpr",
        "rows = tl.arange(0, SHAPE[0])[:, None]
cols = tl.arange(0, SHAPE[1])[None, :]
tl.static_assert(SHAPE[0] == 2)
tl.store(out_ptr + rows * SHAPE[1] + cols, (rows * SHAPE[1] + cols + FILL[0]).to(FILL[1]))",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("float16", 8),
               "SHAPE": cx(json!([2, 4])), "FILL": cx(json!([0.5, "float16"]))}),
    );
    // k + 0.5 for k = 0..8 in float16: exponent/mantissa by hand
    // 0.5 = 0x3800, 1.5 = 0x3e00, 2.5 = 0x4100, 3.5 = 0x4300,
    // 4.5 = 0x4480, 5.5 = 0x4580, 6.5 = 0x4680, 7.5 = 0x4780
    assert_eq!(
        bits(&run_clean(&src, &l), "out_ptr"),
        vec![0x3800, 0x3e00, 0x4100, 0x4300, 0x4480, 0x4580, 0x4680, 0x4780]
    );
}

/// An array nested in an array is a nested tuple.
#[test]
fn nested_tuple_constexpr() {
    let src = kernel(
        "out_ptr, T: tl.constexpr",
        "tl.store(out_ptr + tl.arange(0, 2), tl.full((2,), T[1][0] * 10 + T[0], tl.int32))",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 2), "T": cx(json!([3, [7, 1]]))}),
    );
    assert_eq!(bits(&run_clean(&src, &l), "out_ptr"), vec![73, 73]);
}

/// `d0: tl.constexpr` without a value declares the name compile-time, so a
/// later unpacking of a constexpr tuple keeps it one (Triton's
/// test_constexpr_tuple_arg_unpack): shape=(8, 4, 2) stores 8*100 + 4*10 + 2
/// = 842, and (2, 2) as a tl.full shape gives four ones; nested unpacking
/// ((8, 4), 2) gives 842 too.
#[test]
fn declared_constexpr_names_stay_compile_time_when_unpacked() {
    let src = kernel(
        "out_ptr, shape: tl.constexpr",
        "d0: tl.constexpr
d1: tl.constexpr
d2: tl.constexpr
d0, d1, d2 = shape
x = tl.full((1, ), d0 * 100 + d1 * 10 + d2, dtype=tl.int32)
tl.store(out_ptr + tl.arange(0, 1), x)",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 1), "shape": cx(json!([8, 4, 2]))}),
    );
    assert_eq!(bits(&run_clean(&src, &l), "out_ptr"), vec![842]);
    let nested = src.replace("d0, d1, d2 = shape", "(d0, d1), d2 = shape");
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 1), "shape": cx(json!([[8, 4], 2]))}),
    );
    assert_eq!(bits(&run_clean(&nested, &l), "out_ptr"), vec![842]);
    let shaped = kernel(
        "out_ptr, shape: tl.constexpr",
        "d0: tl.constexpr
d1: tl.constexpr
d0, d1 = shape
x = tl.full((d0, d1), 1.0, dtype=tl.float32)
x = tl.reshape(x, (d0 * d1, ))
tl.store(out_ptr + tl.arange(0, d0 * d1), x)",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("float32", 4), "shape": cx(json!([2, 2]))}),
    );
    assert_eq!(
        bits(&run_clean(&shaped, &l), "out_ptr"),
        f32_bits(&[1.0, 1.0, 1.0, 1.0])
    );
}

/// A declared tl.constexpr name given a runtime value is an error at the
/// assignment.
#[test]
fn a_declared_constexpr_given_a_tensor_is_refused() {
    let src = kernel(
        "out_ptr",
        "d0: tl.constexpr\nd0 = tl.load(out_ptr)\ntl.store(out_ptr, d0)",
    );
    let d = refused(&src, &launch(&[1], json!({"out_ptr": zeros("int32", 1)})));
    assert_diag(
        &src,
        &d,
        loc(&src, "d0 = tl.load", "d0"),
        &["`d0` is declared tl.constexpr and must be given a compile-time value"],
        None,
    );
}
