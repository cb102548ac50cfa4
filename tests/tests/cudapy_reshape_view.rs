//! `a.reshape(…)` and `a.view(dtype)` in CUDA Python kernels: views of the
//! same memory. Expected values are worked out by hand from numpy's
//! row-major rule (reshape) and the little-endian bytes of the array (view);
//! the failing cases follow numba's shape normalization and what numba-cuda
//! did on a GPU for `view` (tools/probes/numba/runtime_slices.json).

use ksem_tests::serde_json::{json, Value};
use ksem_tests::*;

/// A clean run of `src`, whose program the IR verifier accepts.
fn run_ok(src: &str, l: &ksem_interp::launch::Launch) -> ksem_interp::launch::RunResult {
    elaborate(src, l).unwrap_or_else(|e| panic!("{e:?}"));
    run_clean(src, l)
}

fn launch1(args: Value) -> ksem_interp::launch::Launch {
    ksem_interp::launch::parse_launch(&json!({"grid": [1], "block": [1], "args": args}).to_string())
        .unwrap()
}

const RESHAPE2: &str = "from numba import cuda

@cuda.jit
def k(a, s0, s1, got, o):
    y = a.reshape((s0, s1))
    o[0] = y.shape[0]
    o[1] = y.shape[1]
    o[2] = y.strides[0]
    o[3] = y.size
    for i in range(y.shape[0]):
        for j in range(y.shape[1]):
            got[i * y.shape[1] + j] = y[i, j] * 10 + i
";

fn reshape2(s0: i64, s1: i64) -> ksem_interp::launch::Launch {
    launch1(json!({
        "a": {"buffer": {"dtype": "int64", "data": (0..12).collect::<Vec<i64>>()}},
        "s0": {"scalar": {"dtype": "int64", "value": s0}},
        "s1": {"scalar": {"dtype": "int64", "value": s1}},
        "got": {"buffer": {"dtype": "int64", "data": vec![-1i64; 12]}},
        "o": {"buffer": {"dtype": "int64", "data": vec![-1i64; 4]}},
    }))
}

#[test]
fn reshape_to_a_runtime_shape_is_row_major() {
    // (3, 4): y[i, j] = a[4i + j], so got[4i + j] = a[4i + j] * 10 + i
    let r = run_ok(RESHAPE2, &reshape2(3, 4));
    let want: Vec<u64> = (0..12).map(|f| (f * 10 + f / 4) as u64).collect();
    assert_eq!(bits(&r, "got"), want);
    // shape (3, 4), row stride 4 int64 = 32 bytes, 12 elements
    assert_eq!(bits(&r, "o"), [3, 4, 32, 12]);
    // -1 is inferred: (-1, 6) is (2, 6); any negative counts as unknown
    for (s0, s1) in [(-1, 6), (2, -5)] {
        let r = run_ok(RESHAPE2, &reshape2(s0, s1));
        let want: Vec<u64> = (0..12).map(|f| (f * 10 + f / 6) as u64).collect();
        assert_eq!(bits(&r, "got"), want, "({s0}, {s1})");
        assert_eq!(bits(&r, "o"), [2, 6, 48, 12], "({s0}, {s1})");
    }
}

#[test]
fn a_reshape_that_does_not_fit_ends_the_thread() {
    // 5 * 6 != 12; 12 is no multiple of 5; two unknowns: numba raises
    // ValueError in its own code, which ends the thread (no debug)
    for (s0, s1) in [(5, 6), (-1, 5), (-1, -1)] {
        let r = run_ok(RESHAPE2, &reshape2(s0, s1));
        assert_eq!(bits(&r, "o"), [u64::MAX; 4], "({s0}, {s1})");
    }
}

#[test]
fn an_index_past_a_runtime_reshape_is_out_of_bounds() {
    // (2, 6): y[0, 6] lies inside a (it is a[6]) but past row 0
    // (the tuple argument as the Python package passes it: flattened into
    // scalars and rebuilt)
    let src = "from numba import cuda

@cuda.jit
def k(a, t0, t1, j, o):
    t = (t0, t1)
    y = a.reshape(t)
    o[0] = y[0, j]
";
    let l = |j: i64| {
        launch1(json!({
            "a": {"buffer": {"dtype": "int32", "data": (0..12).collect::<Vec<i32>>()}},
            "t0": {"scalar": {"dtype": "int64", "value": 2}},
            "t1": {"scalar": {"dtype": "int64", "value": 6}},
            "j": {"scalar": {"dtype": "int64", "value": j}},
            "o": {"buffer": {"dtype": "int32", "len": 1}},
        }))
    };
    assert_eq!(bits(&run_ok(src, &l(5)), "o"), [5]);
    // -1 is the row's last element
    assert_eq!(bits(&run_ok(src, &l(-1)), "o"), [5]);
    let ub = ub_of(src, &l(6));
    assert!(
        ub.iter()
            .any(|u| u.kind == "out-of-bounds-index" && u.message.contains("axis 1 of size 6")),
        "{ub:?}"
    );
}

#[test]
fn reshape_with_constant_shapes_in_a_loop() {
    // numba-cuda's test_issue3931: a 3x2 array reshaped to 6 and back
    let src = "from numba import cuda

@cuda.jit
def k(result, arr):
    for i in range(1):
        arr = arr.reshape(3 * 2)
        arr = arr.reshape(3, 2)
    for i in range(arr.shape[0]):
        for j in range(arr.shape[1]):
            result[i, j] = arr[i, j]
";
    let r = run_ok(
        src,
        &launch1(json!({
            "result": {"buffer": {"dtype": "float64", "shape": [3, 2], "len": 6}},
            "arr": {"buffer": {"dtype": "float64", "shape": [3, 2],
                               "data": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]}},
        })),
    );
    let want: Vec<u64> = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0]
        .iter()
        .map(|v| v.to_bits())
        .collect();
    assert_eq!(bits(&r, "result"), want);
}

#[test]
fn reshape_of_a_strided_view_is_refused() {
    let src = "from numba import cuda

@cuda.jit
def k(a):
    y = a[::2].reshape(2, 2)
    y[0, 0] = 1
";
    let d = refused(
        src,
        &launch1(json!({"a": {"buffer": {"dtype": "int32", "len": 8}}})),
    );
    assert!(d.message.contains("not contiguous"), "{}", d.message);
}

const VIEW: &str = "from numba import cuda
import numpy as np

@cuda.jit
def k(b, s, e, o):
    o[0] = 1
    v = b[s:e].view(np.int32)
    o[1] = len(v)
    o[2] = v[0]
    v[len(v) - 1] = -2
";

/// The int64 array `o` that numba-cuda wrote in the probe's case `key`
/// (`tools/probes/numba/runtime_slices.json`), as bits.
fn measured_o(key: &str) -> Vec<u64> {
    let j = probe_json("numba/runtime_slices.json");
    let o = j[key]["o"].as_array().expect("a measured array");
    o.iter()
        .map(|v| v.as_i64().expect("an int") as u64)
        .collect()
}

fn view_launch(s: i64, e: i64) -> ksem_interp::launch::Launch {
    launch1(json!({
        "b": {"buffer": {"dtype": "uint8", "data": (0..16).collect::<Vec<u8>>()}},
        "s": {"scalar": {"dtype": "int64", "value": s}},
        "e": {"scalar": {"dtype": "int64", "value": e}},
        "o": {"buffer": {"dtype": "int64", "len": 3}},
    }))
}

#[test]
fn a_uint8_slice_viewed_as_int32_reads_its_bytes_little_endian() {
    // measured on the GPU: b[4:12].view(int32) has 2 elements, the first
    // 0x07060504 = 117835012 (tools/probes/numba/runtime_slices.json)
    let o = measured_o("view int32 [4:12] debug=False");
    let r = run_ok(VIEW, &view_launch(4, 12));
    assert_eq!(bits(&r, "o"), o);
    assert_eq!(o, [1, 2, 117835012]);
    // the store wrote -2 as the 4 bytes of b[8..12]
    let b = bits(&r, "b");
    assert_eq!(&b[8..12], &[0xfe, 0xff, 0xff, 0xff]);
    assert_eq!(&b[4..8], &[4, 5, 6, 7]);
}

#[test]
fn a_view_whose_bytes_do_not_divide_ends_the_thread() {
    // measured: 6 bytes as int32 raise ValueError; without debug the thread
    // ends after o[0] = 1
    let o = measured_o("view int32 [4:10] debug=False");
    let r = run_ok(VIEW, &view_launch(4, 10));
    assert_eq!(bits(&r, "o"), o);
}

#[test]
fn a_misaligned_view_element_is_ub() {
    // measured: b[1:9].view(int32)[0] is CUDA_ERROR_MISALIGNED_ADDRESS
    let ub = ub_of(VIEW, &view_launch(1, 9));
    assert!(ub.iter().any(|u| u.kind == "misaligned-pointer"), "{ub:?}");
    // an empty view has no element 0
    let ub = ub_of(VIEW, &view_launch(4, 4));
    assert!(ub.iter().any(|u| u.kind == "out-of-bounds-index"), "{ub:?}");
}
