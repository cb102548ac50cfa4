//! Every rule and example of the CUDA Python seed (004, NumbaPro 0.12),
//! checked on the typed program ksem elaborates and on the bits it computes.
//! Expected values are reasoned by hand in each test; where the seed is
//! silent the rule of docs/semantics.md ("CUDA Python") applies, measured on
//! numba-cuda (docs/numba-measured.md).

use ksem_interp::dtype::DType;
use ksem_interp::launch::{parse_launch, Launch};
use ksem_tests::*;
use serde_json::{json, Value as Json};

/// A CUDA Python module: the imports (3 lines, a blank line), then `rest`.
fn module(rest: &str) -> String {
    format!(
        "from numba import cuda, int16, int32, float32\nimport numpy as np\nimport math\n\n{rest}"
    )
}

/// A module with one kernel `kern(PARAMS)` whose body is `body`.
fn kern(params: &str, body: &str) -> String {
    module(&format!(
        "@cuda.jit\ndef kern({params}):\n{}\n",
        indent(body)
    ))
}

/// A launch with a grid, a block and the args object.
fn simt(grid: [u32; 3], block: [u32; 3], args: Json) -> Launch {
    let text = json!({"grid": grid, "block": block, "args": args}).to_string();
    parse_launch(&text).unwrap_or_else(|e| panic!("test launch refused: {e}\n{text}"))
}

/// One thread, with `args`.
fn one(args: Json) -> Launch {
    simt([1, 1, 1], [1, 1, 1], args)
}

/// The type of the last variable named `name` of the elaborated kernel.
fn var_type(src: &str, l: &Launch, name: &str) -> DType {
    let k = elaborate(src, l).unwrap_or_else(|e| panic!("refused: {}", e.render()));
    let i = k
        .vars
        .iter()
        .rposition(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no variable {name}"));
    k.vars[i].1.dtype()
}

/// The type of `z = EXPR` where x and y are elements of arrays of dtypes dx, dy.
fn expr_type(dx: &str, dy: &str, expr: &str) -> DType {
    let src = kern("xs, ys", &format!("x = xs[0]\ny = ys[0]\nz = {expr}"));
    let l = one(json!({"xs": zeros(dx, 1), "ys": zeros(dy, 1)}));
    var_type(&src, &l, "z")
}

fn i32s(r: &ksem_interp::launch::RunResult, name: &str) -> Vec<i64> {
    bits(r, name)
        .iter()
        .map(|&b| b as u32 as i32 as i64)
        .collect()
}

fn i64s(r: &ksem_interp::launch::RunResult, name: &str) -> Vec<i64> {
    bits(r, name).iter().map(|&b| b as i64).collect()
}

// ---- type inference and coercion ------------------------------------------------

#[test]
fn add_sub_mul_compute_in_the_more_generic_type() {
    assert_eq!(expr_type("int16", "int32", "x + y"), DType::I32);
    assert_eq!(expr_type("int8", "int8", "x * y"), DType::I8);
    assert_eq!(expr_type("int32", "float32", "x - y"), DType::F32);
    assert_eq!(expr_type("float32", "float64", "x + y"), DType::F64);
    // "the most generic type of the two" is one of the two: int64 with
    // float32 is float32 (numba-cuda computes float64: docs/divergences.md)
    assert_eq!(expr_type("int64", "float32", "x * y"), DType::F32);
    // equal widths, mixed signs (the seed is silent): numba-cuda's signed
    assert_eq!(expr_type("uint64", "int64", "x + y"), DType::I64);
    // literals are int64 / float64
    assert_eq!(expr_type("int32", "int32", "x + 1"), DType::I64);
    assert_eq!(expr_type("float32", "int32", "x * 2.0"), DType::F64);
}

#[test]
fn floordiv_gives_an_integer_of_at_least_32_bits() {
    assert_eq!(expr_type("int8", "int8", "x // y"), DType::I32);
    assert_eq!(expr_type("int16", "int8", "x // y"), DType::I32);
    assert_eq!(expr_type("int64", "int32", "x // y"), DType::I64);
    assert_eq!(expr_type("float32", "float32", "x // y"), DType::I32);
    assert_eq!(expr_type("float64", "int8", "x // y"), DType::I64);
    assert_eq!(expr_type("uint16", "uint16", "x // y"), DType::U32);
}

#[test]
fn truediv_gives_a_float_of_the_wider_operand_and_at_least_32_bits() {
    assert_eq!(expr_type("int8", "int16", "x / y"), DType::F32);
    assert_eq!(expr_type("int32", "int32", "x / y"), DType::F32);
    assert_eq!(expr_type("int64", "int32", "x / y"), DType::F64);
    assert_eq!(expr_type("float32", "int64", "x / y"), DType::F64);
    assert_eq!(expr_type("float32", "float32", "x / y"), DType::F32);
}

#[test]
fn bitwise_operators_need_integers_and_coerce() {
    assert_eq!(expr_type("int8", "int16", "x & y"), DType::I16);
    assert_eq!(expr_type("uint8", "int32", "x | y"), DType::I32);
    assert_eq!(expr_type("int32", "int32", "x << y"), DType::I32);
    assert_eq!(expr_type("int32", "int64", "x >> y"), DType::I64);
    let src = kern("xs, ys", "x = xs[0]\ny = ys[0]\nz = x ^ y");
    let l = one(json!({"xs": zeros("float32", 1), "ys": zeros("int32", 1)}));
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc(&src, "z = x ^ y", "x ^"),
        &["`^` needs integer operands", "float32"],
        None,
    );
}

#[test]
fn the_seeds_type_object_example() {
    // The seed: must_be_int16 = int16(123); must_be_float32 = float32(321),
    // with NumbaPro's imports and @cuda.autojit.
    let src = "from numbapro import cuda, int16, float32\n@cuda.autojit\ndef a_cuda_kernel(arg):\n    must_be_int16 = int16(123)\n    must_be_float32 = float32(321)\n    arg[0] = must_be_int16\n    arg[1] = must_be_float32\n";
    let l = one(json!({"arg": zeros("float64", 2)}));
    assert_eq!(var_type(src, &l, "must_be_int16"), DType::I16);
    assert_eq!(var_type(src, &l, "must_be_float32"), DType::F32);
    let r = run_clean(src, &l);
    assert_eq!(bits(&r, "arg"), vec![123f64.to_bits(), 321f64.to_bits()]);
}

#[test]
fn a_type_object_converts_and_wraps() {
    // int16(40000) wraps to 40000 - 65536 = -25536; float32(0.1) rounds to
    // the float32 nearest 0.1 (0x3dcccccd); np.int8(300) wraps to 44.
    let src = kern(
        "o, f",
        "o[0] = int16(40000)\nf[0] = float32(0.1)\no[1] = np.int8(300)",
    );
    let r = run_clean(
        &src,
        &one(json!({"o": zeros("int32", 2), "f": zeros("float32", 1)})),
    );
    assert_eq!(i32s(&r, "o"), vec![-25536, 44]);
    assert_eq!(bits(&r, "f"), vec![0x3dcc_cccd]);
}

#[test]
fn redefinition_outside_a_loop_changes_the_type() {
    let src = kern("o", "x = int16(1)\no[0] = x\nx = 2.5\no[1] = x");
    let l = one(json!({"o": zeros("float64", 2)}));
    let k = elaborate(&src, &l).unwrap();
    let xs: Vec<DType> = k
        .vars
        .iter()
        .filter(|(n, _)| n == "x")
        .map(|(_, t)| t.dtype())
        .collect();
    assert_eq!(xs, vec![DType::I16, DType::F64]);
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "o"), vec![1f64.to_bits(), 2.5f64.to_bits()]);
}

#[test]
fn inside_a_loop_the_type_of_the_preloop_definition_stays() {
    // x is int16 before the loop; x + 1.5 is float64 but is converted back to
    // int16 at each redefinition: 0+1.5 -> 1, 1+1.5 -> 2, 2+1.5 -> 3
    // (Python would give 4.5).
    let src = kern(
        "o",
        "x = int16(0)\nfor i in range(3):\n    x = x + 1.5\no[0] = x",
    );
    let l = one(json!({"o": zeros("float64", 1)}));
    let k = elaborate(&src, &l).unwrap();
    let xs: Vec<DType> = k
        .vars
        .iter()
        .filter(|(n, _)| n == "x")
        .map(|(_, t)| t.dtype())
        .collect();
    assert_eq!(xs, vec![DType::I16], "one variable x of type int16");
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "o"), vec![3f64.to_bits()]);
}

#[test]
fn augmented_assignment_in_a_loop_keeps_an_int_accumulator() {
    // s = 0 is int64; s += a[i] with float32 a[i] converts back each time:
    // int64(0 + 0.75) = 0, int64(0 + 1.5) = 1, int64(1 + 2.25) = 3.
    let src = kern("a, o", "s = 0\nfor i in range(3):\n    s += a[i]\no[0] = s");
    let l = one(json!({"a": buf("float32", json!([0.75, 1.5, 2.25])), "o": zeros("int64", 1)}));
    let r = run_clean(&src, &l);
    assert_eq!(i64s(&r, "o"), vec![3]);
}

#[test]
fn a_store_coerces_the_value_to_the_element_type() {
    // 7 / 2 is float32 3.5; stored into int32 it truncates to 3; -7 / 2 -> -3.
    let src = kern("o", "o[0] = 7 / 2\no[1] = -7 / 2");
    let r = run_clean(&src, &one(json!({"o": zeros("int32", 2)})));
    assert_eq!(i32s(&r, "o"), vec![3, -3]);
}

// ---- integer and float arithmetic where the seed is silent ----------------------

#[test]
fn integer_floordiv_and_mod_round_toward_minus_infinity() {
    // Python's rule (numba-cuda measured the same): -7 // 2 = -4, -7 % 2 = 1,
    // 7 // -2 = -4, 7 % -2 = -1, -7 // -2 = 3, -7 % -2 = -1.
    let src = kern(
        "a, b, q, m",
        "i = cuda.threadIdx.x\nq[i] = a[i] // b[i]\nm[i] = a[i] % b[i]",
    );
    let l = simt(
        [1, 1, 1],
        [4, 1, 1],
        json!({"a": buf("int32", json!([-7, 7, -7, 7])), "b": buf("int32", json!([2, -2, -2, 2])),
               "q": zeros("int32", 4), "m": zeros("int32", 4)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "q"), vec![-4, -4, 3, 3]);
    assert_eq!(i32s(&r, "m"), vec![1, -1, -1, 1]);
}

#[test]
fn integer_division_by_zero_gives_zero() {
    // numba-cuda's "numpy" error model: x // 0 and x % 0 are 0, no trap.
    let src = kern("a, q, m", "q[0] = a[0] // a[1]\nm[0] = a[0] % a[1]");
    let l = one(
        json!({"a": buf("int32", json!([5, 0])), "q": zeros("int32", 1), "m": zeros("int32", 1)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "q"), vec![0]);
    assert_eq!(i32s(&r, "m"), vec![0]);
}

#[test]
fn float_floordiv_and_mod_follow_python() {
    // -7.5 // 2.0: fmod = -1.5, (x - fmod) / y = -3, signs differ -> -4 (int32 result).
    // -7.5 % 2.0: fmod -1.5 + 2.0 = 0.5. 7.5 % -2.0: fmod 1.5 + -2.0 = -0.5.
    // 4.0 % -2.0: fmod is 0, the zero takes the divisor's sign: -0.0.
    let src = kern(
        "a, b, q, m",
        "i = cuda.threadIdx.x\nq[i] = a[i] // b[i]\nm[i] = a[i] % b[i]",
    );
    let l = simt(
        [1, 1, 1],
        [3, 1, 1],
        json!({"a": buf("float32", json!([-7.5, 7.5, 4.0])), "b": buf("float32", json!([2.0, -2.0, -2.0])),
               "q": zeros("int32", 3), "m": zeros("float32", 3)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "q"), vec![-4, -4, -2]);
    assert_eq!(bits(&r, "m"), f32_bits(&[0.5, -0.5, -0.0]));
}

#[test]
fn float_floordiv_by_zero_is_a_float_to_int_conversion_out_of_range() {
    // 1.0 // 0.0: fmod is NaN, so the quotient is NaN; the seed's int result
    // cannot hold it.
    let src = kern("a, q", "q[0] = a[0] // a[1]");
    let l = one(json!({"a": buf("float32", json!([1.0, 0.0])), "q": zeros("int32", 1)}));
    let u = ub_of(&src, &l);
    assert_eq!(u[0].kind, "float-to-int-out-of-range");
}

#[test]
fn unary_minus_keeps_the_type_and_flips_the_sign_bit() {
    // -x of int32 -2147483648 wraps to itself; -(0.0) is -0.0.
    let src = kern("a, f, o, g", "o[0] = -a[0]\ng[0] = -f[0]");
    let l = one(
        json!({"a": buf("int32", json!([-2147483648i64])), "f": buf("float32", json!([0.0])),
                       "o": zeros("int32", 1), "g": zeros("float32", 1)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "o"), vec![-2147483648]);
    assert_eq!(bits(&r, "g"), vec![0x8000_0000]);
    // numba-cuda (measured): -x of an int is computed in its width and
    // widened to 64 bits of its signedness; abs keeps the type
    assert_eq!(expr_type("int8", "int8", "-x"), DType::I64);
    assert_eq!(expr_type("uint32", "int8", "-x"), DType::U64);
    assert_eq!(expr_type("int16", "int8", "~x"), DType::I64);
    assert_eq!(expr_type("float32", "int8", "-x"), DType::F32);
    assert_eq!(expr_type("int8", "int8", "abs(x)"), DType::I8);
}

#[test]
fn a_shift_by_the_width_is_undefined() {
    let src = kern("a, o", "o[0] = a[0] << a[1]");
    let l = one(json!({"a": buf("int32", json!([1, 32])), "o": zeros("int32", 1)}));
    let u = ub_of(&src, &l);
    assert_eq!(u[0].kind, "shift-out-of-range");
}

/// numba-cuda computes a signed `+ - *` (and `**`'s products) in int64 with
/// LLVM's `nsw` flag (`_int_arith_flags`), so an overflow is poison there
/// (docs/divergences.md N23): ksem
/// reports it at the operator. Expected values by hand from the int64 range.
#[test]
fn a_signed_int64_overflow_of_add_sub_mul_is_undefined() {
    let (max, min) = (i64::MAX, i64::MIN);
    // (body, operands, the operator's line and column: the kernel's body
    // starts on line 7, indented by 4; the column is the left operand's)
    for (body, x, y, at) in [
        ("o[0] = a[0] + a[1]", max, 1, (7, 12)),
        ("o[0] = a[0] - a[1]", min, 1, (7, 12)),
        ("o[0] = a[0] * a[1]", 1 << 32, 1 << 31, (7, 12)),
        ("o[0] = a[0] * a[1]", min, -1, (7, 12)),
        ("t = a[0]\nt += a[1]\no[0] = t", max, max, (8, 5)),
    ] {
        let src = kern("a, o", body);
        let l = one(json!({"a": buf("int64", json!([x, y])), "o": zeros("int64", 1)}));
        let u = ub_of(&src, &l);
        assert_eq!(u[0].kind, "signed-overflow", "{body}");
        assert_eq!((u[0].line, u[0].col), at, "{body}");
    }
    // at the edges: defined
    let src = kern(
        "a, o",
        "o[0] = a[0] + a[1]\no[1] = a[2] * a[1]\no[2] = a[2] - a[3]",
    );
    let l = one(json!({"a": buf("int64", json!([max - 1, 1, min, -1])), "o": zeros("int64", 3)}));
    assert_eq!(i64s(&run_clean(&src, &l), "o"), vec![max, min, min + 1]);
}

/// Narrower signed results exist only by the seed's coercion (numba computes
/// them in int64, where they cannot overflow: N1) and wrap; unsigned results
/// wrap in numba too (no `nsw`).
#[test]
fn narrow_signed_and_unsigned_overflow_wraps() {
    let src = kern("a, u, o, p", "o[0] = a[0] + a[1]\np[0] = u[0] + u[1]");
    let l = one(json!({
        "a": buf("int32", json!([i32::MAX, 1])), "u": buf("uint64", json!([u64::MAX, 1])),
        "o": zeros("int32", 1), "p": zeros("uint64", 1)}));
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "o"), vec![i32::MIN as i64]);
    assert_eq!(bits(&r, "p"), vec![0]);
}

/// `**` of int64 multiplies with `mul nsw` (numba's `r *= a; a *= a`): a
/// result outside int64 is undefined, but the square after the last step,
/// which numba computes and never uses, is not (2 ** 62 = 2^62 although
/// its last square 2^64 overflows; (-2) ** 63 is MIN exactly).
#[test]
fn an_int64_power_overflow_is_undefined_but_an_unused_square_is_not() {
    let src = kern(
        "a, e, o",
        "o[0] = a[0] ** 62\no[1] = a[0] ** e[0]\no[2] = a[1] ** 63",
    );
    let l = one(
        json!({"a": buf("int64", json!([2, -2])), "e": buf("int64", json!([62])), "o": zeros("int64", 3)}),
    );
    assert_eq!(
        i64s(&run_clean(&src, &l), "o"),
        vec![1 << 62, 1 << 62, i64::MIN]
    );
    for body in ["o[0] = a[0] ** 63", "o[0] = a[0] ** e[0]"] {
        let src = kern("a, e, o", body);
        let l = one(
            json!({"a": buf("int64", json!([2])), "e": buf("int64", json!([64])), "o": zeros("int64", 1)}),
        );
        assert_eq!(ub_of(&src, &l)[0].kind, "signed-overflow", "{body}");
    }
}

#[test]
fn integer_power_with_a_constant_exponent_multiplies() {
    // 3 ** 4 = 81 in int64; int32 x ** 2 computes in int64 (the literal): 46341**2 = 2147488281.
    let src = kern("a, o", "o[0] = a[0] ** 4\no[1] = a[1] ** 2");
    let l = one(json!({"a": buf("int32", json!([3, 46341])), "o": zeros("int64", 2)}));
    let r = run_clean(&src, &l);
    assert_eq!(i64s(&r, "o"), vec![81, 2_147_488_281]);
}

#[test]
fn unary_minus_of_the_minimum_int32_widens_after_wrapping() {
    // -int32(-2147483648) wraps in int32 to itself, then widens: int64 -2147483648.
    // -uint32(1) is 0xffffffff in uint32, widened to uint64 0x00000000ffffffff.
    let src = kern("a, u, o, p", "o[0] = -a[0]\np[0] = -u[0]");
    let l = one(
        json!({"a": buf("int32", json!([-2147483648i64])), "u": buf("uint32", json!([1])),
                       "o": zeros("int64", 1), "p": zeros("uint64", 1)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i64s(&r, "o"), vec![-2147483648]);
    assert_eq!(bits(&r, "p"), vec![0xffff_ffff]);
}

#[test]
fn powers() {
    // numba-cuda (measured): int ** int is int64; a negative constant exponent
    // gives 0 except for base 1 (2 ** -1 = 0, 1 ** -3 = 1) and -1 ((-1) ** -3 = -1);
    // float32 ** 2 stays float32, float32 ** 2.0 is float64.
    let src = kern(
        "a, o",
        "o[0] = a[0] ** -1\no[1] = a[1] ** -3\no[2] = a[2] ** -3\no[3] = a[0] ** 10",
    );
    let l = one(json!({"a": buf("int32", json!([2, 1, -1])), "o": zeros("int64", 4)}));
    let r = run_clean(&src, &l);
    assert_eq!(i64s(&r, "o"), vec![0, 1, -1, 1024]);
    // a runtime exponent: 3 ** 5 = 243, 2 ** -1 = 0, (-1) ** -3 = -1, 7 ** 0 = 1
    let src = kern("a, e, o", "i = cuda.threadIdx.x\no[i] = a[i] ** e[i]");
    let l = simt(
        [1, 1, 1],
        [4, 1, 1],
        json!({"a": buf("int32", json!([3, 2, -1, 7])), "e": buf("int32", json!([5, -1, -3, 0])), "o": zeros("int64", 4)}),
    );
    assert_eq!(i64s(&run_clean(&src, &l), "o"), vec![243, 0, -1, 1]);
    assert_eq!(expr_type("float32", "int32", "x ** 2"), DType::F32);
    assert_eq!(expr_type("float32", "int32", "x ** y"), DType::F32);
    assert_eq!(expr_type("float32", "int32", "x ** 2.0"), DType::F64);
    assert_eq!(expr_type("int8", "int8", "x ** 2"), DType::I64);
    assert_eq!(expr_type("uint8", "uint16", "x ** y"), DType::U64);
}

#[test]
fn builtin_float_min_max_ignore_nan_and_order_zeros() {
    // numba-cuda (measured): max(nan, 1) = max(1, nan) = 1, max(-0, +0) = +0,
    // min(+0, -0) = -0 (PTX min/max, not Python's first-wins rule).
    let src = kern("f, o", "o[0] = max(f[0], f[1])\no[1] = max(f[1], f[0])\no[2] = max(f[2], f[3])\no[3] = min(f[3], f[2])");
    let l = one(
        json!({"f": buf("float32", json!(["nan", 1.0, "-0.0", 0.0])), "o": zeros("float32", 4)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "o"),
        vec![0x3f80_0000, 0x3f80_0000, 0, 0x8000_0000]
    );
}

#[test]
fn atomic_float_max_keeps_a_nan_in_memory_and_nanmax_replaces_it() {
    // numba-cuda (measured): max/min replace the old value only when the operand
    // is strictly greater (less): a NaN in memory stays, a NaN operand is ignored,
    // -0 does not replace +0; nanmax replaces a NaN in memory.
    let src = kern(
        "m, o",
        "o[0] = cuda.atomic.max(m, 0, 1.0)\ncuda.atomic.max(m, 1, math.nan)\ncuda.atomic.min(m, 2, -0.0)\ncuda.atomic.nanmax(m, 3, 2.0)\ncuda.atomic.nanmin(m, 4, math.nan)",
    );
    let l = one(
        json!({"m": buf("float32", json!(["nan", 5.0, 0.0, "nan", 3.0])), "o": zeros("float32", 1)}),
    );
    let r = run_clean(&src, &l);
    let m = bits(&r, "m");
    assert!(
        f32::from_bits(m[0] as u32).is_nan(),
        "the NaN stays: {:#x}",
        m[0]
    );
    assert_eq!(&m[1..], &[0x40a0_0000, 0, 0x4000_0000, 0x4040_0000]);
    assert!(
        f32::from_bits(bits(&r, "o")[0] as u32).is_nan(),
        "the old value is returned"
    );
}

#[test]
fn exch_and_cas_need_integer_arrays() {
    // numba-cuda (measured) refuses exch, cas and the bitwise atomics on floats.
    let src = kern("m", "cuda.atomic.exch(m, 0, 1.0)");
    let d = refused(&src, &one(json!({"m": zeros("float32", 1)})));
    assert_diag(
        &src,
        &d,
        loc1(&src, "cuda.atomic.exch"),
        &["not defined on float32 arrays"],
        None,
    );
}

#[test]
fn min_max_and_comparison_chains() {
    // min(3, -2, 5) = -2; max(1.5, 2) = 2.0 (float64); 1 < x < 5 is True for x = 3
    // and False for x = 7, and the chain evaluates x once.
    let src = kern(
        "a, o",
        "o[0] = min(3, -2, 5)\no[1] = max(1.5, 2)\no[2] = 1 < a[0] < 5\no[3] = 1 < a[1] < 5",
    );
    let l = one(json!({"a": buf("int32", json!([3, 7])), "o": zeros("float64", 4)}));
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "o"),
        vec![(-2f64).to_bits(), 2f64.to_bits(), 1f64.to_bits(), 0]
    );
}

#[test]
fn and_or_short_circuit_skip_the_out_of_bounds_read() {
    // i = 4 is past the end of a (4 elements): `i < 4 and a[i] > 0` must not read a[4].
    let src = kern(
        "a, o",
        "i = cuda.threadIdx.x\nif i < 4 and a[i] > 0:\n    o[i] = 1\nif i >= 4 or a[i] == 0:\n    o[i] = 2",
    );
    let l = simt(
        [1, 1, 1],
        [5, 1, 1],
        json!({"a": buf("int32", json!([1, 0, 2, 0])), "o": zeros("int32", 5)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "o"), vec![1, 2, 1, 2, 2]);
}

#[test]
fn conditional_expression_evaluates_one_side() {
    let src = kern("a, o", "i = cuda.threadIdx.x\no[i] = a[i] if i < 2 else -1");
    let l = simt(
        [1, 1, 1],
        [3, 1, 1],
        json!({"a": buf("int32", json!([7, 8])), "o": zeros("int32", 3)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "o"), vec![7, 8, -1]);
}

// ---- arrays ------------------------------------------------------------------------

#[test]
fn two_dimensional_arrays_index_row_major() {
    // a is 2x3: a[1, 2] is element 5; shape, size and ndim are intp constants;
    // strides are in bytes (int32: (12, 4)).
    let src = kern(
        "a, o",
        "n, m = a.shape\no[0] = a[1, 2]\no[1] = n\no[2] = m\no[3] = a.size\no[4] = a.ndim\no[5] = a.strides[0]\no[6] = a.strides[1]\no[7] = a[-1, -3]",
    );
    let l = one(
        json!({"a": {"buffer": {"dtype": "int32", "data": [0, 1, 2, 3, 4, 5], "shape": [2, 3]}},
                       "o": zeros("int64", 8)}),
    );
    let r = run_clean(&src, &l);
    // a[-1, -3] counts from the end: a[1, 0] = 3.
    assert_eq!(i64s(&r, "o"), vec![5, 2, 3, 6, 2, 12, 4, 3]);
    assert_eq!(var_type(&src, &l, "n"), DType::I64);
}

#[test]
fn a_partial_index_of_an_n_dimensional_array_is_a_row() {
    // numba-cuda: `a[1]` of a 2-d array is row 1 (a view), so `a[1][2]` is
    // a[1, 2] = 5 of 0..5 in a 2 × 3 row-major array; the row itself is
    // not a number to store
    let l = || {
        one(
            json!({"a": {"buffer": {"dtype": "int32", "data": [0, 1, 2, 3, 4, 5], "shape": [2, 3]}}, "o": zeros("int32", 1)}),
        )
    };
    let src = kern("a, o", "o[0] = a[1][2]");
    assert_eq!(i64s(&run_clean(&src, &l()), "o"), vec![5]);
    let src = kern("a, o", "o[0] = a[1]");
    let d = refused(&src, &l());
    assert_diag(
        &src,
        &d,
        loc1(&src, "o[0] = a[1]"),
        &["expected a number, found an array"],
        None,
    );
}

#[test]
fn slices_need_a_constant_step() {
    // a slice's bounds may be runtime values (tests/tests/cudapy_slices.rs),
    // its step must be a constant: refused at the step
    let src = kern("a, o", "b = a[1:3:o[0]]");
    let l = one(json!({"a": zeros("int32", 4), "o": zeros("int32", 1)}));
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc(&src, "b = a[1:3:o[0]]", "o[0]]"),
        &["step must be a constant"],
        None,
    );
}

#[test]
fn arrays_cannot_be_unpacked() {
    let src = kern("a, o", "x, y = a");
    let l = one(json!({"a": zeros("int32", 2), "o": zeros("int32", 1)}));
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc(&src, "x, y = a", "x, y"),
        &["unpacking an array"],
        Some("arrays cannot be unpacked"),
    );
}

#[test]
fn array_attributes_are_read_only() {
    let src = kern("a, o", "a.shape = 3");
    let l = one(json!({"a": zeros("int32", 2), "o": zeros("int32", 1)}));
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc(&src, "a.shape = 3", "a.shape"),
        &["read-only"],
        None,
    );
}

#[test]
fn for_loops_iterate_over_range_and_1d_arrays() {
    // a 1-d array yields its elements (numba-cuda's own tests loop so);
    // a 2-d one would yield rows (views), which ksem refuses
    let src = kern("a, o", "for x in a:\n    o[0] += x");
    let l = one(json!({"a": buf("int32", json!([3, 4])), "o": zeros("int32", 1)}));
    assert_eq!(i64s(&run_clean(&src, &l), "o"), vec![7]);
    let l = one(
        json!({"a": {"buffer": {"dtype": "int32", "len": 4, "shape": [2, 2]}}, "o": zeros("int32", 1)}),
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc(&src, "for x in a", "a:"),
        &["for loop over a 2-d array"],
        Some("range(a.shape[0])"),
    );
    // xrange is range
    let src = kern("o", "for i in xrange(2, 8, 3):\n    o[0] += i");
    let r = run_clean(&src, &one(json!({"o": zeros("int64", 1)})));
    assert_eq!(i64s(&r, "o"), vec![2 + 5]);
}

#[test]
fn an_out_of_bounds_index_is_undefined() {
    let src = kern("a, o", "i = cuda.threadIdx.x\no[i] = a[i + 2]");
    let l = simt(
        [1, 1, 1],
        [2, 1, 1],
        json!({"a": zeros("int32", 3), "o": zeros("int32", 2)}),
    );
    let u = ub_of(&src, &l);
    assert_eq!(u[0].kind, "out-of-bounds-index");
    assert_eq!(u[0].thread, Some([1, 0, 0]));
}

// ---- the no-Python mode ------------------------------------------------------------

#[test]
fn no_objects_no_exceptions() {
    let l = one(json!({"o": zeros("int32", 1)}));
    let cases: [(&str, &str, &str, &str); 7] = [
        (
            "try:\n    o[0] = 1\nexcept Exception:\n    pass",
            "try:",
            "`try`",
            "catches no exceptions",
        ),
        // a `raise` runs (cudapy_closures_raise.rs), with constant arguments
        (
            "raise ValueError(o[0])",
            "o[0])",
            "an exception argument computed at run time",
            "constant exception arguments",
        ),
        ("x = [1, 2]", "[1, 2]", "a list", "cuda.local.array"),
        ("x = {1: 2}", "{1: 2}", "a dict literal", "use arrays"),
        // a constant string is a value numba types (`Literal[str]`); it
        // can be stored only into an S<n>/U<n> element (cudapy_text.rs)
        ("o[0] = 'hi'", "o[0]", "a string used as a value", "print"),
        ("f = lambda q: q", "lambda", "`lambda`", "device function"),
        (
            "with open('f') as h:\n    pass",
            "with",
            "a `with` statement",
            "without `with`",
        ),
    ];
    for (body, at, msg, help) in cases {
        let src = kern("o", body);
        let d = refused(&src, &l);
        let line = body.lines().next().unwrap();
        assert_diag(&src, &d, loc(&src, line, at), &[msg], Some(help));
    }
    let src = module("@cuda.jit\ndef kern(o):\n    class A:\n        pass\n");
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "class A"),
        &["a `class` definition"],
        Some("no objects"),
    );
}

#[test]
fn a_kernel_cannot_return_a_value() {
    let src = kern("o", "return 1");
    let d = refused(&src, &one(json!({"o": zeros("int32", 1)})));
    assert_diag(
        &src,
        &d,
        loc1(&src, "return 1"),
        &["a kernel cannot return a value"],
        None,
    );
}

// ---- CUDA intrinsics ----------------------------------------------------------------

#[test]
fn thread_block_and_grid_ids() {
    // grid (2,3,1), block (4,2,1): the thread (3,1,0) of block (1,2,0) writes
    // its ids; cuda.grid(2) = (1*4+3, 2*2+1) = (7, 5); gridsize(2) = (8, 6).
    let src = kern(
        "o",
        "x, y = cuda.grid(2)\nif cuda.threadIdx.x == 3 and cuda.threadIdx.y == 1 and cuda.blockIdx.x == 1 and cuda.blockIdx.y == 2:\n    w, h = cuda.gridsize(2)\n    o[0] = x\n    o[1] = y\n    o[2] = w\n    o[3] = h\n    o[4] = cuda.blockDim.x\n    o[5] = cuda.blockDim.y\n    o[6] = cuda.gridDim.x\n    o[7] = cuda.gridDim.y\n    o[8] = cuda.threadIdx.z + cuda.blockIdx.z + cuda.blockDim.z + cuda.gridDim.z",
    );
    let l = simt([2, 3, 1], [4, 2, 1], json!({"o": zeros("int64", 9)}));
    let r = run_clean(&src, &l);
    assert_eq!(i64s(&r, "o"), vec![7, 5, 8, 6, 4, 2, 2, 3, 2]);
    assert_eq!(var_type(&src, &l, "x"), DType::I64);
}

#[test]
fn threadidx_is_int32() {
    let src = kern("o", "t = cuda.threadIdx.x\no[0] = t");
    assert_eq!(
        var_type(&src, &one(json!({"o": zeros("int32", 1)})), "t"),
        DType::I32
    );
}

#[test]
fn shared_memory_reduction_with_barriers() {
    // 8 threads sum a[0..8] = 1..8 by a tree in shared memory: 36.
    let src = kern(
        "a, o",
        "s = cuda.shared.array(8, float32)\ni = cuda.threadIdx.x\ns[i] = a[i]\ncuda.syncthreads()\nstride = 4\nwhile stride > 0:\n    if i < stride:\n        s[i] += s[i + stride]\n    cuda.syncthreads()\n    stride //= 2\nif i == 0:\n    o[0] = s[0]",
    );
    let l = simt(
        [1, 1, 1],
        [8, 1, 1],
        json!({"a": buf("float32", json!([1, 2, 3, 4, 5, 6, 7, 8])), "o": zeros("float32", 1)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "o"), f32_bits(&[36.0]));
}

#[test]
fn a_shared_array_must_be_declared_in_the_entry_block() {
    let src = kern("o", "if o[0] == 0:\n    s = cuda.shared.array(4, int32)");
    let d = refused(&src, &one(json!({"o": zeros("int32", 1)})));
    assert_diag(
        &src,
        &d,
        loc(&src, "s = cuda", "cuda.shared"),
        &["entry block"],
        Some("outside if/for/while"),
    );
}

#[test]
fn a_local_array_is_per_thread() {
    // each thread fills its own local array with i, i+1 and sums it: 2i + 1.
    let src = kern(
        "o",
        "t = cuda.local.array(2, int32)\ni = cuda.threadIdx.x\nt[0] = i\nt[1] = i + 1\no[i] = t[0] + t[1]",
    );
    let r = run_clean(
        &src,
        &simt([1, 1, 1], [3, 1, 1], json!({"o": zeros("int32", 3)})),
    );
    assert_eq!(i32s(&r, "o"), vec![1, 3, 5]);
}

#[test]
fn shared_array_with_a_2d_shape_and_keywords() {
    let src = kern(
        "o",
        "s = cuda.shared.array(shape=(2, 2), dtype=np.int32)\ni = cuda.threadIdx.x\ns[i // 2, i % 2] = i * 10\ncuda.syncthreads()\no[i] = s[1 - i // 2, 1 - i % 2]",
    );
    let r = run_clean(
        &src,
        &simt([1, 1, 1], [4, 1, 1], json!({"o": zeros("int32", 4)})),
    );
    // thread i reads the element of thread 3 - i.
    assert_eq!(i32s(&r, "o"), vec![30, 20, 10, 0]);
}

#[test]
fn atomics_return_the_old_value_and_count_exactly() {
    // 2 blocks of 32 threads each add 1: total 64; each thread's old value is
    // distinct, so the olds are a permutation of 0..63 (sum 2016).
    let src = kern(
        "c, olds, m",
        "i = cuda.grid(1)\nolds[i] = cuda.atomic.add(c, 0, 1)\ncuda.atomic.max(m, 0, i)\ncuda.atomic.min(m, 1, i)",
    );
    let l = simt(
        [2, 1, 1],
        [32, 1, 1],
        json!({"c": zeros("int32", 1), "olds": zeros("int32", 64), "m": buf("int64", json!([-1, 1000]))}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "c"), vec![64]);
    let mut olds = i32s(&r, "olds");
    olds.sort();
    assert_eq!(olds, (0..64).collect::<Vec<i64>>());
    assert_eq!(i64s(&r, "m"), vec![63, 0]);
    // which thread got which old value is the hardware's choice: every old
    // value is marked order-dependent, the totals are exact
    let flags = |name: &str| {
        r.buffers
            .iter()
            .find(|b| b.name == name)
            .unwrap()
            .inexact
            .clone()
    };
    assert_eq!(flags("olds"), vec![true; 64]);
    assert_eq!(flags("c"), vec![false]);
    assert_eq!(flags("m"), vec![false, false]);
}

#[test]
fn an_old_value_is_exact_where_one_thread_updates_the_element() {
    // each thread adds to its own counter: nobody else touches it, so the old
    // value (the counter's initial 10 + i) is the only possible answer; the
    // shared counter c[4] is updated by all four but its old value is unused
    let src = kern(
        "c, olds",
        "i = cuda.threadIdx.x\nolds[i] = cuda.atomic.add(c, i, 1)\ncuda.atomic.add(c, 4, 1)",
    );
    let l = simt(
        [1, 1, 1],
        [4, 1, 1],
        json!({"c": buf("int32", json!([10, 11, 12, 13, 0])), "olds": zeros("int32", 4)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "olds"), vec![10, 11, 12, 13]);
    assert_eq!(i32s(&r, "c"), vec![11, 12, 13, 14, 4]);
    for b in &r.buffers {
        assert!(b.inexact.iter().all(|&x| !x), "{}: {:?}", b.name, b.inexact);
    }
}

#[test]
fn an_old_value_read_by_one_of_several_updaters_is_order_dependent() {
    // threads 0..3 all add to c[0]; only thread 0 keeps its old value, which
    // is 0 if it went first and anything up to 3 otherwise
    let src = kern(
        "c, o",
        "old = cuda.atomic.add(c, 0, 1)\nif cuda.threadIdx.x == 0:\n    o[0] = old\n    o[1] = 7",
    );
    let l = simt(
        [1, 1, 1],
        [4, 1, 1],
        json!({"c": zeros("int32", 1), "o": zeros("int32", 2)}),
    );
    let r = run_clean(&src, &l);
    let o = r.buffers.iter().find(|b| b.name == "o").unwrap();
    assert_eq!(i32s(&r, "o"), vec![0, 7]);
    assert_eq!(o.inexact, vec![true, false]);
}

#[test]
fn atomic_compare_and_swap_inc_dec_and_bitwise() {
    // compare_and_swap(a, 5, 9): a[0] == 5 so it becomes 9, returns 5;
    // cas(a, 1, 4, 8): a[1] = 7 != 4, unchanged, returns 7;
    // inc(u, 0, 3) with u[0] = 3: old >= 3 -> 0; dec(u, 1, 10) with u[1] = 0 -> 10;
    // and_(b, 0, 0b1100) on 0b1010 -> 0b1000; or_ -> 0b1110; xor -> 0b0110.
    let src = kern(
        "a, u, b, o",
        "o[0] = cuda.atomic.compare_and_swap(a, 5, 9)\no[1] = cuda.atomic.cas(a, 1, 4, 8)\no[2] = cuda.atomic.inc(u, 0, 3)\no[3] = cuda.atomic.dec(u, 1, 10)\ncuda.atomic.and_(b, 0, 12)\ncuda.atomic.or_(b, 1, 12)\ncuda.atomic.xor(b, 2, 12)",
    );
    let l = one(
        json!({"a": buf("int32", json!([5, 7])), "u": buf("uint32", json!([3, 0])),
                       "b": buf("int32", json!([10, 10, 10])), "o": zeros("int64", 4)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "a"), vec![9, 7]);
    assert_eq!(bits(&r, "u"), vec![0, 10]);
    assert_eq!(i32s(&r, "b"), vec![8, 14, 6]);
    assert_eq!(i64s(&r, "o"), vec![5, 7, 3, 0]);
}

#[test]
fn a_float_atomic_add_from_many_threads_is_order_dependent() {
    let src = kern("a, s", "i = cuda.threadIdx.x\ncuda.atomic.add(s, 0, a[i])");
    let l = simt(
        [1, 1, 1],
        [3, 1, 1],
        json!({"a": buf("float32", json!([1e8, 1.0, -1e8])), "s": zeros("float32", 1)}),
    );
    let r = run_clean(&src, &l);
    let s = r.buffers.iter().find(|b| b.name == "s").unwrap();
    assert_eq!(
        s.inexact,
        vec![true],
        "the sum depends on the order of the adds"
    );
}

#[test]
fn inc_needs_an_unsigned_array() {
    let src = kern("a", "cuda.atomic.inc(a, 0, 3)");
    let d = refused(&src, &one(json!({"a": zeros("int32", 1)})));
    assert_diag(
        &src,
        &d,
        loc1(&src, "cuda.atomic.inc"),
        &["uint32 or uint64"],
        None,
    );
}

// ---- device functions and signatures ------------------------------------------------------

#[test]
fn device_functions_are_called_with_early_returns() {
    // first_neg returns the index of the first negative element, or -1; the
    // return inside the loop leaves the function, not just the loop.
    let src = module(
        "@cuda.jit(device=True)\ndef first_neg(a, n):\n    for i in range(n):\n        if a[i] < 0:\n            return i\n    return -1\n\n@cuda.jit\ndef kern(a, b, o):\n    o[0] = first_neg(a, 4)\n    o[1] = first_neg(b, 4)\n",
    );
    let l = one(
        json!({"a": buf("int32", json!([3, 0, -2, -5])), "b": buf("int32", json!([1, 2, 3, 4])), "o": zeros("int32", 2)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(i32s(&r, "o"), vec![2, -1]);
}

#[test]
fn a_device_function_signature_fixes_its_types() {
    // "int16(int16, int16)": 300 + 300 is computed in int16 = 600, and 20000 + 20000
    // wraps to 40000 - 65536 = -25536.
    let src = module(
        "@cuda.jit(\"int16(int16, int16)\", device=True)\ndef add(x, y):\n    return x + y\n\n@cuda.jit\ndef kern(o):\n    o[0] = add(300, 300)\n    o[1] = add(20000, 20000)\n",
    );
    let r = run_clean(&src, &one(json!({"o": zeros("int64", 2)})));
    assert_eq!(i64s(&r, "o"), vec![600, -25536]);
}

#[test]
fn an_explicit_kernel_signature() {
    let src = module("@cuda.jit(\"void(int32[:], float32)\")\ndef kern(o, x):\n    o[0] = x * 2\n");
    let ok = one(json!({"o": zeros("int32", 1), "x": scalar("float32", json!(1.25))}));
    let r = run_clean(&src, &ok);
    assert_eq!(i32s(&r, "o"), vec![2]); // 1.25 * 2 = 2.5 (float64), stored as int32 2
    let bad = one(json!({"o": zeros("int32", 1), "x": scalar("float64", json!(1.25))}));
    let d = refused(&src, &bad);
    assert_diag(
        &src,
        &d,
        loc(&src, "def kern", "x)"),
        &["passes `x` as float64 but the signature says float32"],
        None,
    );
    let bad = one(json!({"o": zeros("int64", 1), "x": scalar("float32", json!(1.25))}));
    let d = refused(&src, &bad);
    assert_diag(
        &src,
        &d,
        loc(&src, "def kern", "o,"),
        &["the signature says 1-d int32"],
        None,
    );
}

#[test]
fn a_bad_signature_string_is_refused() {
    let src = module("@cuda.jit(\"void(int33[:])\")\ndef kern(o):\n    o[0] = 1\n");
    let d = refused(&src, &one(json!({"o": zeros("int32", 1)})));
    assert_diag(
        &src,
        &d,
        loc(&src, "cuda.jit(", "\"void"),
        &["bad signature", "int33"],
        None,
    );
}

// ---- math ---------------------------------------------------------------------------------

#[test]
fn math_functions_types_and_exact_ones() {
    assert_eq!(expr_type("float32", "int32", "math.sin(x)"), DType::F32);
    assert_eq!(expr_type("int32", "int32", "math.sin(x)"), DType::F64);
    // numba-cuda keeps the float type of floor/ceil (measured)
    assert_eq!(expr_type("float32", "int32", "math.floor(x)"), DType::F32);
    assert_eq!(expr_type("int32", "int32", "math.ceil(x)"), DType::F64);
    assert_eq!(
        expr_type("float32", "float32", "math.pow(x, y)"),
        DType::F32
    );
    assert_eq!(
        expr_type("float32", "int32", "math.atan2(x, y)"),
        DType::F64
    );
    assert_eq!(expr_type("float32", "int32", "math.isnan(x)"), DType::Bool);
    // exact: sqrt(2) rounded once; fabs(-3); floor(-2.5) = -3; ceil(-2.5) = -2;
    // copysign(2, -0.0) = -2; fmod(-7, 2) = -1 (C fmod); isnan/isinf.
    let src = kern(
        "f, o",
        "o[0] = math.sqrt(f[0])\no[1] = math.fabs(f[1])\no[2] = math.floor(f[2])\no[3] = math.ceil(f[2])\no[4] = math.copysign(f[0], f[3])\no[5] = math.fmod(f[4], f[0])\no[6] = math.isnan(f[5])\no[7] = math.isinf(f[6])",
    );
    let l = one(
        json!({"f": buf("float64", json!([2.0, -3.0, -2.5, "-0.0", -7.0, "nan", "-inf"])), "o": zeros("float64", 8)}),
    );
    let r = run_clean(&src, &l);
    let want = [2f64.sqrt(), 3.0, -3.0, -2.0, -2.0, -1.0, 1.0, 1.0];
    assert_eq!(
        bits(&r, "o"),
        want.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    let o = r.buffers.iter().find(|b| b.name == "o").unwrap();
    assert!(o.inexact.iter().all(|&i| !i), "all exact: {:?}", o.inexact);
}

#[test]
fn approximate_math_is_marked_inexact() {
    let src = kern(
        "f, o",
        "o[0] = math.sin(f[0])\no[1] = math.exp(f[0])\no[2] = math.arctan(f[0])\no[3] = math.pow(f[0], f[0])\no[4] = math.tanh(f[0])\no[5] = math.log1p(f[0])\no[6] = math.sqrt(f[0])",
    );
    let l = one(json!({"f": buf("float32", json!([0.5])), "o": zeros("float32", 7)}));
    let r = run_clean(&src, &l);
    let o = r.buffers.iter().find(|b| b.name == "o").unwrap();
    assert_eq!(o.inexact, vec![true, true, true, true, true, true, false]);
    // the value is the float64 result rounded once to float32: sin(0.5) =
    // 0.479425538604203 and atan(0.5) = 0.4636476090008061 (tables; at 16
    // digits these round to the same float32 as the exact values)
    assert_eq!(
        bits(&r, "o")[0],
        (0.479_425_538_604_203_f64 as f32).to_bits() as u64
    );
    assert_eq!(
        bits(&r, "o")[2],
        (0.463_647_609_000_806_1_f64 as f32).to_bits() as u64
    );
}

#[test]
fn unsupported_math_names_the_supported_ones() {
    let src = kern("f", "f[0] = math.comb(f[0], 2)");
    let d = refused(&src, &one(json!({"f": zeros("float32", 1)})));
    assert_diag(
        &src,
        &d,
        loc1(&src, "math.comb"),
        &["math.comb"],
        Some("acos asin atan arctan"),
    );
}

// ---- SIMT undefined behaviour -----------------------------------------------------------

#[test]
fn a_barrier_in_divergent_code_is_undefined() {
    let src = kern(
        "o",
        "if cuda.threadIdx.x < 2:\n    cuda.syncthreads()\no[cuda.threadIdx.x] = 1",
    );
    let l = simt([1, 1, 1], [4, 1, 1], json!({"o": zeros("int32", 4)}));
    let u = ub_of(&src, &l);
    assert_eq!(u[0].kind, "barrier-divergence");
    assert_eq!((u[0].line, u[0].col), loc1(&src, "cuda.syncthreads()"));
}

#[test]
fn reading_shared_memory_never_written_is_undefined() {
    let src = kern("o", "s = cuda.shared.array(4, int32)\ni = cuda.threadIdx.x\nif i < 3:\n    s[i] = i\ncuda.syncthreads()\no[i] = s[i]");
    let l = simt([1, 1, 1], [4, 1, 1], json!({"o": zeros("int32", 4)}));
    let u = ub_of(&src, &l);
    assert_eq!(u[0].kind, "uninitialized-read");
    assert_eq!(u[0].thread, Some([3, 0, 0]));
}

#[test]
fn a_shared_memory_race_between_barriers_names_both_threads() {
    // thread i writes s[i] and reads s[i + 1] with no barrier between.
    let src = kern("o", "s = cuda.shared.array(4, int32)\ni = cuda.threadIdx.x\ns[i] = i\nif i < 3:\n    o[i] = s[i + 1]");
    let l = simt([1, 1, 1], [4, 1, 1], json!({"o": zeros("int32", 4)}));
    let u = ub_of(&src, &l);
    assert_eq!(u[0].kind, "data-race");
    let other = u[0].other.as_ref().expect("the other access");
    assert_ne!(u[0].thread, other.thread);
    let lines = [u[0].line, other.line];
    assert!(
        lines.contains(&loc1(&src, "s[i] = i").0)
            && lines.contains(&loc1(&src, "o[i] = s[i + 1]").0),
        "{u:?}"
    );
}

#[test]
fn a_global_race_across_blocks() {
    let src = kern("o", "o[0] = cuda.blockIdx.x");
    let l = simt([2, 1, 1], [1, 1, 1], json!({"o": zeros("int32", 1)}));
    let u = ub_of(&src, &l);
    assert_eq!(u[0].kind, "data-race");
}

#[test]
fn early_return_masks_threads() {
    let src = kern(
        "o",
        "i = cuda.threadIdx.x\nif i % 2 == 1:\n    return\no[i] = 1",
    );
    let r = run_clean(
        &src,
        &simt([1, 1, 1], [4, 1, 1], json!({"o": zeros("int32", 4)})),
    );
    assert_eq!(i32s(&r, "o"), vec![1, 0, 1, 0]);
}

#[test]
fn different_atomics_on_one_element_are_order_dependent() {
    // or_ then add gives (0 | 1) + 1 = 2; add then or_ gives (0 + 1) | 1 = 1:
    // the element's final value depends on the order, which the result says.
    let src = kern(
        "a",
        "if cuda.threadIdx.x == 0:\n    cuda.atomic.or_(a, 0, 1)\nelse:\n    cuda.atomic.add(a, 0, 1)",
    );
    let r = run_clean(
        &src,
        &simt([1, 1, 1], [2, 1, 1], json!({"a": zeros("int32", 1)})),
    );
    let a = r.buffers.iter().find(|b| b.name == "a").unwrap();
    assert_eq!(a.inexact, vec![true]);
    // the same operation from every thread commutes: exact
    let src = kern(
        "a",
        "cuda.atomic.add(a, 0, 1)\ncuda.atomic.add(a, 1, cuda.threadIdx.x)",
    );
    let r = run_clean(
        &src,
        &simt([1, 1, 1], [4, 1, 1], json!({"a": zeros("int32", 2)})),
    );
    let a = r.buffers.iter().find(|b| b.name == "a").unwrap();
    assert_eq!(
        (a.bits.clone(), a.inexact.clone()),
        (vec![4, 6], vec![false, false])
    );
}

#[test]
fn malformed_kernels_are_refused_with_a_position() {
    // Each body is wrong; ksem must refuse it with a diagnostic inside the
    // kernel (line >= 6), never panic or accept it.
    let bodies = [
        "x = cuda.grid()",
        "x = cuda.grid(4)",
        "s = cuda.shared.array()",
        "s = cuda.shared.array(-1, int32)",
        "s = cuda.shared.array(o[0], int32)",
        "s = cuda.shared.array(4, 5)",
        "s = cuda.shared.array(100000000, int32)",
        "cuda.atomic.add(o)",
        "cuda.atomic.add(o, 0)",
        "cuda.atomic.frob(o, 0, 1)",
        "for i in range():\n    pass",
        "for i in range(1, 2, 3, 4):\n    pass",
        "for i in range(0, 4, 0):\n    pass",
        "for i in range(1.5):\n    pass",
        "x = cuda.threadIdx.w",
        "x = math.sin()",
        "x = abs()",
        "x = min(1)",
        "x = int16()",
        "x = o[0, 1]",
        "x = o[1.5]",
        "x = o.frob",
        "x = undefined_name",
        "o[0] = o",
        "x = (1, 2)[5]",
        "return 5",
        "break",
        "x = o if o else o",
        "o[0] = 1 @ 2",
        "x = 1 in (1, 2)",
        "x = ~1.5",
        "x = 1.5 & 2",
        "del x",
        "import os",
        "x = cuda.syncthreads(1)",
        "x = len(5)",
        "x = np.cumsum(4.0)",
        "x = math.log(2.0, 3.0)",
        "x = kern(o)",
    ];
    for body in bodies {
        let src = kern("o", body);
        let l = one(json!({"o": zeros("int32", 4)}));
        let d = refused(&src, &l);
        assert!(
            d.span.line >= 6,
            "{body:?}: refused at line {} ({})",
            d.span.line,
            d.message
        );
        check_rendered(&src, &d);
    }
}

#[test]
fn an_array_shape_whose_size_overflows_is_refused_not_a_panic() {
    // found by tests/tests/mutations.rs: the element count overflowed usize
    let src = kern(
        "o",
        "t = cuda.shared.array((1099511627776, 1099511627776), int32)\no[0] = 1",
    );
    let d = refused(&src, &one(json!({"o": zeros("int32", 1)})));
    assert!(d.message.contains("too large"), "{d:?}");
}

#[test]
fn operands_are_evaluated_left_to_right_around_an_atomic() {
    // Python evaluates `acc[0] + cuda.atomic.add(acc, 0, 5)` left to right:
    // the load reads 10, the atomic returns its old value 10 and leaves 15,
    // so x = 20 (ksem computed 25, reading acc[0] after the atomic, until the
    // front end held the earlier operand in a variable); the same holds for
    // the arguments of a call
    let src = kern(
        "acc, out",
        "x = acc[0] + cuda.atomic.add(acc, 0, 5)\nout[0] = x\nout[1] = max(acc[0], cuda.atomic.add(acc, 0, 100) + 1)",
    );
    let r = run_clean(
        &src,
        &one(json!({"acc": buf("int64", json!([10])), "out": zeros("int64", 2)})),
    );
    // second line: acc[0] reads 15, the atomic returns 15 (+1 = 16) and leaves 115
    assert_eq!(i64s(&r, "out"), vec![20, 16]);
    assert_eq!(i64s(&r, "acc"), vec![115]);
}
