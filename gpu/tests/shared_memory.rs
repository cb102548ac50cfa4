//! Shared arrays of a SIMT kernel beyond the 48 KiB CUDA lets a kernel
//! declare statically live in dynamic shared memory (the runner raises the
//! kernel's limit at launch): the source then declares no static
//! `__shared__` array, compiles with NVRTC (ptxas refuses more than 48 KiB
//! of static shared data: "uses too much shared data"), and runs as the
//! interpreter says in the host build.

use ksem_gpu::{cuda, lower};
use ksem_interp::launch::parse_launch;

/// 4 threads fill a 20000-element int32 shared array (80000 bytes), meet at
/// TileLang's barrier, and each reads back its element from the other end:
/// S[i] = 3·i, so B[t] = S[19999 - t] = 3·(19999 - t).
const BIG_SHARED: &str = r#"import tilelang
import tilelang.language as T


@T.prim_func
def main(B: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=4) as bx:
        tx = T.get_thread_binding(0)
        S = T.alloc_shared((20000,), "int32")
        for k in T.serial(5000):
            S[k * 4 + tx] = (k * 4 + tx) * 3
        B[tx] = S[19999 - tx] + bx
"#;

#[test]
fn shared_arrays_past_48_kib_are_dynamic() {
    let launch = parse_launch(r#"{"args": {"B": {"buffer": {"dtype": "int32", "len": 4}}}}"#)
        .expect("launch");
    let k = ksem_interp::elaborate_source("big_shared.py", BIG_SHARED, &launch, None)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let l = lower::lower(&k).expect("lowers");
    assert!(l.smem_bytes >= 80_000, "{} bytes", l.smem_bytes);
    assert!(
        !l.source.contains("__shared__ ku32 a"),
        "a static shared array:\n{}",
        l.source
    );
    let r = ksem_gpu::run_host_threads(&k, &launch, 1).expect("host build runs");
    let b: Vec<i32> = r.buffers[0].bits.iter().map(|&x| x as u32 as i32).collect();
    assert_eq!(b, vec![59997, 59994, 59991, 59988]);
    match cuda::nvrtc_available() {
        Err(e) => println!("SKIPPED the NVRTC compile: {e}"),
        Ok(()) => {
            cuda::nvrtc_compile_threads(&l.source, "sm_90", l.threads(cuda::CUDA_THREADS))
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
