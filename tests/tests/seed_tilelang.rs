//! Every rule and example of the TileLang seed (002), checked on the bits
//! ksem computes and on what it refuses. Expected values are reasoned by
//! hand in each test (the seed's own tables where it has them); where the
//! seed is silent, the measured behaviour of tilelang 0.1.15's C target
//! (tools/probes/tilelang/, docs/tilelang-measured.md) is the reference.

use ksem_interp::launch::{parse_launch, Launch, RunResult};
use ksem_tests::*;
use serde_json::{json, Value as Json};

/// A TileLang module: the imports, then `rest`.
fn module(rest: &str) -> String {
    format!("import tilelang\nimport tilelang.language as T\n\n{rest}")
}

/// One `@T.prim_func main(PARAMS)` whose body runs under
/// `with T.Kernel(GRID, threads=1) as bx:`.
fn prim(grid: u32, params: &str, body: &str) -> String {
    module(&format!(
        "@T.prim_func\ndef main({params}):\n    with T.Kernel({grid}, threads=1) as bx:\n{}\n",
        indent(&indent(body))
    ))
}

/// A launch with only arguments (T.Kernel fixes the grid).
fn args(a: Json) -> Launch {
    let text = json!({ "args": a }).to_string();
    parse_launch(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn ints(r: &RunResult, name: &str) -> Vec<i64> {
    let b = r.buffers.iter().find(|b| b.name == name).expect("buffer");
    b.bits
        .iter()
        .map(|&x| match b.dtype.bits() {
            8 => x as u8 as i8 as i64,
            16 => x as u16 as i16 as i64,
            32 => x as u32 as i32 as i64,
            _ => x as i64,
        })
        .collect()
}

fn i32s(v: &[i64]) -> Json {
    buf("int32", json!(v))
}

/// Runs `body` with int32 buffers A (given) and C (n zeros); C's values.
fn ints_of(body: &str, a: &[i64], n: usize) -> Vec<i64> {
    let src = prim(
        1,
        &format!(
            "A: T.Tensor(({},), \"int32\"), C: T.Tensor(({n},), \"int32\")",
            a.len()
        ),
        body,
    );
    let r = run_clean(&src, &args(json!({"A": i32s(a), "C": zeros("int32", n)})));
    ints(&r, "C")
}

// ---- integer division and modulo (the seed's comparison table) ---------------

#[test]
fn the_division_table_of_the_seed() {
    // | a | b | truncdiv | truncmod | floordiv | floormod |
    let table = [
        (7, 2, 3, 1, 3, 1),
        (-7, 2, -3, -1, -4, 1),
        (7, -2, -3, 1, -4, -1),
        (-7, -2, 3, -1, 3, -1),
    ];
    for (a, b, td, tm, fd, fm) in table {
        let got = ints_of(
            "C[0] = T.truncdiv(A[0], A[1])\nC[1] = T.truncmod(A[0], A[1])\nC[2] = T.floordiv(A[0], A[1])\nC[3] = T.floormod(A[0], A[1])\nC[4] = A[0] // A[1]\nC[5] = A[0] % A[1]",
            &[a, b],
            6,
        );
        // `//` and `%` are floordiv and floormod (the seed's "Default Behavior")
        assert_eq!(got, vec![td, tm, fd, fm, fd, fm], "a = {a}, b = {b}");
    }
}

#[test]
fn ceildiv_is_the_ceiling_of_the_quotient() {
    // ⌈7/2⌉ = 4, ⌈-7/2⌉ = -3, ⌈7/-2⌉ = -3, ⌈-7/-2⌉ = 4, ⌈8/2⌉ = 4
    for (a, b, want) in [(7, 2, 4), (-7, 2, -3), (7, -2, -3), (-7, -2, 4), (8, 2, 4)] {
        let got = ints_of("C[0] = T.ceildiv(A[0], A[1])", &[a, b], 1);
        assert_eq!(got, vec![want], "ceildiv({a}, {b})");
        // and at compile time, on constants
        let got = ints_of(
            &format!("C[0] = T.ceildiv({a}, {b}) + A[0] * 0"),
            &[a, b],
            1,
        );
        assert_eq!(got, vec![want], "constant ceildiv({a}, {b})");
    }
}

#[test]
fn the_division_table_holds_for_python_constants_too() {
    // constants are divided by Python before they reach the kernel
    let got = ints_of("C[0] = (-7 // 2) + A[0] * 0\nC[1] = (-7 % 2) + A[0] * 0\nC[2] = (7 // -2) + A[0] * 0\nC[3] = (7 % -2) + A[0] * 0", &[0], 4);
    assert_eq!(got, vec![-4, 1, -4, -1]);
}

#[test]
fn integer_division_by_zero_is_undefined_behaviour() {
    // measured: the C target traps (SIGFPE); ksem reports it
    for (f, kind) in [
        ("A[0] // A[1]", "division-by-zero"),
        ("A[0] % A[1]", "remainder-by-zero"),
        ("T.truncdiv(A[0], A[1])", "division-by-zero"),
        ("T.floormod(A[0], A[1])", "remainder-by-zero"),
    ] {
        let src = prim(
            1,
            "A: T.Tensor((2,), \"int32\"), C: T.Tensor((1,), \"int32\")",
            &format!("C[0] = {f}"),
        );
        let u = ub_of(
            &src,
            &args(json!({"A": i32s(&[7, 0]), "C": zeros("int32", 1)})),
        );
        assert_eq!(u.len(), 1, "{f}");
        assert_eq!(u[0].kind, kind, "{f}");
    }
}

// ---- loops --------------------------------------------------------------------

#[test]
fn every_loop_form_of_the_seed() {
    // C[i] = A[i] + B[i] over range, T.serial, T.grid, T.Parallel; steps of 2
    let a: Vec<i64> = (0..8).collect();
    let cases = [
        (
            "for i in range(8):\n    C[i] = A[i] + 1",
            (0..8).map(|i| i + 1).collect::<Vec<_>>(),
        ),
        (
            "for i in T.serial(8):\n    C[i] = A[i] + 1",
            (0..8).map(|i| i + 1).collect(),
        ),
        // with start, stop, step: every other element doubled
        (
            "for i in T.serial(0, 8, 2):\n    C[i] = A[i] * 2",
            vec![0, 0, 4, 0, 8, 0, 12, 0],
        ),
        (
            "for i in range(0, 8, 2):\n    C[i] = A[i] * 2",
            vec![0, 0, 4, 0, 8, 0, 12, 0],
        ),
        (
            "for i in range(7, -1, -3):\n    C[i] = 1",
            vec![0, 1, 0, 0, 1, 0, 0, 1],
        ),
        (
            "for i in T.unroll(4):\n    C[i] = A[i] + A[i + 4]",
            vec![4, 6, 8, 10, 0, 0, 0, 0],
        ),
        (
            "for i, j in T.grid(2, 4):\n    C[i * 4 + j] = i * 10 + j",
            vec![0, 1, 2, 3, 10, 11, 12, 13],
        ),
        (
            "for i, j in T.Parallel(2, 4):\n    C[i * 4 + j] = i * 10 + j",
            vec![0, 1, 2, 3, 10, 11, 12, 13],
        ),
        (
            "for ko in T.Pipelined(T.ceildiv(8, 4), num_stages=3):\n    C[ko] = ko + 5",
            vec![5, 6, 0, 0, 0, 0, 0, 0],
        ),
        (
            "i = 0\nwhile i < 8:\n    C[i] = 2\n    i += 3",
            vec![2, 0, 0, 2, 0, 0, 2, 0],
        ),
    ];
    for (body, want) in cases {
        assert_eq!(ints_of(body, &a, 8), want, "{body}");
    }
}

#[test]
fn break_and_continue_work_as_expected() {
    // the seed's "Early Exit": stop at the first element > 4; skip odd ones
    let got = ints_of(
        "for i in range(8):\n    if A[i] > 4:\n        break\n    if i % 2 == 1:\n        continue\n    C[i] = 1",
        &[0, 1, 2, 3, 4, 5, 6, 7],
        8,
    );
    assert_eq!(got, vec![1, 0, 1, 0, 1, 0, 0, 0]);
}

#[test]
fn conditionals_and_the_ternary() {
    // if/elif/else; `x if c else y`; `and` guards an out-of-range read
    let got = ints_of(
        "for i in range(6):\n    if A[i] < 0:\n        C[i] = -1\n    elif A[i] == 0:\n        C[i] = 0\n    else:\n        C[i] = 1\n    C[i + 6] = A[i] if i < 3 else 9\nfor i in range(8):\n    if i < 6 and A[i] > 1:\n        C[i + 12] = 5",
        &[-3, 0, 4, -1, 2, 7],
        20,
    );
    assert_eq!(
        got,
        vec![-1, 0, 1, -1, 1, 1, -3, 0, 4, 9, 9, 9, 0, 0, 5, 0, 5, 5, 0, 0]
    );
}

// ---- buffers --------------------------------------------------------------------

#[test]
fn multi_dimensional_indexing_negative_indices_and_shape() {
    // A is 2x3 row-major: A[1, 2] = 5; A[-1] of the flat view is the last
    // element (measured: C[0] = A[-1] reads the last, C[-1] writes the last)
    let src = prim(
        1,
        "A: T.Tensor((2, 3), \"int32\"), V: T.Tensor((4,), \"int32\"), C: T.Tensor((6,), \"int32\")",
        "C[0] = A[1, 2]\nC[1] = A[-1, -1] + A[0, -3]\nC[2] = V[-1]\nC[-1] = A.shape[0] * 10 + A.shape[1]\nM = V.shape[0]\nC[3] = M",
    );
    let l = args(
        json!({"A": i32s(&[0, 1, 2, 3, 4, 5]), "V": i32s(&[10, 20, 30, 40]), "C": zeros("int32", 6)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(ints(&r, "C"), vec![5, 5, 40, 4, 0, 23]);
}

#[test]
fn astype_and_cast_convert() {
    // 2.7 -> 2 and -5.4 -> -5 (truncation, as the measured C target stores)
    let src = prim(
        1,
        "A: T.Tensor((2,), \"float32\"), C: T.Tensor((4,), \"int32\")",
        "C[0] = A[0].astype(\"int32\")\nC[1] = T.Cast(\"int32\", A[1] * 2)\nC[2] = A[0]\nC[3] = (A[0] * 10).astype(T.int16)",
    );
    let r = run_clean(
        &src,
        &args(json!({"A": buf("float32", json!([2.7, -2.7])), "C": zeros("int32", 4)})),
    );
    assert_eq!(ints(&r, "C"), vec![2, -5, 2, 27]);
}

#[test]
fn alloc_var_is_a_scalar_variable() {
    // the seed's "Conditional Accumulation": total[0] += data[i] for data > 0;
    // measured: a name bound to T.alloc_var reads and writes element 0
    let got = ints_of(
        "total = T.alloc_var(\"int32\", init=0)\nfor i in range(5):\n    if A[i] > 0:\n        total[0] += A[i]\nC[0] = total[0]\nx = T.alloc_var(\"int32\", init=5)\nfor i in T.serial(5):\n    x += A[i]\nC[1] = x\ny = T.alloc_var(\"int32\")\ny = 3\nC[2] = y",
        &[3, -1, 4, -1, 5],
        3,
    );
    assert_eq!(got, vec![12, 15, 3]);
}

#[test]
fn max_finding_with_min_value_and_t_max() {
    // the seed's "Max/Min Finding" example on float32
    let src = prim(
        1,
        "data: T.Tensor((4,), \"float32\"), out: T.Tensor((1,), \"float32\")",
        "max_val = T.alloc_var(\"float32\", init=T.min_value(\"float32\"))\nfor i in range(4):\n    max_val[0] = T.max(max_val[0], data[i])\nout[0] = max_val[0]",
    );
    let r = run_clean(
        &src,
        &args(
            json!({"data": buf("float32", json!([1.5, -2.0, 7.25, 3.0])), "out": zeros("float32", 1)}),
        ),
    );
    assert_eq!(bits(&r, "out"), f32_bits(&[7.25]));
}

#[test]
fn t_min_and_t_max_with_nan_take_the_second_operand() {
    // measured (C target): min(nan, 1) = 1, min(1, nan) = nan, the same for max
    let src = prim(
        1,
        "A: T.Tensor((2,), \"float32\"), C: T.Tensor((4,), \"float32\")",
        "C[0] = T.min(A[0], A[1])\nC[1] = T.min(A[1], A[0])\nC[2] = T.max(A[0], A[1])\nC[3] = T.max(A[1], A[0])",
    );
    let r = run_clean(
        &src,
        &args(json!({"A": buf("float32", json!(["nan", 1.0])), "C": zeros("float32", 4)})),
    );
    let nan = 0x7fc0_0000;
    assert_eq!(bits(&r, "C"), vec![0x3f80_0000, nan, 0x3f80_0000, nan]);
}

#[test]
fn copy_fill_and_clear_move_tiles() {
    // block bx copies its 4-element tile of A into shared memory, doubles
    // it, and writes it back through a slice; T.clear zeroes a fragment
    let src = prim(
        2,
        "A: T.Tensor((8,), \"int32\"), C: T.Tensor((8,), \"int32\"), Z: T.Tensor((4,), \"int32\")",
        "S = T.alloc_shared((4,), \"int32\")\nF = T.alloc_fragment((4,), \"int32\")\nT.copy(A[bx * 4:(bx + 1) * 4], S)\nfor i in T.Parallel(4):\n    F[i] = S[i] * 2\nT.copy(F, C[bx * 4])\nT.clear(F)\nT.fill(S, 9)\nif bx == 0:\n    T.copy(F[0:2], Z[0:2])\n    T.copy(S[2:4], Z[2:4])",
    );
    let r = run_clean(
        &src,
        &args(
            json!({"A": i32s(&[1, 2, 3, 4, 5, 6, 7, 8]), "C": zeros("int32", 8), "Z": i32s(&[5, 5, 5, 5])}),
        ),
    );
    assert_eq!(ints(&r, "C"), vec![2, 4, 6, 8, 10, 12, 14, 16]);
    assert_eq!(ints(&r, "Z"), vec![0, 0, 9, 9]);
}

#[test]
fn a_copy_out_past_the_end_of_a_global_buffer_is_skipped() {
    // measured: T.copy(S, C[bx * 4]) into a 6-element C writes 101..106 and
    // drops the two elements past the end
    let src = prim(
        2,
        "A: T.Tensor((8,), \"int32\"), C: T.Tensor((6,), \"int32\")",
        "S = T.alloc_shared((4,), \"int32\")\nfor i in T.serial(4):\n    S[i] = A[bx * 4 + i] + 100\nT.copy(S, C[bx * 4])",
    );
    let r = run_clean(
        &src,
        &args(json!({"A": i32s(&[1, 2, 3, 4, 5, 6, 7, 8]), "C": zeros("int32", 6)})),
    );
    assert_eq!(ints(&r, "C"), vec![101, 102, 103, 104, 105, 106]);
}

#[test]
fn a_2d_tile_copy_with_offsets() {
    // a 4x4 matrix in 2x2 tiles: block (bx, by) copies tile (by, bx) and
    // writes its transpose position: C = A transposed tile by tile and within
    let src = module(
        "@T.prim_func\ndef main(A: T.Tensor((4, 4), \"int32\"), C: T.Tensor((4, 4), \"int32\")):\n    with T.Kernel(2, 2, threads=4) as (bx, by):\n        S = T.alloc_shared((2, 2), \"int32\")\n        T.copy(A[by * 2, bx * 2], S)\n        for i, j in T.Parallel(2, 2):\n            C[bx * 2 + j, by * 2 + i] = S[i, j]\n",
    );
    let a: Vec<i64> = (0..16).collect();
    let r = run_clean(&src, &args(json!({"A": i32s(&a), "C": zeros("int32", 16)})));
    let want: Vec<i64> = (0..16).map(|k| (k % 4) * 4 + k / 4).collect();
    assert_eq!(ints(&r, "C"), want);
}

// ---- functions, operators, typing ------------------------------------------------

#[test]
fn helper_functions_defined_outside_the_kernel() {
    // the seed's dequantize example: (packed - zero) * scale
    let src = module(
        "def dequantize(packed, scale, zero):\n    return (packed - zero) * scale\n\n\n@T.prim_func\ndef kernel(A: T.Tensor((4,), \"int8\"), C: T.Tensor((4,), \"float32\")):\n    with T.Kernel(1, threads=1) as bx:\n        for i in T.serial(4):\n            C[i] = dequantize(A[i], 0.5, 3)\n",
    );
    let r = run_clean(
        &src,
        &args(json!({"A": buf("int8", json!([3, 5, -1, 127])), "C": zeros("float32", 4)})),
    );
    // int8 - int32 literal is int32; * 0.5 (float32) is float32
    assert_eq!(bits(&r, "C"), f32_bits(&[0.0, 1.0, -2.0, 62.0]));
}

#[test]
fn arithmetic_bitwise_and_logical_operators() {
    let got = ints_of(
        "a = A[0]\nb = A[1]\nC[0] = a + b - a * b\nC[1] = a % b\nC[2] = a ** 2\nC[3] = a & b\nC[4] = a | b\nC[5] = a ^ b\nC[6] = a << 2\nC[7] = a >> 2\nC[8] = ~a\nC[9] = -a >> 1\nif a < b and not (a >= b):\n    C[10] = 1\nif a > b or b == 6:\n    C[11] = 1",
        &[13, 6],
        12,
    );
    // 13+6-78 = -59; 13%6 = 1; 169; 13&6 = 4; 13|6 = 15; 13^6 = 11; 52; 3;
    // ~13 = -14; -13 >> 1 = -7 (arithmetic); 13 < 6 false; 13 > 6 true
    assert_eq!(got, vec![-59, 1, 169, 4, 15, 11, 52, 3, -14, -7, 0, 1]);
}

#[test]
fn mixed_dtypes_promote_as_measured() {
    // int8 + int8 stays int8 and wraps (measured: 100 + 100 = -56, 100 * 100
    // = 16); int8 + a Python int literal is int32 (127 + 1 = 128)
    let src = prim(
        1,
        "A: T.Tensor((2,), \"int8\"), C: T.Tensor((2,), \"int8\"), D: T.Tensor((1,), \"int32\")",
        "C[0] = A[0] + A[1]\nC[1] = A[0] * A[1]\nD[0] = A[0] + 27 + 1",
    );
    let r = run_clean(
        &src,
        &args(
            json!({"A": buf("int8", json!([100, 100])), "C": zeros("int8", 2), "D": zeros("int32", 1)}),
        ),
    );
    assert_eq!(ints(&r, "C"), vec![-56, 16]);
    assert_eq!(ints(&r, "D"), vec![128]);
}

#[test]
fn factory_style_kernels_take_factory_args() {
    let src = module(
        "def make(N, block, dtype=\"int32\"):\n    half = block // 2\n\n    @T.prim_func\n    def main(A: T.Tensor((N,), dtype), C: T.Tensor((N,), dtype)):\n        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:\n            for i in T.Parallel(block):\n                if bx * block + i < N:\n                    C[bx * block + i] = A[bx * block + i] + half\n\n    return main\n\n\nif __name__ == \"__main__\":\n    kernel = make(6, 4)\n",
    );
    let text = json!({"kernel": "make", "factory_args": {"N": 6, "block": 4},
        "args": {"A": i32s(&[1, 2, 3, 4, 5, 6]), "C": zeros("int32", 6)}})
    .to_string();
    let r = run_clean(&src, &parse_launch(&text).unwrap());
    assert_eq!(ints(&r, "C"), vec![3, 4, 5, 6, 7, 8]);
    // the grid comes from T.Kernel: ceildiv(6, 4) = 2 blocks
    let k = elaborate(&src, &parse_launch(&text).unwrap()).unwrap();
    assert_eq!(k.grid, [2, 1, 1]);
}

// ---- what the seed refuses ----------------------------------------------------------

/// `body` (in the kernel) is refused at the position of `at`, with a message
/// and a help containing the given parts.
fn refused_with(body: &str, at: &str, msg: &str, help: Option<&str>) {
    let src = prim(
        1,
        "A: T.Tensor((4,), \"int32\"), C: T.Tensor((4,), \"int32\")",
        body,
    );
    let l = args(json!({"A": i32s(&[1, 2, 3, 4]), "C": zeros("int32", 4)}));
    let d = refused(&src, &l);
    let pos = loc1(&src, at);
    assert_diag(&src, &d, pos, &[msg], help);
}

#[test]
fn the_unsupported_syntax_of_the_seed_is_refused_with_its_alternative() {
    let my_list = "my_list = A\n";
    refused_with(
        &format!("{my_list}for x in my_list:\n    C[0] = x"),
        "my_list:",
        "Expect the for loop to be one of",
        Some("range(), T.serial(), or T.Parallel()"),
    );
    refused_with(
        "for i, x in enumerate(A):\n    C[i] = x",
        "enumerate(A)",
        "Expect the for loop to be one of",
        Some("T.Parallel()"),
    );
    refused_with(
        "a = b = 0",
        "a = b",
        "Consequential assignments like 'a = b = c' are not supported",
        Some("separate assignment statements"),
    );
    refused_with(
        "y = [A[i] for i in range(4)]",
        "[A[i]",
        "list comprehension",
        Some("explicit loop"),
    );
    refused_with(
        "y = {i: A[i] for i in range(4)}",
        "{i:",
        "dict comprehension",
        None,
    );
    refused_with(
        "y = sum(A[i] for i in range(4))",
        "A[i] for",
        "generator expression",
        Some("explicit loop"),
    );
    refused_with(
        "f = lambda v: v",
        "lambda",
        "`lambda`",
        Some("named function"),
    );
    refused_with("class K:\n    pass", "class", "`class`", None);
    refused_with(
        "try:\n    C[0] = 1\nexcept Exception:\n    pass",
        "try",
        "`try`",
        None,
    );
    refused_with(
        "def helper():\n    return 1",
        "def helper",
        "nested function",
        Some("module level"),
    );
    refused_with(
        "import math",
        "import math",
        "`import`",
        Some("module level"),
    );
    refused_with(
        "assert A[0] > 0",
        "assert",
        "`assert`",
        Some("T.device_assert or T.assert"),
    );
    refused_with("print(A[0])", "print", "`print()`", Some("T.print()"));
    refused_with("n = len(A)", "len(A)", "`len()`", Some("buffer.shape[dim]"));
    refused_with("t = type(A)", "type(A)", "`type()`", None);
    refused_with("if (n := A[0]) > 0:\n    C[0] = n", "n :=", "walrus", None);
    refused_with("a, b = A[0], A[1]", "a, b", "tuple unpacking", None);
    refused_with("if A[0] in A:\n    C[0] = 1", "A[0] in", "membership", None);
    refused_with("T.copy(A[::2], C)", "::2", "step in a slice", None);
    refused_with("C[0] = A[..., 0]", "...", "Ellipsis", None);
    refused_with(
        "with open(\"f\") as f:\n    pass",
        "with open",
        "`with`",
        Some("T.Kernel"),
    );
    refused_with(
        "C[0] = max(A[0], A[1])",
        "max(A",
        "Python max()/min()",
        Some("T.max"),
    );
}

#[test]
fn star_args_recursion_and_bad_annotations_are_refused() {
    let src = module(
        "@T.prim_func\ndef main(*args):\n    with T.Kernel(1, threads=1) as bx:\n        pass\n",
    );
    let d = refused(&src, &args(json!({})));
    assert_diag(
        &src,
        &d,
        loc1(&src, "args):"),
        &["`*args`"],
        Some("explicit parameters"),
    );

    let src = module(
        "def f(x):\n    return f(x)\n\n\n@T.prim_func\ndef main(C: T.Tensor((1,), \"int32\")):\n    with T.Kernel(1, threads=1) as bx:\n        C[0] = f(1)\n",
    );
    let d = refused(&src, &args(json!({"C": zeros("int32", 1)})));
    assert_diag(
        &src,
        &d,
        loc(&src, "return f(x)", "f(x)"),
        &["recursion"],
        None,
    );

    let src = module(
        "@T.prim_func\ndef main(C: list):\n    with T.Kernel(1, threads=1) as bx:\n        pass\n",
    );
    let d = refused(&src, &args(json!({"C": zeros("int32", 1)})));
    assert_diag(
        &src,
        &d,
        loc1(&src, "list)"),
        &["Annotation should be Var"],
        Some("T.Tensor"),
    );
}

#[test]
fn integer_true_division_and_float_floor_division_are_refused() {
    // measured: TileLang refuses `/` on integers and `//`, `%` on floats
    refused_with(
        "C[0] = A[0] / A[1]",
        "A[0] / A[1]",
        "integer divisions",
        Some("T.truncdiv"),
    );
    let src = prim(
        1,
        "A: T.Tensor((2,), \"float32\"), C: T.Tensor((1,), \"float32\")",
        "C[0] = A[0] // A[1]",
    );
    let l = args(json!({"A": buf("float32", json!([1.0, 2.0])), "C": zeros("float32", 1)}));
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "A[0] //"),
        &["floors only integers"],
        Some("T.floor"),
    );
}

#[test]
fn buffers_of_the_wrong_size_or_dtype_and_bad_grids_are_refused() {
    let src = prim(1, "A: T.Tensor((4,), \"int32\")", "A[0] = 1");
    let d = refused(&src, &args(json!({"A": zeros("int32", 5)})));
    assert!(
        d.message.contains("shape [4]") && d.message.contains("5 elements"),
        "{d:?}"
    );
    let d = refused(&src, &args(json!({"A": zeros("float32", 4)})));
    assert!(
        d.message.contains("int32 tensor") && d.message.contains("float32"),
        "{d:?}"
    );
    // a launch grid that contradicts T.Kernel
    let l =
        parse_launch(&json!({"grid": [3], "args": {"A": zeros("int32", 4)}}).to_string()).unwrap();
    let d = refused(&src, &l);
    assert!(d.message.contains("disagrees"), "{d:?}");
    // threads out of range
    let src = module("@T.prim_func\ndef main(A: T.Tensor((4,), \"int32\")):\n    with T.Kernel(1, threads=2048) as bx:\n        A[0] = 1\n");
    let d = refused(&src, &args(json!({"A": zeros("int32", 4)})));
    assert_diag(&src, &d, loc1(&src, "2048"), &["1 to 1024 threads"], None);
    // a shape that is not a compile-time constant
    let src = module("@T.prim_func\ndef main(n: T.int32, A: T.Tensor((n,), \"int32\")):\n    with T.Kernel(1, threads=1) as bx:\n        A[0] = 1\n");
    let l = args(json!({"n": scalar("int32", json!(4)), "A": zeros("int32", 4)}));
    let d = refused(&src, &l);
    assert!(d.message.contains("compile time"), "{d:?}");
}

// ---- reductions and gemm ------------------------------------------------------

/// Runs `body` with float32 buffers A (2-D, given) and C (n elements, given).
fn floats_of(body: &str, a: &[Vec<f32>], c: &[f32]) -> Vec<u64> {
    let (m, k) = (a.len(), a[0].len());
    let src = prim(
        1,
        &format!(
            "A: T.Tensor(({m}, {k}), \"float32\"), C: T.Tensor(({},), \"float32\")",
            c.len()
        ),
        body,
    );
    let flat: Vec<f32> = a.iter().flatten().copied().collect();
    let r = run_clean(
        &src,
        &args(json!({"A": buf("float32", json!(flat)), "C": buf("float32", json!(c))})),
    );
    bits(&r, "C")
}

#[test]
fn reductions_along_either_dimension_with_and_without_clear() {
    let a = vec![vec![1.0, -5.0, 3.0, 2.0], vec![4.0, -1.0, -6.0, 0.5]];
    let run = |op: &str, dim: usize, clear: bool, n: usize| {
        let shape = if dim == 1 { 2 } else { 4 };
        assert_eq!(shape, n);
        floats_of(
            &format!("F = T.alloc_fragment((2, 4), \"float32\")\nR = T.alloc_fragment(({n},), \"float32\")\nT.copy(A, F)\nT.copy(C, R)\nT.{op}(F, R, dim={dim}{})\nT.copy(R, C)", if clear { "" } else { ", clear=False" }),
            &a,
            &vec![10.0; n],
        )
    };
    // rows: 1 - 5 + 3 + 2 = 1; 4 - 1 - 6 + 0.5 = -2.5; columns 5, -6, -3, 2.5
    assert_eq!(run("reduce_sum", 1, true, 2), f32_bits(&[1.0, -2.5]));
    assert_eq!(
        run("reduce_sum", 0, true, 4),
        f32_bits(&[5.0, -6.0, -3.0, 2.5])
    );
    // clear=False adds to what C held (10)
    assert_eq!(run("reduce_sum", 1, false, 2), f32_bits(&[11.0, 7.5]));
    assert_eq!(run("reduce_max", 1, true, 2), f32_bits(&[3.0, 4.0]));
    assert_eq!(run("reduce_max", 1, false, 2), f32_bits(&[10.0, 10.0]));
    assert_eq!(
        run("reduce_min", 0, true, 4),
        f32_bits(&[1.0, -5.0, -6.0, 0.5])
    );
    // |1| + |-5| + |3| + |2| = 11; 4 + 1 + 6 + 0.5 = 11.5; max |x|: 5, 6
    assert_eq!(run("reduce_abssum", 1, true, 2), f32_bits(&[11.0, 11.5]));
    assert_eq!(run("reduce_absmax", 1, true, 2), f32_bits(&[5.0, 6.0]));
}

#[test]
fn a_float_sum_reduces_in_the_canonical_tree_order() {
    // DESIGN.md: s = 4, 2, 1 with x[i] = x[i] + x[i + s]. For
    // [1e8, 1, -1e8, 1, 1, 1, 1, 1] in float32 (ulp 8 at 1e8): s = 4 gives
    // [1e8 + 1 = 1e8, 2, -1e8 + 1 = -1e8, 2]; s = 2 gives [0, 4]; s = 1: 4.
    // (A left-to-right sum would give 5.)
    let got = floats_of(
        "F = T.alloc_fragment((1, 8), \"float32\")\nR = T.alloc_fragment((1,), \"float32\")\nT.copy(A, F)\nT.reduce_sum(F, R, dim=1)\nT.copy(R, C)",
        &[vec![1e8, 1.0, -1e8, 1.0, 1.0, 1.0, 1.0, 1.0]],
        &[0.0],
    );
    assert_eq!(got, f32_bits(&[4.0]));
    // a length that is not a power of two: 5 elements, p = 8: s = 4 adds
    // x[4] into x[0]; s = 2: x0 += x2, x1 += x3; s = 1: x0 += x1.
    // [1e8, 1, -1e8, 1, 1]: x0 = 1e8 + 1 = 1e8; x0 = 1e8 - 1e8 = 0,
    // x1 = 1 + 1 = 2; x0 = 2.
    let got = floats_of(
        "F = T.alloc_fragment((1, 5), \"float32\")\nR = T.alloc_fragment((1,), \"float32\")\nT.copy(A, F)\nT.reduce_sum(F, R, dim=1)\nT.copy(R, C)",
        &[vec![1e8, 1.0, -1e8, 1.0, 1.0]],
        &[0.0],
    );
    assert_eq!(got, f32_bits(&[2.0]));
}

#[test]
fn gemm_accumulates_in_the_accumulators_dtype() {
    // A = [[1, 2, 3], [4, 5, 6]] (float16), B = [[7, 8], [9, 10], [11, 12]]:
    // A·B = [[58, 64], [139, 154]]; C starts at 1 and accumulates; with
    // transpose_B, B is given as its transpose [[7, 9, 11], [8, 10, 12]].
    let src = module(
        "@T.prim_func\ndef main(A: T.Tensor((2, 3), \"float16\"), B: T.Tensor((3, 2), \"float16\"), Bt: T.Tensor((2, 3), \"float16\"), C: T.Tensor((2, 2), \"float32\"), D: T.Tensor((2, 2), \"float32\")):\n    with T.Kernel(1, threads=128) as bx:\n        As = T.alloc_shared((2, 3), \"float16\")\n        Bs = T.alloc_shared((3, 2), \"float16\")\n        acc = T.alloc_fragment((2, 2), \"float32\")\n        T.copy(A, As)\n        T.copy(B, Bs)\n        T.copy(C, acc)\n        T.gemm(As, Bs, acc)\n        T.copy(acc, C)\n        T.clear(acc)\n        T.gemm(A, Bt, acc, transpose_B=True, clear_accum=True)\n        T.copy(acc, D)\n",
    );
    let l = args(json!({
        "A": buf("float16", json!([1, 2, 3, 4, 5, 6])),
        "B": buf("float16", json!([7, 8, 9, 10, 11, 12])),
        "Bt": buf("float16", json!([7, 9, 11, 8, 10, 12])),
        "C": buf("float32", json!([1, 1, 1, 1])),
        "D": zeros("float32", 4),
    }));
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "C"), f32_bits(&[59.0, 65.0, 140.0, 155.0]));
    assert_eq!(bits(&r, "D"), f32_bits(&[58.0, 64.0, 139.0, 154.0]));
}

#[test]
fn gemm_rounds_each_product_and_sum() {
    // float32 accumulation, k ascending: 1e8 * 1 + 1 * 1 + (-1e8) * 1 + 1 * 1:
    // 1e8 + 1 = 1e8 (ulp 8), 1e8 - 1e8 = 0, 0 + 1 = 1. A tree or a wider
    // accumulator would give 2.
    let src = module(
        "@T.prim_func\ndef main(A: T.Tensor((1, 4), \"float32\"), B: T.Tensor((4, 1), \"float32\"), C: T.Tensor((1, 1), \"float32\")):\n    with T.Kernel(1, threads=32) as bx:\n        T.gemm(A, B, C)\n",
    );
    let l = args(json!({
        "A": buf("float32", json!([1e8, 1, -1e8, 1])),
        "B": buf("float32", json!([1, 1, 1, 1])),
        "C": zeros("float32", 1),
    }));
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "C"), f32_bits(&[1.0]));
}

#[test]
fn a_local_buffer_indexed_by_a_parallel_loop_variable_is_refused() {
    // measured: TileLang's semantic check refuses it (local buffers are
    // thread-private); T.serial indexing and fragments are fine
    refused_with(
        "L = T.alloc_local((4,), \"int32\")\nfor i in T.Parallel(4):\n    L[i] = A[i]",
        "L[i] =",
        "Local buffer",
        Some("T.alloc_fragment"),
    );
    let got = ints_of(
        "L = T.alloc_local((4,), \"int32\")\nF = T.alloc_fragment((4,), \"int32\")\nfor i in T.serial(4):\n    L[i] = A[i]\nfor i in T.Parallel(4):\n    F[i] = A[i] * 2\nfor i in T.serial(4):\n    C[i] = L[i] + F[i]",
        &[1, 2, 3, 4],
        4,
    );
    assert_eq!(got, vec![3, 6, 9, 12]);
}

#[test]
fn eager_style_kernels_bind_sizes_from_shapes_and_return_outputs() {
    // TileLang's own elementwise example in the eager style: M, N come from
    // A's shape, block sizes and dtypes from factory_args, C = T.empty(…) is
    // an output the launch does not pass, reported under its name.
    let src = module(
        "@tilelang.jit\ndef elementwise_add(A, B, block_M, block_N, in_dtype, out_dtype, threads):\n    M, N = T.const(\"M, N\")\n\n    A: T.Tensor((M, N), in_dtype)\n    B: T.Tensor((M, N), in_dtype)\n    C = T.empty((M, N), out_dtype)\n\n    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):\n        A_shared = T.alloc_shared((block_M, block_N), in_dtype)\n        B_shared = T.alloc_shared((block_M, block_N), in_dtype)\n        C_local = T.alloc_fragment((block_M, block_N), out_dtype)\n        T.copy(A[by * block_M, bx * block_N], A_shared)\n        T.copy(B[by * block_M, bx * block_N], B_shared)\n        for local_y, local_x in T.Parallel(block_M, block_N):\n            C_local[local_y, local_x] = A_shared[local_y, local_x] + B_shared[local_y, local_x]\n        T.copy(C_local, C[by * block_M, bx * block_N])\n\n    return C\n\n\ndef main(M=1024, N=1024):\n    import torch\n    a = torch.randn(M, N)\n",
    );
    let a: Vec<f32> = (0..24).map(|i| i as f32 * 0.375 - 3.0).collect();
    let b: Vec<f32> = (0..24).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let text = json!({"kernel": "elementwise_add",
        "factory_args": {"block_M": 2, "block_N": 4, "in_dtype": "float32", "out_dtype": "float32", "threads": 32},
        "args": {"A": {"buffer": {"dtype": "float32", "shape": [4, 6], "data": a}},
                 "B": {"buffer": {"dtype": "float32", "shape": [4, 6], "data": b}}}})
    .to_string();
    let l = parse_launch(&text).unwrap();
    let r = run_clean(&src, &l);
    // float32 addition, rounded once, element by element (tiles of 2x4 cover
    // the 4x6 matrix with a ragged last column block: copies past the edge
    // are not written)
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(bits(&r, "C"), f32_bits(&want));
    let k = elaborate(&src, &l).unwrap();
    // grid = (ceildiv(6, 4), ceildiv(4, 2)) = (2, 2)
    assert_eq!(k.grid, [2, 2, 1]);
    // a tensor of the wrong rank names the fix
    let text = json!({"kernel": "elementwise_add",
        "factory_args": {"block_M": 2, "block_N": 4, "in_dtype": "float32", "out_dtype": "float32", "threads": 32},
        "args": {"A": {"buffer": {"dtype": "float32", "len": 24}}, "B": {"buffer": {"dtype": "float32", "len": 24}}}})
    .to_string();
    let d = refused(&src, &parse_launch(&text).unwrap());
    assert!(d.message.contains("2 dimension(s)"), "{d:?}");
    assert_eq!(
        d.help.as_deref(),
        Some("give the buffer a \"shape\" in the launch")
    );
    // a missing factory argument too
    let text = json!({"kernel": "elementwise_add", "factory_args": {"block_M": 2},
        "args": {"A": {"buffer": {"dtype": "float32", "shape": [4, 6]}}, "B": {"buffer": {"dtype": "float32", "shape": [4, 6]}}}})
    .to_string();
    let d = refused(&src, &parse_launch(&text).unwrap());
    assert!(d.message.contains("needs `block_N`"), "{d:?}");
}

#[test]
fn ieee_operations_round_as_their_mode_says() {
    // the seed's "Explicit rounding control for floats": T.ieee_add(a, b, "rn")
    // and its siblings. A = [1, 1, -1, 2], B = [2^-30, 3, 3, 1].
    let src = prim(
        1,
        "A: T.Tensor((4,), \"float32\"), B: T.Tensor((4,), \"float32\"), C: T.Tensor((24,), \"float32\")",
        "for i in T.serial(4):\n    C[i] = T.ieee_add(A[i], B[i], \"rn\")\n    C[4 + i] = T.ieee_add(A[i], B[i], \"rz\")\n    C[8 + i] = T.ieee_add(A[i], B[i], rounding_mode=\"ru\")\n    C[12 + i] = T.ieee_sub(A[i], B[i], \"rd\")\n    C[16 + i] = T.ieee_fdiv(A[i], B[i], \"rz\")\n    C[20 + i] = T.ieee_fsqrt(A[i], \"ru\")",
    );
    let l = args(json!({
        "A": buf("float32", json!([1.0, 1.0, -1.0, 2.0])),
        "B": {"buffer": {"dtype": "float32", "bits": ["0x30800000", "0x40400000", "0x40400000", "0x3f800000"]}},
        "C": zeros("float32", 24),
    }));
    let r = run_clean(&src, &l);
    let one_up = 0x3f80_0001; // the float after 1
    let one_down = 0x3f7f_ffff; // the float before 1
    let want: Vec<u64> = vec![
        // 1 + 2^-30 rounds to 1 to nearest and toward zero, up to 1 + 2^-23
        0x3f80_0000,
        0x4080_0000,
        0x4000_0000,
        0x4040_0000,
        0x3f80_0000,
        0x4080_0000,
        0x4000_0000,
        0x4040_0000,
        one_up,
        0x4080_0000,
        0x4000_0000,
        0x4040_0000,
        // 1 - 2^-30 rounded down is the float before 1; 1 - 3, -1 - 3, 2 - 1 exact
        one_down,
        0xc000_0000,
        0xc080_0000,
        0x3f80_0000,
        // 1 / 2^-30 = 2^30 exactly; 1/3 toward zero 0x3eaaaaaa, -1/3 0xbeaaaaaa
        0x4e80_0000,
        0x3eaa_aaaa,
        0xbeaa_aaaa,
        0x4000_0000,
        // sqrt rounded up: 1, 1, sqrt(-1) = NaN, sqrt(2) = 0x3fb504f4
        0x3f80_0000,
        0x3f80_0000,
        0x7fff_ffff,
        0x3fb5_04f4,
    ];
    assert_eq!(bits(&r, "C"), want);
    refused_with(
        "C[0] = T.ieee_add(A[0], A[1], \"rx\")",
        "\"rx\"",
        "unknown rounding mode",
        Some("\"rz\""),
    );
    refused_with(
        "C[0] = T.ieee_add(A[0], A[1], \"rn\")",
        "T.ieee_add",
        "float32 or float64",
        None,
    );
}

#[test]
fn ieee_fmaf_rounds_once_in_each_mode_and_ieee_frsqrt_to_nearest() {
    // T.ieee_fmaf(a, b, c, mode) is CUDA's __fmaf_<mode> (TileLang's
    // codegen_cuda.cc CUDAIEEEMath): a*b + c rounded once. A = [1 + 2^-23,
    // -(1 + 2^-23), 2^-149], B = [1 + 2^-23, 1 + 2^-23, 0.5], D = [-1, 1, 0]:
    // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46, a tie half an ulp (2^-45) above
    // 2^-22; 2^-149 * 0.5 = 2^-150, a tie between 0 and the smallest
    // subnormal. T.ieee_frsqrt(x) is __frsqrt_rn: 1/sqrt(4) = 0.5 exactly,
    // 1/sqrt(2) = sqrt(2)/2 (sqrt(2) to nearest is 0x3fb504f3), 1/sqrt(0)
    // = +inf.
    let src = prim(
        1,
        "A: T.Tensor((3,), \"float32\"), B: T.Tensor((3,), \"float32\"), D: T.Tensor((3,), \"float32\"), C: T.Tensor((15,), \"float32\")",
        "for i in T.serial(3):\n    C[i] = T.ieee_fmaf(A[i], B[i], D[i], \"rn\")\n    C[3 + i] = T.ieee_fmaf(A[i], B[i], D[i], \"rz\")\n    C[6 + i] = T.ieee_fmaf(A[i], B[i], D[i], rounding_mode=\"ru\")\n    C[9 + i] = T.ieee_fmaf(A[i], B[i], D[i], \"rd\")\n    C[12 + i] = T.ieee_frsqrt(B[i] * B[i] * 4.0 - 2.0 * i)",
    );
    let l = args(json!({
        "A": {"buffer": {"dtype": "float32", "bits": ["0x3f800001", "0xbf800001", "0x1"]}},
        "B": {"buffer": {"dtype": "float32", "bits": ["0x3f800001", "0x3f800001", "0x3f000000"]}},
        "D": buf("float32", json!([-1.0, 1.0, 0.0])),
        "C": zeros("float32", 15),
    }));
    let r = run_clean(&src, &l);
    let (t, t_up) = (0x3480_0000, 0x3480_0001); // 2^-22, 2^-22 + 2^-45
    let (nt, nt_dn) = (0xb480_0000, 0xb480_0001);
    // frsqrt of B*B*4 - 2i: (1+2^-23)^2 rounds to 1 + 2^-22, so i = 0 gives
    // 1/sqrt(4(1 + 2^-22)) = 0.5(1 - 2^-23 + 3*2^-47 - ...) = 0.5 - 2^-24
    // + ~2^-48: floats below 0.5 are 2^-25 apart, so 0.5 - 2^-24
    // (0x3efffffe); i = 2: 0.25*4 - 4 = -3, a NaN
    let c = bits(&r, "C");
    assert_eq!(
        c[..12],
        [
            t, nt, 0, // rn: ties to even
            t, nt, 0, // rz
            t_up, nt, 1, // ru
            t, nt_dn, 0, // rd
        ]
    );
    assert_eq!(c[12], 0x3eff_fffe);
    assert!(f32::from_bits(c[14] as u32).is_nan());
    // exact values of T.ieee_frsqrt
    let src2 = prim(
        1,
        "A: T.Tensor((4,), \"float32\"), C: T.Tensor((4,), \"float32\")",
        "for i in T.serial(4):\n    C[i] = T.ieee_frsqrt(A[i])",
    );
    let l2 = args(json!({
        "A": buf("float32", json!([4.0, 2.0, 0.0, "-0.0"])),
        "C": zeros("float32", 4),
    }));
    let r2 = run_clean(&src2, &l2);
    assert_eq!(
        bits(&r2, "C"),
        vec![0x3f00_0000, 0x3f35_04f3, 0x7f80_0000, 0xff80_0000]
    );
    // TileLang's T.ieee_frsqrt has no rounding mode, and none for float64
    refused_with(
        "C[0] = T.ieee_frsqrt(T.float32(A[0]), \"rz\")",
        "T.ieee_frsqrt",
        "takes one operand and no rounding mode",
        None,
    );
    refused_with(
        "C[0] = T.ieee_frsqrt(T.float64(A[0]))",
        "T.ieee_frsqrt",
        "IEEE frsqrt is not supported for float64",
        Some("T.ieee_fsqrt"),
    );
}

// ---- T.Parallel: independent iterations ---------------------------------------------

/// The UB report of `body` (int32 A of 4, C of 4).
fn parallel_ub(body: &str) -> Vec<ksem_interp::launch::UbReport> {
    let src = prim(
        1,
        "A: T.Tensor((4,), \"int32\"), C: T.Tensor((4,), \"int32\")",
        body,
    );
    ub_of(
        &src,
        &args(json!({"A": i32s(&[1, 2, 3, 4]), "C": zeros("int32", 4)})),
    )
}

#[test]
fn iterations_of_t_parallel_that_touch_one_element_race() {
    // two iterations write C[0]: the real loop runs them on different threads
    let u = parallel_ub("for i in T.Parallel(4):\n    C[0] = A[i]");
    assert_eq!(u.len(), 1, "{u:?}");
    assert_eq!(u[0].kind, "data-race");
    assert_eq!(u[0].element, vec![0]);
    assert!(
        u[0].message.contains("iteration [1]") && u[0].message.contains("iteration [0]"),
        "{}",
        u[0].message
    );
    // iteration 0 reads S[1], iteration 1 writes it
    let u = parallel_ub("S = T.alloc_shared((4,), \"int32\")\nT.copy(A, S)\nfor i in T.Parallel(4):\n    C[i] = S[(i + 1) % 4]\n    S[i] = 0");
    assert_eq!(u.len(), 1, "{u:?}");
    assert_eq!(
        (u[0].kind.as_str(), u[0].element.clone()),
        ("data-race", vec![1])
    );
    // an accumulator declared outside the loop is shared by its iterations
    let u = parallel_ub("acc = T.alloc_var(\"int32\", init=0)\nfor i in T.Parallel(4):\n    acc += A[i]\nC[0] = acc");
    assert_eq!(u.len(), 1, "{u:?}");
    assert_eq!(u[0].kind, "data-race");
    // nested: (i, 0) and (i, 1) both write C[i]
    let u = parallel_ub("for i, j in T.Parallel(2, 2):\n    C[i] = A[i * 2 + j]");
    assert_eq!(u.len(), 1, "{u:?}");
    assert!(
        u[0].message.contains("[0, 1]") && u[0].message.contains("[0, 0]"),
        "{}",
        u[0].message
    );
}

#[test]
fn independent_iterations_do_not_race() {
    // an alloc_var made in the body belongs to its iteration; distinct
    // elements; reads of one element by every iteration; serial loops
    let got = ints_of(
        "for i in T.Parallel(4):\n    t = T.alloc_var(\"int32\", init=A[0])\n    t += A[i]\n    C[i] = t\nacc = T.alloc_var(\"int32\", init=0)\nfor i in T.serial(4):\n    acc += A[i]\nC[0] = C[0] + acc",
        &[1, 2, 3, 4],
        4,
    );
    // t = A[0] + A[i] = 2, 3, 4, 5; C[0] += 1 + 2 + 3 + 4
    assert_eq!(got, vec![12, 3, 4, 5]);
}

// ---- host Python around kernels, as TileLang's own examples write it ---------------

/// Runs `src`'s kernel `k` with `factory_args` and int32 buffer `A` of 4
/// (zeros); `A`'s values.
fn factory_run(src: &str, factory_args: Json) -> Vec<i64> {
    let text = json!({"kernel": "k", "factory_args": factory_args,
        "args": {"A": zeros("int32", 4)}})
    .to_string();
    let r = run_clean(&module(src), &parse_launch(&text).unwrap());
    ints(&r, "A")
}

#[test]
fn a_factory_runs_the_kernel_it_returns_and_its_host_ifs() {
    // two prim_funcs: the `return` picks one (the first is not a default)
    let src = "def k(N, split):\n    @T.prim_func\n    def main_split(A: T.Tensor((N,), \"int32\")):\n        with T.Kernel(1, threads=1) as bx:\n            A[0] = 1\n\n    @T.prim_func\n    def main(A: T.Tensor((N,), \"int32\")):\n        with T.Kernel(1, threads=1) as bx:\n            A[0] = 2\n\n    if split == 1:\n        return main\n    else:\n        return main_split\n";
    assert_eq!(factory_run(src, json!({"N": 4, "split": 1}))[0], 2);
    assert_eq!(factory_run(src, json!({"N": 4, "split": 2}))[0], 1);
    // host ifs, `is None`, host helpers (tilelang.cdiv, math.ceil, min) and
    // conditional expressions run as Python before the kernel is built
    let src = "import math\n\n\ndef k(N, scale=None, flag=True):\n    if scale is None:\n        scale = 3\n    if flag:\n        scale = scale * 2\n    nk = tilelang.cdiv(N, 3) + math.ceil(N / 3) + min(N, 1)\n    off = 10 if flag else 20\n\n    @T.prim_func\n    def main(A: T.Tensor((N,), \"int32\")):\n        with T.Kernel(1, threads=1) as bx:\n            A[0] = scale\n            A[1] = nk\n            A[2] = off\n\n    return main\n";
    // scale = 3 * 2; nk = ceil(4/3) + ceil(4/3) + 1 = 5; off = 10
    assert_eq!(factory_run(src, json!({"N": 4}))[..3], [6, 5, 10]);
    assert_eq!(
        factory_run(src, json!({"N": 4, "scale": 5, "flag": false}))[..3],
        [5, 5, 20]
    );
    // a condition ksem cannot decide is an error, not a guess
    let src = "import os\n\n\ndef k(N):\n    if os.environ.get(\"X\"):\n        N = 1\n\n    @T.prim_func\n    def main(A: T.Tensor((N,), \"int32\")):\n        with T.Kernel(1, threads=1) as bx:\n            A[0] = 1\n\n    return main\n";
    let text = json!({"kernel": "k", "factory_args": {"N": 4}, "args": {"A": zeros("int32", 4)}})
        .to_string();
    let d = refused(&module(src), &parse_launch(&text).unwrap());
    assert!(d.message.contains("not known at compile time"), "{d:?}");
}

#[test]
fn a_factory_s_dynamic_sizes_take_the_launch_s_shapes() {
    // `total = T.dynamic("total")` in a factory (block_causal_attention_varlen.py,
    // deepseek_v32/inference/kernel.py): the size is read off the launch's
    // tensor whose shape names it, directly or through a shape list
    let src = "def k(heads):\n    total = T.dynamic(\"total\")\n    shape = [total, heads]\n\n    @T.prim_func\n    def main(Q: T.Tensor(shape, \"int32\"), A: T.Tensor((4,), \"int32\")):\n        with T.Kernel(1, threads=1) as bx:\n            A[0] = total\n            A[1] = Q[total - 1, heads - 1]\n\n    return main\n";
    let text = json!({"kernel": "k", "factory_args": {"heads": 2},
        "args": {"Q": {"buffer": {"dtype": "int32", "shape": [3, 2], "data": [1, 2, 3, 4, 5, 6]}},
                 "A": zeros("int32", 4)}})
    .to_string();
    let r = run_clean(&module(src), &parse_launch(&text).unwrap());
    // total = 3 rows; Q[2, 1] = 6
    assert_eq!(ints(&r, "A")[..2], [3, 6]);
}

#[test]
fn eager_kernels_as_the_examples_write_them() {
    // `import tilelang as tl` / `@tl.jit`, a T.const size used before the
    // annotation that binds it, a list-form shape, a host assert, tuple
    // unpacking of constants, `F.dtype`, `T.float32(…)`, hints ksem ignores
    let src = "import tilelang as tl\nimport tilelang.language as T\n\n\n@tl.jit\ndef k(A, blk=2):\n    M, N = T.const(\"M, N\")\n    half = N // 2\n    assert blk > 0\n    KH, KW = blk, 3\n    A: T.Tensor([M, N], \"float32\")\n    B = T.empty((M, half), \"float32\")\n    with T.Kernel(1, threads=128) as bx:\n        T.use_swizzle(10)\n        F = T.alloc_fragment((M, N), \"float32\")\n        T.annotate_layout({F: None})\n        T.copy(A, F)\n        for i, j in T.Parallel(M, half):\n            B[i, j] = F[i, j] + F[i, j + half] * T.float32(KH) + T.Cast(F.dtype, KW)\n    return B\n";
    let a: Vec<f32> = (0..8).map(|i| i as f32).collect();
    let text = json!({"kernel": "k", "args": {"A": {"buffer": {"dtype": "float32", "shape": [2, 4], "data": a}}}}).to_string();
    let r = run_clean(src, &parse_launch(&text).unwrap());
    // B[i, j] = A[i, j] + 2 * A[i, j + 2] + 3: rows [0 1 2 3], [4 5 6 7]
    assert_eq!(bits(&r, "B"), f32_bits(&[7.0, 10.0, 19.0, 22.0]));
    // a failing host assert is reported
    let text = json!({"kernel": "k", "factory_args": {"blk": 0}, "args": {"A": {"buffer": {"dtype": "float32", "shape": [2, 4]}}}}).to_string();
    let d = refused(src, &parse_launch(&text).unwrap());
    assert!(d.message.contains("assertion"), "{d:?}");
}

#[test]
fn host_python_of_the_examples_sizes_dtypes_and_hints() {
    // tilelang's examples: `KH, KW = K, K` names a T.const size that a
    // tensor's shape binds (example_convolution.py), `math.gcd`,
    // `DataType(dtype).bits` (example_gemv.py), the register-count hints
    // (which set PTX's setmaxnreg only) and T.cast(value, dtype), whose
    // operands come in the other order than T.Cast(dtype, value)
    // (tilelang/language/tir/ir.py: `def cast(value, dtype, …)`)
    let src = r#"import math
import tilelang
import tilelang.language as T
from tvm import DataType


@tilelang.jit
def k(A, blk=4):
    M, K = T.const("M, K")
    KH, KW = K, K
    g = math.gcd(12, blk * 2)
    bits = DataType("float16").bits
    A: T.Tensor((M, KH), "float32")
    B = T.empty((M, 4), "float32")
    with T.Kernel(1, threads=128) as bx:
        T.no_set_max_nreg()
        T.disable_warp_group_reg_alloc()
        T.set_max_nreg(240, 1)
        for i in T.Parallel(M):
            B[i, 0] = T.cast(KW, "float32")
            B[i, 1] = T.cast(g, "float32")
            B[i, 2] = T.Cast("float32", bits)
            B[i, 3] = T.cast(A[i, 0] * 2.5, "int32")
    return B
"#;
    let text = json!({"kernel": "k", "args": {"A": {"buffer": {"dtype": "float32", "shape": [2, 3], "data": [1.0, 0.0, 0.0, -3.0, 0.0, 0.0]}}}}).to_string();
    let r = run_clean(src, &parse_launch(&text).unwrap());
    // KW = K = 3 (A's second dimension); gcd(12, 8) = 4; float16 has 16
    // bits; int32(2.5) = 2 and int32(-7.5) = -7 (truncation), back to float
    assert_eq!(
        bits(&r, "B"),
        f32_bits(&[3.0, 4.0, 16.0, 2.0, 3.0, 4.0, 16.0, -7.0])
    );
}

#[test]
fn reinterpret_keeps_the_bits() {
    // T.reinterpret(value, dtype) (TVM's reinterpret, as deepseek_v4's
    // act_quant.py uses it): 1.0f is 0x3f800000; + 1 on the bits is the
    // float after 1; different widths are refused
    let src = prim(
        1,
        "A: T.Tensor((2,), \"float32\"), C: T.Tensor((2,), \"float32\"), U: T.Tensor((2,), \"uint32\")",
        "for i in T.serial(2):\n    U[i] = T.reinterpret(A[i], \"uint32\")\n    C[i] = T.reinterpret(T.reinterpret(A[i], \"uint32\") + T.uint32(1), \"float32\")",
    );
    let l = args(json!({
        "A": buf("float32", json!([1.0, -2.0])),
        "C": zeros("float32", 2),
        "U": zeros("uint32", 2),
    }));
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "U"), vec![0x3f80_0000, 0xc000_0000]);
    assert_eq!(bits(&r, "C"), vec![0x3f80_0001, 0xc000_0001]);
    refused_with(
        "C[0] = T.reinterpret(A[0], \"int8\")",
        "T.reinterpret",
        "the widths differ",
        None,
    );
}

#[test]
fn atomics_add_without_racing() {
    // T.atomic_add from every T.Parallel iteration and every block into one
    // element is not a race; the element form and the tile form
    let src = module(
        "@T.prim_func\ndef main(A: T.Tensor((8,), \"int32\"), S: T.Tensor((1,), \"int32\"), C: T.Tensor((4,), \"int32\")):\n    with T.Kernel(2, threads=32) as bx:\n        for i in T.Parallel(4):\n            T.atomic_add(S[0], A[bx * 4 + i])\n        T.atomic_add(C, A[bx * 4:(bx + 1) * 4])\n",
    );
    let r = run_clean(
        &src,
        &args(
            json!({"A": i32s(&[1, 2, 3, 4, 5, 6, 7, 8]), "S": zeros("int32", 1), "C": zeros("int32", 4)}),
        ),
    );
    assert_eq!(ints(&r, "S"), vec![36]);
    // C[j] = A[j] + A[4 + j]
    assert_eq!(ints(&r, "C"), vec![6, 8, 10, 12]);
    // a plain store beside the atomics of other iterations races
    let u = parallel_ub(
        "for i in T.Parallel(4):\n    T.atomic_add(C[0], A[i])\n    if i == 2:\n        C[0] = 7",
    );
    assert_eq!(u.len(), 1, "{u:?}");
    assert_eq!(u[0].kind, "data-race");
}

#[test]
fn host_python_on_constants_inside_and_before_the_kernel() {
    // dict lookups, list repetition, chained assignment before the kernel,
    // math.* and tilelang.math.next_power_of_2 on constants, asserts on
    // constants, `buf is not None`
    let src = "import math\n\n\ndef k(N, dtype=\"float16\"):\n    size = {\"float32\": 4, \"float16\": 2}[dtype]\n    stages = [1, 2] * 2\n    a = b = 3\n    p = tilelang.math.next_power_of_2(N + 1)\n\n    @T.prim_func\n    def main(A: T.Tensor((N,), \"int32\")):\n        with T.Kernel(1, threads=1) as bx:\n            assert size == 2\n            A[0] = size + stages[3] * 20\n            A[1] = a + b + math.ceil(N / 3)\n            A[2] = p\n            A[3] = 1 if A is not None else 0\n\n    return main\n";
    // size 2 + stages[3] (2) * 20; 3 + 3 + ceil(4/3) = 8; next_power_of_2(5) = 8;
    // A is not None
    assert_eq!(factory_run(src, json!({"N": 4})), vec![42, 8, 8, 1]);
}

#[test]
fn a_grid_may_depend_on_a_scalar_argument() {
    // the varlen kernels' `T.Kernel(T.ceildiv(max_seqlen, block_M))`: ksem
    // elaborates for one launch, so the launch's value of the scalar fixes
    // the grid; ceildiv(10, 4) = 3 blocks each write their index
    let src = module(
        "@T.prim_func\ndef main(n: T.int32, A: T.Tensor((4,), \"int32\")):\n    with T.Kernel(T.ceildiv(n, 4), threads=1) as bx:\n        A[bx] = bx + n\n",
    );
    let l = args(json!({"n": scalar("int32", json!(10)), "A": zeros("int32", 4)}));
    let r = run_clean(&src, &l);
    assert_eq!(ints(&r, "A"), vec![10, 11, 12, 0]);
    assert_eq!(elaborate(&src, &l).unwrap().grid, [3, 1, 1]);
}

#[test]
fn dynamic_sizes_subscript_annotations_and_global_scratch() {
    // `M = T.dynamic("m")` is bound from the launch's shapes like T.const;
    // `T.Tensor[shape, dtype]` is `T.Tensor(shape, dtype)`; T.alloc_global is
    // global scratch every block sees, made zeroed and reported
    let src = "import tilelang\nimport tilelang.language as T\n\n\n@tilelang.jit\ndef k(A):\n    M = T.dynamic(\"m\")\n    A: T.Tensor[(M,), \"int32\"]\n    C = T.empty((M,), \"int32\")\n    with T.Kernel(M, threads=1) as bx:\n        G = T.alloc_global((M,), \"int32\")\n        G[bx] = A[bx] * 2\n        C[bx] = G[bx] + 1\n    return C\n";
    let text = json!({"kernel": "k", "args": {"A": buf("int32", json!([1, 2, 3]))}}).to_string();
    let r = run_clean(src, &parse_launch(&text).unwrap());
    assert_eq!(ints(&r, "C"), vec![3, 5, 7]);
    assert_eq!(ints(&r, "alloc_global0"), vec![2, 4, 6]);
}

#[test]
fn reshape_view_and_tensor_of_data_alias_their_buffer() {
    // T.reshape(A, (2, 3)), T.view(A, (3, 2)) and T.Tensor((3, 2), dtype,
    // A.data) read A's six elements in row-major order: V[1, i] is A[3 + i],
    // W[r, c] is A[2r + c]; a write through a view is a write to A
    // (tilelang/language/customize.py builds each as T.Tensor(shape, dtype,
    // src.data))
    let src = prim(
        1,
        "A: T.Tensor((6,), \"int32\"), C: T.Tensor((6,), \"int32\")",
        "V = T.reshape(A, (2, 3))\nW = T.view(A, (3, 2))\nX = T.Tensor((3, 2), \"int32\", A.data)\nS = T.alloc_shared((2, 3), \"int32\")\nT.copy(V, S)\nF = T.reshape(S, (6,))\nfor i in T.serial(3):\n    C[i] = V[1, i]\nC[3] = W[2, 0]\nC[4] = F[4]\nX[2, 1] = 100\nC[5] = A[5]",
    );
    let r = run_clean(
        &src,
        &args(json!({"A": i32s(&[10, 11, 12, 13, 14, 15]), "C": zeros("int32", 6)})),
    );
    // V[1, 0..3] = A[3..6]; W[2, 0] = A[4]; F[4] = S[1, 1] = A[4]
    assert_eq!(ints(&r, "C"), vec![13, 14, 15, 14, 14, 100]);
    assert_eq!(ints(&r, "A"), vec![10, 11, 12, 13, 14, 100]);
    // an index past the view's shape is out of its bounds, as on any
    // buffer: refused where it is a constant, UB where it is reached
    refused_with(
        "V = T.reshape(A, (2, 2))\nC[0] = V[2, 0]",
        "V[2, 0]",
        "index 2 is out of bounds for dimension 0 of `view of A` (size 2)",
        None,
    );
    let u = parallel_ub("V = T.reshape(A, (2, 2))\nfor i in T.serial(3):\n    C[i] = V[i, 0]");
    assert_eq!(u.len(), 1, "{u:?}");
    // a view of another element count, or of another dtype, is refused
    refused_with(
        "V = T.reshape(A, (3, 2))\nC[0] = V[0, 0]",
        "T.reshape",
        "T.reshape: shape [3, 2] has 6 elements but `A` of shape [4] has 4",
        None,
    );
    refused_with(
        "V = T.view(A, (8,), \"int16\")\nC[0] = V[0]",
        "T.view",
        "T.view from int32 to int16: a view that reinterprets the bytes",
        None,
    );
    refused_with(
        "V = T.Tensor((2, 2), \"int32\")\nC[0] = V[0, 0]",
        "T.Tensor((2, 2)",
        "T.Tensor inside a kernel must view a buffer: T.Tensor(shape, dtype, buffer.data)",
        None,
    );
}

#[test]
fn im2col_gathers_convolution_windows_with_zero_padding() {
    // T.im2col(img, col, nhw_step, c_step, kernel, stride, dilation, pad) as
    // TileLang lowers it (src/op/copy.cc, LowerIm2ColSIMT). A 1x3x3x1 image
    // holding 1..9, a 3x3 kernel, stride 1, dilation 1, pad 1: the output is
    // 3x3, and row m = 3·oh + ow of the column matrix holds the window around
    // (oh, ow): column k = 3·kh + kw is img[oh + kh − 1, ow + kw − 1], 0
    // outside the image. Tile 1 of 4 rows (nhw_step 1) starts at m = 4, the
    // centre, whose window is the whole image; rows 5..7 follow; with C = 1
    // and a tile of 9 columns, c_step 0 covers k = 0..8.
    let src = prim(
        1,
        "A: T.Tensor((1, 3, 3, 1), \"float32\"), C: T.Tensor((4, 9), \"float32\")",
        "S = T.alloc_shared((4, 9), \"float32\")\nT.im2col(A, S, 1, 0, 3, 1, 1, 1)\nT.copy(S, C)",
    );
    let img: Vec<f32> = (1..=9).map(|v| v as f32).collect();
    let r = run_clean(
        &src,
        &args(json!({"A": buf("float32", json!(img)), "C": zeros("float32", 36)})),
    );
    let window = |oh: i32, ow: i32| -> Vec<f32> {
        let mut w = Vec::new();
        for kh in 0..3 {
            for kw in 0..3 {
                let (h, x) = (oh + kh - 1, ow + kw - 1);
                let inside = (0..3).contains(&h) && (0..3).contains(&x);
                w.push(if inside { (3 * h + x + 1) as f32 } else { 0.0 });
            }
        }
        w
    };
    let want: Vec<f32> = (4..8).flat_map(|m| window(m / 3, m % 3)).collect();
    // m = 4 is (1, 1): the whole image; m = 5 is (1, 2): its right column
    // is padding
    assert_eq!(&want[..9], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    assert_eq!(&want[9..18], &[2.0, 3.0, 0.0, 5.0, 6.0, 0.0, 8.0, 9.0, 0.0]);
    assert_eq!(bits(&r, "C"), f32_bits(&want));
    // the batch index m // 9 is not checked: tile 2 (m = 8..11) reads
    // image 1 of a batch of 1, out of bounds
    let past = prim(
        1,
        "A: T.Tensor((1, 3, 3, 1), \"float32\"), C: T.Tensor((4, 9), \"float32\")",
        "S = T.alloc_shared((4, 9), \"float32\")\nT.im2col(A, S, 2, 0, 3, 1, 1, 1)\nT.copy(S, C)",
    );
    let u = ub_of(
        &past,
        &args(json!({"A": buf("float32", json!(img)), "C": zeros("float32", 36)})),
    );
    assert!(!u.is_empty(), "reading image 1 of 1 must be out of bounds");
    // a 7-wide kernel does not fit the unpadded 3x3 image (out_h = -3), and
    // a stride of 0 has no output size: both refused, not run
    for (call, msg) in [
        (
            "T.im2col(A, S, 0, 0, 7, 1, 1, 0)",
            "does not fit the image padded by 0",
        ),
        (
            "T.im2col(A, S, 0, 0, 3, 0, 1, 1)",
            "kernel, stride and dilation must be in 1..=",
        ),
    ] {
        let src = prim(
            1,
            "A: T.Tensor((1, 3, 3, 1), \"float32\"), C: T.Tensor((4, 9), \"float32\")",
            &format!("S = T.alloc_shared((4, 9), \"float32\")\n{call}\nT.copy(S, C)"),
        );
        let l = args(json!({"A": buf("float32", json!(img)), "C": zeros("float32", 36)}));
        let d = refused(&src, &l);
        assert_diag(&src, &d, loc1(&src, "T.im2col"), &[msg], None);
    }
}

#[test]
fn one_dynamic_call_names_several_sizes() {
    // `B, S = T.dynamic("B, S")` (deepseek_v32's sparse MLA, dsa indexer):
    // TileLang returns one variable per name listed (split at commas or
    // spaces, tilelang/language/symbolics.py); each is read off the launch's
    // shapes, in a factory and in an eager kernel
    let factory = "def k(heads):\n    b, s = T.dynamic(\"b, s\")\n    shape = [b, s, heads]\n\n    @T.prim_func\n    def main(Q: T.Tensor(shape, \"int32\"), A: T.Tensor((4,), \"int32\")):\n        with T.Kernel(1, threads=1) as bx:\n            A[0] = b\n            A[1] = s\n            A[2] = Q[b - 1, s - 1, heads - 1]\n\n    return main\n";
    let text = json!({"kernel": "k", "factory_args": {"heads": 2},
        "args": {"Q": {"buffer": {"dtype": "int32", "shape": [1, 3, 2], "data": [1, 2, 3, 4, 5, 6]}},
                 "A": zeros("int32", 4)}})
    .to_string();
    let r = run_clean(&module(factory), &parse_launch(&text).unwrap());
    // b = 1, s = 3; Q[0, 2, 1] = 6
    assert_eq!(ints(&r, "A")[..3], [1, 3, 6]);
    let eager = "import tilelang\nimport tilelang.language as T\n\n\n@tilelang.jit\ndef k(A):\n    M, N = T.dynamic(\"m n\")\n    A: T.Tensor((M, N), \"int32\")\n    C = T.empty((M,), \"int32\")\n    with T.Kernel(M, threads=1) as bx:\n        C[bx] = A[bx, N - 1] + N\n    return C\n";
    let text = json!({"kernel": "k", "args": {"A": {"buffer": {"dtype": "int32", "shape": [2, 3], "data": [1, 2, 3, 4, 5, 6]}}}}).to_string();
    let r = run_clean(eager, &parse_launch(&text).unwrap());
    // N = 3: A[0, 2] + 3, A[1, 2] + 3
    assert_eq!(ints(&r, "C"), vec![6, 9]);
}

#[test]
fn blackwell_tensor_memory_is_refused_by_name() {
    // T.alloc_tmem and T.tcgen05_* (flash_attention_sm100, gemm_tcgen05)
    // need sm_100 tensor memory, hardware ksem does not model
    refused_with(
        "M = T.alloc_tmem([4, 4], \"float32\")\nC[0] = 1",
        "T.alloc_tmem",
        "T.alloc_tmem needs Blackwell (sm_100) tensor memory, hardware ksem does not model",
        None,
    );
    refused_with(
        "T.tcgen05_gemm(A, A, C)",
        "T.tcgen05_gemm",
        "T.tcgen05_gemm needs Blackwell (sm_100) tensor memory",
        None,
    );
}

/// A dtype equals a string only where the string is the dtype's own name
/// (measured on tilelang 0.1.15: tools/probes/tilelang/dtype_str_eq.json;
/// `T.float32 == "float"` is False although `"float"` names float32 as a
/// buffer dtype). In a factory's prologue: C = [float32 == "float32",
/// float32 == "float", float16 != "half", "int32" == int32,
/// "float8_e4m3fn" in [float8_e4m3fn], float8_e5m2 == "float8_e5m2"] =
/// [1, 0, 1, 1, 1, 1] (the deepgemm example asserts the fifth).
#[test]
fn a_dtype_equals_only_its_own_name() {
    let src = module(
        "def make():
    f0 = 1 if T.float32 == \"float32\" else 0
    f1 = 1 if T.float32 == \"float\" else 0
    f2 = 1 if T.float16 != \"half\" else 0
    f3 = 1 if \"int32\" == T.int32 else 0
    f4 = 1 if \"float8_e4m3fn\" in [T.float8_e4m3fn] else 0
    f5 = 1 if T.float8_e5m2 == \"float8_e5m2\" else 0

    @T.prim_func
    def main(C: T.Tensor((6,), \"int32\")):
        with T.Kernel(1, threads=1) as bx:
            C[0] = f0
            C[1] = f1
            C[2] = f2
            C[3] = f3
            C[4] = f4
            C[5] = f5

    return main
",
    );
    let text = json!({"kernel": "make", "args": {"C": zeros("int32", 6)}}).to_string();
    let r = run_clean(&src, &parse_launch(&text).unwrap());
    assert_eq!(ints(&r, "C"), vec![1, 0, 1, 1, 1, 1]);
}

/// TIR's lower-case `T.parallel(start, stop)` (TileLang's DSA pooling
/// example) is the loop kind `T.Parallel` makes: iterations independent,
/// so `C[i] = 2·A[i] + 1` over 1..4 gives [0, 5, 7, 9], and iterations that
/// all write C[0] race.
#[test]
fn lower_case_parallel_is_a_parallel_loop() {
    assert_eq!(
        ints_of(
            "for i in T.parallel(1, 4):\n    C[i] = A[i] * 2 + 1",
            &[1, 2, 3, 4],
            4
        ),
        vec![0, 5, 7, 9]
    );
    let src = prim(
        1,
        "A: T.Tensor((4,), \"int32\"), C: T.Tensor((4,), \"int32\")",
        "for i in T.parallel(4):\n    C[0] = A[i]",
    );
    let ub = ub_of(
        &src,
        &args(json!({"A": i32s(&[1, 2, 3, 4]), "C": zeros("int32", 4)})),
    );
    assert_eq!(ub[0].kind, "data-race", "{:?}", ub[0]);
}

/// A slice whose bounds both hold the same runtime value has the constant
/// extent their difference folds to (TileLang's split-token fp8 cast slices
/// `X[row_offset + row * blk_m : row_offset + (row + 1) * blk_m, …]` with
/// `row_offset` a `T.alloc_var`). With A = [2, 10, 20, 30, 40] the offset
/// is A[0], 2, so the copy takes A[2:4] and C = [20, 30]. Bounds whose
/// difference is not constant are still refused.
#[test]
fn slice_bounds_sharing_a_runtime_value() {
    let body = "off = T.alloc_var(T.int32)\noff = A[0]\nS = T.alloc_shared((2,), \"int32\")\nT.copy(A[off + bx * 2 : off + (bx + 1) * 2], S)\nfor i in T.serial(2):\n    C[i] = S[i]";
    assert_eq!(ints_of(body, &[2, 10, 20, 30, 40], 2), vec![20, 30]);
    let src = prim(
        1,
        "A: T.Tensor((5,), \"int32\"), C: T.Tensor((2,), \"int32\")",
        "off = T.alloc_var(T.int32)\noff = A[0]\nS = T.alloc_shared((2,), \"int32\")\nT.copy(A[off : off * 2], S)",
    );
    let d = refused(
        &src,
        &args(json!({"A": i32s(&[2, 10, 20, 30, 40]), "C": zeros("int32", 2)})),
    );
    assert!(
        d.message
            .contains("a slice's extent must be a compile-time constant"),
        "{d:?}"
    );
}
