//! Array slicing in CUDA Python: a slice is a view of the same memory
//! (numpy's rule), its length Python's `slice.indices`; the expected values
//! below are worked out by hand from that rule.

use ksem_tests::serde_json::json;
use ksem_tests::*;

/// A clean run of `src`, whose program the IR verifier accepts.
fn run_ok(src: &str, l: &ksem_interp::launch::Launch) -> ksem_interp::launch::RunResult {
    elaborate(src, l).unwrap_or_else(|e| panic!("{e:?}"));
    run_clean(src, l)
}

fn run1(src: &str, args: ksem_tests::serde_json::Value) -> ksem_interp::launch::RunResult {
    let l = ksem_interp::launch::parse_launch(
        &json!({"grid": [1], "block": [1], "args": args}).to_string(),
    )
    .unwrap();
    run_ok(src, &l)
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

fn launch1(args: ksem_tests::serde_json::Value) -> ksem_interp::launch::Launch {
    ksem_interp::launch::parse_launch(&json!({"grid": [1], "block": [1], "args": args}).to_string())
        .unwrap()
}

/// The probe's kernels (`tools/probes/numba/runtime_slices.py`): `o[0]` is
/// the view's length, `o[1 + j]` its element `j`.
fn probe_kernel(step: i64) -> String {
    format!(
        "from numba import cuda

@cuda.jit
def k(a, s, e, o):
    v = a[s:e:{step}]
    o[0] = len(v)
    for j in range(len(v)):
        o[1 + j] = v[j]

@cuda.jit
def k_open_start(a, e, o):
    v = a[:e:{step}]
    o[0] = len(v)
    for j in range(len(v)):
        o[1 + j] = v[j]

@cuda.jit
def k_open_stop(a, s, o):
    v = a[s::{step}]
    o[0] = len(v)
    for j in range(len(v)):
        o[1 + j] = v[j]
"
    )
}

fn probe_run(src: &str, kernel: &str, bounds: &[(&str, i64)]) -> Vec<u64> {
    let mut args = json!({
        "a": {"buffer": {"dtype": "int64", "data": [0, 10, 20, 30, 40, 50, 60, 70, 80, 90]}},
        "o": {"buffer": {"dtype": "int64", "data": vec![-7i64; 12]}},
    });
    for (name, v) in bounds {
        args[*name] = json!({"scalar": {"dtype": "int64", "value": v}});
    }
    let l = ksem_interp::launch::parse_launch(
        &json!({"kernel": kernel, "grid": [1], "block": [1], "args": args}).to_string(),
    )
    .unwrap();
    bits(&run_ok(src, &l), "o")
}

#[test]
fn runtime_slice_bounds_follow_numba_cuda_measured() {
    // numba-cuda 0.30.4 on an H200: every start/stop of {-20, -11, -10,
    // -3, -1, 0, 1, 3, 9, 10, 11, 20} with steps 1, 2, -1, -3, also with an
    // open start or stop (tools/probes/numba/runtime_slices.json; each
    // agrees with Python's list slicing)
    let j = probe_json("numba/runtime_slices.json");
    let as_bits = |o: &ksem_tests::serde_json::Value| -> Vec<u64> {
        o.as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap() as u64)
            .collect()
    };
    let mut checked = 0;
    for step in [1i64, 2, -1, -3] {
        let src = probe_kernel(step);
        for row in j[format!("a[s:e:{step}]")].as_array().unwrap() {
            let (s, e) = (row[0].as_i64().unwrap(), row[1].as_i64().unwrap());
            let got = probe_run(&src, "k", &[("s", s), ("e", e)]);
            assert_eq!(got, as_bits(&row[2]), "a[{s}:{e}:{step}]");
            checked += 1;
        }
        for row in j[format!("a[:e:{step}]")].as_array().unwrap() {
            let e = row[0].as_i64().unwrap();
            let got = probe_run(&src, "k_open_start", &[("e", e)]);
            assert_eq!(got, as_bits(&row[1]), "a[:{e}:{step}]");
            checked += 1;
        }
        for row in j[format!("a[s::{step}]")].as_array().unwrap() {
            let s = row[0].as_i64().unwrap();
            let got = probe_run(&src, "k_open_stop", &[("s", s)]);
            assert_eq!(got, as_bits(&row[1]), "a[{s}::{step}]");
            checked += 1;
        }
    }
    assert_eq!(checked, 4 * (144 + 12 + 12));
}

#[test]
fn an_index_past_a_runtime_slice_is_out_of_bounds_even_inside_the_array() {
    // x[1:n] with n = 3 has 2 elements (x[1], x[2]): index 2 is past it,
    // though x[3] is in x; -3 counts from its end to -1
    let src = "from numba import cuda

@cuda.jit
def k(x, n, i):
    a = x[1:n]
    a[i] = 5
";
    let args = |i: i64| {
        launch1(json!({
            "x": {"buffer": {"dtype": "int32", "len": 6}},
            "n": {"scalar": {"dtype": "int64", "value": 3}},
            "i": {"scalar": {"dtype": "int32", "value": i}},
        }))
    };
    assert_eq!(bits(&run_ok(src, &args(1)), "x"), [0, 0, 5, 0, 0, 0]);
    assert_eq!(bits(&run_ok(src, &args(-2)), "x"), [0, 5, 0, 0, 0, 0]);
    for i in [2, -3] {
        let ub = ub_of(src, &args(i));
        assert!(
            ub.iter().any(|u| u.kind == "out-of-bounds-index"
                && u.message.contains(&format!("index {i} "))
                && u.message.contains("size 2")),
            "{i}: {ub:?}"
        );
    }
}

#[test]
fn a_runtime_slice_is_a_view_that_atomics_and_further_slices_use() {
    // res[g:] per thread: compare_and_swap works on its element 0, res[g];
    // w = x[s:][1:] starts at x[s + 1]; a 2-d row slice m[r, s:] has
    // m's row stride
    let src = "from numba import cuda

@cuda.jit
def k(res, old, x, s, m, r, o):
    g = cuda.grid(1)
    old[g] = cuda.atomic.compare_and_swap(res[g:], 0, g + 100)
    if g == 0:
        w = x[s:][1:]
        w[0] = 7
        row = m[r, s:]
        o[0] = len(row)
        o[1] = row[0]
        o[2] = row[-1]
        o[3] = row.shape[0]
        o[4] = w.size
";
    let l = ksem_interp::launch::parse_launch(
        &json!({"grid": [1], "block": [4], "args": {
            "res": {"buffer": {"dtype": "int32", "data": [0, 9, 0, 9]}},
            "old": {"buffer": {"dtype": "int32", "len": 4}},
            "x": {"buffer": {"dtype": "int32", "len": 5}},
            "s": {"scalar": {"dtype": "int64", "value": 2}},
            "m": {"buffer": {"dtype": "int64", "shape": [2, 4], "data": [0, 1, 2, 3, 10, 11, 12, 13]}},
            "r": {"scalar": {"dtype": "int64", "value": 1}},
            "o": {"buffer": {"dtype": "int64", "len": 5}},
        }})
        .to_string(),
    )
    .unwrap();
    let r = run_ok(src, &l);
    // threads 0 and 2 find 0 and swap; 1 and 3 find 9 and keep it
    assert_eq!(bits(&r, "res"), [100, 9, 102, 9]);
    assert_eq!(bits(&r, "old"), [0, 9, 0, 9]);
    // x[2:] is x[2..5]; its [1:] starts at x[3]
    assert_eq!(bits(&r, "x"), [0, 0, 0, 7, 0]);
    // m[1, 2:] = [12, 13]; w = x[3:5] has 2 elements
    assert_eq!(bits(&r, "o"), [2, 12, 13, 2, 2]);
}

#[test]
fn a_runtime_slice_of_dynamic_shared_memory() {
    // numba-cuda's test_issue_5073 in small: two halves of a dynamic shared
    // array, split at a runtime chunk size
    let src = "from numba import cuda, int32

@cuda.jit
def k(x, y, c):
    d = cuda.shared.array(0, dtype=int32)
    a = d[0:c]
    b = d[c:c * 2]
    t = cuda.threadIdx.x
    if t < c:
        a[t] = x[t]
    else:
        b[t - c] = x[t]
    cuda.syncthreads()
    if t == 0:
        for j in range(c):
            y[j] = b[j]
            y[j + c] = a[j]
";
    let l = ksem_interp::launch::parse_launch(
        &json!({"grid": [1], "block": [4], "shared_bytes": 16, "args": {
            "x": {"buffer": {"dtype": "int32", "data": [1, 2, 3, 4]}},
            "y": {"buffer": {"dtype": "int32", "len": 4}},
            "c": {"scalar": {"dtype": "int64", "value": 2}},
        }})
        .to_string(),
    )
    .unwrap();
    // a = d[0:2] holds x[0..2], b = d[2:4] holds x[2..4]; y is b then a
    assert_eq!(bits(&run_ok(src, &l), "y"), [3, 4, 1, 2]);
}

#[test]
fn a_negative_index_past_a_static_slice_is_out_of_bounds() {
    // x[10:] of 30 elements has 20: x[10:][-21] is before its start, not
    // x[10:][-1] (a negative index wraps once)
    let src = "from numba import cuda

@cuda.jit
def k(x, i):
    a = x[10:]
    a[i] = 1
";
    let args = |i: i64| {
        launch1(json!({
            "x": {"buffer": {"dtype": "int32", "len": 30}},
            "i": {"scalar": {"dtype": "int64", "value": i}},
        }))
    };
    let r = run_ok(src, &args(-20));
    assert_eq!(bits(&r, "x")[10], 1);
    let ub = ub_of(src, &args(-21));
    assert!(ub.iter().any(|u| u.kind == "out-of-bounds-index"), "{ub:?}");
}

#[test]
fn a_runtime_slice_step_is_refused() {
    let src = "from numba import cuda

@cuda.jit
def k(x, n):
    a = x[0:4:n]
    a[0] = 1
";
    let l = launch1(json!({
        "x": {"buffer": {"dtype": "int32", "len": 4}},
        "n": {"scalar": {"dtype": "int64", "value": 2}},
    }));
    let d = refused(src, &l);
    assert!(
        d.message.contains("step must be a constant"),
        "{}",
        d.message
    );
}
