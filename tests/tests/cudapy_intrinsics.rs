//! numba-cuda's intrinsics beyond the seed that its own test suite uses
//! (`cuda.popc`, `clz`, `ffs`, `brev`, `fma`, `cbrt`, `syncthreads_count`/
//! `_and`/`_or`, `threadfence*`, `laneid`, `warpsize`, `math.exp2`), with
//! numba-cuda 0.30.4's types (`cudadecl.py`). Every expected value is worked
//! out by hand beside it.

use ksem_interp::launch::{parse_launch, Launch, RunResult};
use ksem_tests::*;
use serde_json::{json, Value as Json};

fn kern(params: &str, body: &str) -> String {
    format!(
        "from numba import cuda, int32, int64, uint32, uint64\nimport math\n\n@cuda.jit\ndef kern({params}):\n{}\n",
        indent(body)
    )
}

fn simt(block: u32, args: Json) -> Launch {
    let text = json!({"grid": [1], "block": [block], "args": args}).to_string();
    parse_launch(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn out_bits(src: &str, l: &Launch) -> Vec<u64> {
    let r: RunResult = run_clean(src, l);
    bits(&r, "out")
}

fn hex(v: &[u64]) -> Json {
    json!(v.iter().map(|x| format!("{x:#x}")).collect::<Vec<_>>())
}

#[test]
fn popc_clz_ffs_count_bits_in_the_operands_width() {
    // int32 x = [0, 1, -1, 0x7fffffff, 0x12345678, 0x00010000, 8, INT_MIN]
    let x = [
        0u64,
        1,
        0xffff_ffff,
        0x7fff_ffff,
        0x1234_5678,
        0x0001_0000,
        8,
        0x8000_0000,
    ];
    let args = |dtype: &str| json!({"x": {"buffer": {"dtype": "int32", "bits": hex(&x)}}, "out": zeros(dtype, 8)});
    let src = kern("x, out", "i = cuda.grid(1)\nout[i] = cuda.popc(x[i])");
    // 0x12345678: 1+1+2+1+2+2+3+1 = 13 set bits
    assert_eq!(
        out_bits(&src, &simt(8, args("int32"))),
        vec![0, 1, 32, 31, 13, 1, 1, 1]
    );
    let src = kern("x, out", "i = cuda.grid(1)\nout[i] = cuda.clz(x[i])");
    // clz(0) is the width (llvm.ctlz with zero defined); 0x10000 has 15 above bit 16
    assert_eq!(
        out_bits(&src, &simt(8, args("int32"))),
        vec![32, 31, 0, 1, 3, 15, 28, 0]
    );
    let src = kern("x, out", "i = cuda.grid(1)\nout[i] = cuda.ffs(x[i])");
    // 1-based position of the lowest set bit; 0x12345678 = ...1000 -> 4
    assert_eq!(
        out_bits(&src, &simt(8, args("uint32"))),
        vec![0, 1, 1, 1, 4, 17, 4, 32]
    );
    // 64 bits: popc(-1) = 64, clz(1) = 63, ffs(2**40) = 41
    let src = kern(
        "out",
        "out[0] = cuda.popc(int64(-1))\nout[1] = cuda.clz(int64(1))\nout[2] = cuda.ffs(int64(2**40))",
    );
    assert_eq!(
        out_bits(&src, &simt(1, json!({"out": zeros("int64", 3)}))),
        vec![64, 63, 41]
    );
}

#[test]
fn brev_reverses_the_bits() {
    // uint32: 1 -> 0x80000000; 0x12345678 -> 0x1e6a2c48 (nibbles 1,2,..8
    // reversed are 8->1, 4->2, c->3, 2->4, a->5, 6->6, e->7, 1->8, read backwards)
    let src = kern("x, out", "i = cuda.grid(1)\nout[i] = cuda.brev(x[i])");
    let l = simt(
        2,
        json!({"x": {"buffer": {"dtype": "uint32", "bits": hex(&[1, 0x1234_5678])}}, "out": zeros("uint32", 2)}),
    );
    assert_eq!(out_bits(&src, &l), vec![0x8000_0000, 0x1e6a_2c48]);
    let l = simt(
        1,
        json!({"x": {"buffer": {"dtype": "uint64", "bits": hex(&[1])}}, "out": zeros("uint64", 1)}),
    );
    assert_eq!(out_bits(&src, &l), vec![0x8000_0000_0000_0000]);
}

#[test]
fn fma_rounds_once_and_cbrt_exp2_compute() {
    // 0.1 * 10 - 1: the exact product of the double 0.1 and 10 is
    // 1 + 2**-54, so fused the result is 2**-54; unfused 0.1 * 10 rounds to 1.0
    let src = kern(
        "out",
        "out[0] = cuda.fma(0.1, 10.0, -1.0)\nout[1] = 0.1 * 10.0 - 1.0\nout[2] = cuda.cbrt(27.0)\nout[3] = math.exp2(10.0)",
    );
    let got = out_bits(&src, &simt(1, json!({"out": zeros("float64", 4)})));
    assert_eq!(
        got,
        vec![
            2f64.powi(-54).to_bits(),
            0,
            3.0f64.to_bits(),
            1024.0f64.to_bits()
        ]
    );
}

#[test]
fn syncthreads_count_and_or_count_the_blocks_predicates() {
    // 8 threads: tid % 3 == 0 holds for 0, 3, 6 -> count 3; tid < 8 for all
    // -> and 1; tid == 100 for none -> or 0; each thread writes its own row
    let src = kern(
        "out",
        "t = cuda.threadIdx.x\nc = cuda.syncthreads_count(t % 3 == 0)\na = cuda.syncthreads_and(t < 8)\no = cuda.syncthreads_or(t == 100)\nb = cuda.syncthreads_and(t < 4)\nout[t, 0] = c\nout[t, 1] = a\nout[t, 2] = o\nout[t, 3] = b",
    );
    let l = simt(
        8,
        json!({"out": {"buffer": {"dtype": "int32", "len": 32, "shape": [8, 4]}}}),
    );
    let want: Vec<u64> = (0..8).flat_map(|_| [3u64, 1, 0, 0]).collect();
    assert_eq!(out_bits(&src, &l), want);
}

#[test]
fn laneid_warpsize_and_fences() {
    // 40 threads: lanes 0..32 then 0..8; fences change nothing
    let src = kern(
        "out",
        "t = cuda.threadIdx.x\ncuda.threadfence()\ncuda.threadfence_block()\ncuda.threadfence_system()\nout[t] = cuda.laneid * 100 + cuda.warpsize",
    );
    let l = simt(40, json!({"out": zeros("int32", 40)}));
    let want: Vec<u64> = (0..40u64).map(|t| (t % 32) * 100 + 32).collect();
    assert_eq!(out_bits(&src, &l), want);
}

#[test]
fn round_is_ties_to_even_and_round_to_digits_follows_numba() {
    // numba-cuda's test_round_f8 values; Python's round gives the same
    // (ties to even): -3, -2, -2, -2, 2, 2, 2, 3
    let src = kern("x, out", "i = cuda.grid(1)\nout[i] = round(x[i])");
    let l = simt(
        8,
        json!({"x": buf("float64", json!([-3.0, -2.5, -2.25, -1.5, 1.5, 2.25, 2.5, 2.75])),
               "out": zeros("int64", 8)}),
    );
    let want: Vec<u64> = [-3i64, -2, -2, -2, 2, 2, 2, 3]
        .iter()
        .map(|&v| v as u64)
        .collect();
    assert_eq!(out_bits(&src, &l), want);
    // round(x, n) by numba's algorithm (CPython's *fallback* double_round):
    // 2.675 * 100 rounds to 267.5 in float64, a tie: 2 * round(133.75) = 268
    // -> 2.68 (CPython's own correctly rounded round() gives 2.67); 1234.5 / 10 = 123.45 -> 123 -> 1230.0; 0.125 * 100 =
    // 12.5, a tie: 2 * round(6.25) = 12 -> 0.12; 0.375 -> 37.5 -> 2 *
    // round(18.75) = 38 -> 0.38
    let src = kern("x, n, out", "i = cuda.grid(1)\nout[i] = round(x[i], n[i])");
    let l = simt(
        4,
        json!({"x": buf("float64", json!([2.675, 1234.5, 0.125, 0.375])),
               "n": buf("int32", json!([2, -1, 2, 2])),
               "out": zeros("float64", 4)}),
    );
    let want: Vec<u64> = [2.68f64, 1230.0, 0.12, 0.38]
        .iter()
        .map(|v| v.to_bits())
        .collect();
    assert_eq!(out_bits(&src, &l), want);
}

#[test]
fn fp16_intrinsics_compute_in_half_precision() {
    // float16 bits: 1.0 = 0x3c00, 2049/2048 (1 + 2^-11) is not a half: 1.0
    // + 0.00048828125 (2^-11) rounds to even -> 1.0 (0x3c00); 3 * 0.1 in half:
    // 0.1 -> 0x2e66 (0.0999755859375), times 3 = 0.2999267578125 -> nearest
    // half 0x34cc (0.2998046875) or 0x34cd (0.30004882812): 0.2999267578125 is
    // 0.0001220703125 above the first and 0.0001220703125 below the second: a
    // tie, to even -> 0x34cc
    let src = kern(
        "out",
        "out[0] = cuda.fp16.hadd(1.0, 0.00048828125)\nout[1] = cuda.fp16.hmul(3.0, 0.1)\nout[2] = cuda.fp16.hneg(2.0)\nout[3] = cuda.fp16.habs(-2.0)\nout[4] = cuda.fp16.hmax(1.0, math.nan)\nout[5] = cuda.fp16.htrunc(-2.5)\nout[6] = cuda.fp16.hrint(2.5)\nout[7] = cuda.fp16.hdiv(1.0, 3.0)",
    );
    let got = out_bits(&src, &simt(1, json!({"out": zeros("float16", 8)})));
    // -2.0 = 0xc000, 2.0 = 0x4000, max(1, nan) = 1.0 (NaN ignored), trunc(-2.5)
    // = -2.0, rint(2.5) = 2.0 (ties to even); 1/3 in half: 0x3555
    // (0.333251953125; the next, 0x3556, is 0.33349609375, further away)
    assert_eq!(
        got,
        vec![0x3c00, 0x34cc, 0xc000, 0x4000, 0x3c00, 0xc000, 0x4000, 0x3555]
    );
    // ordered comparisons: hne(1, nan) is false, hlt(1, 2) true
    let src = kern(
        "out",
        "out[0] = cuda.fp16.hne(1.0, math.nan)\nout[1] = cuda.fp16.hlt(1.0, 2.0)\nout[2] = cuda.fp16.heq(math.nan, math.nan)",
    );
    assert_eq!(
        out_bits(&src, &simt(1, json!({"out": zeros("int32", 3)}))),
        vec![0, 1, 0]
    );
}

#[test]
fn math_trunc_radians_degrees_keep_the_float_type() {
    // trunc(-2.5) = -2.0, trunc(2.5) = 2.0 (float64: numba-cuda keeps the
    // float type); radians(180.0) = pi/180 * 180 rounded once = pi (the
    // double nearest pi/180, times 180, rounds to the double nearest pi:
    // checked by the same product in Rust, which is IEEE arithmetic)
    let src = kern(
        "out",
        "out[0] = math.trunc(-2.5)\nout[1] = math.trunc(2.5)\nout[2] = math.radians(180.0)\nout[3] = math.degrees(1.0)",
    );
    let got = out_bits(&src, &simt(1, json!({"out": zeros("float64", 4)})));
    let rad = (std::f64::consts::PI / 180.0) * 180.0;
    let deg = 180.0 / std::f64::consts::PI;
    assert_eq!(
        got,
        vec![
            (-2.0f64).to_bits(),
            2.0f64.to_bits(),
            rad.to_bits(),
            deg.to_bits()
        ]
    );
}

#[test]
fn bit_count_and_numpy_constants() {
    // uint8(255).bit_count() is 8; int32(-1).bit_count() counts the 32 bits
    // of its own width; np.nan stores a NaN, np.inf inf
    let src = "from numba import cuda, uint8, int32\nimport numpy as np\n\n@cuda.jit\ndef kern(out, f):\n    out[0] = uint8(255).bit_count()\n    out[1] = int32(-1).bit_count()\n    f[0] = np.nan\n    f[1] = np.inf\n";
    let l = simt(
        1,
        json!({"out": zeros("int32", 2), "f": zeros("float64", 2)}),
    );
    let r = run_clean(src, &l);
    assert_eq!(bits(&r, "out"), vec![8, 32]);
    let f = bits(&r, "f");
    // the NaN's bits are those of ksem's float constants (float_const), a
    // rule of its own; here only that it is a NaN
    assert!(f64::from_bits(f[0]).is_nan(), "{:#x}", f[0]);
    assert_eq!(f[1], f64::INFINITY.to_bits());
}
