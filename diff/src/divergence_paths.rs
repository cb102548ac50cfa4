//! Tests: a divergent operation's result reaches an output through a
//! bitcast, a comparison, a conversion, a `where` or a branch, memory and a
//! reduction, in Triton and CUDA Python; triage buckets the difference under
//! the row, and a difference in an element the row's operations did not
//! reach stays unexplained.
//!
//! Each test takes ksem's own result as the reference `a` and makes the
//! real system's `b` from it by changing the elements the divergence
//! changes, as the comments say (measured values where a probe measured
//! them).

use crate::divergence::explain;
use crate::triage::{bucket, diff_kind, Bucket, Rerun};
use ksem_interp::eval::RunOptions;
use ksem_interp::launch::{parse_launch, Launch, RunResult};

/// A kernel and launch, elaborated; `a` is ksem's result.
struct Case {
    kernel: ksem_interp::ir::Kernel,
    launch: Launch,
    a: RunResult,
}

fn case(src: &str, launch: &str) -> Case {
    let launch = parse_launch(launch).unwrap();
    let kernel = ksem_interp::elaborate_source("k.py", src, &launch, None).unwrap();
    let a = ksem_interp::eval::run(&kernel, &launch, &RunOptions::default()).unwrap();
    assert!(a.ub.is_empty(), "{:?}", a.ub);
    Case { kernel, launch, a }
}

impl Case {
    /// The bits of buffer `name`'s element `i` in ksem's result.
    fn bits(&self, name: &str, i: usize) -> u64 {
        self.a.buffers.iter().find(|b| b.name == name).unwrap().bits[i]
    }

    /// The real system `backend`'s result: ksem's with `edits` (buffer,
    /// element, bits).
    fn real(&self, backend: &str, edits: &[(&str, usize, u64)]) -> RunResult {
        let mut b = self.a.clone();
        b.backend = backend.into();
        for &(name, i, bits) in edits {
            let buf = b.buffers.iter_mut().find(|x| x.name == name).unwrap();
            assert_ne!(buf.bits[i], bits, "{name}[{i}] is no difference");
            buf.bits[i] = bits;
        }
        b
    }

    /// The rows that explain the real system's result with `edits`.
    fn explain(&self, backend: &str, edits: &[(&str, usize, u64)]) -> Option<String> {
        explain(
            &self.kernel,
            &self.launch,
            &self.a,
            &self.real(backend, edits),
        )
    }
}

const TRITON: &str = "import triton\nimport triton.language as tl\n\n@triton.jit\n";

/// Program 4951 of the seed 1701 campaign against real Triton (session 17,
/// `docs/gpu-findings.md`), rebuilt: `tl.abs(v3 * v1)` of a float64 NaN
/// with its sign set, reaching an integer output by a bitcast. Triton's
/// bits are those `tools/probes/triton_features/abs_nan.json` measured on
/// the H200 for `tl.abs(x * y)` with the same operands (`absmul_ptr`,
/// elements 0, 1, 4, 7): the NaN keeps its sign, divergence #30. Before,
/// triage found no row's operation in the program and blamed the Triton
/// compiler.
#[test]
fn program_4951_nan_sign_through_a_bitcast_is_divergence_30() {
    let src = format!("{TRITON}def k(x_ptr, y_ptr, o_ptr, p_ptr):\n    offs = tl.arange(0, 4)\n    v1 = tl.load(y_ptr + offs)\n    v3 = tl.load(x_ptr + offs)\n    v4 = tl.abs(v3 * v1)\n    v5 = v4.to(tl.int64, bitcast=True)\n    tl.store(o_ptr + offs, v5 >> 32)\n    tl.store(p_ptr + offs, (v3 + v1).to(tl.int64, bitcast=True) >> 32)\n");
    let y = "\"0x3f50624dd2f1a9fc\"";
    let launch = format!(
        r#"{{"grid": [1], "args": {{"x_ptr": {{"buffer": {{"dtype": "float64", "bits": ["0xfff8000000000000", "0x7ff8000000000000", "0xbff8000000000000", "0x3ff0000000000000"]}}}}, "y_ptr": {{"buffer": {{"dtype": "float64", "bits": [{y}, {y}, {y}, {y}]}}}}, "o_ptr": {{"buffer": {{"dtype": "int64", "len": 4}}}}, "p_ptr": {{"buffer": {{"dtype": "int64", "len": 4}}}}}}}}"#
    );
    let c = case(&src, &launch);
    // Triton's measured `tl.abs(x * y)`, its high 32 bits
    let measured: [u64; 4] = [0xfff8_0000, 0x7ff8_0000, 0x3f58_9374, 0x3f50_624d];
    // ksem clears the NaN's sign (IEEE abs); the other elements agree
    assert_eq!(c.bits("o_ptr", 0), 0x7ff8_0000);
    for (i, &m) in measured.iter().enumerate().skip(1) {
        assert_eq!(c.bits("o_ptr", i), m, "element {i}");
    }
    let b = c.real("triton", &[("o_ptr", 0, measured[0])]);
    let kind = diff_kind(&c.a, &b).unwrap();
    let rerun = Rerun {
        kernel: &c.kernel,
        launch: &c.launch,
        gpu: false,
        files: None,
    };
    assert_eq!(
        bucket(kind, &c.a, &b, &rerun),
        Bucket::Divergence("#13, #22, #30".into())
    );
    // a number's bits (element 2) or a sum's NaN (p_ptr) no abs reached
    // stay unexplained
    assert_eq!(c.explain("triton", &[("o_ptr", 2, 0xbf58_9374)]), None);
    assert_eq!(c.explain("triton", &[("p_ptr", 0, 0x7ff8_0000)]), None);
}

/// Triton's float `%` (#6) is far off where the quotient rounds up to an
/// integer: `7 % 0.1` in float32 is -1.04e-7 on Triton (docs/divergences.md
/// #6), 0.09999990 exactly (C `fmod`, ksem). Its sign reaches integers
/// through a comparison, a conversion, a `tl.where`, a store and load, and
/// a `tl.sum`; a nudge of a few ulp (or of the top mantissa bit: 0.0687)
/// changes none of them, the row's model of Triton's `%` all.
#[test]
fn float_rem_reaches_through_compare_cast_where_memory_and_sum() {
    let src = format!("{TRITON}def k(x_ptr, y_ptr, s_ptr, c_ptr, i_ptr, w_ptr, m_ptr, r_ptr, p_ptr):\n    offs = tl.arange(0, 4)\n    x = tl.load(x_ptr + offs)\n    y = tl.load(y_ptr + offs)\n    r = x % y\n    tl.store(c_ptr + offs, (r > 0.05).to(tl.int32))\n    tl.store(i_ptr + offs, (r * 100.0).to(tl.int32))\n    tl.store(w_ptr + offs, tl.where(r > 0.05, x, y))\n    tl.store(s_ptr + offs, r)\n    tl.debug_barrier()\n    back = tl.load(s_ptr + offs)\n    tl.store(m_ptr + offs, (back > 0.05).to(tl.int8))\n    tl.store(r_ptr, tl.sum((r > 0.05).to(tl.int32), axis=0))\n    tl.store(p_ptr + offs, (x + y > 3.0).to(tl.int32))\n");
    let launch = r#"{"grid": [1], "args": {"x_ptr": {"buffer": {"dtype": "float32", "data": [7.0, 1.0, 2.5, -3.0]}}, "y_ptr": {"buffer": {"dtype": "float32", "data": [0.1, 0.3, 1.0, 2.0]}}, "s_ptr": {"buffer": {"dtype": "float32", "len": 4}}, "c_ptr": {"buffer": {"dtype": "int32", "len": 4}}, "i_ptr": {"buffer": {"dtype": "int32", "len": 4}}, "w_ptr": {"buffer": {"dtype": "float32", "len": 4}}, "m_ptr": {"buffer": {"dtype": "int8", "len": 4}}, "r_ptr": {"buffer": {"dtype": "int32", "len": 1}}, "p_ptr": {"buffer": {"dtype": "int32", "len": 4}}}}"#;
    let c = case(&src, launch);
    // ksem: r[0] = 0.0999999 > 0.05; 0.0999999 * 100 truncates to 9;
    // r = [0.0999999, 0.0999999, 0.5, -1.0] (0.3f is 0.30000001): three
    // above 0.05
    assert_eq!(c.bits("c_ptr", 0), 1);
    assert_eq!(c.bits("i_ptr", 0), 9);
    assert_eq!(c.bits("r_ptr", 0), 3);
    let seven = 7.0f32.to_bits() as u64;
    assert_eq!(c.bits("w_ptr", 0), seven);
    // Triton: r[0] = -1.04e-7, not above 0.05; -1.04e-5 truncates to 0;
    // `where` picks y[0] = 0.1; the sum counts two
    let tenth = 0.1f32.to_bits() as u64;
    for edit in [
        ("c_ptr", 0, 0),
        ("i_ptr", 0, 0),
        ("w_ptr", 0, tenth),
        ("m_ptr", 0, 0),
        ("r_ptr", 0, 2),
    ] {
        assert_eq!(
            c.explain("triton", &[edit]).as_deref(),
            Some("#6"),
            "{edit:?}"
        );
    }
    // `x + y > 3` has no `%`: 7.1 > 3 is 1 on both sides, a 0 is unexplained
    assert_eq!(c.explain("triton", &[("p_ptr", 0, 0)]), None);
    // nor one in p's other elements
    assert_eq!(c.explain("triton", &[("p_ptr", 3, 1)]), None);
}

/// Approximate math (#5, #12) is bounded: `tl.exp` is up to 63 ulp off.
/// A comparison with a value 30 ulp above ksem's `exp(0.5)` flips on a
/// real result within the bound; nudges of 2 ulp, or of the top mantissa
/// bit (`exp(0.5)` = 1.6487 has it set: flipping it lowers the value), do
/// not show it. A 30 ulp difference of the stored `exp` itself is reached
/// by value.
#[test]
fn bounded_math_reaches_a_comparison_within_its_bound() {
    let src = format!("{TRITON}def k(x_ptr, c_ptr, e_ptr, o_ptr):\n    offs = tl.arange(0, 2)\n    e = tl.exp(tl.load(x_ptr + offs))\n    tl.store(e_ptr + offs, e)\n    tl.store(o_ptr + offs, (e > tl.load(c_ptr + offs)).to(tl.int32))\n");
    let launch = |c0: f32| {
        format!(
            r#"{{"grid": [1], "args": {{"x_ptr": {{"buffer": {{"dtype": "float32", "data": [0.5, 0.5]}}}}, "c_ptr": {{"buffer": {{"dtype": "float32", "data": [{c0:?}, 100.0]}}}}, "e_ptr": {{"buffer": {{"dtype": "float32", "len": 2}}}}, "o_ptr": {{"buffer": {{"dtype": "int32", "len": 2}}}}}}}}"#
        )
    };
    let e = case(&src, &launch(0.0)).bits("e_ptr", 0);
    let c = case(&src, &launch(f32::from_bits(e as u32 + 30)));
    assert_eq!(c.bits("o_ptr", 0), 0);
    let edits = [("e_ptr", 0, e + 30), ("o_ptr", 0, 1)];
    assert_eq!(c.explain("triton", &edits).as_deref(), Some("#5, #12"));
    // exp(0.5) > 100 cannot flip within 64 ulp
    assert_eq!(c.explain("triton", &[("o_ptr", 1, 1)]), None);
}

/// Two float32 divisions (#4, up to 2 ulp each) compared with each other:
/// `1 / 3 < 1 / 3` is false in ksem; a real result 1 ulp lower on the left
/// makes it true. Nudging both the same way keeps them equal; nudging them
/// apart shows the comparison.
#[test]
fn two_divisions_compared_are_nudged_apart() {
    let src = format!("{TRITON}def k(x_ptr, y_ptr, o_ptr):\n    offs = tl.arange(0, 2)\n    x = tl.load(x_ptr + offs)\n    y = tl.load(y_ptr + offs)\n    tl.store(o_ptr + offs, (x / y < x / y).to(tl.int32))\n");
    let launch = r#"{"grid": [1], "args": {"x_ptr": {"buffer": {"dtype": "float32", "data": [1.0, 2.0]}}, "y_ptr": {"buffer": {"dtype": "float32", "data": [3.0, 3.0]}}, "o_ptr": {"buffer": {"dtype": "int32", "len": 2}}}}"#;
    let c = case(&src, launch);
    assert_eq!(c.bits("o_ptr", 0), 0);
    assert_eq!(
        c.explain("triton", &[("o_ptr", 0, 1)]).as_deref(),
        Some("#4")
    );
}

/// `tl.ceil` of a subnormal float32 is 0 on Triton (#21: the input is
/// flushed), 1 in ksem: a comparison with 0.5 flips in that element only.
/// Element 1's `ceil(1.5)` = 2 is no subnormal, and nothing a few ulp or
/// the flush do to it flips `2 > 0.5`: a difference there is unexplained.
#[test]
fn flushed_ceil_reaches_a_comparison_of_that_element_only() {
    let src = format!("{TRITON}def k(x_ptr, o_ptr):\n    offs = tl.arange(0, 2)\n    v = tl.ceil(tl.load(x_ptr + offs))\n    tl.store(o_ptr + offs, (v > 0.5).to(tl.int32))\n");
    let launch = r#"{"grid": [1], "args": {"x_ptr": {"buffer": {"dtype": "float32", "bits": ["0x00000001", "0x3fc00000"]}}, "o_ptr": {"buffer": {"dtype": "int32", "len": 2}}}}"#;
    let c = case(&src, launch);
    assert_eq!((c.bits("o_ptr", 0), c.bits("o_ptr", 1)), (1, 1));
    assert_eq!(
        c.explain("triton", &[("o_ptr", 0, 0)]).as_deref(),
        Some("#21")
    );
    assert_eq!(c.explain("triton", &[("o_ptr", 1, 0)]), None);
}

const NUMBA: &str = "from numba import cuda, int32, int64\nimport math\n\n@cuda.jit\n";

/// numba-cuda's float `%` (N6): `1e30 % 3.0` is 2^46 on numba-cuda
/// (docs/divergences.md N6, measured), 1.0 exactly (1e30 as a float64 is
/// 1000000000000000019884624838656 = 1 mod 3). It reaches integers
/// through a branch, a comparison, a store and load, a conversion and a
/// loop's sum.
#[test]
fn numba_float_rem_reaches_through_branch_memory_cast_and_loop_sum() {
    let src = format!("{NUMBA}def k(x, y, s, br, m, cv, acc, p):\n    i = cuda.grid(1)\n    if i < x.size:\n        r = x[i] % y[i]\n        if r > 2.5:\n            br[i] = 1\n        else:\n            br[i] = 2\n        s[i] = r\n        m[i] = int32(s[i] > 2.5)\n        cv[i] = int64(r * 1000.0)\n        p[i] = int32(x[i] + y[i] > 3.0)\n    if i == 0:\n        n = int32(0)\n        for j in range(x.size):\n            if x[j] % y[j] > 2.5:\n                n += 1\n        acc[0] = n\n");
    let launch = r#"{"grid": [1], "block": [4], "args": {"x": {"buffer": {"dtype": "float64", "data": [1e30, 7.0, 5.0, 1.0]}}, "y": {"buffer": {"dtype": "float64", "data": [3.0, 2.0, 3.0, 4.0]}}, "s": {"buffer": {"dtype": "float64", "len": 4}}, "br": {"buffer": {"dtype": "int32", "len": 4}}, "m": {"buffer": {"dtype": "int32", "len": 4}}, "cv": {"buffer": {"dtype": "int64", "len": 4}}, "acc": {"buffer": {"dtype": "int32", "len": 1}}, "p": {"buffer": {"dtype": "int32", "len": 4}}}}"#;
    let c = case(&src, launch);
    // ksem: r = [1, 1, 2, 1], none above 2.5
    assert_eq!(c.bits("br", 0), 2);
    assert_eq!(c.bits("cv", 0), 1000);
    assert_eq!(c.bits("acc", 0), 0);
    // numba-cuda: r[0] = 2^46
    for edit in [
        ("br", 0, 1),
        ("m", 0, 1),
        ("cv", 0, 1000 << 46),
        ("acc", 0, 1),
    ] {
        assert_eq!(
            c.explain("numba", &[edit]).as_deref(),
            Some("N6"),
            "{edit:?}"
        );
    }
    // 1e30 + 3 > 3 on both sides: no `%` reaches p
    assert_eq!(c.explain("numba", &[("p", 0, 0)]), None);
}

/// numba-cuda's NaN sign through a negation (N22): `-(x * y)` of a
/// positive NaN keeps the NaN's sign on numba-cuda (seed 1705, H200), and
/// `math.copysign` carries the sign to an integer (ksem: -1, numba-cuda:
/// 1). Element 1's `-(2 * 0.5)` is a number: a difference there is not
/// N22's.
#[test]
fn numba_nan_sign_reaches_an_integer_through_copysign() {
    let src = format!("{NUMBA}def k(x, y, o):\n    i = cuda.grid(1)\n    if i < x.size:\n        v = -(x[i] * y[i])\n        o[i] = int64(math.copysign(1.0, v))\n");
    let launch = r#"{"grid": [1], "block": [2], "args": {"x": {"buffer": {"dtype": "float64", "bits": ["0x7ff8000000000000", "0x4000000000000000"]}}, "y": {"buffer": {"dtype": "float64", "data": [0.5, 0.5]}}, "o": {"buffer": {"dtype": "int64", "len": 2}}}}"#;
    let c = case(&src, launch);
    assert_eq!(c.bits("o", 0), -1i64 as u64);
    assert_eq!(c.bits("o", 1), -1i64 as u64);
    assert_eq!(c.explain("numba", &[("o", 0, 1)]).as_deref(), Some("N22"));
    assert_eq!(c.explain("numba", &[("o", 1, 1)]), None);
}
