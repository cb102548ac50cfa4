//! Launch and result JSON: every dtype's bits survive a copy kernel, value
//! and bits inputs agree, the seeded generator is the documented one.

use ksem_interp::dtype::DType;
use ksem_interp::eval::RunOptions;
use ksem_interp::launch::{hex_bits, parse_launch, ArgSpec, SplitMix64};
use serde_json::Value;

const COPY: &str = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef copy(src, dst, N: tl.constexpr):\n    offs = tl.arange(0, N)\n    tl.store(dst + offs, tl.load(src + offs))\n";

/// Bit patterns worth preserving for a dtype: zeros, extremes, NaN payloads.
fn edge_bits(d: DType) -> Vec<u64> {
    let m = d.mask();
    let mut v = vec![0, 1, m, m >> 1, (m >> 1) + 1, 0x55 & m, 0xaa & m, 0x7f & m];
    if d == DType::Bool {
        v = vec![0, 1, 1, 0, 1, 0, 0, 1];
    }
    v
}

#[test]
fn every_dtype_round_trips_through_a_copy_kernel() {
    for d in DType::ALL {
        let bits = edge_bits(d);
        let hex: Vec<String> = bits
            .iter()
            .map(|&b| format!("\"{}\"", hex_bits(d, b)))
            .collect();
        let launch = format!(
            r#"{{"grid": [1], "args": {{"src": {{"buffer": {{"dtype": "{0}", "bits": [{1}]}}}}, "dst": {{"buffer": {{"dtype": "{0}", "len": 8}}}}, "N": {{"constexpr": 8}}}}}}"#,
            d.json_name(),
            hex.join(", ")
        );
        let l = parse_launch(&launch).unwrap_or_else(|e| panic!("{d}: {e}"));
        let r = ksem_interp::run_source("copy.py", COPY, &l, None, &RunOptions::default())
            .unwrap_or_else(|e| panic!("{}", e.render()));
        assert_eq!(r.buffers[1].bits, bits, "{d}");
        // and the result JSON prints full-width lowercase hex that parses back
        let j = r.to_json();
        let out: Vec<u64> = j["buffers"]["dst"]["bits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let s = s.as_str().unwrap();
                assert_eq!(
                    s.len(),
                    2 + d.storage_bits() as usize / 4,
                    "{d}: {s} is full width"
                );
                assert_eq!(s, s.to_lowercase());
                u64::from_str_radix(&s[2..], 16).unwrap()
            })
            .collect();
        assert_eq!(out, bits, "{d}");
        assert_eq!(j["backend"], Value::from("interp"));
        assert_eq!(j["buffers"]["dst"]["dtype"], Value::from(d.json_name()));
    }
}

#[test]
fn data_values_are_rounded_once_into_the_dtype() {
    let l = parse_launch(
        r#"{"grid": [1], "args": {"a": {"buffer": {"dtype": "float16", "data": [1.00048828125, "nan", "-inf", "-0.0", 65520, 1e-8]}},
            "b": {"buffer": {"dtype": "bfloat16", "data": [257, 1.00390625, 3]}},
            "c": {"buffer": {"dtype": "int8", "data": [-128, 127, true]}}}}"#,
    )
    .unwrap();
    let bits = |name: &str| match l.arg(name) {
        Some(ArgSpec::Buffer { bits, .. }) => bits.clone(),
        _ => panic!(),
    };
    // 1 + 2^-11 ties to even -> 1.0; "nan" is the standard quiet NaN (as
    // tools/triton_run.py writes it); 65520 overflows to inf; 1e-8 < 2^-25 -> +0
    assert_eq!(
        bits("a"),
        vec![0x3c00, 0x7e00, 0xfc00, 0x8000, 0x7c00, 0x0000]
    );
    // 257 -> 256 (0x4380); 1 + 2^-8 ties to even -> 1.0; 3 -> 0x4040
    assert_eq!(bits("b"), vec![0x4380, 0x3f80, 0x4040]);
    assert_eq!(bits("c"), vec![0x80, 0x7f, 0x01]);
}

#[test]
fn decimal_values_are_read_correctly_rounded() {
    // -1e-50 is the double 0xb58dee7a4ad4b81f (Python: struct.pack('<d', -1e-50));
    // serde_json's fast float path gave ...81e, one ulp off (found by
    // comparing corpus/hidet against real Hidet)
    let l = parse_launch(
        r#"{"grid": [1], "args": {"a": {"buffer": {"dtype": "float64", "data": [-1e-50, 0.1, 2.2250738585072011e-308]}}}}"#,
    )
    .unwrap();
    let Some(ArgSpec::Buffer { bits, .. }) = l.arg("a") else {
        panic!()
    };
    assert_eq!(
        bits,
        &vec![
            0xb58dee7a4ad4b81f,
            0.1f64.to_bits(),
            "2.2250738585072011e-308".parse::<f64>().unwrap().to_bits()
        ]
    );
}

#[test]
fn seeded_generator_is_splitmix64() {
    // Reference outputs of splitmix64 for seed 0 (the published test vector
    // of Vigna's splitmix64.c: 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, ...).
    let mut g = SplitMix64(0);
    assert_eq!(g.next_u64(), 0xe220_a839_7b1d_cdaf);
    assert_eq!(g.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    let l = parse_launch(r#"{"grid": [1], "args": {"a": {"buffer": {"dtype": "uint64", "len": 2, "init": {"random": {"seed": 0}}}},
        "f": {"buffer": {"dtype": "float32", "len": 1, "init": {"random": {"seed": 0}}}},
        "r": {"buffer": {"dtype": "int32", "len": 1, "init": {"random": {"seed": 0, "low": -5, "high": 5}}}}}}"#).unwrap();
    match (l.arg("a"), l.arg("f"), l.arg("r")) {
        (
            Some(ArgSpec::Buffer { bits: a, .. }),
            Some(ArgSpec::Buffer { bits: f, .. }),
            Some(ArgSpec::Buffer { bits: r, .. }),
        ) => {
            assert_eq!(a, &vec![0xe220_a839_7b1d_cdaf, 0x6e78_9e6a_a1b9_65f4]);
            // float: (r >> 40) * 2^-23 - 1 with r >> 40 = 0xe220a8
            let v = 0xe220a8 as f64 * 2f64.powi(-23) - 1.0;
            assert_eq!(f[0], (v as f32).to_bits() as u64);
            // int in [-5, 5): -5 + r mod 10
            let want = -5 + (0xe220_a839_7b1d_cdafu64 % 10) as i64;
            assert_eq!(r[0] as u32 as i32 as i64, want);
        }
        _ => panic!(),
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, out, n, BLOCK: tl.constexpr):\n    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    m = offs < n\n    v = tl.load(x + offs, mask=m)\n    tl.store(out + offs, v * v - 3.0 * v, mask=m)\n    tl.store(out + n + tl.program_id(0), tl.sum(tl.where(m, v, 0.0), axis=0))\n";
    let launch = r#"{"grid": [37], "args": {"x": {"buffer": {"dtype": "float32", "len": 1150, "init": {"random": {"seed": 9}}}}, "out": {"buffer": {"dtype": "float32", "len": 1187}}, "n": {"scalar": {"dtype": "int32", "value": 1150}}, "BLOCK": {"constexpr": 32}}}"#;
    let l = parse_launch(launch).unwrap();
    let one = ksem_interp::run_source(
        "k.py",
        src,
        &l,
        None,
        &RunOptions {
            threads: 1,
            ..Default::default()
        },
    )
    .unwrap();
    let many = ksem_interp::run_source(
        "k.py",
        src,
        &l,
        None,
        &RunOptions {
            threads: 4,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(one, many);
    assert!(one.ub.is_empty());
}
