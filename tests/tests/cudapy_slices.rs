//! Array slicing in CUDA Python: a slice is a view of the same memory
//! (numpy's rule), its length Python's `slice.indices`; the expected values
//! below are worked out by hand from that rule.

use ksem_tests::serde_json::json;
use ksem_tests::*;

fn run1(src: &str, args: ksem_tests::serde_json::Value) -> ksem_interp::launch::RunResult {
    let l = ksem_interp::launch::parse_launch(
        &json!({"grid": [1], "block": [1], "args": args}).to_string(),
    )
    .unwrap();
    run_clean(src, &l)
}

#[test]
fn slices_write_through_to_the_array_they_view() {
    // dynsmem-like: disjoint, overlapping, strided and reversed slices of x
    let src = "from numba import cuda

@cuda.jit
def k(x, n):
    a = x[1:3]
    b = x[::2]
    c = x[3:1:-1]
    d = x[-2:]
    a[0] = 10
    a[1] = 11
    b[2] = 12
    c[0] = 13
    d[1] = 14
    n[0] = len(b)
    n[1] = c.shape[0]
    n[2] = b.strides[0]
";
    let r = run1(
        src,
        json!({
            "x": {"buffer": {"dtype": "int32", "data": [0, 0, 0, 0, 0, 0, 0]}},
            "n": {"buffer": {"dtype": "int64", "len": 3}},
        }),
    );
    // a = x[1], x[2]; b = x[0], x[2], x[4], x[6]; c = x[3], x[2]; d = x[5], x[6]
    assert_eq!(bits(&r, "x"), [0, 10, 11, 13, 12, 0, 14]);
    // len(x[::2]) of 7 is 4; x[3:1:-1] has 2; x[::2]'s stride is 2 int32 = 8 bytes
    assert_eq!(bits(&r, "n"), [4, 2, 8]);
}

#[test]
fn a_row_of_a_2d_array_is_a_1d_view_and_its_index_is_checked() {
    let src = "from numba import cuda

@cuda.jit
def row(inp, out, i):
    r = inp[i, :]
    s = out[i]
    for j in range(r.shape[0]):
        s[j] = r[j] * 2
";
    let args = |i: i64| {
        json!({
            "inp": {"buffer": {"dtype": "int32", "shape": [2, 3], "data": [1, 2, 3, 4, 5, 6]}},
            "out": {"buffer": {"dtype": "int32", "shape": [2, 3], "len": 6}},
            "i": {"scalar": {"dtype": "int64", "value": i}},
        })
    };
    let r = run1(src, args(1));
    assert_eq!(bits(&r, "out"), [0, 0, 0, 8, 10, 12]);
    // -1 counts from the end, as for an element index
    let r = run1(src, args(-1));
    assert_eq!(bits(&r, "out"), [0, 0, 0, 8, 10, 12]);
    let l = ksem_interp::launch::parse_launch(
        &json!({"grid": [1], "block": [1], "args": args(2)}).to_string(),
    )
    .unwrap();
    let ub = ub_of(src, &l);
    assert!(ub.iter().any(|u| u.kind == "out-of-bounds-index"), "{ub:?}");
}

#[test]
fn an_index_past_a_slice_is_out_of_bounds_even_inside_the_array() {
    let src = "from numba import cuda

@cuda.jit
def k(x):
    a = x[0:2]
    a[2] = 1
";
    let l = ksem_interp::launch::parse_launch(
        &json!({"grid": [1], "block": [1], "args": {"x": {"buffer": {"dtype": "int32", "len": 4}}}})
            .to_string(),
    )
    .unwrap();
    let ub = ub_of(src, &l);
    assert!(
        ub.iter()
            .any(|u| u.kind == "out-of-bounds-index" && u.message.contains("size 2")),
        "{ub:?}"
    );
}

#[test]
fn a_runtime_slice_bound_is_refused() {
    let src = "from numba import cuda

@cuda.jit
def k(x, n):
    a = x[0:n]
    a[0] = 1
";
    let l = ksem_interp::launch::parse_launch(
        &json!({"grid": [1], "block": [1], "args": {
            "x": {"buffer": {"dtype": "int32", "len": 4}},
            "n": {"scalar": {"dtype": "int64", "value": 2}}}})
        .to_string(),
    )
    .unwrap();
    let d = refused(src, &l);
    assert!(d.message.contains("must be constants"), "{}", d.message);
}
