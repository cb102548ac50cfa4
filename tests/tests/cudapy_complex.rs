//! Complex numbers in CUDA Python, against numba-cuda 0.30.4 measured on an
//! NVIDIA H200 (`tools/probes/numba/complex_data.py`, its output
//! `complex_data.json`): `+ - * /`, `==`/`!=`, unary `-`, `.conjugate()`,
//! `.real`/`.imag` over every pair of a table of parts (signed zeros,
//! infinities, NaN, 1e-30, 3e38) plus 64 random finite pairs, for complex64
//! and complex128, bit for bit (a NaN as any NaN: ksem's NaN bits are its
//! own rule, docs/semantics.md "Floats"). A zero divisor ends the thread
//! (numba raises ZeroDivisionError): its outputs keep their prefilled 7+7j.

use ksem_interp::launch::parse_launch;
use ksem_tests::serde_json::{json, Value as Json};
use ksem_tests::*;

const BINOPS: &str = "from numba import cuda

@cuda.jit
def binops(x, y, add, sub, mul, div, eq, ne):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        add[i] = a + b
        sub[i] = a - b
        mul[i] = a * b
        div[i] = a / b
        eq[i] = a == b
        ne[i] = a != b
";

fn probe() -> Json {
    probe_json("numba/complex_data.json")
}

fn is_nan(bits: u64, wide: bool) -> bool {
    if wide {
        f64::from_bits(bits).is_nan()
    } else {
        f32::from_bits(bits as u32).is_nan()
    }
}

/// Same bits, or both NaN.
fn same(a: u64, b: u64, wide: bool) -> bool {
    a == b || (is_nan(a, wide) && is_nan(b, wide))
}

fn check_binops(key: &str, cdtype: &str, wide: bool) {
    let j = &probe()[key];
    let (x, y) = (hex_list(&j["x"]), hex_list(&j["y"]));
    let n = x.len() / 2;
    let part = if wide {
        "0x401c000000000000"
    } else {
        "0x40e00000"
    };
    let seven = vec![json!(part); 2 * n];
    let hex = |v: &[u64]| -> Vec<Json> { v.iter().map(|b| json!(format!("{b:#x}"))).collect() };
    let out = |_: ()| json!({"buffer": {"dtype": cdtype, "bits": seven.clone()}});
    let l = parse_launch(
        &json!({"grid": [n.div_ceil(256)], "block": [256], "args": {
            "x": {"buffer": {"dtype": cdtype, "bits": hex(&x)}},
            "y": {"buffer": {"dtype": cdtype, "bits": hex(&y)}},
            "add": out(()), "sub": out(()), "mul": out(()), "div": out(()),
            "eq": {"buffer": {"dtype": "bool", "len": n}},
            "ne": {"buffer": {"dtype": "bool", "len": n}},
        }})
        .to_string(),
    )
    .unwrap();
    let r = run_clean(BINOPS, &l);
    for name in ["add", "sub", "mul", "div"] {
        let (got, want) = (bits(&r, name), hex_list(&j[name]));
        for i in 0..2 * n {
            assert!(
                same(got[i], want[i], wide),
                "{key} {name}[{}] part {} of ({:#x}, {:#x}) and ({:#x}, {:#x}): ksem {:#x}, numba-cuda {:#x}",
                i / 2,
                i % 2,
                x[i / 2 * 2],
                x[i / 2 * 2 + 1],
                y[i / 2 * 2],
                y[i / 2 * 2 + 1],
                got[i],
                want[i]
            );
        }
    }
    for name in ["eq", "ne"] {
        assert_eq!(bits(&r, name), bool_list(&j[name]), "{key} {name}");
    }
}

#[test]
fn complex64_arithmetic_matches_numba_cuda_bit_for_bit() {
    check_binops("binops_c64", "complex64", false);
}

#[test]
fn complex128_arithmetic_matches_numba_cuda_bit_for_bit() {
    check_binops("binops_c128", "complex128", true);
}

#[test]
fn negation_conjugate_and_parts_match_numba_cuda() {
    let src = "from numba import cuda

@cuda.jit
def unops(x, neg, conj, re, im):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        neg[i] = -a
        conj[i] = a.conjugate()
        re[i] = a.real
        im[i] = a.imag
";
    for (key, cd, fd, wide) in [
        ("unops_c64", "complex64", "float32", false),
        ("unops_c128", "complex128", "float64", true),
    ] {
        let j = &probe()[key];
        let x = hex_list(&j["x"]);
        let n = x.len() / 2;
        let hex: Vec<Json> = x.iter().map(|b| json!(format!("{b:#x}"))).collect();
        let l = parse_launch(
            &json!({"grid": [n.div_ceil(256)], "block": [256], "args": {
                "x": {"buffer": {"dtype": cd, "bits": hex}},
                "neg": {"buffer": {"dtype": cd, "len": n}},
                "conj": {"buffer": {"dtype": cd, "len": n}},
                "re": {"buffer": {"dtype": fd, "len": n}},
                "im": {"buffer": {"dtype": fd, "len": n}},
            }})
            .to_string(),
        )
        .unwrap();
        let r = run_clean(src, &l);
        for (name, jk) in [
            ("neg", "neg"),
            ("conj", "conj"),
            ("re", "real"),
            ("im", "imag"),
        ] {
            let (got, want) = (bits(&r, name), hex_list(&j[jk]));
            assert_eq!(got.len(), want.len());
            for i in 0..got.len() {
                assert!(same(got[i], want[i], wide), "{key} {name}[{i}]");
            }
        }
    }
}

/// By hand: numba's product is NVVM's fused form, `re = fma(a, c, -(b d))`.
/// In float32, a = b = c = d = 1 + 2^-12:
/// a c = 1 + 2^-11 + 2^-24 exactly; b d rounds to 1 + 2^-11 (a tie to
/// even), so the unfused re is 0 while the fused one keeps 2^-24.
#[test]
fn the_product_is_fused_as_numba_cuda_compiles_it() {
    let src = "from numba import cuda

@cuda.jit
def k(x, out):
    out[0] = x[0] * x[0]
";
    let v = 1.0f32 + 2f32.powi(-12);
    let l = launch(
        &[1],
        json!({"x": {"buffer": {"dtype": "complex64", "data": [v, v]}},
               "out": {"buffer": {"dtype": "complex64", "len": 1}}}),
    );
    let r = run_clean(src, &l);
    let got = bits(&r, "out");
    // re = fma(v, v, -(v*v)): the rounding error of v*v, 2^-24
    assert_eq!(got[0], 2f32.powi(-24).to_bits() as u64);
    // im = fma(v, v, v*v): the exact square plus the rounded one (exact
    // in float64), rounded once: 2 + 2^-10 + 2^-24 -> 2 + 2^-10
    let exact = (v as f64) * (v as f64) + (v * v) as f64;
    assert_eq!(got[1], (exact as f32).to_bits() as u64);
    assert_eq!(got[1], (2.0f32 + 2f32.powi(-10)).to_bits() as u64);
}

/// A complex scalar argument and `a[i] += b` (numba-cuda's
/// test_complex_kernel), a complex local rebound in a loop, `complex(a,
/// b)`, `abs`, the `.real`/`.imag` views under atomics.
#[test]
fn scalars_locals_constructors_and_views() {
    let src = "from numba import cuda

@cuda.jit
def k(a, b, out, mag):
    i = cuda.grid(1)
    a[i] += b
    z = complex(1, 0)
    for t in range(i):
        z = z * 2j
    out[i] = z
    mag[i] = abs(complex(3.0, -4.0)) + i
    cuda.atomic.add(a.real, i, 1)
";
    let l = launch(
        &[1],
        json!({"a": {"buffer": {"dtype": "complex128", "data": [0, 0, 1, 0, 2, 0]}},
               "b": {"scalar": {"dtype": "complex128", "value": [0, 2]}},
               "out": {"buffer": {"dtype": "complex128", "len": 3}},
               "mag": {"buffer": {"dtype": "float64", "len": 3}}}),
    );
    let mut l = l;
    l.block = Some([3, 1, 1]);
    let r = run_clean(src, &l);
    let f = |v: f64| v.to_bits();
    // a[i] = i + 2j, then 1 added to the real part
    assert_eq!(
        bits(&r, "a"),
        vec![f(1.0), f(2.0), f(2.0), f(2.0), f(3.0), f(2.0)]
    );
    // (2j)^i: 1, 2j, -4 (the product 2j * 2j: re = fma(0, 0, -(2 * 2)) = -4, im = fma(2, 0, 0 * 2) = +0)
    assert_eq!(
        bits(&r, "out"),
        vec![f(1.0), f(0.0), f(0.0), f(2.0), f(-4.0), f(0.0)]
    );
    assert_eq!(bits(&r, "mag"), vec![f(5.0), f(6.0), f(7.0)]);
}

#[test]
fn complex_launch_arguments_are_checked() {
    assert!(try_launch(
        &json!({"grid": [1], "args": {"a": {"buffer": {"dtype": "complex64", "data": [1, 2, 3]}}}})
            .to_string()
    )
    .unwrap_err()
    .contains("two numbers"));
    assert!(try_launch(
        &json!({"grid": [1], "args": {"b": {"scalar": {"dtype": "complex128", "value": 1}}}})
            .to_string()
    )
    .unwrap_err()
    .contains("[real, imaginary]"));
    // len counts complex elements: 2 elements, 4 numbers
    let l = try_launch(
        &json!({"grid": [1], "args": {"a": {"buffer": {"dtype": "complex64", "len": 2}}}})
            .to_string(),
    )
    .unwrap();
    match l.arg("a") {
        Some(ksem_interp::launch::ArgSpec::Buffer { bits, complex, .. }) => {
            assert!(*complex);
            assert_eq!(bits.len(), 4);
        }
        other => panic!("{other:?}"),
    }
}

/// Python evaluates a call's arguments left to right: `first(c[0], put(c))`
/// reads c[0] (1+2j) before `put` stores 5j there, so out[0] is 1+2j, by
/// hand from that order (ksem read c[0] after the store, 5j, until a complex
/// argument was held in variables before a later argument's statements, as a
/// number argument already was).
#[test]
fn a_complex_call_argument_is_read_before_later_arguments_run() {
    let src = "from numba import cuda

@cuda.jit(device=True)
def put(c):
    c[0] = 5j
    return 0

@cuda.jit(device=True)
def first(z, k):
    return z

@cuda.jit
def k(c, out):
    out[0] = first(c[0], put(c))
";
    let l = launch(
        &[1],
        json!({"c": {"buffer": {"dtype": "complex128", "data": [1.0, 2.0]}},
               "out": {"buffer": {"dtype": "complex128", "len": 1}}}),
    );
    let r = run_clean(src, &l);
    assert_eq!(bits(&r, "out"), vec![1f64.to_bits(), 2f64.to_bits()]);
    assert_eq!(bits(&r, "c"), vec![0f64.to_bits(), 5f64.to_bits()]);
}
