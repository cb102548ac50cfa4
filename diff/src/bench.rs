//! `ksem bench`: interpreter throughput on the tutorial workloads.

use ksem_interp::eval::RunOptions;
use ksem_interp::launch::parse_launch;
use std::time::Instant;

const VECTOR_ADD: &str = r#"
import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
"#;

const SOFTMAX: &str = r#"
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(in_ptr + row * n_cols + offs, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * n_cols + offs, num / den, mask=mask)
"#;

fn measure(name: &str, src: &str, launch: &str, elems: u64, repeat: usize) {
    let l = parse_launch(launch).expect("bench launch parses");
    let k = ksem_interp::elaborate_source(name, src, &l, None).expect("bench kernel elaborates");
    let mut best = f64::INFINITY;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let r = ksem_interp::eval::run(&k, &l, &RunOptions::default()).expect("bench runs");
        assert!(r.ub.is_empty(), "bench kernel has no UB");
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{name}: {elems} elements in {:.3} s = {:.1} M elements/s ({} threads)",
        best,
        elems as f64 / best / 1e6,
        rayon::current_num_threads()
    );
}

/// Runs the benchmarks and prints their figures.
pub fn run(repeat: usize) {
    let n = 1u64 << 24;
    let va = format!(
        r#"{{"grid": [{}], "args": {{"x_ptr": {{"buffer": {{"dtype": "float32", "len": {n}, "init": {{"random": {{"seed": 1}}}}}}}},
        "y_ptr": {{"buffer": {{"dtype": "float32", "len": {n}, "init": {{"random": {{"seed": 2}}}}}}}},
        "out_ptr": {{"buffer": {{"dtype": "float32", "len": {n}}}}}, "n": {{"scalar": {{"dtype": "int32", "value": {n}}}}},
        "BLOCK": {{"constexpr": 1024}}}}}}"#,
        n / 1024
    );
    measure("vector_add[2^24 x float32]", VECTOR_ADD, &va, n, repeat);
    let (rows, cols) = (4096u64, 1024u64);
    let sm = format!(
        r#"{{"grid": [{rows}], "args": {{"out_ptr": {{"buffer": {{"dtype": "float32", "len": {}}}}},
        "in_ptr": {{"buffer": {{"dtype": "float32", "len": {}, "init": {{"random": {{"seed": 3}}}}}}}},
        "n_cols": {{"scalar": {{"dtype": "int32", "value": {cols}}}}}, "BLOCK": {{"constexpr": 1024}}}}}}"#,
        rows * cols,
        rows * cols
    );
    measure(
        "softmax[4096 x 1024 float32]",
        SOFTMAX,
        &sm,
        rows * cols,
        repeat,
    );
}
