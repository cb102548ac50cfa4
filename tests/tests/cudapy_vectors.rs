//! CUDA Python vector types (`cuda.float64x4`, `cuda.short2`, …): made
//! from numbers and vectors whose components add up to the type's count,
//! each converted to the base type; `.x/.y/.z/.w`; a `for` loop over a
//! tuple of vectors of one type; module-level arrays as constants and
//! `a.copy()`. Expected values are worked out by hand.

use ksem_interp::launch::{parse_launch, Launch};
use ksem_tests::*;
use serde_json::json;

fn one_thread(n: usize) -> Launch {
    let text = json!({"grid": [1], "block": [1], "args": {"res": zeros("float64", n)}}).to_string();
    parse_launch(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn f64s(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn vectors_are_built_from_numbers_and_vectors_in_the_base_type() {
    // short2(10, 11); int8x3(short2, 300): 300 wraps to 300 - 256 = 44 in
    // int8; float32x2(float32(0.1), 2): x is float32(0.1) widened exactly
    let src = "from numba import cuda, float32

@cuda.jit
def k(res):
    v1 = cuda.float64x4(1.0, 3.0, 5.0, 7.0)
    v2 = cuda.short2(10, 11)
    v3 = cuda.int8x3(v2, 300)
    f = cuda.float32x2(float32(0.1), 2)
    res[0] = v1.x
    res[1] = v1.w
    res[2] = v2.y
    res[3] = v3.z
    res[4] = f.x
";
    let r = run_clean(src, &one_thread(5));
    assert_eq!(
        bits(&r, "res"),
        f64s(&[1.0, 7.0, 11.0, 44.0, f64::from(0.1f32)])
    );
}

#[test]
fn a_for_loop_runs_over_a_tuple_of_vectors() {
    // numba-cuda's fancy construction: (2, 3), (1, 3), (2, 3)
    let src = "from numba import cuda, float32

@cuda.jit
def k(res):
    f1 = cuda.float32x1(float32(1.0))
    a = cuda.float32x2(float32(2.0), float32(3.0))
    b = cuda.float32x2(f1, float32(3.0))
    c = cuda.float32x2(a)
    j = 0
    for v in (a, b, c):
        res[j] = v.x
        res[j + 1] = v.y
        j += 2
";
    let r = run_clean(src, &one_thread(6));
    assert_eq!(bits(&r, "res"), f64s(&[2.0, 3.0, 1.0, 3.0, 2.0, 3.0]));
}

#[test]
fn a_wrong_component_count_or_field_is_refused() {
    let src = "from numba import cuda

@cuda.jit
def k(res):
    v = cuda.float32x3(1.0, 2.0)
    res[0] = v.x
";
    let d = refused(src, &one_thread(1));
    assert_diag(
        src,
        &d,
        loc1(src, "cuda.float32x3(1.0, 2.0)"),
        &["takes 3 components, 2 given"],
        None,
    );
    let src = "from numba import cuda

@cuda.jit
def k(res):
    v = cuda.float32x2(1.0, 2.0)
    res[0] = v.z
";
    let d = refused(src, &one_thread(1));
    assert_diag(src, &d, loc1(src, "v.z"), &["no attribute `z`"], None);
}

#[test]
fn a_module_level_array_is_a_constant_and_copy_makes_a_local_array() {
    // `val` is carried by the launch as a constant (numba-cuda bakes a
    // global array into the kernel); q = val.copy() = [3, 2, 1];
    // r = q[1:] = [2, 1]; s = r.copy() with s[0] = 7 leaves r and q alone:
    // out = [7 + 2, 2, 1]
    let src = "from numba import cuda

@cuda.jit
def k(res):
    q = val.copy()
    r = q[1:]
    s = r.copy()
    s[0] = 7
    for i in range(len(res)):
        res[i] = q[i]
    res[0] = s[0] + r[0]
";
    let text = json!({"grid": [1], "block": [1], "args": {"res": zeros("float64", 3)},
        "constants": {"val": {"buffer": {"dtype": "int64", "data": [3, 2, 1]}}}})
    .to_string();
    let l = parse_launch(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bits(&run_clean(src, &l), "res"), f64s(&[9.0, 2.0, 1.0]));
}

#[test]
fn tuple_of_a_tuple_is_that_tuple() {
    // numba-cuda's test_fancy_creation_readout loops over tuple((v1, v2));
    // tuple() is the empty tuple (len 0)
    let src = "from numba import cuda

@cuda.jit
def k(res):
    a = cuda.float64x2(1.0, 2.0)
    b = cuda.float64x2(3.0, 4.0)
    j = 0
    for v in tuple((a, b)):
        res[j] = v.x
        res[j + 1] = v.y
        j += 2
    t = tuple((5.0, 6.0))
    res[4] = t[1]
    res[5] = len(tuple())
";
    let r = run_clean(src, &one_thread(6));
    assert_eq!(bits(&r, "res"), f64s(&[1.0, 2.0, 3.0, 4.0, 6.0, 0.0]));
}
