//! NamedTuple classes and `@triton.constexpr_function` in Triton kernels
//! (Triton's `test_tuple.py::test_namedtuple` and
//! `test_tuple_constexpr_function`). Triton's code generator calls a
//! NamedTuple class as Python does and keeps the field names on the tuple
//! it makes; a constexpr_function is a Python function Triton runs while
//! compiling, on its arguments' values. Expected values are worked out by
//! hand in each test; the error messages are CPython 3.11's (the
//! expressions run with python3.11, whose `TypeError`/`ValueError`/
//! `AttributeError` text the message quotes).

use ksem_tests::serde_json::json;
use ksem_tests::*;

/// The test module: imports, a `typing.NamedTuple` class `Pair` (field
/// `b` defaulting to 5), a `collections.namedtuple` class `Tri` (`z`
/// defaulting to 100), then `rest` (jit helpers and the kernel).
fn module(rest: &str) -> String {
    format!(
        "import triton
import triton.language as tl
from typing import NamedTuple
from collections import namedtuple


class Pair(NamedTuple):
    a: tl.constexpr
    b: int = 5


Tri = namedtuple(\"Tri\", \"x, y z\", defaults=(100,))

{rest}"
    )
}

fn one_int32(src: &str) -> Vec<u64> {
    let l = launch(&[1], json!({"out": zeros("int32", 8)}));
    bits(&run_clean(src, &l), "out")
}

/// Fields by name and by index, keyword construction in a helper that
/// returns the instance, a default filled in, unpacking, and an instance
/// passed on to another helper (whose parameter shadows the class name).
#[test]
fn fields_by_name_and_index_through_helpers() {
    let src = module(
        "@triton.jit
def make(a, b):
    p = Pair(b=b, a=a)
    return p


@triton.jit
def total(Pair):
    return Pair.a * 10 + Pair[1]


@triton.jit
def kern(out):
    p = make(3, 4)
    q = Pair(7)
    u, v = q
    t = Tri(1, 2)
    tl.store(out + 0, p.a)
    tl.store(out + 1, p[1])
    tl.store(out + 2, q.b)
    tl.store(out + 3, u * 10 + v)
    tl.store(out + 4, total(p))
    tl.store(out + 5, t.x * 100 + t.y * 10 + t[-1])
    tl.store(out + 6, len_is_three(t))
    tl.store(out + 7, Tri(z=9, y=8, x=7).z)


@triton.jit
def len_is_three(t):
    a, b, c = t
    return c",
    );
    // p = Pair(3, 4): a = 3, p[1] = 4; q = Pair(7) = (7, 5): q.b = 5,
    // u * 10 + v = 75; total(p) = 3 * 10 + 4 = 34; t = Tri(1, 2) =
    // (1, 2, 100): 100 + 20 + 100 = 220, its third item 100; Tri(7, 8, 9).z = 9
    assert_eq!(one_int32(&src), vec![3, 4, 5, 75, 34, 220, 100, 9]);
}

/// A field holding a @triton.jit function is called (Triton's `Function`
/// NamedTuple in `test_namedtuple`), with a tuple field spread by `*`;
/// `+` of an instance and a tuple is a plain tuple of their items, and an
/// instance `==` a tuple of equal items (Python's tuple rules).
#[test]
fn a_function_field_called_with_a_spread_tuple() {
    let src = module(
        "class Function(NamedTuple):
    fn: tl.constexpr
    captured: tuple


@triton.jit
def mul_add(x, a, b):
    return x * a + b


@triton.jit
def kern(out):
    f = Function(mul_add, (3, 4))
    tl.store(out + 0, f.fn(10, *f.captured))
    s = Pair(1, 2) + (3,)
    tl.store(out + 1, s[0] * 100 + s[1] * 10 + s[2])
    tl.static_assert(Pair(1, 2) == (1, 2))
    tl.static_assert(Tri(1, 2, 3) != (1, 2))
    tl.store(out + 2, mul_add(*Pair(2, 3), 4))",
    );
    // 10 * 3 + 4 = 34; (1, 2, 3) → 123; 2 * 3 + 4 = 10
    let got = one_int32(&src);
    assert_eq!(got[..3], [34, 123, 10]);
}

/// `P.__new__`'s argument binding errors are Python's TypeErrors, at the
/// call.
#[test]
fn wrong_construction_is_pythons_type_error() {
    let cases = [
        (
            "Pair(1, 2, 3)",
            "TypeError: Pair.__new__() takes from 2 to 3 positional arguments but 4 were given",
        ),
        (
            "Pair()",
            "TypeError: Pair.__new__() missing 1 required positional argument: 'a'",
        ),
        (
            "Pair(1, c=2)",
            "TypeError: Pair.__new__() got an unexpected keyword argument 'c'",
        ),
        (
            "Pair(1, a=2)",
            "TypeError: Pair.__new__() got multiple values for argument 'a'",
        ),
        (
            "Tri()",
            "TypeError: Tri.__new__() missing 2 required positional arguments: 'x' and 'y'",
        ),
    ];
    for (call, msg) in cases {
        let src = module(&format!(
            "@triton.jit\ndef kern(out):\n    tl.store(out, {call}[0])\n"
        ));
        let d = refused(&src, &launch(&[1], json!({"out": zeros("int32", 1)})));
        assert_diag(&src, &d, loc1(&src, call), &[msg], None);
    }
    let src = module("@triton.jit\ndef kern(out):\n    tl.store(out, Pair(1).c)\n");
    let d = refused(&src, &launch(&[1], json!({"out": zeros("int32", 1)})));
    assert_diag(
        &src,
        &d,
        loc1(&src, "Pair(1).c"),
        &["AttributeError: 'Pair' object has no attribute 'c'"],
        None,
    );
}

/// A class Python refuses to make is an import error of the module: a
/// field without a default after one with a default (TypeError), and
/// namedtuple's ValueErrors for field names.
#[test]
fn classes_python_refuses_to_make() {
    let kern = "@triton.jit\ndef kern(out):\n    tl.store(out, 1)\n";
    let cases = [
        (
            "class Bad(NamedTuple):\n    x: int = 1\n    y: int\n",
            "y: int",
            "TypeError: Non-default namedtuple field y cannot follow default field x",
        ),
        (
            "Bad = namedtuple(\"Bad\", [\"x\", \"x\"])\n",
            "\"x\"]",
            "ValueError: Encountered duplicate field name: 'x'",
        ),
        (
            "Bad = namedtuple(\"Bad\", \"_x\")\n",
            "\"_x\"",
            "ValueError: Field names cannot start with an underscore: '_x'",
        ),
        (
            "Bad = namedtuple(\"Bad\", [\"for\"])\n",
            "\"for\"",
            "ValueError: Type names and field names cannot be a keyword: 'for'",
        ),
        (
            "Bad = namedtuple(\"Bad\", \"x\", defaults=(1, 2))\n",
            "(1, 2)",
            "TypeError: Got more default values than field names",
        ),
    ];
    for (class, at, msg) in cases {
        let src = module(&format!("{class}\n\n{kern}"));
        let d = refused(&src, &launch(&[1], json!({"out": zeros("int32", 1)})));
        let line = class.lines().find(|l| l.contains(at)).unwrap_or(class);
        assert_diag(&src, &d, loc(&src, line, at), &[msg], None);
    }
}

/// A constexpr_function runs as Python while compiling: an assignment
/// keeps a Python int (2**40 does not wrap as an int32 tensor would), a
/// `range` loop unrolls, and the result is compile-time (a `tl.full`
/// shape, a `tl.static_assert`); it may return a NamedTuple (Triton's
/// `test_tuple_constexpr_function`).
#[test]
fn constexpr_function_runs_python_on_compile_time_values() {
    let src = module(
        "@triton.constexpr_function
def squares_below(n):
    big = 2 ** 40
    total = 0
    for i in range(n):
        total = total + i * i
    return (total * big) // big


@triton.constexpr_function
def passthrough(x):
    return x


@triton.jit
def kern(out):
    n: tl.constexpr = squares_below(4)
    tl.static_assert(passthrough(Pair(0)).a == 0)
    tl.static_assert(passthrough(Pair(0)).b == 5)
    tl.store(out + tl.arange(0, 8), tl.full((8,), n, tl.int32))",
    );
    // 0 + 1 + 4 + 9 = 14
    assert_eq!(one_int32(&src), vec![14; 8]);
}

/// A constexpr_function given a runtime value, or computing one, is
/// refused at the call.
#[test]
fn constexpr_function_refuses_runtime_values() {
    let src = module(
        "@triton.constexpr_function
def twice(x):
    return x * 2


@triton.jit
def kern(out):
    v = tl.load(out)
    tl.store(out, twice(v))",
    );
    let d = refused(&src, &launch(&[1], json!({"out": zeros("int32", 1)})));
    assert_diag(
        &src,
        &d,
        loc1(&src, "twice(v)"),
        &["`twice` is a @triton.constexpr_function: its arguments must be compile-time values, got tensor"],
        None,
    );
    let src = module(
        "@triton.constexpr_function
def lanes(n):
    return tl.arange(0, n)


@triton.jit
def kern(out):
    tl.store(out + lanes(4), 1)",
    );
    let d = refused(&src, &launch(&[1], json!({"out": zeros("int32", 4)})));
    assert_diag(
        &src,
        &d,
        loc1(&src, "lanes(4)"),
        &["`lanes` is a @triton.constexpr_function but computes a runtime value"],
        None,
    );
}

/// A helper of an imported module calls its own module's constexpr_function
/// (twice(21) = 42) and NamedTuple class; the importer's own `from helpers
/// import twice` binds the constexpr_function too (real Triton 3.9 runs
/// `twice(2)` there as Python: 4; tools/probes/triton_interp/
/// constexpr_function measures calls of imported ones).
#[test]
fn constexpr_functions_and_classes_of_imported_modules() {
    let d = TempDir::new("nt-imports");
    d.write(
        "helpers.py",
        "import triton\nimport triton.language as tl\nfrom typing import NamedTuple\n\n\nclass P(NamedTuple):\n    a: int\n    b: int = 1\n\n\n@triton.constexpr_function\ndef twice(x):\n    return 2 * x\n\n\n@triton.jit\ndef use(x):\n    return P(twice(x)).a + P(0).b\n",
    );
    let k = d.write(
        "kern.py",
        "import triton\nimport triton.language as tl\nfrom helpers import use, P\n\n\n@triton.jit\ndef kern(out):\n    tl.store(out, use(21) + P(10, 20).b)\n",
    );
    let l = launch(&[1], json!({"out": zeros("int32", 1)}));
    let run = |path: &std::path::Path| {
        let src = std::fs::read_to_string(path).unwrap();
        ksem_interp::run_source(&path.display().to_string(), &src, &l, None, &opts())
    };
    // 42 + 1 + 20
    assert_eq!(bits(&run(&k).expect("runs"), "out"), vec![63]);
    let k2 = d.write(
        "kern2.py",
        "import triton\nimport triton.language as tl\nfrom helpers import twice\n\n\n@triton.jit\ndef kern(out):\n    tl.store(out, twice(2))\n",
    );
    assert_eq!(bits(&run(&k2).expect("runs"), "out"), vec![4]);
}

/// The probe's kernel (tools/probes/triton_interp/constexpr_function/
/// kern.py, with its helper module cfhelpers.py) on ksem gives what real
/// Triton 3.9's interpreter stored (its JSON; the compiler folded the
/// same constants). By hand: log2_loop(1024) = 10 (`while` halving);
/// first_multiple(10, 3) = 12 (`while True` with `continue` past
/// non-multiples, `break` at the first multiple >= 10); sum_tuple((1, -2,
/// 3, 4)) = 8 (`for` over a tuple, `continue` past -2); sum_range(1, 40)
/// = 1 + 3 + … + 21 = 121 (`for` over range(1, 40, 2), `break` past 100);
/// nested(16) = 4 * 100 + (16 + 2) = 418 (constexpr_functions calling
/// others); cfhelpers.cube_plus(2) = inner(8) = 9 (through `import
/// cfhelpers`); ch.inner(41) + cube_plus(1) = 42 + 2 = 44 (`import …
/// as ch`, `from … import`); ch.jit_uses(3) = 28 (a jit helper of the
/// module calling its constexpr_function); take_cfg(Cfg(64, 3)) =
/// 64 * 3 + log2_loop(64) = 198 (a NamedTuple through a `tl.constexpr`
/// parameter).
#[test]
fn constexpr_function_loops_and_imports_match_real_triton() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tools/probes/triton_interp/constexpr_function");
    let measured = probe_json("triton_interp/constexpr_function/constexpr_function.json");
    let want: Vec<u64> =
        ksem_tests::serde_json::from_value(measured["interpreter_out"].clone()).unwrap();
    assert_eq!(want, vec![10, 12, 8, 121, 418, 9, 44, 28, 198]);
    let path = dir.join("kern.py");
    let src = std::fs::read_to_string(&path).unwrap();
    let l = launch(&[1], json!({"out": zeros("int32", 9)}));
    let r = ksem_interp::run_source(&path.display().to_string(), &src, &l, Some("kern"), &opts())
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(bits(&r, "out"), want);
}

/// A `return` inside a constexpr_function's loops ends the function with
/// its value (the first i whose square passes 50: 8), and `break` leaves
/// only the innermost loop (the inner `for` stops at j == 2 each time:
/// 3 outer trips of 2 inner ones, 6).
#[test]
fn constexpr_function_return_and_break_in_nested_loops() {
    let src = module(
        "@triton.constexpr_function
def first_square_over(n):
    i = 0
    while True:
        for j in range(100):
            if j * j > n:
                return j
        i += 1


@triton.constexpr_function
def inner_breaks():
    count = 0
    for i in (1, 2, 3):
        for j in range(10):
            if j == 2:
                break
            count += 1
    return count


@triton.jit
def kern(out):
    tl.store(out + 0, first_square_over(50))
    tl.store(out + 1, inner_breaks())",
    );
    assert_eq!(one_int32(&src)[..2], [8, 6]);
}

/// A constexpr_function's `while` needs a compile-time condition, one
/// that never ends is stopped at ksem's iteration cap, and its `for` runs
/// over a range or a tuple: each refused at the loop.
#[test]
fn constexpr_function_loops_that_cannot_run_are_refused() {
    let cases = [
        (
            "while n > 0:\n        n = n + 1",
            "while n > 0",
            "a constexpr_function's loop runs more than 1048576 iterations",
        ),
        (
            "while tl.program_id(0) < n:\n        n = n - 1",
            "while tl.program_id",
            "a constexpr_function's `while` condition must be a compile-time value",
        ),
        (
            "for v in n:\n        n = v",
            "for v in n",
            "a constexpr_function's `for` runs over range() or a tuple, not",
        ),
    ];
    for (body, at, msg) in cases {
        let src = module(&format!(
            "@triton.constexpr_function\ndef f(n):\n    {body}\n    return n\n\n\n@triton.jit\ndef kern(out):\n    tl.store(out, f(1))"
        ));
        let d = refused(&src, &launch(&[1], json!({"out": zeros("int32", 1)})));
        assert_diag(&src, &d, loc1(&src, at), &[msg], None);
    }
}
