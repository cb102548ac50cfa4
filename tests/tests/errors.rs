//! Programs ksem must refuse (exit 2): the unsupported Python subset (each with
//! the supported alternative in a `help` line), syntax errors, and the Triton
//! type errors Triton 3.6 refuses to compile. Every test asserts the exact
//! line and column of the error.

use ksem_tests::serde_json::json;
use ksem_tests::*;

// ----- the standard kernel -------------------------------------------------

const STD_PARAMS: &str = "x_ptr, out_ptr, n, BLOCK: tl.constexpr";

/// A valid kernel with `body` inserted after `x` is loaded.
fn std_src(body: &str) -> String {
    kernel(
        STD_PARAMS,
        &format!(
            "pid = tl.program_id(0)\noffs = pid * BLOCK + tl.arange(0, BLOCK)\nx = tl.load(x_ptr + offs)\n{body}\ntl.store(out_ptr + offs, x)"
        ),
    )
}

fn std_args() -> ksem_tests::serde_json::Value {
    json!({
        "x_ptr": buf("float32", json!([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])),
        "out_ptr": zeros("float32", 8),
        "n": scalar("int32", json!(8)),
        "BLOCK": cx(json!(4)),
    })
}

fn std_launch() -> ksem_interp::launch::Launch {
    launch(&[2], std_args())
}

/// A refused program: error at the first `at` in the line containing `line`.
fn check(
    src: &str,
    l: &ksem_interp::launch::Launch,
    line: &str,
    at: &str,
    msg: &[&str],
    help: Option<&str>,
) {
    let d = refused(src, l);
    assert_diag(src, &d, loc(src, line, at), msg, help);
}

/// An unsupported construct in the standard kernel; the error must say it is
/// not supported and give the alternative.
macro_rules! unsupported {
    ($name:ident, $body:expr, $line:expr, $at:expr, [$($msg:expr),*], $help:expr) => {
        #[test]
        fn $name() {
            let src = std_src($body);
            check(&src, &std_launch(), $line, $at, &["not supported", $($msg),*], Some($help));
        }
    };
}

#[test]
fn std_kernel_is_accepted_and_runs() {
    // The tests below only insert one construct into this kernel.
    let src = std_src("y = x + 1.0\nx = y");
    let r = run_clean(&src, &std_launch());
    assert_eq!(
        bits(&r, "out_ptr"),
        f32_bits(&[2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
    );
}

// ----- 1. unsupported Python syntax (the TileLang seed's tables) ----------

unsupported!(
    for_over_a_tuple,
    "t = (1, 2, 3)\nfor v in t:\n    pass",
    "for v in t:",
    "t:",
    ["`for`", "non-range"],
    "range"
);

unsupported!(
    for_over_enumerate,
    "t = (1, 2, 3)\nfor v in enumerate(t):\n    pass",
    "for v in enumerate(t):",
    "enumerate",
    ["enumerate"],
    "range"
);

unsupported!(
    for_with_tuple_target,
    "for i, j in range(4):\n    pass",
    "for i, j in",
    "i, j",
    ["unpacking"],
    "range"
);

unsupported!(
    for_else,
    "for i in range(4):\n    pass\nelse:\n    pass",
    "for i in range(4):",
    "for",
    ["else"],
    "flag"
);

unsupported!(
    while_else,
    "m = n\nwhile m > 0:\n    m -= 1\nelse:\n    pass",
    "while m > 0:",
    "while",
    ["while", "else"],
    "flag"
);

unsupported!(
    chained_assignment,
    "a = b = 1",
    "a = b = 1",
    "a",
    ["a = b = c"],
    "separate assignment"
);

unsupported!(
    lambda_expression,
    "f = lambda v: v + 1",
    "lambda",
    "lambda",
    ["lambda"],
    "named @triton.jit function"
);

unsupported!(
    list_comprehension,
    "v = [i for i in range(4)]",
    "v = [i for",
    "[",
    ["list comprehension"],
    "explicit loop"
);

unsupported!(
    dict_comprehension,
    "v = {i: i for i in range(4)}",
    "v = {i: i for",
    "{",
    ["dict comprehension"],
    "explicit loop"
);

unsupported!(
    set_comprehension,
    "v = {i for i in range(4)}",
    "v = {i for",
    "{",
    ["set comprehension"],
    "explicit loop"
);

unsupported!(
    generator_expression,
    "v = (i for i in range(4))",
    "v = (i for",
    "(",
    ["generator expression"],
    "explicit loop"
);

unsupported!(
    try_except,
    "try:\n    pass\nexcept Exception:\n    pass",
    "try:",
    "try",
    ["try"],
    "if"
);

unsupported!(
    with_statement,
    "with x:\n    pass",
    "with x:",
    "with",
    ["with"],
    "without the context manager"
);

unsupported!(
    class_inside_kernel,
    "class C:\n    pass",
    "class C:",
    "class",
    ["class"],
    "outside the kernel"
);

unsupported!(
    nested_def_inside_kernel,
    "def helper(v):\n    return v",
    "def helper(v):",
    "def",
    ["nested function"],
    "@triton.jit"
);

unsupported!(
    walrus,
    "if (m := n) > 0:\n    pass",
    "m := n",
    "m :=",
    ["walrus"],
    "separate statement"
);

unsupported!(
    import_inside_kernel,
    "import math",
    "import math",
    "import",
    ["import"],
    "module level"
);

unsupported!(
    from_import_inside_kernel,
    "from math import sqrt",
    "from math import sqrt",
    "from",
    ["import"],
    "module level"
);

unsupported!(
    len_call,
    "v = len(x)",
    "v = len(x)",
    "len",
    ["len()"],
    "shape"
);

unsupported!(
    isinstance_call,
    "v = isinstance(n, int)",
    "isinstance",
    "isinstance",
    ["isinstance()"],
    "dtype"
);

unsupported!(
    type_call,
    "v = type(n)",
    "v = type(n)",
    "type",
    ["type()"],
    "dtype"
);

unsupported!(
    print_call,
    "print(n)",
    "print(n)",
    "print",
    ["print()"],
    "tl.device_print"
);

unsupported!(
    membership_in,
    "if n in (1, 2):\n    pass",
    "if n in (1, 2):",
    "n in",
    ["`in`"],
    "=="
);

unsupported!(
    membership_not_in,
    "if n not in (1, 2):\n    pass",
    "if n not in (1, 2):",
    "n not in",
    ["`in`"],
    "=="
);

unsupported!(
    assert_statement,
    "assert n > 0",
    "assert n > 0",
    "assert",
    ["assert"],
    "tl.static_assert"
);

unsupported!(
    f_string,
    "tl.static_print(f\"block {BLOCK}\")",
    "tl.static_print(f",
    "f\"",
    ["f-string"],
    "tl.static_print"
);

unsupported!(
    dict_literal,
    "d = {\"a\": 1}",
    "d = {",
    "{",
    ["dict literal"],
    "separate variables"
);

unsupported!(
    set_literal,
    "d = {1, 2}",
    "d = {1, 2}",
    "{",
    ["set literal"],
    "separate variables"
);

unsupported!(
    slice_with_bounds,
    "y = x[1:3]",
    "y = x[1:3]",
    "1:3",
    ["slicing"],
    "x[:, None]"
);

unsupported!(
    slice_with_step,
    "y = x[::2]",
    "y = x[::2]",
    "::2",
    ["slicing"],
    "x[:, None]"
);

unsupported!(
    index_tensor_with_int,
    "y = x[0]",
    "y = x[0]",
    "x[0]",
    ["indexing a tensor"],
    "tl.where"
);

unsupported!(
    assign_into_tensor_element,
    "x[0] = 1.0",
    "x[0] = 1.0",
    "x[0]",
    ["assignment into a tensor element"],
    "tl.where"
);

unsupported!(
    assign_to_attribute,
    "x.foo = 1.0",
    "x.foo = 1.0",
    "x.foo",
    ["assignment to an attribute"],
    "local variable"
);

unsupported!(
    global_statement,
    "global G",
    "global G",
    "global",
    ["global"],
    "parameters"
);

unsupported!(
    nonlocal_statement,
    "nonlocal G",
    "nonlocal G",
    "nonlocal",
    ["nonlocal"],
    "parameters"
);

unsupported!(
    del_statement,
    "v = 1\ndel v",
    "del v",
    "del",
    ["del"],
    "go out of use"
);

unsupported!(
    raise_statement,
    "raise ValueError(\"no\")",
    "raise",
    "raise",
    ["raise"],
    "tl.static_assert"
);

unsupported!(
    match_statement,
    "match BLOCK:\n    case 4:\n        pass",
    "match BLOCK:",
    "match",
    ["match"],
    "if/elif/else"
);

unsupported!(
    chained_comparison,
    "c = 0 < n < 10",
    "c = 0 < n < 10",
    "0 < n",
    ["chained comparison"],
    "&"
);

unsupported!(
    return_inside_loop,
    "for i in range(4):\n    return",
    "    return",
    "return",
    ["`return` inside a loop"],
    "after the loop"
);

/// `f(*t)` passes a tuple's items (Triton's `visit_Call` spreads a
/// `tl.tuple`: `test_tuple.py::test_namedtuple` calls
/// `closure.fn(x, *closure.captured)`), so `tl.load(*t)` is `tl.load(x_ptr +
/// offs)`; `*` of anything else fails Triton's assert and is refused.
#[test]
fn starred_call_argument() {
    let src = std_src("t = (x_ptr + offs,)\nx = tl.load(*t) + 1.0");
    let r = run_clean(&src, &std_launch());
    assert_eq!(
        bits(&r, "out_ptr"),
        f32_bits(&[2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
    );
    let src = std_src("v = tl.load(*x_ptr)");
    check(
        &src,
        &std_launch(),
        "tl.load(*x_ptr)",
        "*x_ptr",
        &["`*` in a call needs a tuple, got tensor"],
        None,
    );
}

unsupported!(
    double_starred_call_argument,
    "v = tl.load(x_ptr + offs, **kw)",
    "**kw",
    "**kw",
    ["**kwargs"],
    "explicitly"
);

unsupported!(
    pow_on_tensor,
    "y = x ** 2",
    "y = x ** 2",
    "x ** 2",
    ["**"],
    "x * x"
);

#[test]
fn star_args_in_kernel_def() {
    let src = kernel("x_ptr, out_ptr, *rest", "pass");
    check(
        &src,
        &std_launch(),
        "def kern",
        "rest",
        &["*args", "not supported"],
        Some("explicit parameters"),
    );
}

#[test]
fn star_star_kwargs_in_kernel_def() {
    let src = kernel("x_ptr, out_ptr, **opts", "pass");
    check(
        &src,
        &std_launch(),
        "def kern",
        "opts",
        &["**kwargs", "not supported"],
        Some("explicit parameters"),
    );
}

#[test]
fn star_args_in_jit_helper_def() {
    let src = format!(
        "{PRELUDE}@triton.jit\ndef helper(*vals):\n    return 1\n\n\n@triton.jit\ndef kern({STD_PARAMS}):\n    v = helper(n)\n"
    );
    check(
        &src,
        &std_launch(),
        "def helper",
        "vals",
        &["*args", "not supported"],
        Some("explicit parameters"),
    );
}

#[test]
fn star_star_kwargs_in_jit_helper_def() {
    let src = format!(
        "{PRELUDE}@triton.jit\ndef helper(v, **more):\n    return v\n\n\n@triton.jit\ndef kern({STD_PARAMS}):\n    v = helper(n)\n"
    );
    check(
        &src,
        &std_launch(),
        "def helper",
        "more",
        &["**kwargs", "not supported"],
        Some("explicit parameters"),
    );
}

#[test]
fn direct_recursion() {
    let src = format!(
        "{PRELUDE}@triton.jit\ndef fact(v):\n    return v * fact(v - 1)\n\n\n@triton.jit\ndef kern({STD_PARAMS}):\n    v = fact(n)\n"
    );
    check(
        &src,
        &std_launch(),
        "return v * fact(v - 1)",
        "fact(",
        &["recursive", "fact"],
        Some("loop"),
    );
}

#[test]
fn mutual_recursion() {
    let src = format!(
        "{PRELUDE}@triton.jit\ndef ping(v):\n    return pong(v + 1)\n\n\n@triton.jit\ndef pong(v):\n    return ping(v - 1)\n\n\n@triton.jit\ndef kern({STD_PARAMS}):\n    v = ping(n)\n"
    );
    check(
        &src,
        &std_launch(),
        "return ping(v - 1)",
        "ping(",
        &["recursive", "ping"],
        Some("loop"),
    );
}

// ----- syntax errors ---------------------------------------------------------

/// A malformed program: the error must be on `line` (and at `col`, when given).
fn syntax_error(src: &str, line: u32, col: Option<u32>) {
    let d = refused(src, &std_launch());
    assert!(
        d.message.contains("syntax"),
        "message {:?} should say it is a syntax error",
        d.message
    );
    assert_eq!(
        d.span.line, line,
        "syntax error reported on the wrong line: {:?} at line {} col {}\nsource:\n{src}",
        d.message, d.span.line, d.span.col
    );
    if let Some(c) = col {
        assert_eq!(
            d.span.col, c,
            "syntax error at the wrong column: {:?}",
            d.message
        );
    }
    check_rendered(src, &d);
}

#[test]
fn syntax_error_missing_colon() {
    let src = std_src("if n > 0\n    pass");
    let (line, _) = loc1(&src, "if n > 0");
    // CPython: "expected ':'" at the end of the `if` line.
    let col = line_text(&src, line).len() as u32 + 1;
    syntax_error(&src, line, Some(col));
}

#[test]
fn syntax_error_double_equals_sign() {
    let src = std_src("v = = 1");
    let (line, col) = loc(&src, "v = = 1", "= 1");
    syntax_error(&src, line, Some(col));
}

#[test]
fn syntax_error_unclosed_paren_points_at_its_line() {
    // CPython: "'(' was never closed" on the line of the parenthesis.
    let src = std_src("v = (1 + 2\nw = 3\nu = 4");
    let (line, _) = loc1(&src, "v = (1 + 2");
    syntax_error(&src, line, None);
}

#[test]
fn syntax_error_unexpected_indent() {
    let src = std_src("v = 1\n        w = 2");
    let (line, _) = loc1(&src, "w = 2");
    syntax_error(&src, line, None);
}

#[test]
fn syntax_error_unterminated_string() {
    let src = std_src("tl.static_print(\"abc)\nw = 2");
    let (line, _) = loc1(&src, "tl.static_print(\"abc)");
    syntax_error(&src, line, None);
}

#[test]
fn syntax_error_in_a_later_function() {
    let src = format!(
        "{}\n\n@triton.jit\ndef other(a):\n    return a +* 2\n",
        std_src("pass")
    );
    let (line, col) = loc(&src, "return a +* 2", "* 2");
    syntax_error(&src, line, Some(col));
}

// ----- 2. Triton type errors ---------------------------------------------------

const TYPED_PARAMS: &str =
    "f_ptr, g_ptr, i8_ptr, u8_ptr, i32_ptr, u32_ptr, out_ptr, s, BLOCK: tl.constexpr";

/// A kernel with float32 tiles `f`, `g`, an int8 tile `a8`, a uint8 tile `u8`,
/// int32/uint32 tiles `i32`/`u32`, a float32 scalar `s` and `pid`; `body` follows.
fn typed_src(body: &str) -> String {
    kernel(
        TYPED_PARAMS,
        &format!(
            "offs = tl.arange(0, BLOCK)\nf = tl.load(f_ptr + offs)\ng = tl.load(g_ptr + offs)\na8 = tl.load(i8_ptr + offs)\nu8 = tl.load(u8_ptr + offs)\ni32 = tl.load(i32_ptr + offs)\nu32 = tl.load(u32_ptr + offs)\npid = tl.program_id(0)\n{body}"
        ),
    )
}

fn typed_args() -> ksem_tests::serde_json::Value {
    json!({
        "f_ptr": zeros("float32", 4),
        "g_ptr": zeros("float32", 4),
        "i8_ptr": zeros("int8", 4),
        "u8_ptr": zeros("uint8", 4),
        "i32_ptr": zeros("int32", 4),
        "u32_ptr": zeros("uint32", 4),
        "out_ptr": zeros("float32", 4),
        "s": scalar("float32", json!(1.5)),
        "BLOCK": cx(json!(4)),
    })
}

fn typed_launch() -> ksem_interp::launch::Launch {
    launch(&[1], typed_args())
}

/// A type error in the typed kernel at the first `at` of the line containing `line`.
macro_rules! type_error {
    ($name:ident, $body:expr, $line:expr, $at:expr, [$($msg:expr),*]) => {
        #[test]
        fn $name() {
            let src = typed_src($body);
            check(&src, &typed_launch(), $line, $at, &[$($msg),*], None);
        }
    };
    ($name:ident, $body:expr, $line:expr, $at:expr, [$($msg:expr),*], $help:expr) => {
        #[test]
        fn $name() {
            let src = typed_src($body);
            check(&src, &typed_launch(), $line, $at, &[$($msg),*], Some($help));
        }
    };
}

#[test]
fn typed_kernel_is_accepted() {
    // Every well-typed combination the type-error tests perturb.
    let src = typed_src(
        "y = f + g\nb = i32 & i32\nc = u8 + 1\nd = a8 + 100\ne = i32 // i32\nh = u32 % u32\nk = i32 + u32\nm = i32 << 3\ntl.store(out_ptr + offs, y, mask=offs < 2)\ntl.static_assert(BLOCK == 4, \"ok\")",
    );
    if let Err(e) = elaborate(&src, &typed_launch()) {
        panic!("the well-typed kernel was refused:\n{}", e.render());
    }
}

type_error!(
    bitand_on_float,
    "y = f & g",
    "y = f & g",
    "f & g",
    ["bitwise", "fp32"],
    "bitcast"
);
type_error!(
    bitor_on_float,
    "y = f | g",
    "y = f | g",
    "f | g",
    ["bitwise"],
    "bitcast"
);
type_error!(
    bitxor_on_float,
    "y = f ^ g",
    "y = f ^ g",
    "f ^ g",
    ["bitwise"],
    "bitcast"
);
type_error!(
    shl_on_float,
    "y = f << 1",
    "y = f << 1",
    "f << 1",
    ["bitwise"],
    "bitcast"
);
type_error!(
    shr_on_float,
    "y = f >> i32",
    "y = f >> i32",
    "f >> i32",
    ["bitwise"],
    "bitcast"
);
type_error!(
    bitand_float_with_int,
    "y = i32 & f",
    "y = i32 & f",
    "i32 & f",
    ["bitwise"],
    "bitcast"
);
type_error!(invert_on_float, "y = ~f", "y = ~f", "~f", ["~"]);

type_error!(
    unsigned_plus_negative_literal,
    "y = u8 + -1",
    "y = u8 + -1",
    "u8 + -1",
    ["unsigned", "negative"]
);
type_error!(
    unsigned_less_than_negative_literal,
    "y = u8 < -1",
    "y = u8 < -1",
    "u8 < -1",
    ["unsigned", "negative"]
);
type_error!(
    int8_plus_200_out_of_range,
    "y = a8 + 200",
    "y = a8 + 200",
    "a8 + 200",
    ["200", "out of range", "int8"]
);
type_error!(
    int8_plus_2_pow_40_out_of_range,
    "y = a8 + 2**40",
    "y = a8 + 2**40",
    "a8 + 2**40",
    ["1099511627776", "out of range"]
);
type_error!(
    floordiv_on_float,
    "y = f // g",
    "y = f // g",
    "f // g",
    ["//"],
    "tl.floor"
);
type_error!(
    floordiv_float_by_literal,
    "y = f // 2",
    "y = f // 2",
    "f // 2",
    ["//"],
    "tl.floor"
);
type_error!(
    floordiv_mixed_signedness,
    "y = i32 // u32",
    "y = i32 // u32",
    "i32 // u32",
    ["signedness"]
);
type_error!(
    mod_mixed_signedness,
    "y = i32 % u32",
    "y = i32 % u32",
    "i32 % u32",
    ["signedness"]
);
type_error!(
    div_mixed_signedness,
    "y = u32 / i32",
    "y = u32 / i32",
    "u32 / i32",
    ["signedness"]
);
type_error!(
    incompatible_broadcast_1d,
    "y = tl.arange(0, 4) + tl.arange(0, 8)",
    "y = tl.arange(0, 4)",
    "tl.arange(0, 4) +",
    ["shapes", "[4]", "[8]"]
);
type_error!(
    incompatible_broadcast_2d,
    "y = tl.zeros((4, 8), tl.float32) * tl.zeros((8, 4), tl.float32)",
    "y = tl.zeros((4, 8)",
    "tl.zeros((4, 8)",
    ["shapes"]
);
type_error!(
    arange_non_power_of_two,
    "y = tl.arange(0, 6)",
    "y = tl.arange(0, 6)",
    "tl.arange",
    ["power of 2", "6"]
);
type_error!(
    arange_non_power_of_two_offset,
    "y = tl.arange(2, 8)",
    "y = tl.arange(2, 8)",
    "tl.arange",
    ["power of 2"]
);
type_error!(
    store_to_a_tile_of_numbers,
    "tl.store(f, 1.0)",
    "tl.store(f, 1.0)",
    "tl.store",
    ["pointer"]
);
type_error!(
    store_to_a_runtime_scalar,
    "tl.store(s, 1.0)",
    "tl.store(s, 1.0)",
    "tl.store",
    ["pointer"]
);
type_error!(
    load_from_non_pointer,
    "y = tl.load(f)",
    "y = tl.load(f)",
    "tl.load",
    ["pointer"]
);
type_error!(
    load_mask_not_bool,
    "y = tl.load(f_ptr + offs, mask=offs)",
    "mask=offs)",
    "tl.load",
    ["mask", "bool"]
);
type_error!(
    store_mask_not_bool,
    "tl.store(out_ptr + offs, f, mask=i32)",
    "mask=i32)",
    "tl.store",
    ["mask", "bool"]
);
type_error!(
    loop_carried_variable_changes_type,
    "acc = 0\nfor i in range(4):\n    acc += s",
    "for i in range(4):",
    "for",
    ["acc", "loop-carried", "int32", "fp32"]
);
type_error!(
    while_carried_variable_changes_type,
    "acc = 0\ni = 0\nwhile i < 4:\n    acc += s\n    i += 1",
    "while i < 4:",
    "while",
    ["acc", "int32", "fp32"]
);
type_error!(
    loop_carried_variable_changes_shape,
    "acc = 0.0\nfor i in range(4):\n    acc += f",
    "for i in range(4):",
    "for",
    ["acc", "loop-carried"]
);
type_error!(
    if_else_branches_disagree_on_type,
    "if pid > 0:\n    v = 1\nelse:\n    v = 1.0\ntl.store(out_ptr, v)",
    "if pid > 0:",
    "if",
    ["`v`", "int32", "fp32"]
);
type_error!(
    conditional_expression_branches_disagree,
    "v = 1 if pid > 0 else 1.0",
    "v = 1 if pid > 0",
    "1 if",
    ["int32", "fp32"]
);
type_error!(
    static_assert_false,
    "tl.static_assert(False, \"need a bigger block\")",
    "tl.static_assert(False",
    "tl.static_assert",
    ["static_assert", "need a bigger block"]
);
type_error!(
    static_assert_on_constexpr,
    "tl.static_assert(BLOCK == 8, \"BLOCK must be 8\")",
    "tl.static_assert(BLOCK == 8",
    "tl.static_assert",
    ["BLOCK must be 8"]
);
type_error!(
    constant_zero_range_step,
    "for i in range(0, 4, 0):\n    pass",
    "for i in range(0, 4, 0):",
    "for",
    ["range() arg 3 must not be zero"]
);
type_error!(
    and_on_non_bool_tensors,
    "y = i32 and i32",
    "y = i32 and i32",
    "i32 and",
    ["and"],
    "&"
);

// ----- launch arguments against the kernel's parameters ---------------------

#[test]
fn missing_launch_argument() {
    let src = typed_src("pass");
    let mut args = typed_args();
    args.as_object_mut().unwrap().remove("BLOCK");
    check(
        &src,
        &launch(&[1], args),
        "def kern",
        "BLOCK",
        &["BLOCK", "no argument"],
        Some("\"BLOCK\""),
    );
}

#[test]
fn missing_pointer_argument() {
    let src = typed_src("pass");
    let mut args = typed_args();
    args.as_object_mut().unwrap().remove("u8_ptr");
    check(
        &src,
        &launch(&[1], args),
        "def kern",
        "u8_ptr",
        &["u8_ptr"],
        Some("\"u8_ptr\""),
    );
}

#[test]
fn extra_launch_argument() {
    let src = typed_src("pass");
    let mut args = typed_args();
    args.as_object_mut()
        .unwrap()
        .insert("zz".into(), cx(json!(1)));
    check(
        &src,
        &launch(&[1], args),
        "def kern",
        "def",
        &["`zz`"],
        None,
    );
}

#[test]
fn runtime_scalar_for_constexpr_parameter() {
    let src = typed_src("pass");
    let mut args = typed_args();
    args.as_object_mut()
        .unwrap()
        .insert("BLOCK".into(), scalar("int32", json!(4)));
    check(
        &src,
        &launch(&[1], args),
        "def kern",
        "BLOCK",
        &["BLOCK", "constexpr", "runtime scalar"],
        Some("\"constexpr\""),
    );
}

#[test]
fn buffer_for_constexpr_parameter() {
    let src = typed_src("pass");
    let mut args = typed_args();
    args.as_object_mut()
        .unwrap()
        .insert("BLOCK".into(), zeros("int32", 4));
    check(
        &src,
        &launch(&[1], args),
        "def kern",
        "BLOCK",
        &["BLOCK", "constexpr", "buffer"],
        None,
    );
}

// ----- the CLI: exit status 2 and the stderr layout ----------------------------

#[test]
fn cli_unsupported_syntax_exit_2_with_source_line_caret_and_help() {
    let Some(bin) = ksem_or_skip("cli_unsupported_syntax_exit_2_with_source_line_caret_and_help")
    else {
        return;
    };
    let src = std_src("f = lambda v: v + 1");
    let (line, col) = loc1(&src, "lambda");
    for sub in ["run", "check"] {
        let out = cli_case(&bin, sub, &src, &launch_json(&[2], std_args()), &[]);
        out.assert_code(2);
        let lines: Vec<&str> = out.stderr.lines().collect();
        assert_eq!(
            lines.first().copied(),
            Some(
                format!("{FILE}:{line}:{col}: error: `lambda` is not supported in a Triton kernel")
                    .as_str()
            ),
            "stderr:\n{}",
            out.stderr
        );
        // then codespan-reporting's excerpt: where, the line, carets under
        // `lambda`, the help
        assert_eq!(
            lines.get(1).map(|l| l.trim_start()),
            Some(format!("┌─ {FILE}:{line}:{col}").as_str())
        );
        let excerpt = format!("{line} │     f = lambda v: v + 1");
        let at = lines.iter().position(|l| l.trim_start() == excerpt);
        let at = at.unwrap_or_else(|| panic!("no excerpt {excerpt:?}:\n{}", out.stderr));
        let chars = |l: &str| l.chars().collect::<Vec<char>>();
        let lambda_at = lines[at]
            .find("lambda")
            .map(|b| lines[at][..b].chars().count());
        let carets = chars(lines[at + 1]);
        assert_eq!(carets.iter().position(|&c| c == '^'), lambda_at);
        assert_eq!(carets.iter().filter(|&&c| c == '^').count(), "lambda".len());
        assert!(
            lines.iter().any(|l| l.trim_start().starts_with("= help: ")),
            "no help line:\n{}",
            out.stderr
        );
        assert!(
            out.stdout.is_empty(),
            "stdout should be empty: {}",
            out.stdout
        );
    }
}

#[test]
fn cli_type_error_exit_2() {
    let Some(bin) = ksem_or_skip("cli_type_error_exit_2") else {
        return;
    };
    let src = typed_src("y = u8 + -1");
    let (line, col) = loc1(&src, "u8 + -1");
    let out = cli_case(&bin, "check", &src, &launch_json(&[1], typed_args()), &[]);
    out.assert_code(2);
    assert!(
        out.stderr
            .starts_with(&format!("{FILE}:{line}:{col}: error: ")),
        "stderr:\n{}",
        out.stderr
    );
}

#[test]
fn cli_syntax_error_exit_2() {
    let Some(bin) = ksem_or_skip("cli_syntax_error_exit_2") else {
        return;
    };
    let src = std_src("v = = 1");
    let (line, col) = loc(&src, "v = = 1", "= 1");
    let out = cli_case(&bin, "run", &src, &launch_json(&[2], std_args()), &[]);
    out.assert_code(2);
    assert!(
        out.stderr
            .starts_with(&format!("{FILE}:{line}:{col}: error: ")),
        "stderr:\n{}",
        out.stderr
    );
}

#[test]
fn cli_check_without_launch_reports_syntax_errors() {
    let Some(bin) = ksem_or_skip("cli_check_without_launch_reports_syntax_errors") else {
        return;
    };
    let src = std_src("v = = 1");
    let (line, col) = loc(&src, "v = = 1", "= 1");
    let dir = TempDir::new("check-nolaunch");
    dir.write(FILE, &src);
    let out = run_cli(
        &bin,
        &dir.path,
        &["check", FILE],
        std::time::Duration::from_secs(60),
    );
    out.assert_code(2);
    assert!(
        out.stderr
            .starts_with(&format!("{FILE}:{line}:{col}: error: ")),
        "stderr:\n{}",
        out.stderr
    );
}
