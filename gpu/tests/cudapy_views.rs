//! CUDA Python views with runtime lengths (slices with runtime bounds,
//! `reshape` to a runtime shape, `view(dtype)` of a uint8 slice) through the
//! lowering: the host build of the generated CUDA gives the interpreter's
//! bits, with 1 and 4 OS threads per block; the source compiles with NVRTC
//! where libnvrtc loads. The interpreter's values themselves are checked in
//! tests/tests/cudapy_slices.rs and cudapy_reshape_view.rs. Also a shared
//! array of records of a `ksem.record` dtype, numba's Optional result and a
//! number rebound to an array (tests/tests/cudapy_record_dtype.rs,
//! cudapy_optional.rs, cudapy_rebind_kind.rs).

use ksem_interp::eval::RunOptions;
use ksem_interp::ir::Kernel;
use ksem_interp::launch::{parse_launch, Launch, RunResult};

const SLICES: &str = "from numba import cuda, int32

@cuda.jit
def k(res, old, x, s, e, o):
    g = cuda.grid(1)
    old[g] = cuda.atomic.compare_and_swap(res[g:], 0, g + 100)
    d = cuda.shared.array(0, dtype=int32)
    a = d[0:s]
    b = d[s:s * 2]
    t = cuda.threadIdx.x
    if t < s:
        a[t] = x[t]
    else:
        b[t - s] = x[t]
    cuda.syncthreads()
    if t == 0:
        v = x[s:e]
        w = x[e:s:-1]
        o[0] = len(v)
        o[1] = len(w)
        o[2] = v[-1] + w[0]
        for j in range(s):
            o[3 + j] = b[j] - a[j]
";

const RESHAPE: &str = "from numba import cuda
import numpy as np

@cuda.jit
def k(a, t0, t1, bytes_, s, got, o):
    y = a.reshape((t0, t1))
    for i in range(y.shape[0]):
        for j in range(y.shape[1]):
            got[i, j] = y[i, j] * 3 + i
    v = bytes_[s:s + 8].view(np.int32)
    o[0] = v[1]
    o[1] = len(v)
    v[0] = 77
";

const RECORDS: &str = r#"from numba import cuda

dt = ksem.record({"itemsize": 12, "fields": [{"name": "i", "offset": 0, "dtype": "int32"}, {"name": "j", "offset": 4, "dtype": "float32", "shape": [2]}]})

@cuda.jit(device=True)
def half(x):
    if x > 0:
        return x // 2
    return

@cuda.jit
def k(x, y, out, B):
    sm = cuda.shared.array(4, dtype=dt)
    t = cuda.threadIdx.x
    sm[t] = x[t]
    sm[t].i = sm[t].i + 1
    cuda.syncthreads()
    y[t] = sm[3 - t]
    r = half(x[t].i - 1)
    if r is None:
        out[t] = -1
    else:
        out[t] = r
    for s in range(2):
        s = B
        out[t] += s[0]
"#;

fn case(src: &str, launch: &str) -> (Kernel, Launch) {
    let launch = parse_launch(launch).expect("launch parses");
    let k = ksem_interp::elaborate_source("views.py", src, &launch, None)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    ksem_interp::ir::verify::verify(&k).unwrap_or_else(|e| panic!("{}", e.message));
    (k, launch)
}

fn cases() -> Vec<(Kernel, Launch)> {
    vec![
        case(
            SLICES,
            r#"{"grid": [1], "block": [4], "shared_bytes": 16, "args": {
                "res": {"buffer": {"dtype": "int32", "data": [0, 9, 0, 9]}},
                "old": {"buffer": {"dtype": "int32", "len": 4}},
                "x": {"buffer": {"dtype": "int32", "data": [1, 2, 30, 40]}},
                "s": {"scalar": {"dtype": "int64", "value": 2}},
                "e": {"scalar": {"dtype": "int64", "value": 4}},
                "o": {"buffer": {"dtype": "int32", "len": 5}}}}"#,
        ),
        case(
            RESHAPE,
            r#"{"grid": [1], "block": [1], "args": {
                "a": {"buffer": {"dtype": "int64", "data": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]}},
                "t0": {"scalar": {"dtype": "int64", "value": -1}},
                "t1": {"scalar": {"dtype": "int64", "value": 4}},
                "bytes_": {"buffer": {"dtype": "uint8", "data": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]}},
                "s": {"scalar": {"dtype": "int64", "value": 4}},
                "got": {"buffer": {"dtype": "int64", "shape": [3, 4], "len": 12}},
                "o": {"buffer": {"dtype": "int32", "len": 2}}}}"#,
        ),
        case(
            RECORDS,
            r#"{"grid": [1], "block": [4], "args": {
                "x": {"buffer": {"record": {"itemsize": 12, "fields": [{"name": "i", "offset": 0, "dtype": "int32"}, {"name": "j", "offset": 4, "dtype": "float32", "shape": [2]}]}, "shape": [4], "data": [0,0,0,0, 0,0,128,63, 0,0,0,64, 5,0,0,0, 0,0,64,64, 0,0,128,64, 9,0,0,0, 0,0,160,64, 0,0,192,64, 2,0,0,0, 0,0,224,64, 0,0,0,65]}},
                "y": {"buffer": {"record": {"itemsize": 12, "fields": [{"name": "i", "offset": 0, "dtype": "int32"}, {"name": "j", "offset": 4, "dtype": "float32", "shape": [2]}]}, "shape": [4], "len": 4}},
                "out": {"buffer": {"dtype": "int64", "len": 4}},
                "B": {"buffer": {"dtype": "int64", "data": [10]}}}}"#,
        ),
    ]
}

fn interp(k: &Kernel, l: &Launch) -> RunResult {
    let opts = RunOptions {
        threads: 1,
        ..Default::default()
    };
    let r = ksem_interp::eval::run(k, l, &opts).expect("interpreter runs");
    assert!(r.ub.is_empty(), "{:?}", r.ub);
    r
}

#[test]
fn the_host_build_gives_the_interpreters_bits() {
    for (k, l) in cases() {
        let want = interp(&k, &l);
        for threads in [1, 4] {
            let got = ksem_gpu::run_host_threads(&k, &l, threads).expect("host build runs");
            let c = ksem_interp::compare::compare(&want, &got, 0);
            assert!(
                c.problems.is_empty() && c.mismatches.is_empty(),
                "{threads} threads: {:?} {:?}",
                c.problems,
                c.mismatches
            );
        }
    }
    // and the interpreter's own values, by hand: threads 0 and 2 swap;
    // a = d[0:2] = [1, 2], b = d[2:4] = [30, 40]; x[2:4] has 2, x[4:2:-1]
    // has 1 (x[3]); v[-1] + w[0] = 40 + 40
    let (k, l) = &cases()[0];
    let r = interp(k, l);
    let b = |n: &str| r.buffers.iter().find(|b| b.name == n).unwrap().bits.clone();
    assert_eq!(b("res"), [100, 9, 102, 9]);
    assert_eq!(b("o"), [2, 1, 80, 29, 38]);
}

#[test]
fn the_source_compiles_with_nvrtc() {
    if let Err(e) = ksem_gpu::cuda::nvrtc_available() {
        println!("SKIPPED the_source_compiles_with_nvrtc: {e}");
        return;
    }
    for (k, _) in cases() {
        let lowered = ksem_gpu::lower::lower(&k).expect("lowers");
        let cubin = ksem_gpu::cuda::nvrtc_compile(&lowered.source, "sm_90")
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!cubin.is_empty());
    }
}
