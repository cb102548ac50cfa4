//! Records (numpy structured dtypes) in CUDA Python: a record buffer is the
//! array's bytes in numpy's layout (docs/formats.md, "Record buffers"), and
//! a field is read and written as the little-endian bytes of its number at
//! its offset. The expected bytes are derived by hand below from numpy's
//! layout rules (`np.dtype([...], align=True)`: each field at the next
//! multiple of its alignment, the itemsize rounded up to the largest one).

use ksem_interp::launch::parse_launch;
use ksem_tests::serde_json::{json, Value as Json};
use ksem_tests::*;

/// numpy's `np.dtype([("a", f8), ("b", i4), ("c", c8), ("d", u1, 5)],
/// align=True)`: a at 0 (8 bytes), b at 8 (4), c at 12 (complex64 aligns
/// to 4: 8 bytes), d at 20 (5 bytes), itemsize 25 rounded up to 8: 32.
fn recordtype() -> Json {
    json!({"itemsize": 32, "fields": [
        {"name": "a", "offset": 0, "dtype": "float64"},
        {"name": "b", "offset": 8, "dtype": "int32"},
        {"name": "c", "offset": 12, "dtype": "complex64"},
        {"name": "d", "offset": 20, "dtype": "uint8", "shape": [5]},
    ]})
}

fn le(v: u64, n: usize) -> Vec<u64> {
    (0..n).map(|j| (v >> (8 * j)) & 0xff).collect()
}

/// Record `x` of the sample array of numba's test_record_dtype: a = x/2,
/// b = x, c = x·1j, d = the digits of x as text bytes ("1" → 0x31).
fn sample(x: u64) -> Vec<u64> {
    let mut r = vec![0; 32];
    r[0..8].copy_from_slice(&le((x as f64 / 2.0).to_bits(), 8));
    r[8..12].copy_from_slice(&le(x, 4));
    r[12..16].copy_from_slice(&le(0f32.to_bits() as u64, 4));
    r[16..20].copy_from_slice(&le((x as f32).to_bits() as u64, 4));
    r[20] = 0x30 + x;
    r
}

fn records(n: u64) -> Vec<u64> {
    (1..=n).flat_map(sample).collect()
}

fn run_records(src: &str, args: Json) -> ksem_interp::launch::RunResult {
    let l = parse_launch(&json!({"grid": [1], "block": [1], "args": args}).to_string()).unwrap();
    run_clean(src, &l)
}

#[test]
fn field_writes_change_exactly_the_fields_bytes() {
    let src = "from numba import cuda

@cuda.jit
def set_fields(ary, i, v):
    ary[i].a = v
    ary[i].b = v
    ary[i]['c'] = v
";
    let r = run_records(
        src,
        json!({
            "ary": {"buffer": {"record": recordtype(), "shape": [3], "data": records(3)}},
            "i": {"scalar": {"dtype": "int64", "value": 1}},
            "v": {"scalar": {"dtype": "float64", "value": 2.375}},
        }),
    );
    let mut want = records(3);
    let rec = &mut want[32..64];
    rec[0..8].copy_from_slice(&le(2.375f64.to_bits(), 8));
    // int32 field: 2.375 truncates to 2
    rec[8..12].copy_from_slice(&le(2, 4));
    // complex64 field: (2.375, exact in float32) + 0j
    rec[12..16].copy_from_slice(&le((2.375f32).to_bits() as u64, 4));
    rec[16..20].copy_from_slice(&le(0, 4));
    assert_eq!(bits(&r, "ary"), want);
}

#[test]
fn field_reads_assemble_the_little_endian_bytes() {
    let src = "from numba import cuda

@cuda.jit
def read(r, a, b, c, d):
    a[0] = r.a
    b[0] = r['b']
    c[0] = r.c
    for k in range(5):
        d[k] = r.d[k]
";
    let r = run_records(
        src,
        json!({
            "r": {"buffer": {"record": recordtype(), "shape": [], "data": sample(3)}},
            "a": {"buffer": {"dtype": "float64", "len": 1}},
            "b": {"buffer": {"dtype": "int32", "len": 1}},
            "c": {"buffer": {"dtype": "complex64", "len": 1}},
            "d": {"buffer": {"dtype": "uint8", "len": 5}},
        }),
    );
    assert_eq!(bits(&r, "a"), [1.5f64.to_bits()]);
    assert_eq!(bits(&r, "b"), [3]);
    assert_eq!(bits(&r, "c"), [0, 3f32.to_bits() as u64]);
    assert_eq!(bits(&r, "d"), [0x33, 0, 0, 0, 0]);
}

#[test]
fn a_record_assignment_copies_every_byte() {
    let src = "from numba import cuda

@cuda.jit
def copy(ary, i, j):
    ary[i] = ary[j]
";
    let r = run_records(
        src,
        json!({
            "ary": {"buffer": {"record": recordtype(), "shape": [3], "data": records(3)}},
            "i": {"scalar": {"dtype": "int64", "value": 0}},
            "j": {"scalar": {"dtype": "int64", "value": 2}},
        }),
    );
    let mut want = records(3);
    want.copy_within(64..96, 0);
    assert_eq!(bits(&r, "ary"), want);
}

/// `np.dtype([("i", i4), ("j", f4, (3, 2))])` (packed): i at 0, j at 4,
/// 24 bytes of float32 row-major; itemsize 28.
#[test]
fn subarray_fields_index_row_major_and_copy_whole() {
    let layout = json!({"itemsize": 28, "fields": [
        {"name": "i", "offset": 0, "dtype": "int32"},
        {"name": "j", "offset": 4, "dtype": "float32", "shape": [3, 2]},
    ]});
    let src = "from numba import cuda

@cuda.jit
def write(r, s):
    r.i = 3
    r.j[2, 1] = 10.0
    s['j'] = r['j']
";
    let r = run_records(
        src,
        json!({
            "r": {"buffer": {"record": layout, "shape": [], "len": 1}},
            "s": {"buffer": {"record": layout, "shape": [], "len": 1}},
        }),
    );
    let mut want = vec![0u64; 28];
    want[0] = 3;
    // j[2, 1] is element 2·2 + 1 = 5: bytes 4 + 5·4 = 24 … 27
    want[24..28].copy_from_slice(&le(10f32.to_bits() as u64, 4));
    assert_eq!(bits(&r, "r"), want);
    let mut s = vec![0u64; 28];
    s[24..28].copy_from_slice(&le(10f32.to_bits() as u64, 4));
    assert_eq!(bits(&r, "s"), s);
}

#[test]
fn a_record_array_index_past_the_end_is_out_of_bounds() {
    let src = "from numba import cuda

@cuda.jit
def oob(ary, i):
    ary[i].b = 1
";
    let l = parse_launch(
        &json!({"grid": [1], "block": [1], "args": {
            "ary": {"buffer": {"record": recordtype(), "shape": [3], "data": records(3)}},
            "i": {"scalar": {"dtype": "int64", "value": 3}},
        }})
        .to_string(),
    )
    .unwrap();
    let ub = ub_of(src, &l);
    assert!(ub.iter().any(|u| u.kind == "out-of-bounds-index"), "{ub:?}");
}

#[test]
fn bad_record_layouts_are_refused_with_their_path() {
    let bad = |layout: Json| -> String {
        parse_launch(&json!({"args": {"r": {"buffer": {"record": layout, "len": 1}}}}).to_string())
            .unwrap_err()
    };
    let e = bad(json!({"itemsize": 4, "fields": [{"name": "a", "offset": 2, "dtype": "int32"}]}));
    assert!(
        e.contains("args.r.buffer.record.fields[0]") && e.contains("does not fit"),
        "{e}"
    );
    let e = bad(json!({"itemsize": 4, "fields": [{"name": "a", "offset": 0, "dtype": "int33"}]}));
    assert!(
        e.contains("fields[0].dtype") && e.contains("unknown field dtype"),
        "{e}"
    );
    let e = parse_launch(
        &json!({"args": {"r": {"buffer": {"record": recordtype(), "data": [1, 2, 3]}}}})
            .to_string(),
    )
    .unwrap_err();
    assert!(e.contains("32 bytes per record"), "{e}");
}

/// `cuda.const.array_like(NAME)`: the launch's `"constants"` carry the
/// module-level array; the kernel reads it (a record array here, numba's
/// test_constmem CONST_RECORD: x float64 at 0, y int64 at 8, itemsize 16).
#[test]
fn constant_arrays_come_from_the_launch() {
    let src = "from numba import cuda
import numpy as np

@cuda.jit
def k(A, B, C):
    R = cuda.const.array_like(CONST_RECORD)
    D = cuda.const.array_like(CONST1D)
    i = cuda.grid(1)
    A[i] = R[i]['x']
    B[i] = R[i]['y']
    C[i] = D[i] + len(D)
";
    let layout = json!({"itemsize": 16, "fields": [
        {"name": "x", "offset": 0, "dtype": "float64"},
        {"name": "y", "offset": 8, "dtype": "int64"},
    ]});
    let mut bytes = Vec::new();
    for (x, y) in [(1.0f64, 2u64), (3.0, 4)] {
        bytes.extend(le(x.to_bits(), 8));
        bytes.extend(le(y, 8));
    }
    let l = parse_launch(
        &json!({"grid": [1], "block": [2],
        "constants": {
            "CONST_RECORD": {"buffer": {"record": layout, "data": bytes}},
            "CONST1D": {"buffer": {"dtype": "float64", "data": [0.5, 1.5, 2.5]}},
        },
        "args": {
            "A": {"buffer": {"dtype": "float64", "len": 2}},
            "B": {"buffer": {"dtype": "int64", "len": 2}},
            "C": {"buffer": {"dtype": "float64", "len": 2}},
        }})
        .to_string(),
    )
    .unwrap();
    let r = run_clean(src, &l);
    assert_eq!(bits(&r, "A"), [1f64.to_bits(), 3f64.to_bits()]);
    assert_eq!(bits(&r, "B"), [2, 4]);
    assert_eq!(bits(&r, "C"), [3.5f64.to_bits(), 4.5f64.to_bits()]);
    let bare = parse_launch(
        &json!({"grid": [1], "block": [2], "args": {
        "A": {"buffer": {"dtype": "float64", "len": 2}},
        "B": {"buffer": {"dtype": "int64", "len": 2}},
        "C": {"buffer": {"dtype": "float64", "len": 2}}}})
        .to_string(),
    )
    .unwrap();
    let d = refused(src, &bare);
    assert!(
        d.message.contains("no constant array `CONST_RECORD`"),
        "{}",
        d.message
    );
}

#[test]
fn len_of_a_record_array_and_of_a_subarray_field() {
    // 3 records; field d is 5 uint8; an empty record array has length 0
    // (numba-cuda's test_const_record_empty)
    let src = "from numba import cuda

@cuda.jit
def k(ary, empty, o):
    o[0] = len(ary)
    o[1] = len(ary[0].d)
    o[2] = len(empty)
";
    let r = run_records(
        src,
        json!({
            "ary": {"buffer": {"record": recordtype(), "shape": [3], "data": records(3)}},
            "empty": {"buffer": {"record": recordtype(), "shape": [0], "len": 0}},
            "o": {"buffer": {"dtype": "int64", "data": [-1, -1, -1]}},
        }),
    );
    assert_eq!(bits(&r, "o"), [3, 5, 0]);
}

#[test]
fn a_device_function_returns_a_record() {
    // numba-cuda's test_getitem_idx: `return ary[0]` of a record array is
    // record 0 (the kernel copies its bytes into res[0]); from two returns
    // the one that runs; `r[0]` of a record is its first field
    let src = "from numba import cuda

@cuda.jit(device=True)
def pick(ary, i):
    if i == 1:
        return ary[1]
    return ary[2]

@cuda.jit(device=True)
def first(r):
    return r[0]

@cuda.jit
def k(ary, res, o):
    res[0] = pick(ary, 1)
    res[1] = pick(ary, 0)
    o[0] = first(ary[2])
";
    let r = run_records(
        src,
        json!({
            "ary": {"buffer": {"record": recordtype(), "shape": [3], "data": records(3)}},
            "res": {"buffer": {"record": recordtype(), "shape": [2], "len": 2}},
            "o": {"buffer": {"dtype": "float64", "len": 1}},
        }),
    );
    let mut want = sample(2);
    want.extend(sample(3));
    assert_eq!(bits(&r, "res"), want);
    // field a of record x = 3 is 3 / 2
    assert_eq!(bits(&r, "o"), [1.5f64.to_bits()]);
}
