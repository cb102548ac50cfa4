//! Kernels of several launches (TileLang's `with T.Kernel` after `with
//! T.Kernel`) through the lowering: one `__global__` function per launch in
//! one source, run in order by the host build (and on the GPU with
//! KSEM_TEST_CUDA=1); the source compiles with NVRTC where libnvrtc loads.

use ksem_gpu::{cuda, lower, Backend};
use ksem_interp::eval::RunOptions;
use ksem_interp::ir::Kernel;
use ksem_interp::launch::{parse_launch, Launch, RunResult};

/// Launch 1 writes B = A + 1 (4 blocks), launch 2 doubles B in place (2
/// blocks), launch 3 writes C = reversed B - 100 (1 block).
const ORDERED: &str = r#"import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((4,), "int32"), B: T.Tensor((4,), "int32"), C: T.Tensor((4,), "int32")):
    with T.Kernel(4, threads=32) as bx:
        B[bx] = A[bx] + 1
    with T.Kernel(2, threads=64) as bx:
        for i in T.Parallel(2):
            B[bx * 2 + i] = B[bx * 2 + i] * 2
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(4):
            C[i] = B[3 - i] - 100
"#;

/// Launch 1 stores exp(A) (approximate math) into B; launch 2 copies B
/// into C, so C's elements are inexact although launch 2 computes nothing
/// approximate.
const INEXACT: &str = r#"import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32"), C: T.Tensor((4,), "float32")):
    with T.Kernel(1, threads=4) as bx:
        for i in T.Parallel(4):
            B[i] = T.exp(A[i])
    with T.Kernel(2, threads=2) as bx:
        for i in T.Parallel(2):
            C[bx * 2 + i] = B[bx * 2 + i] * 2.0
"#;

fn case(src: &str, args: &str) -> (Kernel, Launch) {
    let launch = parse_launch(&format!("{{\"args\": {args}}}")).expect("launch parses");
    let k = ksem_interp::elaborate_source("launches.py", src, &launch, None)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    ksem_interp::ir::verify::verify(&k).unwrap_or_else(|e| panic!("{}", e.message));
    (k, launch)
}

fn ordered() -> (Kernel, Launch) {
    case(
        ORDERED,
        r#"{"A": {"buffer": {"dtype": "int32", "data": [1, 2, 3, 4]}},
            "B": {"buffer": {"dtype": "int32", "data": [100, 100, 100, 100]}},
            "C": {"buffer": {"dtype": "int32", "len": 4}}}"#,
    )
}

fn i32s(r: &RunResult, name: &str) -> Vec<i32> {
    let b = r.buffers.iter().find(|b| b.name == name).expect("buffer");
    b.bits.iter().map(|&x| x as u32 as i32).collect()
}

fn interp(k: &Kernel, l: &Launch) -> RunResult {
    let opts = RunOptions {
        threads: 1,
        ..Default::default()
    };
    ksem_interp::eval::run(k, l, &opts).expect("interpreter runs")
}

#[test]
fn one_global_function_per_launch_each_with_its_grid() {
    let (k, _) = ordered();
    let l = lower::lower(&k).expect("lowers");
    assert_eq!(l.entry, "ksem_kernel");
    assert_eq!(l.grid, [4, 1, 1]);
    let next: Vec<(&str, [u32; 3])> = l.then.iter().map(|n| (n.entry.as_str(), n.grid)).collect();
    assert_eq!(
        next,
        vec![
            ("ksem_kernel_part1", [2, 1, 1]),
            ("ksem_kernel_part2", [1, 1, 1])
        ]
    );
    for f in ["ksem_kernel(", "ksem_kernel_part1(", "ksem_kernel_part2("] {
        let n = l
            .source
            .matches(&format!("extern \"C\" __global__ void {f}"))
            .count();
        assert_eq!(n, 1, "{f} defined {n} times");
    }
}

#[test]
fn the_host_build_runs_the_launches_in_order() {
    let (k, l) = ordered();
    // hand reasoning as in tests/tests/tilelang_launches.rs: B = (A + 1) * 2,
    // C = reversed B - 100; another order or stale memory gives other values
    for threads in [1, 4] {
        let r = ksem_gpu::run_host_threads(&k, &l, threads).expect("host build runs");
        assert_eq!(i32s(&r, "B"), vec![4, 6, 8, 10], "{threads} threads");
        assert_eq!(i32s(&r, "C"), vec![-90, -92, -94, -96], "{threads} threads");
    }
    // and a batch (the fuzzer's path) runs it alone, the same
    let r = ksem_gpu::run_batch(&[(&k, &l), (&k, &l)], Backend::Host);
    for one in r {
        assert_eq!(i32s(&one.expect("runs"), "C"), vec![-90, -92, -94, -96]);
    }
}

#[test]
fn inexact_values_cross_launches() {
    let (k, l) = case(
        INEXACT,
        r#"{"A": {"buffer": {"dtype": "float32", "data": [0.5, 1.0, -2.0, 3.0]}},
            "B": {"buffer": {"dtype": "float32", "len": 4}},
            "C": {"buffer": {"dtype": "float32", "len": 4}}}"#,
    );
    let want = interp(&k, &l);
    let got = ksem_gpu::run_host_threads(&k, &l, 1).expect("host build runs");
    for name in ["B", "C"] {
        let w = want.buffers.iter().find(|b| b.name == name).unwrap();
        let g = got.buffers.iter().find(|b| b.name == name).unwrap();
        assert!(
            w.inexact.iter().all(|&x| x),
            "interp: {name} from exp is inexact"
        );
        assert!(
            g.inexact.iter().all(|&x| x),
            "host: {name} from exp is inexact"
        );
    }
    let c = ksem_interp::compare::compare(&want, &got, 8);
    assert!(c.problems.is_empty() && c.mismatches.is_empty(), "{c:?}");
}

#[test]
fn the_cuda_runner_launches_them_in_order() {
    if std::env::var("KSEM_TEST_CUDA").ok().as_deref() != Some("1") {
        println!(
            "SKIPPED the_cuda_runner_launches_them_in_order: set KSEM_TEST_CUDA=1 on a GPU machine"
        );
        return;
    }
    let (k, l) = ordered();
    let r = ksem_gpu::run(&k, &l, Backend::Cuda).expect("runs on the GPU");
    assert_eq!(i32s(&r, "B"), vec![4, 6, 8, 10]);
    assert_eq!(i32s(&r, "C"), vec![-90, -92, -94, -96]);
}

#[test]
fn every_launch_compiles_with_nvrtc() {
    if let Err(e) = cuda::nvrtc_available() {
        println!("SKIPPED every_launch_compiles_with_nvrtc: {e}");
        return;
    }
    let (k, _) = ordered();
    let l = lower::lower(&k).expect("lowers");
    let ptx = cuda::nvrtc_compile(&l.source, "compute_90").expect("compiles");
    let ptx = String::from_utf8_lossy(&ptx);
    for f in ["ksem_kernel", "ksem_kernel_part1", "ksem_kernel_part2"] {
        assert!(ptx.contains(&format!(".entry {f}(")), "no PTX entry {f}");
    }
}

/// A tile launch (one thread per block) then a launch of per-thread code
/// on 4 threads that meet at TileLang's barrier: each SIMT launch runs with
/// its own block shape. A = [1, 2, 3, 4]: launch 1 makes B = 2·A, launch 2
/// reverses it through shared memory: B = [8, 6, 4, 2].
const MIXED_BLOCKS: &str = r#"import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((4,), "int32"), B: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=4) as bx:
        for i in T.Parallel(4):
            B[i] = A[i] * 2
    with T.Kernel(1, threads=4) as bx:
        tx = T.get_thread_binding(0)
        S = T.alloc_shared((4,), "int32")
        S[tx] = B[tx]
        B[tx] = S[3 - tx] + bx
"#;

#[test]
fn launches_with_their_own_block_shapes() {
    let (k, l) = case(
        MIXED_BLOCKS,
        r#"{"A": {"buffer": {"dtype": "int32", "data": [1, 2, 3, 4]}},
            "B": {"buffer": {"dtype": "int32", "len": 4}}}"#,
    );
    assert_eq!((k.block, k.then[0].block), ([1, 1, 1], [4, 1, 1]));
    let lowered = lower::lower(&k).expect("lowers");
    assert_eq!(lowered.then[0].block, Some([4, 1, 1]));
    let r = ksem_gpu::run_host_threads(&k, &l, 1).expect("host build runs");
    assert_eq!(i32s(&r, "B"), vec![8, 6, 4, 2]);
    if std::env::var("KSEM_TEST_CUDA").ok().as_deref() == Some("1") {
        let r = ksem_gpu::run(&k, &l, Backend::Cuda).expect("runs on the GPU");
        assert_eq!(i32s(&r, "B"), vec![8, 6, 4, 2]);
    }
}
