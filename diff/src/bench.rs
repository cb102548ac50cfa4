//! `ksem bench`: interpreter throughput on the tutorial workloads.

use ksem_interp::eval::RunOptions;
use ksem_interp::launch::parse_launch;
use std::time::Instant;

/// The same kernel and launch as `tools/bench/vector_add.{py,json}`, which
/// `tools/triton_run.py --time` runs on real Triton for comparison.
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

/// The lowered vector add on the GPU: its time and bandwidth against a
/// device-to-device copy moving the same bytes, and a check of its result
/// against the interpreter.
pub fn run_gpu(repeat: u32) -> Result<(), String> {
    let text = std::fs::read_to_string("tools/bench/vector_add.json")
        .map_err(|e| format!("tools/bench/vector_add.json: {e}"))?;
    let l = parse_launch(&text)?;
    let k = ksem_interp::elaborate_source("vector_add.py", VECTOR_ADD, &l, None)
        .map_err(|e| e.render())?;
    let lowered = ksem_gpu::lower::lower(&k).map_err(|e| e.to_string())?;
    let (r, ms) = ksem_gpu::cuda::time(&lowered, &l, &k.name, repeat).map_err(|e| e.to_string())?;
    let reference =
        ksem_interp::eval::run(&k, &l, &RunOptions::default()).map_err(|d| d.message)?;
    let same = r
        .buffers
        .iter()
        .zip(&reference.buffers)
        .all(|(a, b)| a.bits == b.bits);
    let n = 1u64 << 24;
    let bytes = 3 * 4 * n; // two loads and one store per element
    let copy_ms =
        ksem_gpu::cuda::time_copy((bytes / 2) as usize, repeat).map_err(|e| e.to_string())?;
    let gbps = |b: u64, ms: f64| b as f64 / (ms * 1e-3) / 1e9;
    println!("gpu vector_add[2^24 x float32] (lowered, {} threads/block): {ms:.4} ms = {:.0} GB/s; bits equal to interp: {same}", ksem_gpu::cuda::CUDA_THREADS, gbps(bytes, ms));
    println!(
        "gpu device-to-device copy of {} MiB (same {} MiB moved): {copy_ms:.4} ms = {:.0} GB/s",
        (bytes / 2) >> 20,
        bytes >> 20,
        gbps(bytes, copy_ms)
    );
    println!(
        "lowered vector_add bandwidth / copy bandwidth = {:.1}%",
        copy_ms / ms * 100.0
    );
    Ok(())
}
