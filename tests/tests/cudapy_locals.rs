//! CUDA Python tuple locals: a tuple bound to a name is a set of runtime
//! variables (numba-cuda's tuple locals), so rebinding it inside a branch or
//! a loop changes it only where that code runs. Before the fix, a rebinding
//! inside a branch whose condition was false took effect anyway (numba-cuda's
//! test_atomics 2-D helpers landed every atomic on [0, 0]).

use ksem_interp::launch::parse_launch;
use ksem_tests::*;
use serde_json::json;

fn kern(body: &str) -> String {
    format!(
        "from numba import cuda\n\n@cuda.jit\ndef kern(out):\n{}\n",
        indent(body)
    )
}

/// out[tx, ty] of a 2 x 3 block.
fn run_2x3(body: &str) -> Vec<u64> {
    let l = parse_launch(
        &json!({"grid": [1], "block": [2, 3],
                "args": {"out": {"buffer": {"dtype": "int64", "len": 6, "shape": [2, 3]}}}})
        .to_string(),
    )
    .unwrap();
    bits(&run_clean(&kern(body), &l), "out")
}

#[test]
fn a_tuple_rebound_in_a_branch_not_taken_keeps_its_value() {
    // tx > 100 never holds: t stays (tx, ty) and out[tx, ty] = 10 tx + ty
    let got = run_2x3(
        "tx = cuda.threadIdx.x\nty = cuda.threadIdx.y\nt = (tx, ty)\nif tx > 100:\n    t = (ty, tx)\nout[tx, ty] = t[0] * 10 + t[1]",
    );
    assert_eq!(got, vec![0, 1, 2, 10, 11, 12]);
    // the new tuple reading the old one
    let got = run_2x3(
        "tx = cuda.threadIdx.x\nty = cuda.threadIdx.y\nt = (tx, ty)\nif tx > 100:\n    t = (t[1], t[0])\nout[tx, ty] = t[0] * 10 + t[1]",
    );
    assert_eq!(got, vec![0, 1, 2, 10, 11, 12]);
}

#[test]
fn a_tuple_rebound_in_a_branch_taken_by_some_threads() {
    // tx == 1 swaps: out[1, ty] = 10 ty + 1
    let got = run_2x3(
        "tx = cuda.threadIdx.x\nty = cuda.threadIdx.y\nt = (tx, ty)\nif tx == 1:\n    t = (ty, tx)\nout[tx, ty] = t[0] * 10 + t[1]",
    );
    assert_eq!(got, vec![0, 1, 2, 1, 11, 21]);
}

#[test]
fn a_tuple_updated_in_a_loop_evaluates_the_whole_right_side_first() {
    // (a, b) = (b, a + b) from (0, 1), ty + 2 times: fib(ty + 2), fib(ty + 3)
    // ty = 0: (1, 2) -> 12; ty = 1: (2, 3) -> 23; ty = 2: (3, 5) -> 35
    let got = run_2x3(
        "tx = cuda.threadIdx.x\nty = cuda.threadIdx.y\nt = (0, 1)\nfor i in range(ty + 2):\n    t = (t[1], t[0] + t[1])\nout[tx, ty] = t[0] * 10 + t[1]",
    );
    assert_eq!(got, vec![12, 23, 35, 12, 23, 35]);
}

#[test]
fn a_constant_passed_to_a_device_function_can_size_its_arrays() {
    // numba-cuda's test_atomics helpers: cuda.shared.array(n, dt) and
    // (4, 8)-shaped arrays inside a device function, n, dt and the shape
    // passed in as constants; 32 threads add 1 at tid % 4: sm[0..4] = 8
    let src = "from numba import cuda, uint32\n\n@cuda.jit(device=True)\ndef helper(ary, n, dt, shape, op):\n    tid = cuda.threadIdx.x\n    sm = cuda.shared.array(n, dt)\n    sm2 = cuda.shared.array(shape, dt)\n    sm[tid] = 0\n    cuda.syncthreads()\n    op(sm, tid % 4, 1)\n    cuda.syncthreads()\n    ary[tid] = sm[tid] + shape[1]\n\n@cuda.jit\ndef kern(ary):\n    helper(ary, 32, uint32, (4, 8), cuda.atomic.add)\n";
    let l = parse_launch(
        &json!({"grid": [1], "block": [32], "args": {"ary": {"buffer": {"dtype": "uint32", "len": 32}}}})
            .to_string(),
    )
    .unwrap();
    let want: Vec<u64> = (0..32).map(|t| if t < 4 { 16 } else { 8 }).collect();
    assert_eq!(bits(&run_clean(src, &l), "ary"), want);
}

#[test]
fn a_local_bound_once_to_a_constant_can_size_an_array() {
    // numba-cuda's test_sync simple_smem: N = 100, then cuda.shared.array(N,
    // int32) filled by thread 0 and read back by every thread
    let src = "from numba import cuda, int32\n\n@cuda.jit\ndef kern(ary):\n    N = 100\n    sm = cuda.shared.array(N, int32)\n    i = cuda.grid(1)\n    if i == 0:\n        for j in range(N):\n            sm[j] = j\n    cuda.syncthreads()\n    ary[i] = sm[i]\n";
    let l = parse_launch(
        &json!({"grid": [1], "block": [100], "args": {"ary": {"buffer": {"dtype": "int32", "len": 100}}}})
            .to_string(),
    )
    .unwrap();
    assert_eq!(
        bits(&run_clean(src, &l), "ary"),
        (0..100).collect::<Vec<u64>>()
    );
    // assigned twice: a variable, not a constant, so it cannot size an array
    let src2 = src.replace("    N = 100\n", "    N = 100\n    N = 100\n");
    let d = refused(&src2, &l);
    assert!(d.message.contains("compile-time constant"), "{}", d.message);
}
