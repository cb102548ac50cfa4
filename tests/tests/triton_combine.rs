//! `tl.reduce` over a tuple of tensors and `tl.associative_scan` with a user
//! combine function (issue 12). Orders (docs/semantics.md, "Reductions" and
//! "Scans"): a reduction combines in the canonical tree order, the lower
//! index's tuple on the left; a scan combines sequentially, the accumulated
//! tuple on the left, `y[i] = f(y[i-1], x[i])` (reverse: `f(y[i+1], x[i])`).
//! Every expected value is derived by hand in the test.

use ksem_tests::serde_json::json;
use ksem_tests::*;

/// The int32 values of buffer `name` of a clean run.
fn i32s(src: &str, l: &ksem_interp::launch::Launch, name: &str) -> Vec<i32> {
    bits(&run_clean(src, l), name)
        .iter()
        .map(|&b| b as u32 as i32)
        .collect()
}

/// A module: the imports, module-level helpers `helpers`, then `kern`.
fn program(helpers: &str, params: &str, body: &str) -> String {
    format!(
        "{PRELUDE}{helpers}\n@triton.jit\ndef kern({params}):\n{}\n",
        indent(body)
    )
}

/// Argmax over (value, index) pairs: the larger value, ties to the lower index.
const ARGMAX: &str = "@triton.jit
def argmax_combine(v1, i1, v2, i2):
    gt = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(gt, v1, v2), tl.where(gt, i1, i2)
";

/// Argmax pairs along axis 1 of a 2x4 tile (keep_dims), along axis 0, and
/// over everything (axis=None, row-major flattening).
/// x = [[3, 9, 9, 1], [7, 2, 7, 5]]: row 0 -> (9, 1) (tie 9 at 1 and 2, lowest
/// index), row 1 -> (7, 0); columns -> values [7, 9, 9, 5], rows [1, 0, 0, 1];
/// everything -> (9, flat index 1).
#[test]
fn tuple_reduce_argmax_pairs_on_each_axis() {
    let src = program(
        ARGMAX,
        "x_ptr, v1_ptr, i1_ptr, v0_ptr, i0_ptr, va_ptr, ia_ptr",
        "r = tl.arange(0, 2)[:, None]
c = tl.arange(0, 4)[None, :]
x = tl.load(x_ptr + r * 4 + c)
ci = tl.broadcast_to(c, (2, 4))
ri = tl.broadcast_to(r, (2, 4))
v1, i1 = tl.reduce((x, ci), 1, argmax_combine, keep_dims=True)
tl.store(v1_ptr + r, v1)
tl.store(i1_ptr + r, i1)
v0, i0 = tl.reduce((x, ri), 0, argmax_combine)
tl.store(v0_ptr + tl.arange(0, 4), v0)
tl.store(i0_ptr + tl.arange(0, 4), i0)
va, ia = tl.reduce((x, r * 4 + c), None, argmax_combine)
tl.store(va_ptr, va)
tl.store(ia_ptr, ia)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([3, 9, 9, 1, 7, 2, 7, 5])),
               "v1_ptr": zeros("int32", 2), "i1_ptr": zeros("int32", 2),
               "v0_ptr": zeros("int32", 4), "i0_ptr": zeros("int32", 4),
               "va_ptr": zeros("int32", 1), "ia_ptr": zeros("int32", 1)}),
    );
    assert_eq!(i32s(&src, &l, "v1_ptr"), vec![9, 7]);
    assert_eq!(i32s(&src, &l, "i1_ptr"), vec![1, 0]);
    assert_eq!(i32s(&src, &l, "v0_ptr"), vec![7, 9, 9, 5]);
    assert_eq!(i32s(&src, &l, "i0_ptr"), vec![1, 0, 0, 1]);
    assert_eq!(i32s(&src, &l, "va_ptr"), vec![9]);
    assert_eq!(i32s(&src, &l, "ia_ptr"), vec![1]);
}

/// Welford (mean, M2, count) over x = 1..8 in float32, every step exact:
/// s=4 pairs (1,5) (2,6) (3,7) (4,8): delta 4, mean m1 + 4*0.5, M2 = 16*1*1/2
/// = 8, count 2 -> means 3, 4, 5, 6. s=2: (3,8,2)+(5,8,2): delta 2, mean 4,
/// M2 = 8+8 + 4*(2*2/4) = 20; (4,..)+(6,..) -> 5, 20. s=1: delta 1, count 8,
/// mean 4 + 1*(4/8) = 4.5 (0x40900000), M2 = 40 + 1*(4*4/8) = 42 (0x42280000)
/// — the sum of squared deviations of 1..8 from 4.5; count 8 (0x41000000).
#[test]
fn tuple_reduce_welford_three_operands() {
    let src = program(
        "@triton.jit
def welford(m1, s1, w1, m2, s2, w2):
    d = m2 - m1
    w = w1 + w2
    return m1 + d * (w2 / w), s1 + s2 + d * d * (w1 * w2 / w), w
",
        "x_ptr, m_ptr, s_ptr, w_ptr",
        "x = tl.load(x_ptr + tl.arange(0, 8))
m, s, w = tl.reduce((x, tl.zeros_like(x), tl.full((8,), 1.0, tl.float32)), 0, welford)
tl.store(m_ptr, m)
tl.store(s_ptr, s)
tl.store(w_ptr, w)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])),
               "m_ptr": zeros("float32", 1), "s_ptr": zeros("float32", 1),
               "w_ptr": zeros("float32", 1)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "m_ptr"), vec![0x40900000]);
    assert_eq!(bits(&r, "s_ptr"), vec![0x42280000]);
    assert_eq!(bits(&r, "w_ptr"), vec![0x41000000]);
}

/// The tree order decides float bits: a pairwise float32 sum of
/// x = [1e8, 1, -1e8, 1] (1e8 = 0x4cbebc20) beside an int32 count. Tree:
/// s=2 gives [1e8 + -1e8, 1 + 1] = [0, 2], s=1 gives 2.0 (0x40000000); a
/// left-to-right fold would give ((1e8 + 1) - 1e8) + 1 = 0 + 1 = 1.0.
/// A combine that keeps its left operand (`first`) returns element 0 in the
/// tree order (x[0] survives every level) and the right one (`last`) the
/// last element; both are non-commutative, so they pin which side is which.
#[test]
fn tuple_reduce_float_order_is_the_tree_with_lower_index_left() {
    let src = program(
        "@triton.jit
def sum_count(a, n, b, m):
    return a + b, n + m


@triton.jit
def first(a, i, b, j):
    return a, i


@triton.jit
def last(a, i, b, j):
    return b, j
",
        "x_ptr, s_ptr, n_ptr, f_ptr, l_ptr",
        "k = tl.arange(0, 4)
x = tl.load(x_ptr + k)
s, n = tl.reduce((x, k), 0, sum_count)
tl.store(s_ptr, s)
tl.store(n_ptr, n)
f, fi = tl.reduce((x, k), 0, first)
tl.store(f_ptr, fi)
la, li = tl.reduce((x, k), 0, last)
tl.store(l_ptr, li)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([1e8, 1.0, -1e8, 1.0])),
               "s_ptr": zeros("float32", 1), "n_ptr": zeros("int32", 1),
               "f_ptr": zeros("int32", 1), "l_ptr": zeros("int32", 1)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "s_ptr"), vec![0x40000000]);
    // 0 + 1 + 2 + 3
    assert_eq!(bits(&r, "n_ptr"), vec![6]);
    assert_eq!(bits(&r, "f_ptr"), vec![0]);
    assert_eq!(bits(&r, "l_ptr"), vec![3]);
}

/// A first-order linear recurrence y[i] = a[i] * y[i-1] + b[i] as an
/// associative scan of affine maps (a, b): f((a1, b1), (a2, b2)) =
/// (a1 * a2, b1 * a2 + b2), accumulated map on the left. With a = x =
/// [3, 1, 4, 1] and b = x + 1 = [4, 2, 5, 2]: A = [3, 3, 12, 12], B = [4,
/// 4*1+2 = 6, 6*4+5 = 29, 29*1+2 = 31]. Reverse, from the last element:
/// A = [12, 4, 4, 1], B[3] = 2, B[2] = 2*4+5 = 13, B[1] = 13*1+2 = 15,
/// B[0] = 15*3+4 = 49.
#[test]
fn associative_scan_of_a_tuple_forward_and_reverse() {
    let src = program(
        "@triton.jit
def affine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2
",
        "x_ptr, a_ptr, b_ptr, ra_ptr, rb_ptr",
        "k = tl.arange(0, 4)
x = tl.load(x_ptr + k)
a, b = tl.associative_scan((x, x + 1), 0, affine)
tl.store(a_ptr + k, a)
tl.store(b_ptr + k, b)
ra, rb = tl.associative_scan((x, x + 1), 0, affine, reverse=True)
tl.store(ra_ptr + k, ra)
tl.store(rb_ptr + k, rb)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([3, 1, 4, 1])),
               "a_ptr": zeros("int32", 4), "b_ptr": zeros("int32", 4),
               "ra_ptr": zeros("int32", 4), "rb_ptr": zeros("int32", 4)}),
    );
    assert_eq!(i32s(&src, &l, "a_ptr"), vec![3, 3, 12, 12]);
    assert_eq!(i32s(&src, &l, "b_ptr"), vec![4, 6, 29, 31]);
    assert_eq!(i32s(&src, &l, "ra_ptr"), vec![12, 4, 4, 1]);
    assert_eq!(i32s(&src, &l, "rb_ptr"), vec![49, 15, 13, 2]);
}

/// One tensor, a non-commutative combine `acc - x`, along axis 1 of a 2x4
/// tile and along axis 0. Rows [1, 2, 3, 4] and [10, 20, 30, 40]: forward
/// y = [1, -1, -4, -8] and [10, -10, -40, -80]; reverse (y[3] = x[3],
/// y[i] = y[i+1] - x[i]): y[2] = 4 - 3 = 1, y[1] = 1 - 2 = -1, y[0] = -1 - 1
/// = -2, so [-2, -1, 1, 4], and [-20, -10, 10, 40]. Down the
/// columns: [1, 2, 3, 4] then [1-10, 2-20, 3-30, 4-40].
#[test]
fn associative_scan_of_one_tensor_keeps_the_accumulator_left() {
    let src = program(
        "@triton.jit
def minus(a, b):
    return a - b
",
        "x_ptr, f_ptr, r_ptr, c_ptr",
        "i = tl.arange(0, 2)[:, None] * 4 + tl.arange(0, 4)[None, :]
x = tl.load(x_ptr + i)
tl.store(f_ptr + i, tl.associative_scan(x, 1, minus))
tl.store(r_ptr + i, tl.associative_scan(x, -1, minus, reverse=True))
tl.store(c_ptr + i, tl.associative_scan(x, 0, minus))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([1, 2, 3, 4, 10, 20, 30, 40])),
               "f_ptr": zeros("int32", 8), "r_ptr": zeros("int32", 8),
               "c_ptr": zeros("int32", 8)}),
    );
    assert_eq!(
        i32s(&src, &l, "f_ptr"),
        vec![1, -1, -4, -8, 10, -10, -40, -80]
    );
    assert_eq!(
        i32s(&src, &l, "r_ptr"),
        vec![-2, -1, 1, 4, -20, -10, 10, 40]
    );
    assert_eq!(i32s(&src, &l, "c_ptr"), vec![1, 2, 3, 4, -9, -18, -27, -36]);
}

/// The scan order decides float bits: (sum, product) of x = [1e8, 1, -1e8, 1]
/// in float32. Sequential sums: [1e8, 1e8 (1e8 + 1 rounds back, spacing 8),
/// 0, 1.0]; a tree or Hillis-Steele order would give 0 for the last element.
/// Products of [2, 0.5, 3, 0.25]: [2, 1, 3, 0.75] (exact).
#[test]
fn associative_scan_float_order_is_sequential() {
    let src = program(
        "@triton.jit
def sum_prod(s1, p1, s2, p2):
    return s1 + s2, p1 * p2
",
        "x_ptr, y_ptr, s_ptr, p_ptr",
        "k = tl.arange(0, 4)
s, p = tl.associative_scan((tl.load(x_ptr + k), tl.load(y_ptr + k)), 0, sum_prod)
tl.store(s_ptr + k, s)
tl.store(p_ptr + k, p)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([1e8, 1.0, -1e8, 1.0])),
               "y_ptr": buf("float32", json!([2.0, 0.5, 3.0, 0.25])),
               "s_ptr": zeros("float32", 4), "p_ptr": zeros("float32", 4)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "s_ptr"),
        vec![0x4cbebc20, 0x4cbebc20, 0x00000000, 0x3f800000]
    );
    assert_eq!(
        bits(&r, "p_ptr"),
        vec![0x40000000, 0x3f800000, 0x40400000, 0x3f400000]
    );
}

/// Refusals at the call's line:col: a combine function returning another
/// number of values than there are operands, operands of different shapes,
/// a result of another dtype than its operand, a 0-d operand.
#[test]
fn bad_tuple_combinations_are_refused() {
    let helpers = "@triton.jit
def one(a, i, b, j):
    return a + b


@triton.jit
def two(a, b):
    return a, b


@triton.jit
def widen(a, i, b, j):
    return a + b, (i + j).to(tl.int64)
";
    // the helpers are never called, so the launch names the kernel
    let text = json!({"kernel": "kern", "grid": [1],
                      "args": {"x_ptr": buf("int32", json!([1, 2, 3, 4]))}});
    let l = ksem_interp::launch::parse_launch(&text.to_string()).expect("launch");
    let cases = [
        (
            "tl.reduce((x, x), 0, one)",
            &["`one` returns 1 value(s) for 2 operand(s)"][..],
        ),
        (
            "tl.associative_scan(x, 0, two)",
            &["`two` returns 2 value(s) for 1 operand(s)"][..],
        ),
        (
            "tl.reduce((x, tl.reshape(x, (2, 2))), 0, one)",
            &["one shape"][..],
        ),
        (
            "tl.associative_scan((x, x[None, :]), 0, one)",
            &["one shape"][..],
        ),
        (
            "tl.reduce((x, x), 0, widen)",
            &["int32 scalar as value 1", "int64"][..],
        ),
        ("tl.associative_scan(tl.sum(x), 0, two)", &["0-d value"][..]),
    ];
    for (call, msg) in cases {
        let src = program(
            helpers,
            "x_ptr",
            &format!(
                "x = tl.load(x_ptr + tl.arange(0, 4))
y = {call}"
            ),
        );
        let d = refused(&src, &l);
        assert_diag(&src, &d, loc1(&src, call), msg, None);
    }
}

/// `tl.argmax`/`tl.argmin` with `tie_break_left=False` (docs/semantics.md,
/// "Reductions"): ties go to the lowest index, as with the default, and a
/// NaN is skipped (`v1 > v2` is false for it). x = [nan, 6, 8, 8]: argmax 2
/// (8 at 2 and 3); y = [nan, 6, 6, 8]: argmin 1 (6 at 1 and 2).
#[test]
fn argmax_argmin_without_tie_break_left() {
    let src = kernel(
        "x_ptr, y_ptr, o_ptr",
        "offs = tl.arange(0, 4)
x = tl.load(x_ptr + offs)
y = tl.load(y_ptr + offs)
tl.store(o_ptr, tl.argmax(x, axis=0, tie_break_left=False))
tl.store(o_ptr + 1, tl.argmin(y, axis=0, tie_break_left=False))",
    );
    let l = launch(
        &[1],
        json!({
            "x_ptr": buf("float32", json!(["nan", 6.0, 8.0, 8.0])),
            "y_ptr": buf("float32", json!(["nan", 6.0, 6.0, 8.0])),
            "o_ptr": zeros("int32", 2),
        }),
    );
    assert_eq!(i32s(&src, &l, "o_ptr"), [2, 1]);
}
