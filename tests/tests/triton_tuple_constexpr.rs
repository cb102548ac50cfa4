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
