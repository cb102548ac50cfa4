//! Math functions: both spellings, correctly rounded results, and the
//! inexact marking of values the GPU approximates.

use ksem_interp::eval::RunOptions;
use ksem_interp::launch::parse_launch;

/// Runs `out = FN(x)` over float32 inputs (padded with 1.0 to a power of
/// two); returns (bits, inexact flags) of the given inputs.
fn apply(f: &str, given: &[f32]) -> (Vec<u32>, Vec<bool>) {
    let mut xs = given.to_vec();
    xs.resize(given.len().next_power_of_two(), 1.0);
    let src = format!("import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, o_ptr, N: tl.constexpr):\n    offs = tl.arange(0, N)\n    tl.store(o_ptr + offs, {f}(tl.load(x_ptr + offs)))\n");
    let data: Vec<String> = xs
        .iter()
        .map(|x| format!("\"{:#010x}\"", x.to_bits()))
        .collect();
    let launch = format!(
        r#"{{"grid": [1], "args": {{"x_ptr": {{"buffer": {{"dtype": "float32", "bits": [{}]}}}}, "o_ptr": {{"buffer": {{"dtype": "float32", "len": {}}}}}, "N": {{"constexpr": {}}}}}}}"#,
        data.join(", "),
        xs.len(),
        xs.len()
    );
    let r = ksem_interp::run_source(
        "m.py",
        &src,
        &parse_launch(&launch).unwrap(),
        None,
        &RunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}", e.render()));
    let o = &r.buffers[1];
    let n = given.len();
    (
        o.bits[..n].iter().map(|&b| b as u32).collect(),
        o.inexact[..n].to_vec(),
    )
}

const XS: [f32; 4] = [0.5, 1.0, 2.75, 10.0];

#[test]
fn approximate_functions_are_correctly_rounded_and_marked_inexact() {
    type Ref = fn(f64) -> f64;
    let cases: [(&str, Ref); 8] = [
        ("tl.exp", f64::exp),
        ("tl.math.exp", f64::exp),
        ("tl.exp2", f64::exp2),
        ("tl.log", f64::ln),
        ("tl.log2", f64::log2),
        ("tl.sin", f64::sin),
        ("tl.cos", f64::cos),
        ("tl.rsqrt", |x| 1.0 / x.sqrt()),
    ];
    for (f, r) in cases {
        let (bits, inexact) = apply(f, &XS);
        for (i, x) in XS.iter().enumerate() {
            // f64 has 29 more bits than f32: rounding the f64 value once more is
            // correctly rounded for these arguments (no f32 halfway cases).
            assert_eq!(bits[i], (r(*x as f64) as f32).to_bits(), "{f}({x})");
        }
        assert!(inexact.iter().all(|&b| b), "{f} results are marked inexact");
    }
    // sigmoid(0.5) = 1 / (1 + e^-0.5)
    let (bits, _) = apply("tl.sigmoid", &[0.5]);
    assert_eq!(bits[0], ((1.0 / (1.0 + (-0.5f64).exp())) as f32).to_bits());
}

#[test]
fn exact_functions_are_exact() {
    // sqrt is IEEE (correctly rounded) and compared bit for bit: sqrt(2) in f32 is 0x3fb504f3.
    let (bits, inexact) = apply("tl.sqrt", &[2.0, 4.0, -1.0, -0.0]);
    assert_eq!(
        bits,
        vec![0x3fb5_04f3, 0x4000_0000, 0x7fff_ffff, 0x8000_0000]
    );
    assert!(inexact.iter().all(|&b| !b));
    let (bits, _) = apply("tl.math.sqrt_rn", &[2.0]);
    assert_eq!(bits, vec![0x3fb5_04f3]);
    let (bits, inexact) = apply("tl.floor", &[-2.5, 2.5, -0.0]);
    assert_eq!(
        bits,
        vec![(-3.0f32).to_bits(), 2.0f32.to_bits(), 0x8000_0000]
    );
    assert!(inexact.iter().all(|&b| !b));
    let (bits, _) = apply("tl.ceil", &[-2.5, 2.5]);
    assert_eq!(bits, vec![(-2.0f32).to_bits(), 3.0f32.to_bits()]);
    let (bits, _) = apply("tl.abs", &[-2.5, -0.0]);
    assert_eq!(bits, vec![2.5f32.to_bits(), 0]);
}

#[test]
fn inexactness_follows_data_flow_into_stores() {
    let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, o_ptr):\n    offs = tl.arange(0, 4)\n    x = tl.load(x_ptr + offs)\n    y = tl.where(offs < 2, tl.exp(x), x + 1.0)\n    tl.store(o_ptr + offs, y)\n";
    let l = parse_launch(r#"{"grid": [1], "args": {"x_ptr": {"buffer": {"dtype": "float32", "data": [0, 1, 2, 3]}}, "o_ptr": {"buffer": {"dtype": "float32", "len": 4}}}}"#).unwrap();
    let r = ksem_interp::run_source("k.py", src, &l, None, &RunOptions::default()).unwrap();
    assert_eq!(r.buffers[1].inexact, vec![true, true, false, false]);
    let j = r.to_json();
    assert_eq!(j["buffers"]["o_ptr"]["exact"], false);
    assert_eq!(
        j["buffers"]["o_ptr"]["inexact_elements"],
        serde_json::json!([0, 1])
    );
}

#[test]
fn div_rn_and_slash_are_correctly_rounded() {
    let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(o_ptr):\n    one = tl.full((2,), 1.0, tl.float32)\n    three = tl.full((2,), 3.0, tl.float32)\n    tl.store(o_ptr + tl.arange(0, 2), tl.where(tl.arange(0, 2) == 0, one / three, tl.math.div_rn(one, three)))\n";
    let l = parse_launch(
        r#"{"grid": [1], "args": {"o_ptr": {"buffer": {"dtype": "float32", "len": 2}}}}"#,
    )
    .unwrap();
    let r = ksem_interp::run_source("k.py", src, &l, None, &RunOptions::default()).unwrap();
    // 1/3 in f32 rounds to 0x3eaaaaab
    assert_eq!(r.buffers[0].bits, vec![0x3eaa_aaab, 0x3eaa_aaab]);
}
