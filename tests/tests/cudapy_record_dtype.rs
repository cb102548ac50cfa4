//! A record dtype in a kernel's text (`ksem.record({…})` at module level,
//! the launch's `"record"` form: how the pytest plugin writes a structured
//! dtype a kernel closes over, numba-cuda's `test_shared_recarray`), and
//! shared and local arrays of records. Expected bytes are derived by hand:
//! the dtype is numpy's packed `[("i", int32), ("j", float32, (3, 2))]`: i at
//! byte 0, j at 4 (6 float32s), itemsize 4 + 24 = 28.

use ksem_interp::launch::parse_launch;
use ksem_tests::serde_json::{json, Value as Json};
use ksem_tests::*;

const DTYPE: &str = r#"ksem.record({"itemsize": 28, "fields": [{"name": "i", "offset": 0, "dtype": "int32"}, {"name": "j", "offset": 4, "dtype": "float32", "shape": [3, 2]}]})"#;

fn layout() -> Json {
    json!({"itemsize": 28, "fields": [
        {"name": "i", "offset": 0, "dtype": "int32"},
        {"name": "j", "offset": 4, "dtype": "float32", "shape": [3, 2]},
    ]})
}

/// Record x: i = x, j = [0, 1, …, 5] · x, as little-endian bytes.
fn record(x: u32) -> Vec<u64> {
    let mut r: Vec<u64> = x.to_le_bytes().iter().map(|&b| b as u64).collect();
    for k in 0..6 {
        r.extend(
            ((k * x) as f32)
                .to_bits()
                .to_le_bytes()
                .iter()
                .map(|&b| b as u64),
        );
    }
    r
}

/// Each thread copies its record into a shared array of records, and
/// thread 0 of each block copies the block's records out after the barrier
/// (numba-cuda's `_test_shared`): y equals x byte for byte.
#[test]
fn a_shared_array_of_records_copies_through() {
    let src = format!(
        "from numba import cuda

dt = {DTYPE}

@cuda.jit
def kern(x, y):
    sm = cuda.shared.array(4, dtype=dt)
    tx = cuda.threadIdx.x
    bx = cuda.blockIdx.x
    bd = cuda.blockDim.x
    i = bx * bd + tx
    if i < len(x):
        sm[tx] = x[i]
    cuda.syncthreads()
    if tx == 0:
        for j in range(4):
            y[bd * bx + j] = sm[j]
"
    );
    let data: Vec<u64> = (0..8).flat_map(record).collect();
    let l = parse_launch(
        &json!({"grid": [2, 1, 1], "block": [4, 1, 1], "args": {
            "x": {"buffer": {"record": layout(), "shape": [8], "data": data}},
            "y": {"buffer": {"record": layout(), "shape": [8], "len": 8}}}})
        .to_string(),
    )
    .unwrap();
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "y"), data);
}

/// Fields of a local array of records: r[1].i = 7, r[1].j[2, 1] = 2.5, read
/// back into out: [7, 2.5 as int32 bits 0x40200000].
#[test]
fn a_local_array_of_records_has_fields() {
    let src = format!(
        "from numba import cuda

dt = {DTYPE}

@cuda.jit
def kern(out, f):
    r = cuda.local.array(2, dtype=dt)
    r[1].i = 7
    r[1].j[2, 1] = 2.5
    out[0] = r[1].i
    f[0] = r[1].j[2, 1]
"
    );
    let l = parse_launch(
        &json!({"grid": [1, 1, 1], "block": [1, 1, 1], "args": {
            "out": {"buffer": {"dtype": "int32", "len": 1}},
            "f": {"buffer": {"dtype": "float32", "len": 1}}}})
        .to_string(),
    )
    .unwrap();
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "out"), vec![7]);
    assert_eq!(bits(&r, "f"), vec![0x40200000]);
}

/// A malformed `ksem.record` is refused at the call, naming the problem.
#[test]
fn a_bad_record_literal_is_refused() {
    let l = parse_launch(
        &json!({"grid": [1, 1, 1], "block": [1, 1, 1], "args": {
            "out": {"buffer": {"dtype": "int32", "len": 1}}}})
        .to_string(),
    )
    .unwrap();
    for (lit, msg) in [
        (
            r#"ksem.record({"itemsize": 2, "fields": [{"name": "i", "offset": 0, "dtype": "int32"}]})"#,
            "does not fit",
        ),
        (r#"ksem.record(28)"#, "expected struct"),
        (r#"ksem.record(layout)"#, "ksem.record takes one literal"),
    ] {
        let src = format!(
            "from numba import cuda

dt = {lit}

@cuda.jit
def kern(out):
    out[0] = 1
"
        );
        let d = refused(&src, &l);
        assert_diag(&src, &d, loc1(&src, "ksem.record"), &[msg], None);
    }
}
