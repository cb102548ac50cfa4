//! CUDA Python functions and constructs numba-cuda's own tests use beyond
//! the seed: `math.frexp`/`ldexp`/`modf`/`nextafter`/`remainder` (exact),
//! `math.hypot`/`erfc`/`gamma`/`lgamma` and `cuda.fp16.hexp10` (approximate
//! on the GPU: marked inexact), numpy ufuncs on numbers and into `out`
//! arrays with numba's loop choice, `for` over arrays, tuples,
//! `enumerate` and `zip`, and tuples as module-level constants. Expected
//! values are worked out by hand beside them, or are the GPU's measured
//! values (tools/probes/numba/ufunc_math_values.py, its JSON beside it).

use ksem_interp::launch::{parse_launch, Launch, RunResult};
use ksem_tests::*;
use serde_json::{json, Value as Json};

fn kern(params: &str, body: &str) -> String {
    format!(
        "from numba import cuda, int8, int32, int64, uint8, uint64, float32, float64\nimport math\nimport numpy as np\n\n@cuda.jit\ndef kern({params}):\n{}\n",
        indent(body)
    )
}

fn one(args: Json) -> Launch {
    let text = json!({"grid": [1], "block": [1], "args": args}).to_string();
    parse_launch(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn result(src: &str, args: Json) -> RunResult {
    run_clean(src, &one(args))
}

/// The bits of `out` after running `body` with `out` a zeroed array.
fn out(src_body: &str, dtype: &str, n: usize) -> Vec<u64> {
    let src = kern("out", src_body);
    bits(&result(&src, json!({"out": zeros(dtype, n)})), "out")
}

fn f64s(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn f32s(v: &[f32]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits() as u64).collect()
}

#[test]
fn frexp_normalizes_and_keeps_specials_with_exponent_zero() {
    // 3.1415 = 0.785375 * 2**2 (both exact: a power-of-two scaling);
    // 2**-1074 (5e-324) = 0.5 * 2**-1073; inf and -0.0 come back with 0
    // (numba-cuda on the GPU, measured: frexp(inf) = (inf, 0), as Python)
    let body = "m, e = math.frexp(3.1415)\nout[0] = m\nout[1] = e\n\
                m, e = math.frexp(5e-324)\nout[2] = m\nout[3] = e\n\
                m, e = math.frexp(math.inf)\nout[4] = m\nout[5] = e\n\
                m, e = math.frexp(-0.0)\nout[6] = m\nout[7] = e";
    assert_eq!(
        out(body, "float64", 8),
        f64s(&[0.785375, 2.0, 0.5, -1073.0, f64::INFINITY, 0.0, -0.0, 0.0])
    );
    // float32 stays float32: the subnormal 1e-40 (0x000116c2) is
    // 0x116c2 * 2**-149; 0x116c2 has 17 bits, so m = 0x116c2 / 2**17 and
    // e = 17 - 149 = -132 (the GPU: 0.5444488525390625, -132)
    let body = "m, e = math.frexp(float32(1e-40))\nout[0] = m\nout[1] = e";
    assert_eq!(
        out(body, "float32", 2),
        f32s(&[0x116c2 as f32 / 131072.0, -132.0])
    );
}

#[test]
#[allow(clippy::approx_constant)] // 3.1415 is numba's test value, not pi
fn ldexp_rounds_once_into_the_subnormals() {
    // 2**-1074 is the least subnormal; 2**-1075 is half of it: a tie,
    // to even (0); 3 * 2**-1075 = 1.5 ulps rounds to 2 ulps = 2**-1073;
    // beyond the range: inf; NaN and inf pass through
    let body = "out[0] = math.ldexp(0.785375, 2)\nout[1] = math.ldexp(1.0, -1074)\n\
                out[2] = math.ldexp(1.0, -1075)\nout[3] = math.ldexp(3.0, -1075)\n\
                out[4] = math.ldexp(0.5, 1025)\nout[5] = math.ldexp(-math.inf, -5000)\n\
                out[6] = math.ldexp(1e308, -1100)\nout[7] = math.ldexp(2.0**-1070, 2000)";
    let r = out(body, "float64", 8);
    assert_eq!(
        r,
        f64s(&[
            3.1415,
            5e-324,
            0.0,
            1e-323,
            f64::INFINITY,
            f64::NEG_INFINITY,
            // the GPU's value (1e308 * 2**-1100 stays normal)
            7.362151829022863e-24,
            // 2**930: two scalings of the exponent, exact
            2f64.powi(930),
        ])
    );
    // float32: 2**-149 least subnormal, 2**-150 ties to 0, 3 * 2**-150 to 2**-148
    let body = "out[0] = math.ldexp(float32(1.0), -149)\nout[1] = math.ldexp(float32(1.0), -150)\nout[2] = math.ldexp(float32(3.0), -150)";
    assert_eq!(out(body, "float32", 3), vec![1, 0, 2]);
}

#[test]
fn modf_splits_with_the_sign_of_x() {
    let body = "f, i = math.modf(-2.5)\nout[0] = f\nout[1] = i\n\
                f, i = math.modf(-1.0)\nout[2] = f\nout[3] = i\n\
                f, i = math.modf(-math.inf)\nout[4] = f\nout[5] = i";
    assert_eq!(
        out(body, "float64", 6),
        f64s(&[-0.5, -2.0, -0.0, -1.0, -0.0, f64::NEG_INFINITY])
    );
}

#[test]
fn nextafter_steps_one_ulp_towards_y() {
    // 1.0 - 2**-53 below 1.0; the least subnormal with y's sign from 0;
    // the largest double below inf; y itself where x == y
    let body = "out[0] = math.nextafter(1.0, 0.0)\nout[1] = math.nextafter(0.0, -1.0)\n\
                out[2] = math.nextafter(math.inf, 0.0)\nout[3] = math.nextafter(1.0, 1.0)";
    assert_eq!(
        out(body, "float64", 4),
        vec![
            0x3fef_ffff_ffff_ffff,
            0x8000_0000_0000_0001,
            0x7fef_ffff_ffff_ffff,
            0x3ff0_0000_0000_0000
        ]
    );
    // two float32 operands step in float32 (1 + 2**-23); a float64 operand
    // makes it float64 (1 + 2**-52, stored to float64 here)
    let body = "out[0] = math.nextafter(float32(1.0), float32(2.0))\nout[1] = math.nextafter(float32(1.0), 2.0)";
    assert_eq!(
        out(body, "float64", 2),
        f64s(&[1.0 + 2f64.powi(-23), 1.0 + 2f64.powi(-52)])
    );
}

#[test]
fn remainder_is_ieee_with_ties_to_even() {
    // 5/2 = 2.5 -> n = 2 (even): 1; 7/2 = 3.5 -> 4: -1; 2.5/1.5 = 1.67 -> 2:
    // -0.5; 3.5/1.5 = 2.33 -> 2: 0.5; -0.0 keeps its sign; an infinite x
    // is NaN; 3 * 2**-1074 by 2 * 2**-1074: 1.5 -> 2: -2**-1074 (the path
    // near the subnormals that compares 2|x| with |y|)
    let body = "out[0] = math.remainder(5.0, 2.0)\nout[1] = math.remainder(7.0, 2.0)\n\
                out[2] = math.remainder(2.5, 1.5)\nout[3] = math.remainder(3.5, -1.5)\n\
                out[4] = math.remainder(-0.0, 1.5)\nout[5] = math.remainder(1e-323 + 5e-324, 1e-323)\n\
                out[6] = math.remainder(1e308, 3.0)";
    let r = out(body, "float64", 7);
    // Python: math.remainder(1e308, 3.0) = -1.0 (1e308 = 3n + 2 for an integer n)
    assert_eq!(r, f64s(&[1.0, -1.0, -0.5, 0.5, -0.0, -5e-324, -1.0]));
    let body = "out[0] = math.remainder(math.inf, 1.5)";
    assert!(f64::from_bits(out(body, "float64", 1)[0]).is_nan());
}

#[test]
fn approximate_functions_are_marked_inexact() {
    // values exact in any correctly rounded library: hypot(3, 4) = 5,
    // erfc(0) = 1, gamma(5) = 4! = 24, lgamma(1) = log(0! ) = 0; an
    // integer argument computes in float64
    let src = kern(
        "out",
        "out[0] = math.hypot(3.0, 4.0)\nout[1] = math.erfc(0.0)\nout[2] = math.gamma(5)\nout[3] = math.lgamma(1.0)",
    );
    let r = result(&src, json!({"out": zeros("float64", 4)}));
    let b = r.buffers.iter().find(|b| b.name == "out").unwrap();
    assert_eq!(b.bits, f64s(&[5.0, 1.0, 24.0, 0.0]));
    assert!(b.inexact.iter().all(|&x| x), "{:?}", b.inexact);
    // cuda.fp16.hexp10(2) = 100 = 1.5625 * 2**6: exponent field 6 + 15 = 21
    // (0x5400), mantissa 0.5625 * 1024 = 0x240: float16 0x5640
    let src = kern("out", "out[0] = cuda.fp16.hexp10(2.0)");
    let r = result(&src, json!({"out": zeros("float16", 1)}));
    assert_eq!(bits(&r, "out"), vec![0x5640]);
}

#[test]
fn ufuncs_on_numbers_pick_numbas_loop() {
    // np.sin(int8) computes in float32 (int8 casts safely to float32),
    // np.sin(int32) in float64; math.sin of the same int is float64
    let body =
        "out[0] = np.sin(int8(1))\nout[1] = np.sin(int32(1))\nout[2] = math.sin(float32(1.0))";
    let r = out(body, "float64", 3);
    assert_eq!(r[0], r[2], "np.sin(int8) is float32's sin");
    assert_eq!(r[1], 1f64.sin().to_bits());
    // mixed int and float: the float's width (np.hypot(int64, float32) is
    // float32: 3 and 4.5 -> sqrt(29.25) rounded to float32)
    let body = "out[0] = np.hypot(int64(3), float32(4.5))";
    let r = out(body, "float64", 1);
    assert_eq!(r[0], ((29.25f64).sqrt() as f32 as f64).to_bits());
    // int64 against uint64 compares values (numpy's qQ loops): -1 is below
    // 2**64 - 1 and not equal to it (a common type would make them equal)
    let body = "a = int64(-1)\nb = uint64(18446744073709551615)\nout[0] = np.equal(a, b)\nout[1] = np.less(a, b)\nout[2] = np.greater(b, a)\nout[3] = np.less_equal(b, a)";
    assert_eq!(out(body, "int32", 4), vec![0, 1, 1, 0]);
    // bitwise_and(int8, uint8) computes in int16: -1 & 255 = 255
    let body = "out[0] = np.bitwise_and(int8(-1), uint8(255))\nout[1] = np.invert(int8(5))\nout[2] = np.invert(True)\nout[3] = np.logical_xor(3, 0)";
    assert_eq!(out(body, "int64", 4), vec![255, (-6i64) as u64, 0, 1]);
    // fmax ignores NaN; maximum propagates it; deg2rad is math.radians
    let body = "out[0] = np.fmax(math.nan, 1.0)\nout[1] = np.maximum(math.nan, 1.0)\nout[2] = np.deg2rad(180.0)";
    let r = out(body, "float64", 3);
    assert_eq!(r[0], 1f64.to_bits());
    assert!(f64::from_bits(r[1]).is_nan());
    assert_eq!(r[2], (std::f64::consts::PI / 180.0 * 180.0).to_bits());
}

#[test]
fn ufuncs_with_out_run_over_its_elements() {
    // np.sqrt over a 2x2 array into out; a number broadcasts to every element
    let src = kern("x, out, o2", "np.sqrt(x, out)\nnp.less(2.0, x, out=o2)");
    let r = result(
        &src,
        json!({"x": {"buffer": {"dtype": "float64", "data": [1.0, 4.0, 9.0, 16.0], "shape": [2, 2]}},
               "out": {"buffer": {"dtype": "float64", "len": 4, "shape": [2, 2]}},
               "o2": {"buffer": {"dtype": "int32", "len": 4, "shape": [2, 2]}}}),
    );
    assert_eq!(bits(&r, "out"), f64s(&[1.0, 2.0, 3.0, 4.0]));
    assert_eq!(bits(&r, "o2"), vec![0, 1, 1, 1]);
}

#[test]
fn ufunc_refusals_say_why() {
    let src = kern("x", "y = np.sin(x)");
    let d = refused(&src, &one(json!({"x": zeros("float32", 2)})));
    assert!(d.message.contains("without an out array"), "{}", d.message);
    let src = kern("out", "out[0] = np.bitwise_and(int64(1), uint64(1))");
    let d = refused(&src, &one(json!({"out": zeros("int64", 1)})));
    assert!(
        d.message.contains("no loop for (int64, uint64)"),
        "{}",
        d.message
    );
}

#[test]
fn for_loops_over_arrays_tuples_enumerate_and_zip() {
    // sum of x; enumerate's count with start; zip stops at the shorter
    let body = "s = 0\nfor v in x:\n    s += v\nout[0] = s\n\
                c = 0\nfor i, v in enumerate(x, 10):\n    c += i * v\nout[1] = c\n\
                t = 0\nfor a, b in zip(x, y):\n    t += a * b\nout[2] = t\n\
                u = 0\nfor i, (a, b) in enumerate(zip(y, x)):\n    if i == 2:\n        break\n    u += i + a - b\nout[3] = u\n\
                w = 0\nfor (i, a), b in zip(enumerate(x), range(5, 0, -2)):\n    w += a * b + i\nout[4] = w\n\
                z = 0\nfor k in (3, 5, 7):\n    z += k\nout[5] = z";
    let src = kern("x, y, out", body);
    let r = result(
        &src,
        json!({"x": buf("int64", json!([1, 2, 3, 4])), "y": buf("int64", json!([10, 20])), "out": zeros("int64", 6)}),
    );
    // 1+2+3+4 = 10; 10*1 + 11*2 + 12*3 + 13*4 = 120; 1*10 + 2*20 = 50;
    // (0 + 10 - 1) + (1 + 20 - 2) = 28; b = 5, 3, 1: (1*5 + 0) + (2*3 + 1)
    // + (3*1 + 2) = 17; 3 + 5 + 7 = 15
    assert_eq!(bits(&r, "out"), vec![10, 120, 50, 28, 17, 15]);
}

#[test]
fn tuple_module_constants_are_shapes_and_iterables() {
    let src = "from numba import cuda, float32\n\nTPB = 4\nSM_SIZE = TPB, TPB\nALIAS = SM_SIZE\nVALS = (1.0, 2.5, 3.0)\n\n@cuda.jit\ndef kern(out):\n    sm = cuda.shared.array(ALIAS, float32)\n    sm[3, 3] = 2.0\n    out[0] = sm[3, 3] * SM_SIZE[1]\n    for i, v in enumerate(VALS):\n        out[i + 1] = v\n";
    let r = result(src, json!({"out": zeros("float64", 4)}));
    assert_eq!(bits(&r, "out"), f64s(&[8.0, 1.0, 2.5, 3.0]));
}

#[test]
fn operator_functions_are_their_operators() {
    // `op = operator.truediv` closed over reaches ksem as an import: int64
    // / int64 is a float64 division (7 / 2 = 3.5); floordiv of -7 by 2 is
    // -4 (Python's floor); lt is a comparison
    let src = "import operator\nfrom operator import truediv as op\nfrom numba import cuda\n\n@cuda.jit\ndef kern(out):\n    out[0] = op(7, 2)\n    out[1] = operator.floordiv(-7, 2)\n    out[2] = operator.lt(1, 2)\n    out[3] = operator.neg(2.5)\n";
    let r = result(src, json!({"out": zeros("float64", 4)}));
    assert_eq!(bits(&r, "out"), f64s(&[3.5, -4.0, 1.0, -2.5]));
}

#[test]
fn classes_of_constants_are_enums_of_their_values() {
    // the pytest plugin writes an enum.Enum/IntEnum closed over as a class
    // of its members' values (an IntEnum as `class C(int):`, whose members
    // numba compares with integers: cudapy_enums.rs); numba lowers a member
    // as its value
    let src = "from numba import cuda, int16\n\nclass Color(int):\n    red = 1\n    green = 2\n\nclass Err:\n    not_found = 404\n\n@cuda.jit\ndef kern(x, out):\n    out[0] = Color.red == Color.green\n    out[1] = Color[\"green\"] == 2\n    out[2] = x - Err.not_found\n    out[3] = x + int16(Color.green)\n";
    let r = result(
        src,
        json!({"x": scalar("int64", json!(500)), "out": zeros("int64", 4)}),
    );
    assert_eq!(bits(&r, "out"), vec![0, 1, 96, 502]);
    let src = "from numba import cuda\n\nclass Color:\n    red = 1\n\n@cuda.jit\ndef kern(out):\n    out[0] = Color.blue\n";
    let d = refused(src, &one(json!({"out": zeros("int64", 1)})));
    assert!(
        d.message.contains("`Color` has no member `blue`"),
        "{}",
        d.message
    );
}
