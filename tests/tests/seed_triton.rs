//! Every rule and example of the Triton semantics seed (000/001), checked on
//! the typed program ksem elaborates and on the bits it computes.

use ksem_interp::dtype::DType;
use ksem_interp::eval::RunOptions;
use ksem_interp::frontend::triton::elab::Elab;
use ksem_interp::launch::parse_launch;

/// Elaborates `z = EXPR` for inputs x (dtype dx) and y (dtype dy), each a
/// tile of 4 loaded elements, and returns the dtype and shape of z (stored,
/// whatever its shape, through a tile of pointers to element 0).
fn result_type(dx: &str, dy: &str, expr: &str) -> Result<(DType, Vec<usize>), String> {
    let src = format!(
        "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, y_ptr, out_ptr):\n    offs = tl.arange(0, 4)\n    x = tl.load(x_ptr + offs)\n    y = tl.load(y_ptr + offs)\n    z = {expr}\n    tl.store(out_ptr + tl.zeros_like(z).to(tl.int32), z)\n"
    );
    let launch = format!(
        r#"{{"grid": [1], "args": {{"x_ptr": {{"buffer": {{"dtype": "{dx}", "len": 4}}}}, "y_ptr": {{"buffer": {{"dtype": "{dy}", "len": 4}}}}, "out_ptr": {{"buffer": {{"dtype": "float64", "len": 4}}}}}}}}"#
    );
    let l = parse_launch(&launch).expect("launch");
    let k = ksem_interp::elaborate_source("t.py", &src, &l, None).map_err(|e| e.render())?;
    let z = k.vars.iter().rposition(|(n, _)| n == "z").expect("z bound");
    Ok((k.vars[z].1.dtype(), k.vars[z].1.shape.clone()))
}

fn dt(s: &str) -> DType {
    DType::from_name(s).unwrap()
}

#[test]
fn kind_rule_int32_bfloat16() {
    assert_eq!(
        result_type("int32", "bfloat16", "x + y").unwrap().0,
        dt("bfloat16")
    );
    assert_eq!(
        result_type("bfloat16", "int32", "x * y").unwrap().0,
        dt("bfloat16")
    );
}

#[test]
fn width_rule_float32_float16() {
    assert_eq!(
        result_type("float32", "float16", "x + y").unwrap().0,
        dt("float32")
    );
}

#[test]
fn prefer_float16_rule() {
    assert_eq!(
        result_type("float16", "bfloat16", "x - y").unwrap().0,
        dt("float16")
    );
    assert_eq!(
        result_type("float8e4nv", "float8e5", "x + y").unwrap().0,
        dt("float16")
    );
}

#[test]
fn prefer_unsigned_rule() {
    assert_eq!(
        result_type("int32", "uint32", "x + y").unwrap().0,
        dt("uint32")
    );
    assert_eq!(
        result_type("uint8", "int8", "x & y").unwrap().0,
        dt("uint8")
    );
}

#[test]
fn scalar_of_lower_or_equal_kind_does_not_participate() {
    // (uint8, int) -> uint8
    assert_eq!(
        result_type("uint8", "int8", "x + 3").unwrap().0,
        dt("uint8")
    );
    assert_eq!(
        result_type("float16", "int8", "x + 3.0").unwrap().0,
        dt("float16")
    );
    assert_eq!(
        result_type("int8", "int8", "x * 100").unwrap().0,
        dt("int8")
    );
}

#[test]
fn scalar_of_higher_kind_picks_the_lowest_fitting_dtype() {
    // (int16, 4.0) -> float32
    assert_eq!(
        result_type("int16", "int8", "x + 4.0").unwrap().0,
        dt("float32")
    );
    assert_eq!(
        result_type("int16", "int8", "x + 1e300").unwrap().0,
        dt("float64")
    );
    // bool tensor with ints: int32 < uint32 < int64 < uint64
    assert_eq!(result_type("bool", "int8", "x + 1").unwrap().0, dt("int32"));
    assert_eq!(
        result_type("bool", "int8", "x + 3000000000").unwrap().0,
        dt("uint32")
    );
    assert_eq!(
        result_type("bool", "int8", "x + 2**40").unwrap().0,
        dt("int64")
    );
    assert_eq!(
        result_type("bool", "int8", "x + 2**63").unwrap().0,
        dt("uint64")
    );
}

#[test]
fn broadcasting_pads_on_the_left_and_expands_ones() {
    // ((3, 4), (5, 3, 4)) -> (5, 3, 4), via the shape rule itself
    assert_eq!(
        Elab::broadcast_shape(&[3, 4], &[5, 3, 4]),
        Some(vec![5, 3, 4])
    );
    assert_eq!(
        Elab::broadcast_shape(&[1, 3, 4], &[5, 3, 4]),
        Some(vec![5, 3, 4])
    );
    assert_eq!(Elab::broadcast_shape(&[2, 4], &[5, 3, 4]), None);
    // and in a kernel: (4, 1) + (1, 4) -> (4, 4); (4,) + (2, 4) -> (2, 4)
    assert_eq!(
        result_type("int32", "int32", "x[:, None] + y[None, :]")
            .unwrap()
            .1,
        vec![4, 4]
    );
    // join(y, y) is (4, 2); reshaped to (2, 4) it broadcasts with x (4,)
    assert_eq!(
        result_type("int32", "int32", "x + tl.reshape(tl.join(y, y), (2, 4))")
            .unwrap()
            .1,
        vec![2, 4]
    );
    assert_eq!(
        result_type("int32", "int32", "x + tl.broadcast_to(y[None, :], (2, 4))")
            .unwrap()
            .1,
        vec![2, 4]
    );
    assert!(result_type("int32", "int32", "x[:, None] + tl.zeros((8,), tl.int32)").is_ok());
}

/// Runs a one-program kernel storing int32 results; returns them.
fn run_i32(body: &str, n: usize) -> Vec<i64> {
    let src = format!(
        "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(a_ptr, b_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr):\n    offs = tl.arange(0, 4)\n    a = tl.load(a_ptr + offs)\n    b = tl.load(b_ptr + offs)\n{body}\n"
    );
    let launch = format!(
        r#"{{"grid": [1], "args": {{"a_ptr": {{"buffer": {{"dtype": "int32", "data": [7, -7, 7, -7]}}}}, "b_ptr": {{"buffer": {{"dtype": "int32", "data": [2, 2, -2, -2]}}}}, "out_ptr": {{"buffer": {{"dtype": "int32", "len": {n}}}}}, "A": {{"constexpr": -7}}, "B": {{"constexpr": 2}}}}}}"#
    );
    let l = parse_launch(&launch).unwrap();
    let r = ksem_interp::run_source("t.py", &src, &l, None, &RunOptions::default())
        .map_err(|e| e.render())
        .unwrap();
    assert!(r.ub.is_empty());
    let out = r.buffers.iter().find(|b| b.name == "out_ptr").unwrap();
    out.bits.iter().map(|&b| b as u32 as i32 as i64).collect()
}

#[test]
fn tensor_division_truncates_like_c() {
    // 7//2=3, -7//2=-3, 7//-2=-3, -7//-2=3 (toward zero)
    assert_eq!(
        run_i32("    tl.store(out_ptr + offs, a // b)", 4),
        vec![3, -3, -3, 3]
    );
    // a % b = a - b*(a//b): 1, -1, 1, -1
    assert_eq!(
        run_i32("    tl.store(out_ptr + offs, a % b)", 4),
        vec![1, -1, 1, -1]
    );
}

#[test]
fn all_scalar_division_follows_python() {
    // A=-7, B=2 are constexprs: -7//2 = -4, -7%2 = 1 (floor); stored via a tensor add of 0
    let got = run_i32(
        "    tl.store(out_ptr + offs, tl.where(offs == 0, A // B, A % B))",
        4,
    );
    assert_eq!(got, vec![-4, 1, 1, 1]);
    // a literal-only expression too: (-7) // 2 == -4
    let got = run_i32(
        "    tl.store(out_ptr + offs, tl.zeros((4,), tl.int32) + (-7 // 2))",
        4,
    );
    assert_eq!(got, vec![-4, -4, -4, -4]);
}

/// Runs `src` under launch JSON `launch` on the interpreter: every
/// buffer's final bits, in argument order.
fn run_bits(src: &str, launch: &str) -> Vec<Vec<u64>> {
    let r = ksem_interp::run_source(
        "t.py",
        src,
        &parse_launch(launch).unwrap(),
        None,
        &RunOptions::default(),
    )
    .map_err(|e| e.render())
    .unwrap();
    r.buffers.into_iter().map(|b| b.bits).collect()
}

#[test]
fn bf16_promotion_rounds_257_to_256() {
    // (int32, bfloat16) -> bfloat16: 257 is not representable in bf16 (8 bits of
    // precision): it is halfway between 256 and 258 and rounds to even, 256.
    let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(i_ptr, h_ptr, out_ptr):\n    z = tl.load(i_ptr) + tl.load(h_ptr)\n    tl.store(out_ptr, z)\n";
    let launch = r#"{"grid": [1], "args": {"i_ptr": {"buffer": {"dtype": "int32", "data": [257]}}, "h_ptr": {"buffer": {"dtype": "bfloat16", "data": [0]}}, "out_ptr": {"buffer": {"dtype": "float32", "len": 1}}}}"#;
    assert_eq!(run_bits(src, launch)[2], vec![256f32.to_bits() as u64]);
}

#[test]
fn negating_a_python_float_literal_gives_negative_zero() {
    // Python's `-0.0` is negation: the float -0.0 (bits 0x80000000 as
    // float32), not `0 - 0.0` (+0.0). Stored directly, and as the
    // subtrahend of -0.0 - (-0.0) = +0.0 (IEEE: x - x is +0 in round to nearest)
    // where `0 - 0.0` would give -0.0 - (+0.0) = -0.0.
    let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(out_ptr):\n    offs = tl.arange(0, 2)\n    z = tl.full((2,), -0.0, tl.float32)\n    tl.store(out_ptr + offs, tl.where(offs == 0, z, z - (-0.0)))\n";
    let launch =
        r#"{"grid": [1], "args": {"out_ptr": {"buffer": {"dtype": "float32", "len": 2}}}}"#;
    assert_eq!(run_bits(src, launch)[0], vec![0x8000_0000, 0x0000_0000]);
}

#[test]
fn a_module_level_negative_zero_constant_stays_negative() {
    // `Z = -0.0` at module level is Python's negation (bits 0x80000000 as
    // float32), as inside a kernel
    let src = "import triton\nimport triton.language as tl\n\nZ = -0.0\n\n@triton.jit\ndef k(out_ptr):\n    tl.store(out_ptr + tl.arange(0, 2), tl.full((2,), Z, tl.float32))\n";
    let launch =
        r#"{"grid": [1], "args": {"out_ptr": {"buffer": {"dtype": "float32", "len": 2}}}}"#;
    assert_eq!(run_bits(src, launch)[0], vec![0x8000_0000, 0x8000_0000]);
}
