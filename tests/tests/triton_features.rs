//! Triton front-end features real kernels need (issue 12): runtime values
//! passed to `tl.constexpr` helper parameters, Python `min`/`max`, dtype
//! introspection, string constexprs, the `f = triton.jit(f)` call form.
//! Every expected value is derived by hand in the test (bit patterns written
//! out), never copied from ksem's output.

use ksem_tests::serde_json::json;
use ksem_tests::*;

/// The source of a module: the imports, then `body` (module-level code, not indented).
fn module(body: &str) -> String {
    format!("{PRELUDE}{body}")
}

/// The int32 values of buffer `name` of a clean run.
fn i32s(src: &str, l: &ksem_interp::launch::Launch, name: &str) -> Vec<i32> {
    bits(&run_clean(src, l), name)
        .iter()
        .map(|&b| b as u32 as i32)
        .collect()
}

// ----- bug 3: a tensor passed to a tl.constexpr parameter of a helper --------

/// The fused-attention tutorial's pattern: `offs_m: tl.constexpr` of a helper
/// receives a `tl.arange` tile; the helper sees an ordinary runtime value.
#[test]
fn tensor_passed_to_a_constexpr_helper_parameter_is_a_runtime_value() {
    let src = module(
        "@triton.jit
def helper(x, offs: tl.constexpr, SCALE: tl.constexpr):
    return x + offs * SCALE


@triton.jit
def kern(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, helper(x, offs, 2))
",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([10, 20, 30, 40])),
               "out_ptr": zeros("int32", 4), "BLOCK": cx(json!(4))}),
    );
    // x + offs * 2 = [10 + 0, 20 + 2, 30 + 4, 40 + 6]
    assert_eq!(i32s(&src, &l, "out_ptr"), vec![10, 22, 34, 46]);
}

/// A runtime scalar (`tl.program_id`) passed to a constexpr parameter too.
#[test]
fn runtime_scalar_passed_to_a_constexpr_helper_parameter() {
    let src = module(
        "@triton.jit
def at(base, PID: tl.constexpr):
    return base + PID


@triton.jit
def kern(out_ptr):
    pid = tl.program_id(0)
    tl.store(at(out_ptr, pid), pid * 10)
",
    );
    let l = launch(&[3], json!({"out_ptr": zeros("int32", 3)}));
    assert_eq!(i32s(&src, &l, "out_ptr"), vec![0, 10, 20]);
}

/// Where the helper needs a compile-time value, the runtime one is refused
/// there (Triton refuses it too: tl.arange's bounds must be constexprs).
#[test]
fn runtime_value_in_a_constexpr_parameter_used_as_a_size_is_refused() {
    let src = module(
        "@triton.jit
def helper(N: tl.constexpr):
    return tl.arange(0, N)


@triton.jit
def kern(out_ptr, n):
    tl.store(out_ptr + helper(n), 1)
",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 4), "n": scalar("int32", json!(4))}),
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "tl.arange(0, N)"),
        &["arange end must be a compile-time integer"],
        None,
    );
}

// ----- Python min / max -------------------------------------------------------

/// The elaborated type of the variable `name` (its last binding).
fn var_type(src: &str, l: &ksem_interp::launch::Launch, name: &str) -> ksem_interp::ir::Type {
    let k = elaborate(src, l).unwrap_or_else(|e| panic!("{}", e.render()));
    let i = k
        .vars
        .iter()
        .rposition(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no variable {name}"));
    k.vars[i].1.clone()
}

#[test]
fn python_min_max_on_tensors_are_tl_minimum_and_maximum() {
    let src = kernel(
        "x_ptr, y_ptr, lo_ptr, hi_ptr",
        "offs = tl.arange(0, 4)
x = tl.load(x_ptr + offs)
y = tl.load(y_ptr + offs)
tl.store(lo_ptr + offs, min(x, y))
tl.store(hi_ptr + offs, max(x, y))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([3, -5, 7, 0])),
               "y_ptr": buf("int32", json!([4, -6, 7, -1])),
               "lo_ptr": zeros("int32", 4), "hi_ptr": zeros("int32", 4)}),
    );
    assert_eq!(i32s(&src, &l, "lo_ptr"), vec![3, -6, 7, -1]);
    assert_eq!(i32s(&src, &l, "hi_ptr"), vec![4, -5, 7, 0]);
}

/// tl.minimum makes a literal a tensor first (float32 for 0.1), so a float16
/// tensor meets a float32 one and the result is float32: max(0.0h, 0.1) is
/// 0.1 rounded once to float32, 0x3dcccccd. (Were the literal converted to
/// float16 first, as in `x + 0.1`, it would be 0x2e66 = 0.0999755859375,
/// stored as 0x3dccc000.) NaN operands are ignored (propagate_nan=NONE):
/// max(nan, 0.1) = 0.1; max(1.0, 0.1) = 1.0 = 0x3f800000; max(-inf, 0.1) = 0.1.
#[test]
fn python_max_with_a_float_literal_computes_in_float32() {
    let src = kernel(
        "x_ptr, out_ptr",
        "offs = tl.arange(0, 4)
x = tl.load(x_ptr + offs)
z = max(x, 0.1)
tl.store(out_ptr + offs, z)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float16", json!([0.0, "nan", 1.0, "-inf"])),
               "out_ptr": zeros("float32", 4)}),
    );
    assert_eq!(
        var_type(&src, &l, "z").dtype(),
        ksem_interp::dtype::DType::F32
    );
    assert_eq!(
        bits(&run_clean(&src, &l), "out_ptr"),
        vec![0x3dcccccd, 0x3dcccccd, 0x3f800000, 0x3dcccccd]
    );
}

/// bfloat16 operands are widened to float32 (Triton: "hardware doesn't
/// support FMAX, FMIN, CMP for bfloat16"), and the result stays float32.
#[test]
fn min_of_bfloat16_is_float32() {
    let src = kernel(
        "x_ptr, out_ptr",
        "offs = tl.arange(0, 4)
x = tl.load(x_ptr + offs)
z = min(x, x + 1)
w = tl.minimum(x, x)
tl.store(out_ptr + offs, z)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("bfloat16", json!([1.5, -2.0, 0.0, 3.0])),
               "out_ptr": zeros("float32", 4)}),
    );
    use ksem_interp::dtype::DType;
    assert_eq!(var_type(&src, &l, "z").dtype(), DType::F32);
    assert_eq!(var_type(&src, &l, "w").dtype(), DType::F32);
    // min(x, x + 1) = x: 1.5, -2.0, 0.0, 3.0 as float32
    assert_eq!(
        bits(&run_clean(&src, &l), "out_ptr"),
        vec![0x3fc00000, 0xc0000000, 0x00000000, 0x40400000]
    );
}

/// No constant folding: on two constexprs min/max still give a 0-d tensor
/// (Triton's code generator calls tl.minimum), so `x + max(A, 0.1)` with a
/// float16 x adds a float32 0-d tensor: the result is float32 and
/// 0.0h + 0.1f = 0x3dcccccd (a folded Python 0.1 would keep float16 and give
/// 0x2e66 -> 0x3dccc000). min(3000000000, A) is a uint32 tensor (the literal's
/// natural dtype wins the promotion over int32): 2.
#[test]
fn min_max_of_constexprs_are_tensors_not_folded() {
    let src = kernel(
        "x_ptr, out_ptr, big_ptr, A: tl.constexpr",
        "offs = tl.arange(0, 4)
x = tl.load(x_ptr + offs)
z = x + max(A, 0.1)
u = min(3000000000, A)
tl.store(out_ptr + offs, z)
tl.store(big_ptr, u)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float16", json!([0.0, 0.0, 0.0, 0.0])),
               "out_ptr": zeros("float32", 4), "big_ptr": zeros("int64", 1),
               "A": cx(json!(-1))}),
    );
    use ksem_interp::dtype::DType;
    assert_eq!(var_type(&src, &l, "z").dtype(), DType::F32);
    // min(3000000000, -1): promoted to uint32, -1 becomes 0xffffffff, so the
    // minimum is 3000000000 (unsigned comparison), stored into int64.
    assert_eq!(var_type(&src, &l, "u").dtype(), DType::U32);
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "out_ptr"), vec![0x3dcccccd; 4]);
    assert_eq!(bits(&r, "big_ptr"), vec![3000000000]);
}

#[test]
fn constexpr_variable_from_min_is_refused() {
    let src = kernel(
        "out_ptr, A: tl.constexpr",
        "N: tl.constexpr = min(A, 4)
tl.store(out_ptr + tl.arange(0, N), 1)",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 4), "A": cx(json!(8))}),
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "N: tl.constexpr"),
        &["tl.constexpr variable must be given a compile-time value"],
        None,
    );
}

#[test]
fn min_with_one_or_three_operands_is_refused() {
    let l = launch(&[1], json!({"x_ptr": buf("int32", json!([1, 2, 3, 4]))}));
    let src = kernel(
        "x_ptr",
        "x = tl.load(x_ptr + tl.arange(0, 4))
tl.store(x_ptr + tl.arange(0, 4), min(x))",
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "min(x)"),
        &["min() takes two operands"],
        Some("tl.min(x) reduces"),
    );
    let src = kernel(
        "x_ptr",
        "x = tl.load(x_ptr + tl.arange(0, 4))
tl.store(x_ptr + tl.arange(0, 4), max(x, 1, 2))",
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "max(x, 1, 2)"),
        &["max() with 3 operands", "propagate_nan"],
        Some("max(max(a, b), c)"),
    );
    // the third operand may be the NaN mode itself
    let src = kernel(
        "x_ptr",
        "x = tl.load(x_ptr + tl.arange(0, 4)).to(tl.float32)
tl.store(x_ptr + tl.arange(0, 4), max(x, 1.0, tl.PropagateNan.ALL).to(tl.int32))",
    );
    assert_eq!(i32s(&src, &l, "x_ptr"), vec![1, 2, 3, 4]);
}

// ----- dtype introspection --------------------------------------------------

/// A helper dispatching on a dtype passed to it: `DT.is_floating()` and
/// `DT.int_bitwidth` are compile-time values in `if` and arithmetic.
#[test]
fn dtype_passed_to_a_helper_dispatches_at_compile_time() {
    let src = module(
        "@triton.jit
def scale(x, DT: tl.constexpr):
    if DT.is_floating():
        return x * 2
    else:
        return x + DT.int_bitwidth


@triton.jit
def kern(x_ptr, y_ptr, ox_ptr, oy_ptr):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(ox_ptr + offs, scale(x, x.dtype))
    tl.store(oy_ptr + offs, scale(y, y_ptr.dtype.element_ty))
",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float16", json!([1.5, -2.0, 0.25, 3.0])),
               "y_ptr": buf("int8", json!([1, -1, 100, 127])),
               "ox_ptr": zeros("float16", 4), "oy_ptr": zeros("int8", 4)}),
    );
    let r = run_clean(&src, &l);
    // float16 x * 2: 3.0 = 0x4200, -4.0 = 0xc400, 0.5 = 0x3800, 6.0 = 0x4600
    assert_eq!(bits(&r, "ox_ptr"), vec![0x4200, 0xc400, 0x3800, 0x4600]);
    // int8 y + 8 (the literal fits int8, which is kept): 9, 7, 108, 135 wraps to -121 = 0x87
    assert_eq!(bits(&r, "oy_ptr"), vec![0x09, 0x07, 0x6c, 0x87]);
}

/// Attributes of dtypes are compile-time numbers: they size tiles and
/// initialise `tl.constexpr` variables; `x.dtype` and `ptr.type.element_ty`
/// are dtypes for `tl.zeros` and `.to`.
#[test]
fn dtype_attributes_are_compile_time_values() {
    let src = kernel(
        "x_ptr, out_ptr, z_ptr",
        "x = tl.load(x_ptr)
BITS: tl.constexpr = x.dtype.primitive_bitwidth
tl.store(out_ptr + tl.arange(0, BITS // 4), BITS + x_ptr.dtype.element_ty.fp_mantissa_width)
z = tl.zeros([4], dtype=x.dtype) + x
tl.store(z_ptr + tl.arange(0, 4), z.to(z_ptr.type.element_ty))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([2.5])),
               "out_ptr": zeros("int32", 8), "z_ptr": zeros("float16", 4)}),
    );
    let r = run_clean(&src, &l);
    // 32 bits / 4 = 8 elements, each 32 + 23
    assert_eq!(bits(&r, "out_ptr"), vec![55; 8]);
    // 0.0 + 2.5 in float32, stored as float16 2.5 = 0x4100
    assert_eq!(bits(&r, "z_ptr"), vec![0x4100; 4]);
}

/// Every property checked with tl.static_assert, which refuses the kernel
/// when one is false (the last case proves that it does).
#[test]
fn type_objects_answer_as_tritons_core_py() {
    let checks = [
        "x.type.is_block()",
        "x.type.shape == (4, 2)",
        "x.type.shape != [4, 2, 1]",
        "x.type.numel == 8",
        "x.type.element_ty == tl.float32",
        "x.type.scalar == x.dtype",
        "not x.type.is_floating()",
        "x_ptr.type.is_ptr()",
        "x_ptr.type.element_ty == tl.float32",
        "x_ptr.dtype.element_ty.is_fp32()",
        "p.type.element_ty == x_ptr.dtype",
        "p.type.element_ty.element_ty == tl.float32",
        "x.dtype.name == 'fp32'",
        "x_ptr.dtype.name == 'pointer<fp32>'",
        "not x_ptr.dtype.is_floating()",
        "tl.int1.is_int_unsigned()",
        "not tl.int1.is_int_signed()",
        "tl.int1.primitive_bitwidth == 1",
        "tl.int8.get_int_min_value() == -128",
        "tl.uint16.get_int_max_value() == 65535",
        "tl.bfloat16.exponent_bias == 127",
        "tl.float8e5.is_fp8()",
        "tl.float16.is_standard_floating()",
        "tl.float16.value == tl.float16",
        "x.dtype != tl.float16",
        "tl.float32.itemsize == 4",
    ];
    let l = launch(&[1], json!({"x_ptr": buf("float32", json!(vec![0.0; 8]))}));
    for c in checks {
        let src = kernel(
            "x_ptr",
            &format!(
                "p = x_ptr + tl.reshape(tl.arange(0, 8), (4, 2))
x = tl.load(p)
tl.static_assert({c}, \"{}\")",
                c.replace('"', "'")
            ),
        );
        elaborate(&src, &l).unwrap_or_else(|e| panic!("{c}: {}", e.render()));
    }
    let src = kernel(
        "x_ptr",
        "x = tl.load(x_ptr)
tl.static_assert(x.dtype.is_fp16(), \"not fp16\")",
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "tl.static_assert"),
        &["not fp16"],
        None,
    );
}

#[test]
fn missing_dtype_attributes_are_refused_at_their_position() {
    let l = launch(&[1], json!({"x_ptr": buf("float32", json!([0.0]))}));
    let src = kernel(
        "x_ptr",
        "x = tl.load(x_ptr)
n: tl.constexpr = x.dtype.int_bitwidth",
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "x.dtype.int_bitwidth"),
        &["type `fp32` has no attribute `int_bitwidth`"],
        None,
    );
    let src = kernel(
        "x_ptr",
        "x = tl.load(x_ptr)
tl.store(x_ptr, x + (x == x.dtype))",
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "x == x.dtype"),
        &["cannot compare tensor"],
        None,
    );
    let src = kernel(
        "x_ptr",
        "x = tl.load(x_ptr)
tl.static_assert((x, 1) == (1, 1))",
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "(x, 1) == (1, 1)"),
        &["tuples that hold runtime values"],
        None,
    );
}

// ----- string constexprs ----------------------------------------------------

/// `{"constexpr": "relu"}` is a Python string; `if ACTIVATION == "relu":`
/// picks the branch at compile time; the default `""` picks none.
#[test]
fn string_constexprs_select_branches_with_eq_and_ne() {
    let src = kernel(
        "x_ptr, out_ptr, ACTIVATION: tl.constexpr = \"\"",
        "offs = tl.arange(0, 4)
x = tl.load(x_ptr + offs)
if ACTIVATION == \"relu\":
    x = tl.maximum(x, 0.0)
elif ACTIVATION == \"square\":
    x = x * x
if ACTIVATION != \"\":
    x = x + 1.0
tl.store(out_ptr + offs, x)",
    );
    let args = |act: Option<&str>| {
        let mut a = json!({"x_ptr": buf("float32", json!([-2.0, 3.0, -0.5, 0.0])),
                           "out_ptr": zeros("float32", 4)});
        if let Some(s) = act {
            a["ACTIVATION"] = cx(json!(s));
        }
        launch(&[1], a)
    };
    // relu then + 1: 1.0, 4.0, 1.0, 1.0
    let r = run_clean(&src, &args(Some("relu")));
    assert_eq!(
        bits(&r, "out_ptr"),
        vec![0x3f800000, 0x40800000, 0x3f800000, 0x3f800000]
    );
    // square then + 1: 5.0, 10.0, 1.25, 1.0
    let r = run_clean(&src, &args(Some("square")));
    assert_eq!(
        bits(&r, "out_ptr"),
        vec![0x40a00000, 0x41200000, 0x3fa00000, 0x3f800000]
    );
    // an unknown activation: only + 1
    let r = run_clean(&src, &args(Some("gelu")));
    assert_eq!(
        bits(&r, "out_ptr"),
        vec![0xbf800000, 0x40800000, 0x3f000000, 0x3f800000]
    );
    // the default "": unchanged
    let r = run_clean(&src, &args(None));
    assert_eq!(
        bits(&r, "out_ptr"),
        vec![0xc0000000, 0x40400000, 0xbf000000, 0x00000000]
    );
}

/// A string naming a dtype is that dtype (as tools/triton_run.py passes it),
/// so it is not equal to the string and converts like a dtype.
#[test]
fn a_string_constexpr_naming_a_dtype_is_the_dtype() {
    let src = kernel(
        "x_ptr, out_ptr, DT: tl.constexpr",
        "x = tl.load(x_ptr + tl.arange(0, 2))
tl.static_assert(DT != \"half\")
tl.static_assert(DT == tl.float16)
tl.store(out_ptr + tl.arange(0, 2), x.to(DT).to(tl.float32))",
    );
    for name in ["half", "float16", "fp16"] {
        let l = launch(
            &[1],
            json!({"x_ptr": buf("float32", json!([0.1, 1.0])),
                   "out_ptr": zeros("float32", 2), "DT": cx(json!(name))}),
        );
        // 0.1 -> float16 0x2e66 = 0.0999755859375 = float32 0x3dccc000
        assert_eq!(
            bits(&run_clean(&src, &l), "out_ptr"),
            vec![0x3dccc000, 0x3f800000],
            "{name}"
        );
    }
}

#[test]
fn strings_compared_with_tensors_or_ordered_against_numbers_are_refused() {
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([0])), "MODE": cx(json!("a"))}),
    );
    let src = kernel(
        "x_ptr, MODE: tl.constexpr",
        "x = tl.load(x_ptr)
tl.store(x_ptr, tl.where(x == MODE, 1, 0))",
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "x == MODE"),
        &["cannot compare tensor", "string \"a\""],
        None,
    );
    let src = kernel("x_ptr, MODE: tl.constexpr", "tl.static_assert(MODE < 3)");
    let d = refused(&src, &l);
    assert_diag(&src, &d, loc1(&src, "MODE < 3"), &["cannot order"], None);
    // strings order by code point
    let src = kernel(
        "x_ptr, MODE: tl.constexpr",
        "tl.static_assert(MODE < \"b\")\ntl.static_assert(\"B\" < MODE)",
    );
    elaborate(&src, &l).unwrap_or_else(|e| panic!("{}", e.render()));
}

// ----- the call form f = triton.jit(f) ----------------------------------------

#[test]
fn a_plain_function_wrapped_by_triton_jit_is_a_kernel() {
    let src = module(
        "def add_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1)


add_kernel = triton.jit(add_kernel)
",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([1, 2, 3, 4])),
               "out_ptr": zeros("int32", 4), "BLOCK": cx(json!(4))}),
    );
    assert_eq!(i32s(&src, &l, "out_ptr"), vec![2, 3, 4, 5]);
}

/// A helper wrapped under another name, `triton.jit(…)(f)` with options,
/// and a jit function wrapped by `triton.autotune(…)`: each name is the jit
/// function the host (or another jit function) calls.
#[test]
fn call_forms_with_options_wrappers_and_new_names() {
    let src = module(
        "from triton import heuristics


def _twice(v):
    return v * 2


twice = triton.jit(_twice)


def _kernel(x_ptr, out_ptr):
    offs = tl.arange(0, 4)
    tl.store(out_ptr + offs, twice(tl.load(x_ptr + offs)))


kernel = triton.autotune(configs=[], key=[])(triton.jit(debug=False)(_kernel))


def _other(x_ptr, out_ptr):
    tl.store(out_ptr, twice(twice(tl.load(x_ptr))))


other = heuristics({})(triton.jit(_other))
",
    );
    let l = |k: &str| {
        let text = json!({"kernel": k, "grid": [1],
            "args": {"x_ptr": buf("int32", json!([1, -2, 3, 50])),
                     "out_ptr": zeros("int32", 4)}})
        .to_string();
        try_launch(&text).unwrap()
    };
    assert_eq!(i32s(&src, &l("kernel"), "out_ptr"), vec![2, -4, 6, 100]);
    assert_eq!(i32s(&src, &l("other"), "out_ptr"), vec![4, 0, 0, 0]);
    // the file has two kernels (twice is called by both): say which
    let d = refused(
        &src,
        &launch(
            &[1],
            json!({"x_ptr": buf("int32", json!([1])), "out_ptr": zeros("int32", 1)}),
        ),
    );
    assert!(d.message.contains("several kernels"), "{}", d.message);
    assert!(
        d.help.as_deref().unwrap_or("").contains("kernel, other"),
        "{:?}",
        d.help
    );
}

#[test]
fn calling_a_plain_function_from_a_kernel_is_refused_with_the_call_form() {
    let src = module(
        "def helper(v):
    return v + 1


@triton.jit
def kern(x_ptr):
    tl.store(x_ptr, helper(tl.load(x_ptr)))
",
    );
    let l = launch(&[1], json!({"x_ptr": buf("int32", json!([1]))}));
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "helper(tl.load"),
        &["`helper` is a plain Python function"],
        Some("helper = triton.jit(helper)"),
    );
}

// ----- tl.cumsum / tl.cumprod -------------------------------------------------

#[test]
fn cumsum_along_each_axis_forward_and_reverse() {
    let src = kernel(
        "x_ptr, f_ptr, r_ptr, a0_ptr, a1_ptr",
        "k = tl.arange(0, 4)
x = tl.load(x_ptr + k)
tl.store(f_ptr + k, tl.cumsum(x))
tl.store(r_ptr + k, x.cumsum(0, reverse=True))
m = tl.reshape(x, (2, 2))
i = tl.arange(0, 2)[:, None] * 2 + tl.arange(0, 2)[None, :]
tl.store(a0_ptr + i, tl.cumsum(m, axis=0))
tl.store(a1_ptr + i, tl.cumsum(m, axis=-1))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([1, 2, 3, 4])),
               "f_ptr": zeros("int32", 4), "r_ptr": zeros("int32", 4),
               "a0_ptr": zeros("int32", 4), "a1_ptr": zeros("int32", 4)}),
    );
    assert_eq!(i32s(&src, &l, "f_ptr"), vec![1, 3, 6, 10]);
    assert_eq!(i32s(&src, &l, "r_ptr"), vec![10, 9, 7, 4]);
    // [[1, 2], [3, 4]]: down the columns [[1, 2], [4, 6]], along the rows [[1, 3], [3, 7]]
    assert_eq!(i32s(&src, &l, "a0_ptr"), vec![1, 2, 4, 6]);
    assert_eq!(i32s(&src, &l, "a1_ptr"), vec![1, 3, 3, 7]);
}

/// Floats scan in sequential order, y[i] = y[i-1] + x[i]: with
/// x = [1e8, 1, -1e8, 1] in float32 (1e8 = 0x4cbebc20, spacing 8 there),
/// y = [1e8, 1e8 (1e8 + 1 rounds back), 0, 1.0] — a tree or Hillis-Steele
/// order gives 0 for the last element. Reverse: y[3] = 1, y[2] = 1 - 1e8 =
/// -1e8, y[1] = -1e8 + 1 = -1e8, y[0] = -1e8 + 1e8 = +0.0. A NaN first
/// element is kept as it is (no operation touches it), later ones are sums:
/// float32 arithmetic giving NaN gives 0x7fffffff.
#[test]
fn float_cumsum_is_sequential_and_keeps_nan_rules() {
    let src = kernel(
        "x_ptr, n_ptr, f_ptr, r_ptr, nf_ptr",
        "k = tl.arange(0, 4)
x = tl.load(x_ptr + k)
tl.store(f_ptr + k, tl.cumsum(x))
tl.store(r_ptr + k, tl.cumsum(x, reverse=True))
tl.store(nf_ptr + k, tl.cumsum(tl.load(n_ptr + k)))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([1e8, 1.0, -1e8, 1.0])),
               "n_ptr": {"buffer": {"dtype": "float32", "bits": ["0x7fc00001", "0x3f800000", "0x3f800000", "0x3f800000"]}},
               "f_ptr": zeros("float32", 4), "r_ptr": zeros("float32", 4),
               "nf_ptr": zeros("float32", 4)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "f_ptr"),
        vec![0x4cbebc20, 0x4cbebc20, 0x00000000, 0x3f800000]
    );
    assert_eq!(
        bits(&r, "r_ptr"),
        vec![0x00000000, 0xccbebc20, 0xccbebc20, 0x3f800000]
    );
    assert_eq!(
        bits(&r, "nf_ptr"),
        vec![0x7fc00001, 0x7fffffff, 0x7fffffff, 0x7fffffff]
    );
}

/// Result dtypes (Triton 3.6 standard.py): cumsum widens int8 to int32 (as
/// tl.sum) unless `dtype=` says otherwise; cumprod keeps int8 and wraps;
/// bfloat16 scans in float32.
#[test]
fn scan_result_dtypes() {
    let src = kernel(
        "x_ptr, s_ptr, s8_ptr, p_ptr, h_ptr",
        "k = tl.arange(0, 4)
x = tl.load(x_ptr + k)
s = tl.cumsum(x)
s8 = tl.cumsum(x, dtype=tl.int8)
p = tl.cumprod(x)
h = tl.cumsum(x.to(tl.bfloat16))
tl.store(s_ptr + k, s)
tl.store(s8_ptr + k, s8)
tl.store(p_ptr + k, p)
tl.store(h_ptr + k, h)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int8", json!([2, 100, 3, 5])),
               "s_ptr": zeros("int32", 4), "s8_ptr": zeros("int8", 4),
               "p_ptr": zeros("int8", 4), "h_ptr": zeros("float32", 4)}),
    );
    use ksem_interp::dtype::DType;
    assert_eq!(var_type(&src, &l, "s").dtype(), DType::I32);
    assert_eq!(var_type(&src, &l, "s8").dtype(), DType::I8);
    assert_eq!(var_type(&src, &l, "p").dtype(), DType::I8);
    assert_eq!(var_type(&src, &l, "h").dtype(), DType::F32);
    let r = run_clean(&src, &l);
    // 2, 102, 105, 110 in int32
    assert_eq!(bits(&r, "s_ptr"), vec![2, 102, 105, 110]);
    // in int8: 2, 102, 105, 110 (no wrap yet)
    assert_eq!(bits(&r, "s8_ptr"), vec![2, 102, 105, 110]);
    // 2, 200 -> -56 (0xc8), -56 * 3 = -168 -> 88 (0x58), 88 * 5 = 440 -> 184 (0xb8)
    assert_eq!(bits(&r, "p_ptr"), vec![0x02, 0xc8, 0x58, 0xb8]);
    // float32 2, 102, 105, 110
    assert_eq!(
        bits(&r, "h_ptr"),
        vec![0x40000000, 0x42cc0000, 0x42d20000, 0x42dc0000]
    );
}

#[test]
fn unsupported_scans_are_refused() {
    let l = launch(&[1], json!({"x_ptr": buf("int32", json!([1, 2, 3, 4]))}));
    let cases = [
        ("tl.cumsum(tl.load(x_ptr))", "0-d value", None),
        // Triton's _wrap_axis wording
        (
            "tl.cumsum(x, axis=1)",
            "invalid axis 1. Expected -1 <= axis < 1",
            None,
        ),
        (
            "tl.cumprod(x, reverse=r)",
            "expected a compile-time bool",
            None,
        ),
    ];
    for (call, msg, help) in cases {
        let src = kernel(
            "x_ptr",
            &format!(
                "x = tl.load(x_ptr + tl.arange(0, 4))
r = x > 0
tl.store(x_ptr + tl.arange(0, 4), {call})"
            ),
        );
        let d = refused(&src, &l);
        assert_diag(&src, &d, loc1(&src, call), &[msg], help);
    }
}

// ----- measured refusals (real Triton 3.6 on an H100, through `ksem fuzz
// --backends interp,triton` and tools/probes/triton_features/math_dtypes.py) --

/// The elaboration error of `src` under launch `l` (it must fail).
fn refusal(src: &str, l: &ksem_interp::launch::Launch) -> String {
    match ksem_interp::elaborate_source("t.py", src, l, None) {
        Ok(_) => panic!("accepted:\n{src}"),
        Err(e) => e.render(),
    }
}

/// Triton's math functions check libdevice's dtypes: float32/float64
/// (sqrt_rn float32 only); float16 and bfloat16 are refused ("Expected dtype
/// ['fp32', 'fp64'] but got fp16"), `tl.abs` takes every float.
#[test]
fn math_functions_take_float32_or_float64_only() {
    let kernel = |f: &str, d: &str| {
        module(&format!(
            "@triton.jit
def kern(x_ptr, out_ptr):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs).to(tl.{d})
    tl.store(out_ptr + offs, tl.{f}(x))
"
        ))
    };
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([1, 2, 3, 4])), "out_ptr": zeros("float32", 4)}),
    );
    for f in [
        "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "sigmoid", "erf", "floor",
        "ceil",
    ] {
        for d in ["float16", "bfloat16"] {
            let e = refusal(&kernel(f, d), &l);
            assert!(e.contains("takes float32 or float64"), "{f} {d}: {e}");
            // in Triton's own words first (its tests match "Expected dtype")
            let name = if d == "float16" { "fp16" } else { "bf16" };
            let words = format!("Expected dtype ['fp32', 'fp64'] but got {name}");
            assert!(e.contains(&words), "{f} {d}: {e}");
        }
        for d in ["float32", "float64"] {
            let k = ksem_interp::elaborate_source("t.py", &kernel(f, d), &l, None);
            assert!(k.is_ok(), "{f} {d} refused");
        }
    }
    let e = refusal(&kernel("sqrt_rn", "float64"), &l);
    assert!(e.contains("takes float32 tensors"), "{e}");
    assert!(e.contains("Expected dtype ['fp32'] but got fp64"), "{e}");
    for d in ["float16", "bfloat16", "float32", "float64"] {
        let k = ksem_interp::elaborate_source("t.py", &kernel("abs", d), &l, None);
        assert!(k.is_ok(), "abs {d} refused");
    }
}

/// int1 counts as unsigned in the signedness check of `/ // %`: a bool tile
/// with a signed integer tile is refused (measured: "Cannot use /, #, or %
/// with int1 and int64 because they have different signedness"), with an
/// unsigned one it is computed.
#[test]
fn bool_divided_with_a_signed_integer_is_refused() {
    let kernel = |d: &str| {
        module(&format!(
            "@triton.jit
def kern(b_ptr, y_ptr, out_ptr):
    offs = tl.arange(0, 4)
    b = tl.load(b_ptr + offs)
    y = tl.load(y_ptr + offs).to(tl.{d})
    tl.store(out_ptr + offs, (y % b).to(tl.int32))
"
        ))
    };
    let l = launch(
        &[1],
        json!({"b_ptr": buf("bool", json!([1, 1, 1, 1])),
               "y_ptr": buf("int32", json!([5, 6, 7, 8])),
               "out_ptr": zeros("int32", 4)}),
    );
    for d in ["int8", "int16", "int32", "int64"] {
        let e = refusal(&kernel(d), &l);
        // Triton's own words, which its test_bin_op matches with the
        // pattern 'Cannot use .* because they have different signedness'
        let want = format!(
            "Cannot use /, #, or % with triton.language.{d} and triton.language.int1 \
             because they have different signedness"
        );
        assert!(e.contains(&want), "{d}: {e}");
    }
    // y % True = 0 for every y (computed in uint8)
    assert_eq!(i32s(&kernel("uint8"), &l, "out_ptr"), vec![0, 0, 0, 0]);
}

/// `>>` fills with the sign when the left operand's own dtype is signed,
/// even where promotion makes the operation unsigned (Triton's
/// `tensor.__rshift__` decides before promoting; measured on an H100,
/// `tools/probes/triton_features/shift_signedness.py`):
/// int32(-100) as uint64 is 0xffffffffffffff9c, shifted right by 1 with the
/// sign filling: 0xffffffffffffffce (logical would give 0x7fffffffffffffce).
#[test]
fn right_shift_fill_follows_the_left_operands_own_dtype() {
    let src = module(
        "@triton.jit
def kern(a_ptr, s_ptr, o_ptr, u_ptr, p_ptr):
    offs = tl.arange(0, 2)
    a = tl.load(a_ptr + offs)
    s = tl.load(s_ptr + offs)
    tl.store(o_ptr + offs, a >> s)
    u = a.to(tl.uint64, bitcast=False)
    tl.store(u_ptr + offs, u >> s)
    tl.store(p_ptr + offs, a.to(tl.int8) >> s.to(tl.uint16))
",
    );
    let l = launch(
        &[1],
        json!({"a_ptr": buf("int32", json!([-100, 100])),
               "s_ptr": buf("uint64", json!([1, 2])),
               "o_ptr": zeros("uint64", 2), "u_ptr": zeros("uint64", 2),
               "p_ptr": zeros("uint16", 2)}),
    );
    let r = run_clean(&src, &l);
    // int32 lhs: arithmetic in uint64; 100 >> 2 = 25
    assert_eq!(bits(&r, "o_ptr"), vec![0xffff_ffff_ffff_ffce, 25]);
    // a uint64 lhs: logical
    assert_eq!(bits(&r, "u_ptr"), vec![0x7fff_ffff_ffff_ffce, 25]);
    // int8(-100) as uint16 is 0xff9c; >> 1 with the sign: 0xffce
    assert_eq!(bits(&r, "p_ptr"), vec![0xffce, 25]);
}

// ----- @triton.autotune: the launch picks the config ---------------------------

/// Triton's tutorial vector add under `@triton.autotune` with two configs.
const AUTOTUNED: &str = "@triton.autotune(
    configs=[
        triton.Config({'BLOCK_SIZE': 4}, num_warps=4),
        triton.Config({'BLOCK_SIZE': 8}, num_warps=8, num_stages=2),
    ],
    key=['n'],
)
@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)
";

fn autotune_launch(config: Option<ksem_tests::serde_json::Value>) -> ksem_interp::launch::Launch {
    let mut spec = json!({"grid": [1], "args": {
        "x_ptr": buf("int32", json!([1, 2, 3, 4, 5, 6, 7, 8])),
        "y_ptr": buf("int32", json!([10, 20, 30, 40, 50, 60, 70, 80])),
        "out_ptr": zeros("int32", 8),
        "n": scalar("int32", json!(8))}});
    if let Some(c) = config {
        spec["config"] = c;
    }
    ksem_interp::launch::parse_launch(&spec.to_string()).expect("launch")
}

/// With one program of BLOCK_SIZE elements, the config shows in how much of
/// the output is written: 4 elements with the first config (the default),
/// all 8 with the second, picked by position or by its values.
#[test]
fn the_launch_picks_the_autotune_config() {
    let src = module(AUTOTUNED);
    let first = vec![11, 22, 33, 44, 0, 0, 0, 0];
    let second = vec![11, 22, 33, 44, 55, 66, 77, 88];
    assert_eq!(i32s(&src, &autotune_launch(None), "out_ptr"), first);
    assert_eq!(
        i32s(&src, &autotune_launch(Some(json!(0))), "out_ptr"),
        first
    );
    assert_eq!(
        i32s(&src, &autotune_launch(Some(json!(1))), "out_ptr"),
        second
    );
    assert_eq!(
        i32s(
            &src,
            &autotune_launch(Some(json!({"BLOCK_SIZE": 8}))),
            "out_ptr"
        ),
        second
    );
    let note =
        ksem_interp::frontend::run_note("t.py", &src, &autotune_launch(Some(json!(1))), None);
    assert_eq!(
        note.as_deref(),
        Some("autotune config 1 of 2: BLOCK_SIZE=8 (num_warps=8, num_stages=2)")
    );
}

/// A config that does not exist, a meta-parameter given twice, and a config
/// for a kernel that is not autotuned are errors.
#[test]
fn autotune_config_errors() {
    let src = module(AUTOTUNED);
    let e = refusal(&src, &autotune_launch(Some(json!(2))));
    assert!(e.contains("has 2 autotune configs"), "{e}");
    let e = refusal(&src, &autotune_launch(Some(json!({"BLOCK_SIZE": 16}))));
    assert!(e.contains("no autotune config"), "{e}");
    let mut both = autotune_launch(None);
    both.args.push((
        "BLOCK_SIZE".into(),
        ksem_interp::launch::ArgSpec::Constexpr(ksem_interp::launch::ConstArg::Int(4)),
    ));
    let e = refusal(&src, &both);
    assert!(e.contains("Conflicting meta-parameters"), "{e}");
    let plain = module(&AUTOTUNED[AUTOTUNED.find("@triton.jit").unwrap()..]);
    let e = refusal(&plain, &autotune_launch(Some(json!(0))));
    assert!(e.contains("is not @triton.autotune'd"), "{e}");
}

// ----- libdevice (tl.extra.cuda.libdevice) ---------------------------------------

/// The three ways kernels reach libdevice, each function as ksem's math:
/// exact ones bit for bit, approximate ones the correctly rounded value
/// (Python: struct.pack('<f', math.tanh(0.5)) is 0x3eec9a9f,
/// math.pow(-1.25, 3.0) = -1.953125 is 0xbffa0000, math.log1p(2.0) rounds
/// to 0x3f8c9f54); fmod(7.5, 2) = 1.5, fmod(-1.25, 3) = -1.25 (C fmod).
#[test]
fn libdevice_functions_by_every_import_form() {
    for (import, prefix) in [
        ("from triton.language.extra import libdevice\n", "libdevice"),
        (
            "from triton.language.extra.cuda import libdevice\n",
            "libdevice",
        ),
        ("", "tl.extra.cuda.libdevice"),
    ] {
        let src = format!(
            "{PRELUDE}{import}

@triton.jit
def kern(x_ptr, y_ptr, t_ptr, p_ptr, f_ptr, g_ptr):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(t_ptr + offs, {prefix}.tanh(x))
    tl.store(p_ptr + offs, {prefix}.pow(x, y))
    tl.store(f_ptr + offs, {prefix}.fmod(x, y))
    tl.store(g_ptr + offs, {prefix}.log1p({prefix}.fabs(x)))
"
        );
        let l = launch(
            &[1],
            json!({"x_ptr": buf("float32", json!([0.5, -1.25, 2, 7.5])),
                   "y_ptr": buf("float32", json!([2, 3, 0.5, 2])),
                   "t_ptr": zeros("float32", 4), "p_ptr": zeros("float32", 4),
                   "f_ptr": zeros("float32", 4), "g_ptr": zeros("float32", 4)}),
        );
        let r = run_clean(&src, &l);
        assert_eq!(bits(&r, "t_ptr")[0], 0x3eec_9a9f, "{import}");
        assert_eq!(bits(&r, "p_ptr")[1], 0xbffa_0000);
        assert_eq!(bits(&r, "f_ptr")[1], (-1.25f32).to_bits() as u64);
        assert_eq!(bits(&r, "f_ptr")[3], 1.5f32.to_bits() as u64);
        assert_eq!(bits(&r, "g_ptr")[2], 0x3f8c_9f54);
    }
}

/// libdevice has float32 and float64 versions only; unknown functions and
/// mixed operand dtypes are refused with what is supported.
#[test]
fn libdevice_refusals() {
    let kernel = |body: &str| {
        module(&format!(
            "from triton.language.extra import libdevice

@triton.jit
def kern(x_ptr, o_ptr):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, {body})
"
        ))
    };
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([1, 2, 3, 4])), "o_ptr": zeros("float32", 4)}),
    );
    let e = refusal(&kernel("libdevice.tanh(x.to(tl.float16))"), &l);
    assert!(e.contains("takes float32 or float64"), "{e}");
    let e = refusal(&kernel("libdevice.nextafter(x, x)"), &l);
    assert!(
        e.contains("not modelled") && e.contains("supported:"),
        "{e}"
    );
    let e = refusal(&kernel("libdevice.pow(x, x.to(tl.float64))"), &l);
    assert!(e.contains("two operands of one dtype"), "{e}");
}

/// Liger-Kernel's guarded import of a libdevice function by name: under a
/// version check, `try` one module path, `except ImportError` another, else
/// `tl.math`. The first binding of `rsqrt` wins; it is libdevice's rsqrt
/// (1 / sqrt(4) = 0.5 and 1 / sqrt(16) = 0.25 are exact in float32).
#[test]
fn a_guarded_import_of_a_libdevice_function_by_name() {
    let src = module(
        "import operator

if (3, 0) >= (3, 0):
    try:
        from triton.language.extra.libdevice import rsqrt
    except ModuleNotFoundError:
        from triton.language.extra.cuda.libdevice import rsqrt
else:
    from triton.language.math import rsqrt


@triton.jit
def kern(x_ptr, o_ptr):
    offs = tl.arange(0, 2)
    tl.store(o_ptr + offs, rsqrt(tl.load(x_ptr + offs)))
",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([4, 16])), "o_ptr": zeros("float32", 2)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "o_ptr"),
        vec![0.5f32.to_bits() as u64, 0.25f32.to_bits() as u64]
    );
}

/// Configs built at run time (Triton's tutorial 03 calls a function for
/// them): the launch gives the meta-parameter values as its "config"; a
/// position cannot pick one.
#[test]
fn autotune_configs_built_by_a_function_take_the_launchs_values() {
    let src = module(&AUTOTUNED.replace(
        "configs=[
        triton.Config({'BLOCK_SIZE': 4}, num_warps=4),
        triton.Config({'BLOCK_SIZE': 8}, num_warps=8, num_stages=2),
    ],",
        "configs=get_configs(),",
    ));
    let src = src.replace(
        "@triton.autotune(",
        "def get_configs():\n    return [triton.Config({'BLOCK_SIZE': b}) for b in (4, 8)]\n\n\n@triton.autotune(",
    );
    let second = vec![11, 22, 33, 44, 55, 66, 77, 88];
    assert_eq!(
        i32s(
            &src,
            &autotune_launch(Some(json!({"BLOCK_SIZE": 8}))),
            "out_ptr"
        ),
        second
    );
    let e = refusal(&src, &autotune_launch(Some(json!(1))));
    assert!(e.contains("by position"), "{e}");
}

/// `triton.next_power_of_2` on compile-time ints inside a kernel (the
/// flash-attention rotary kernel sizes a tile with it): 1 → 1, 5 → 8,
/// 8 → 8, 17 → 32 (smallest power of 2 >= n); a runtime value is refused.
#[test]
fn next_power_of_2_of_compile_time_ints() {
    let src = module(
        "@triton.jit
def kern(o_ptr, N: tl.constexpr):
    B: tl.constexpr = triton.next_power_of_2(N)
    offs = tl.arange(0, B)
    tl.store(o_ptr + offs, tl.full((B,), B, tl.int32))
",
    );
    for (n, b) in [(1, 1), (5, 8), (8, 8), (17, 32)] {
        let l = launch(
            &[1],
            json!({"o_ptr": zeros("int32", 32), "N": cx(json!(n))}),
        );
        let got = i32s(&src, &l, "o_ptr");
        assert_eq!(
            got.iter().filter(|&&v| v == b).count(),
            b as usize,
            "N = {n}"
        );
    }
    let rt = module(
        "@triton.jit
def kern(o_ptr):
    pid = tl.program_id(0)
    tl.store(o_ptr, triton.next_power_of_2(pid))
",
    );
    let l = launch(&[1], json!({"o_ptr": zeros("int32", 1)}));
    assert!(refusal(&rt, &l).contains("compile-time int"));
}

// ----- tl.join / tl.split / tl.interleave --------------------------------------

/// Measured on Triton 3.6 (H200, `measure_atomics_random.py` `split_join`):
/// splitting rows (1, 2), (3, 4), … gives [1, 3, 5, 7] and [2, 4, 6, 8];
/// join(a, 10·b) puts a at [.., 0] and 10·b at [.., 1]; interleave(a, 100·b)
/// alternates them. By hand: the method form `j.split()` undoes the join
/// (a + 10·b = 21, 43, 65, 87), two scalars join into a 2-vector and split
/// back into scalars.
#[test]
fn join_split_and_interleave() {
    let src = kernel(
        "x_ptr, o_ptr",
        "r = tl.arange(0, 4)
x = tl.load(x_ptr + r[:, None] * 2 + tl.arange(0, 2)[None, :])
a, b = tl.split(x)
tl.store(o_ptr + r, a)
tl.store(o_ptr + 4 + r, b)
j = tl.join(a, b * 10)
tl.store(o_ptr + 8 + r[:, None] * 2 + tl.arange(0, 2)[None, :], j)
i = tl.interleave(a, b * 100)
tl.store(o_ptr + 16 + tl.arange(0, 8), i)
c, d = j.split()
tl.store(o_ptr + 24 + r, c + d)
s = tl.join(tl.load(x_ptr), tl.load(x_ptr + 1))
tl.store(o_ptr + 28 + tl.arange(0, 2), s)
e, f = tl.split(s)
tl.store(o_ptr + 30, e * 1000 + f)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([1, 2, 3, 4, 5, 6, 7, 8])), "o_ptr": zeros("int32", 31)}),
    );
    let measured = [
        1, 3, 5, 7, 2, 4, 6, 8, 1, 20, 3, 40, 5, 60, 7, 80, 1, 200, 3, 400, 5, 600, 7, 800,
    ];
    let mut want = measured.to_vec();
    want.extend([21, 43, 65, 87, 1, 2, 1002]);
    assert_eq!(i32s(&src, &l, "o_ptr"), want);
}

/// A split needs a last dimension of 2; a join needs one element type.
#[test]
fn join_and_split_refusals() {
    for (line, msg) in [
        (
            "tl.split(tl.zeros((4, 4), tl.int32))",
            "last dimension is 2",
        ),
        (
            "tl.join(tl.zeros((4,), tl.int32), tl.zeros((4,), tl.float32))",
            "operands of one type",
        ),
    ] {
        let src = kernel("o_ptr", line);
        let l = launch(&[1], json!({"o_ptr": zeros("int32", 1)}));
        let d = refused(&src, &l);
        assert!(d.message.contains(msg), "{line}: {}", d.message);
        assert_eq!((d.span.line, d.span.col), loc1(&src, line));
    }
}

// ----- block pointers ------------------------------------------------------------

/// Measured on Triton 3.6 (H200, `measure_atomics_random.py` `block_ptr`,
/// the same kernel less one out-of-bounds load): a (4, 4) window at (1, 2)
/// of a 5 × 6 matrix with every dimension checked (row 5 is padded with 0),
/// advanced by (2, -1) with NaN padding, and a checked store into a 2 × 3
/// matrix at column offset 1 that writes only its in-bounds 2 × 2 corner.
#[test]
fn block_pointers_match_real_triton() {
    let src = module(
        "@triton.jit
def k_bptr(x_ptr, o_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(base=x_ptr, shape=(M, N), strides=(N, 1), offsets=(1, 2), block_shape=(BM, BN), order=(1, 0))
    a = tl.load(p, boundary_check=(0, 1), padding_option=\"zero\")
    q = tl.make_block_ptr(base=o_ptr, shape=(BM, BN), strides=(BN, 1), offsets=(0, 0), block_shape=(BM, BN), order=(1, 0))
    tl.store(q, a)
    p2 = tl.advance(p, (2, -1))
    b = tl.load(p2, boundary_check=(0, 1), padding_option=\"nan\")
    q2 = tl.advance(q, (BM, 0))
    tl.store(q2, b)
    r = tl.make_block_ptr(base=o_ptr + 3 * BM * BN, shape=(2, 3), strides=(3, 1), offsets=(0, 1), block_shape=(BM, BN), order=(1, 0))
    tl.store(r, a + 1000.0, boundary_check=(0, 1))
",
    );
    let x: Vec<f64> = (0..30).map(f64::from).collect();
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!(x)), "o_ptr": buf("float32", json!(vec![-1.0; 62])),
               "M": scalar("int32", json!(5)), "N": scalar("int32", json!(6)),
               "BM": cx(json!(4)), "BN": cx(json!(4))}),
    );
    let got = bits(&run_clean(&src, &l), "o_ptr");
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tools/probes/triton_features/measure_atomics_random.json"
    );
    let m: ksem_tests::serde_json::Value =
        ksem_tests::serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    let want: Vec<u64> = m["block_ptr"]["o"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    // elements 32..48 held an out-of-bounds load in the probe: not compared
    for i in (0..32).chain(48..62) {
        assert_eq!(got[i], want[i], "o[{i}]");
    }
    // by hand: a[0][0] = x[1 * 6 + 2] = 8, b's rows 5 and 6 are NaN padding
    assert_eq!(got[0], f32_bits(&[8.0])[0]);
    assert_eq!(got[16 + 8], 0x7fc0_0000);
}

/// A block pointer advanced in a runtime loop is carried through it: four
/// (4, 4) windows of a 4 × 16 matrix x[i][c] = 16·i + c summed column block
/// by column block give Σ_k (16·i + 4·k + j) = 64·i + 24 + 4·j.
#[test]
fn block_pointer_advanced_in_a_loop() {
    let src = kernel(
        "x_ptr, o_ptr",
        "p = tl.make_block_ptr(x_ptr, (4, 16), (16, 1), (0, 0), (4, 4), (1, 0))
acc = tl.zeros((4, 4), tl.int32)
for k in range(0, 16, 4):
    acc += tl.load(p)
    p = tl.advance(p, (0, 4))
r = tl.arange(0, 4)
tl.store(o_ptr + r[:, None] * 4 + r[None, :], acc)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!((0..64).collect::<Vec<i32>>())), "o_ptr": zeros("int32", 16)}),
    );
    let want: Vec<i32> = (0..16).map(|e| 64 * (e / 4) + 24 + 4 * (e % 4)).collect();
    assert_eq!(i32s(&src, &l, "o_ptr"), want);
}

/// Triton's refusals around block pointers.
#[test]
fn block_pointer_refusals() {
    let bp = "p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))\n";
    for (body, msg) in [
        (
            "tl.load(x_ptr + tl.arange(0, 4), boundary_check=(0,))".to_string(),
            "not supported for loading a tensor of pointers",
        ),
        (
            format!("{bp}tl.load(p, padding_option=\"nan\")"),
            "needs a float tensor",
        ),
        (
            format!("{bp}tl.store(p, tl.zeros((4, 4), tl.float32))"),
            "needs a value of that type",
        ),
        (
            format!("{bp}tl.load(p, mask=tl.zeros((4, 4), tl.int1))"),
            "cannot be specified",
        ),
        (
            "p = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (0, 0))".to_string(),
            "permutation",
        ),
    ] {
        let src = kernel("x_ptr", &body);
        let l = launch(&[1], json!({"x_ptr": zeros("int32", 16)}));
        let d = refused(&src, &l);
        assert!(d.message.contains(msg), "{body}: {}", d.message);
    }
}

// ----- `return` under a runtime `if` of a helper -------------------------------

/// flash-attention's backward helper stores and returns early under a
/// runtime condition (`if begin_m >= seqlen_q: …; return`): the rest of the
/// helper runs only for the programs that did not return, and the caller
/// goes on after the call in both cases. Program p stores 100 + p where
/// p >= 2 returned early, else 10·p from the rest of the helper; every
/// program then stores -1 at 4 + p after the call.
#[test]
fn a_helper_returns_early_under_a_runtime_if() {
    let src = module(
        "@triton.jit
def helper(o_ptr, pid, limit):
    if pid >= limit:
        tl.store(o_ptr + pid, 100 + pid)
        return
    x = pid * 10
    if pid == 1:
        x += 1
    tl.store(o_ptr + pid, x)


@triton.jit
def kern(o_ptr, limit):
    pid = tl.program_id(0)
    helper(o_ptr, pid, limit)
    tl.store(o_ptr + 4 + pid, -1)
",
    );
    let l = launch(
        &[4],
        json!({"o_ptr": zeros("int32", 8), "limit": scalar("int32", json!(2))}),
    );
    assert_eq!(
        i32s(&src, &l, "o_ptr"),
        vec![0, 11, 102, 103, -1, -1, -1, -1]
    );
}

/// Returning a value under a runtime `if` of a helper is still refused where
/// the `if` is not one whose branches both end in the return (here the value
/// returned after the `if` would have to be joined with the one inside).
#[test]
fn a_helper_returning_a_value_under_a_runtime_if_is_refused() {
    let src = module(
        "@triton.jit
def helper(pid):
    if pid > 0:
        return pid
    return pid + 1


@triton.jit
def kern(o_ptr):
    tl.store(o_ptr, helper(tl.program_id(0)))
",
    );
    let l = launch(&[1], json!({"o_ptr": zeros("int32", 1)}));
    let d = refused(&src, &l);
    assert!(
        d.message
            .contains("`return` of a value inside a runtime `if`"),
        "{}",
        d.message
    );
}

// ----- @triton.heuristics: meta-parameters computed on the host ------------

/// A kernel whose three meta-parameters come from `@triton.heuristics`; it
/// stores them so the test can read them back.
const HEURISTIC_KERNEL: &str = "@triton.heuristics({
    \"EVEN_N\": lambda args: args[\"n\"] % args[\"BLOCK\"] == 0,
    \"NP2\": lambda args: triton.next_power_of_2(args[\"n\"]),
    \"HALF\": lambda args: max(args[\"NP2\"] // 2, 1) if args[\"n\"] > 0 else 0,
})
@triton.jit
def kern(out, n, BLOCK: tl.constexpr, EVEN_N: tl.constexpr, NP2: tl.constexpr, HALF: tl.constexpr):
    tl.store(out + 0, EVEN_N)
    tl.store(out + 1, NP2)
    tl.store(out + 2, HALF)
    tl.store(out + 3, n)
";

fn heuristic_launch(n: i64, extra: &[(&str, i64)]) -> ksem_interp::launch::Launch {
    let mut args = json!({"out": zeros("int32", 4), "n": scalar("int32", json!(n)),
                          "BLOCK": cx(json!(4))});
    for (k, v) in extra {
        args[*k] = cx(json!(v));
    }
    launch(&[1], args)
}

/// Triton's `Heuristics.run` computes each lambda on the dict of the
/// arguments passed, in order, each seeing the ones before:
/// n = 12: 12 % 4 == 0 → True; next_power_of_2(12) = 16; 16 // 2 = 8.
/// n = 10: 10 % 4 = 2 → False; 16; 8. n = 1: 1 % 4 = 1 → False;
/// next_power_of_2(1) = 1; max(1 // 2, 1) = 1.
#[test]
fn heuristics_compute_meta_parameters_in_order() {
    let src = module(HEURISTIC_KERNEL);
    assert_eq!(
        i32s(&src, &heuristic_launch(12, &[]), "out"),
        vec![1, 16, 8, 12]
    );
    assert_eq!(
        i32s(&src, &heuristic_launch(10, &[]), "out"),
        vec![0, 16, 8, 10]
    );
    assert_eq!(
        i32s(&src, &heuristic_launch(1, &[]), "out"),
        vec![0, 1, 1, 1]
    );
}

/// A heuristic ksem cannot compute names why, at the sub-expression
/// that has no value (the shared host evaluator's rules, `py::consts`):
/// a tensor operand, an argument the launch does not pass (Triton's
/// KeyError), a name that is no module constant, CPython's exception
/// (`7 // 0`: "ZeroDivisionError: integer division or modulo by zero"),
/// and `triton.cdiv` of a non-int.
#[test]
fn heuristics_that_cannot_be_computed_say_where_and_why() {
    for (lambda, at, msg) in [
        (
            "args[\"x\"] + 1",
            "args[\"x\"]",
            "`x` is a tensor, which ksem cannot read here",
        ),
        (
            "args[\"nope\"]",
            "args[\"nope\"]",
            "the launch passes no `nope` (Triton: KeyError)",
        ),
        (
            "UNKNOWN * 2",
            "UNKNOWN",
            "`UNKNOWN` is not a module constant",
        ),
        (
            "7 // (args[\"n\"] - 3)",
            "7 //",
            "ZeroDivisionError: integer division or modulo by zero",
        ),
        (
            "triton.cdiv(1.5, 2)",
            "triton.cdiv",
            "triton.cdiv takes an int",
        ),
    ] {
        let src = module(&format!(
            "@triton.heuristics({{\"W\": lambda args: {lambda}}})\n@triton.jit\ndef kern(x, out, n, W: tl.constexpr):\n    tl.store(out, W)\n"
        ));
        let l = launch(
            &[1],
            json!({"x": zeros("int32", 1), "out": zeros("int32", 1), "n": scalar("int32", json!(3))}),
        );
        let d = refused(&src, &l);
        assert_diag(
            &src,
            &d,
            loc(&src, "lambda args", at),
            &["heuristic `W`", msg],
            None,
        );
    }
}

/// A launch may repeat a heuristic's value; a different one is refused at
/// the heuristic (Triton would silently overwrite it with its own).
#[test]
fn heuristics_and_a_disagreeing_launch_value() {
    let src = module(HEURISTIC_KERNEL);
    let same = heuristic_launch(12, &[("NP2", 16)]);
    assert_eq!(i32s(&src, &same, "out"), vec![1, 16, 8, 12]);
    let d = refused(&src, &heuristic_launch(12, &[("NP2", 32)]));
    assert_diag(
        &src,
        &d,
        loc(&src, "\"NP2\": lambda", "lambda"),
        &["the launch gives NP2=32", "computes NP2=16"],
        Some("leave \"NP2\" out of the launch"),
    );
}

/// A lambda ksem cannot evaluate (it reads a tensor) takes the launch's
/// value; without one it is an error that points at the lambda and says
/// what to do.
#[test]
fn heuristics_on_tensors_need_the_launch_value() {
    let src = module(
        "@triton.heuristics({\"W\": lambda args: args[\"x\"].element_size() * 2})
@triton.jit
def kern(x, out, W: tl.constexpr):
    tl.store(out, W)
",
    );
    let base = json!({"x": zeros("int32", 1), "out": zeros("int32", 1)});
    let d = refused(&src, &launch(&[1], base.clone()));
    assert_diag(
        &src,
        &d,
        loc(&src, "lambda args", "args[\"x\"].element_size"),
        &["heuristic `W`"],
        Some("give \"W\" in the launch"),
    );
    let mut given = base;
    given["W"] = cx(json!(8));
    assert_eq!(i32s(&src, &launch(&[1], given), "out"), vec![8]);
}

/// A helper whose runtime `if` returns a value in both branches returns the
/// taken branch's value (Triton's test_if_call[jit_if]): program 0 takes
/// `x + 1`, program 1 `x + 2`; with x = 40 the outputs are 41 and 42. The
/// call sits inside a runtime `if` of the kernel, as in Triton's test.
#[test]
fn a_helper_returning_in_both_branches_of_a_runtime_if() {
    let src = module(
        "@triton.jit
def add_fn_return(x, pid):
    if pid == 0:
        y = x + 1
        return y
    else:
        return x + 2

@triton.jit
def kern(x_ptr, out_ptr):
    pid = tl.program_id(0)
    o = tl.load(x_ptr)
    if pid < 2:
        a = add_fn_return(o, pid)
        o = a
    tl.store(out_ptr + pid, o)
",
    );
    let l = launch(
        &[3],
        json!({"x_ptr": buf("int32", json!([40])), "out_ptr": zeros("int32", 3)}),
    );
    // program 2 skips the call and stores x itself
    assert_eq!(i32s(&src, &l, "out_ptr"), vec![41, 42, 40]);
}

/// `tl.store(…) if c else tl.store(…)` as a statement stores through the
/// branch taken (Triton's test_if[if_exp_dynamic_void]): even programs store
/// x_true's 7, odd ones x_false's 9; a compile-time condition picks one
/// branch for every program.
#[test]
fn an_if_expression_statement_runs_the_branch_taken() {
    let src = module(
        "@triton.jit
def kern(t_ptr, f_ptr, out_ptr, S: tl.constexpr):
    pid = tl.program_id(0)
    tl.store(out_ptr + pid, tl.load(t_ptr)) if pid % 2 == 0 else tl.store(out_ptr + pid, tl.load(f_ptr))
    tl.store(out_ptr + 4 + pid, tl.load(t_ptr)) if S else tl.store(out_ptr + 4 + pid, tl.load(f_ptr))
",
    );
    let args = |s: bool| {
        json!({"t_ptr": buf("int32", json!([7])), "f_ptr": buf("int32", json!([9])),
               "out_ptr": zeros("int32", 8), "S": cx(json!(s))})
    };
    assert_eq!(
        i32s(&src, &launch(&[4], args(true)), "out_ptr"),
        vec![7, 9, 7, 9, 7, 7, 7, 7]
    );
    assert_eq!(
        i32s(&src, &launch(&[4], args(false)), "out_ptr"),
        vec![7, 9, 7, 9, 9, 9, 9, 9]
    );
}

// ----- tl.make_tensor_descriptor: Triton's checks, then ksem's refusal -------

/// Triton 3.9's `semantic.make_tensor_descriptor` refuses a block whose last
/// dimension holds fewer than 16 bytes, in its words (Triton's
/// `test_tma_load_block_shape_err` matches them): int32 [1, 2] has 2 * 4 = 8
/// bytes, int16 [8, 4] has 4 * 2 = 8. A valid descriptor (int32 [1, 4], 16
/// bytes) is refused as not run by ksem.
#[test]
fn make_tensor_descriptor_checks_then_refuses() {
    for (dtype, block, msg) in [
        ("int32", "[1, 2]", "but got 2 * 4 = 8 bytes"),
        ("int16", "[8, 4]", "but got 4 * 2 = 8 bytes"),
        ("int32", "[1, 4]", "are not supported by ksem yet"),
    ] {
        let src = kernel(
            "ptr",
            &format!("desc = tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], {block})"),
        );
        let l = launch(&[1], json!({ "ptr": zeros(dtype, 4) }));
        let d = refused(&src, &l);
        assert!(d.message.contains(msg), "{dtype} {block}: {}", d.message);
        if !msg.contains("ksem") {
            assert!(d.message.contains(
                "Descriptor block shape must have at least 16 bytes in the last dimension"
            ));
        }
        assert_eq!(
            (d.span.line, d.span.col),
            loc1(&src, "tl.make_tensor_descriptor")
        );
    }
}
