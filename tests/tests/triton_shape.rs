//! Triton's element-moving shape builtins (`tl.flip`, `tl.cat`,
//! `tl.squeeze`, `tl.unsqueeze`, `tl.ravel`), the counting and picking ones
//! (`tl.histogram`, `tl.gather`, `tl.sort`, `tl.topk`) and the
//! standard-library builtins `tl.umulhi`, `tl.swizzle2d`, `tl.assume`, as Triton's language
//! tests use them (issue 24). Expected values are worked out by hand in each
//! test from the builtin's documented meaning.

use ksem_tests::serde_json::json;
use ksem_tests::*;

/// The int32 values of buffer `name` of a clean run of `kern(out_ptr)`.
fn out_i32(body: &str, n: usize) -> Vec<i32> {
    let src = kernel("out_ptr", body);
    let l = launch(&[1], json!({"out_ptr": zeros("int32", n)}));
    bits(&run_clean(&src, &l), "out_ptr")
        .iter()
        .map(|&b| b as u32 as i32)
        .collect()
}

#[test]
fn flip_reverses_one_axis() {
    // a = [[0,1,2,3],[4,5,6,7]]; flip along 1 -> [[3,2,1,0],[7,6,5,4]]
    let got = out_i32(
        "a = tl.reshape(tl.arange(0, 8), (2, 4))\nb = tl.flip(a, 1)\ntl.store(out_ptr + tl.arange(0, 8), tl.ravel(b))",
        8,
    );
    assert_eq!(got, vec![3, 2, 1, 0, 7, 6, 5, 4]);
    // along 0 of (4, 2): rows in reverse order -> [[6,7],[4,5],[2,3],[0,1]]
    let got = out_i32(
        "a = tl.reshape(tl.arange(0, 8), (4, 2))\nb = tl.flip(a, 0)\ntl.store(out_ptr + tl.arange(0, 8), tl.ravel(b))",
        8,
    );
    assert_eq!(got, vec![6, 7, 4, 5, 2, 3, 0, 1]);
    // dim=None is the last axis; dim=-2 of (2, 2, 4) is the middle one:
    // a[i][j][k] = 8i + 4j + k -> a[i][1-j][k]
    let got = out_i32(
        "a = tl.reshape(tl.arange(0, 16), (2, 2, 4))\nb = tl.flip(a, -2)\ntl.store(out_ptr + tl.arange(0, 16), tl.ravel(b))",
        16,
    );
    assert_eq!(
        got,
        vec![4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11]
    );
    let got = out_i32(
        "a = tl.arange(0, 16)\ntl.store(out_ptr + tl.arange(0, 16), tl.flip(a))",
        16,
    );
    assert_eq!(got, (0..16).rev().collect::<Vec<i32>>());
}

#[test]
fn flip_keeps_float_bits() {
    // the Triton issue 5439 reproducer's pattern: pairs swapped, inf and -0.0 kept
    let src = kernel(
        "x_ptr, out_ptr",
        "x = tl.load(x_ptr + tl.arange(0, 4))\ny = tl.flip(x.reshape((2, 2)), dim=1).reshape((4,))\ntl.store(out_ptr + tl.arange(0, 4), y)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([1.5, "inf", -0.0, "nan"])), "out_ptr": zeros("float32", 4)}),
    );
    let want = [
        f32::INFINITY.to_bits(),
        1.5f32.to_bits(),
        0x7fc0_0000,
        (-0.0f32).to_bits(),
    ];
    let got = bits(&run_clean(&src, &l), "out_ptr");
    assert_eq!(got, want.map(u64::from).to_vec());
}

#[test]
fn cat_concatenates_in_order_along_a_dim() {
    // [0..4) then [10..14) along 0
    let got = out_i32(
        "x = tl.arange(0, 4)\ny = tl.arange(0, 4) + 10\ntl.store(out_ptr + tl.arange(0, 8), tl.cat(x, y, can_reorder=True))",
        8,
    );
    assert_eq!(got, vec![0, 1, 2, 3, 10, 11, 12, 13]);
    // x = [[0,1],[2,3]], y = x + 10, along 1 -> [[0,1,10,11],[2,3,12,13]]
    let got = out_i32(
        "x = tl.reshape(tl.arange(0, 4), (2, 2))\ny = x + 10\nz = tl.cat(x, y, dim=1)\ntl.store(out_ptr + tl.arange(0, 8), tl.ravel(z))",
        8,
    );
    assert_eq!(got, vec![0, 1, 10, 11, 2, 3, 12, 13]);
}

#[test]
fn cat_of_different_shapes_is_refused() {
    let src = kernel(
        "out_ptr",
        "x = tl.arange(0, 8)\ny = tl.arange(0, 4)\ntl.store(out_ptr + tl.arange(0, 16), tl.cat(x, y))",
    );
    let l = launch(&[1], json!({"out_ptr": zeros("int32", 16)}));
    let d = refused(&src, &l);
    assert!(
        d.message.contains("tl.cat needs two tensors of one shape"),
        "{}",
        d.message
    );
}

#[test]
fn squeeze_unsqueeze_ravel_change_only_the_shape() {
    // the row-major order is unchanged by all three
    let got = out_i32(
        "a = tl.reshape(tl.arange(0, 8), (2, 1, 4))\nb = tl.squeeze(a, 1)\ntl.static_assert(b.shape == [2, 4])\nc = tl.unsqueeze(b, -1)\ntl.static_assert(c.shape == [2, 4, 1])\nd = tl.unsqueeze(b, -3)\ntl.static_assert(d.shape == [1, 2, 4])\ntl.store(out_ptr + tl.arange(0, 8), tl.ravel(c))",
        8,
    );
    assert_eq!(got, (0..8).collect::<Vec<i32>>());
    let src = kernel(
        "out_ptr",
        "a = tl.reshape(tl.arange(0, 8), (2, 4))\nb = tl.squeeze(a, 0)\ntl.store(out_ptr + tl.arange(0, 8), tl.ravel(b))",
    );
    let d = refused(&src, &launch(&[1], json!({"out_ptr": zeros("int32", 8)})));
    assert!(d.message.contains("has size 2, not 1"), "{}", d.message);
}

/// The high half of the product of the unsigned patterns, computed here
/// with u128 arithmetic.
fn mulhi(a: u64, b: u64, bits: u32) -> u64 {
    ((a as u128 * b as u128) >> bits) as u64
}

#[test]
fn umulhi_is_the_high_half_of_the_unsigned_product() {
    for (dtype, width) in [
        ("int32", 32u32),
        ("uint32", 32),
        ("int64", 64),
        ("uint64", 64),
    ] {
        let mask = if width == 32 {
            0xffff_ffffu64
        } else {
            u64::MAX
        };
        let xs: Vec<u64> = [
            0u64,
            1,
            7,
            255,
            0x7fff_ffff_ffff_ffff,
            0x8000_0000_0000_0000,
            u64::MAX,
            0x1234_5678_9abc_def0,
        ]
        .iter()
        .map(|v| v & mask)
        .collect();
        let ys: Vec<u64> = xs.iter().rev().copied().collect();
        let hex = |v: &[u64]| json!(v.iter().map(|x| format!("{x:#x}")).collect::<Vec<_>>());
        let src = kernel(
            "x_ptr, y_ptr, out_ptr",
            "o = tl.arange(0, 8)\ntl.store(out_ptr + o, tl.umulhi(tl.load(x_ptr + o), tl.load(y_ptr + o)))",
        );
        let l = launch(
            &[1],
            json!({"x_ptr": {"buffer": {"dtype": dtype, "bits": hex(&xs)}},
                   "y_ptr": {"buffer": {"dtype": dtype, "bits": hex(&ys)}},
                   "out_ptr": zeros(dtype, 8)}),
        );
        let want: Vec<u64> = xs
            .iter()
            .zip(&ys)
            .map(|(&a, &b)| mulhi(a, b, width))
            .collect();
        assert_eq!(bits(&run_clean(&src, &l), "out_ptr"), want, "{dtype}");
    }
}

#[test]
fn swizzle2d_reorders_as_tritons_test_expects() {
    // Triton's test_swizzle2d (5 x 7, groups of 3): output[new_i][new_j] = i * 7 + j
    let src = kernel(
        "output, size_i, size_j, size_g",
        "for i in tl.range(0, size_i, 1):\n    for j in tl.range(0, size_j, 1):\n        new_i, new_j = tl.swizzle2d(i, j, size_i, size_j, size_g)\n        tl.store(output + new_i * size_j + new_j, i * size_j + j)",
    );
    let l = launch(
        &[1],
        json!({"output": zeros("int32", 35), "size_i": scalar("int32", json!(5)),
               "size_j": scalar("int32", json!(7)), "size_g": scalar("int32", json!(3))}),
    );
    // By hand: rows 0..3 form group 0 (21 elements, column-major in
    // groups of 3 rows), rows 3..5 group 1 (14 elements, groups of 2 rows).
    let want: Vec<u64> = [
        0, 3, 6, 9, 12, 15, 18, 1, 4, 7, 10, 13, 16, 19, 2, 5, 8, 11, 14, 17, 20, 21, 23, 25, 27,
        29, 31, 33, 22, 24, 26, 28, 30, 32, 34,
    ]
    .to_vec();
    assert_eq!(bits(&run_clean(&src, &l), "output"), want);
}

#[test]
fn assume_is_a_hint_that_computes_nothing() {
    let got = out_i32(
        "n = 1024 - tl.program_id(0) * 128\ntl.assume(n >= 128)\ntl.store(out_ptr + tl.arange(0, 1), tl.full((1,), n, tl.int32))",
        1,
    );
    assert_eq!(got, vec![1024]);
}

#[test]
fn histogram_counts_in_range_values_only() {
    // x = [0, 1, 2, 3, 4, 4, 5, -1] with 4 bins: 4, 5 and -1 are not counted
    let src = kernel(
        "x_ptr, out_ptr",
        "x = tl.load(x_ptr + tl.arange(0, 8))\ntl.store(out_ptr + tl.arange(0, 4), tl.histogram(x, 4))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([0, 1, 2, 3, 4, 4, 5, -1])), "out_ptr": zeros("int32", 4)}),
    );
    assert_eq!(bits(&run_clean(&src, &l), "out_ptr"), vec![1, 1, 1, 1]);
    // masked: only the first 4 of x = [1, 1, 3, 0, 1, 1, 1, 1] -> [1, 2, 0, 1]
    let src = kernel(
        "x_ptr, out_ptr",
        "o = tl.arange(0, 8)\nx = tl.load(x_ptr + o)\ntl.store(out_ptr + tl.arange(0, 4), tl.histogram(x, 4, o < 4))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([1, 1, 3, 0, 1, 1, 1, 1])), "out_ptr": zeros("int32", 4)}),
    );
    assert_eq!(bits(&run_clean(&src, &l), "out_ptr"), vec![1, 2, 0, 1]);
}

#[test]
fn gather_moves_source_elements_bit_for_bit() {
    // src = [1.5, -0.0, nan, -inf], index = [3, 0, 0, 2, 1, 1, 3, 2]
    let src = kernel(
        "s_ptr, i_ptr, out_ptr",
        "s = tl.load(s_ptr + tl.arange(0, 4))\ni = tl.load(i_ptr + tl.arange(0, 8))\ntl.store(out_ptr + tl.arange(0, 8), tl.gather(s, i, 0))",
    );
    let l = launch(
        &[1],
        json!({"s_ptr": buf("float32", json!([1.5, -0.0, "nan", "-inf"])),
               "i_ptr": buf("int32", json!([3, 0, 0, 2, 1, 1, 3, 2])),
               "out_ptr": zeros("float32", 8)}),
    );
    let v = [
        1.5f32.to_bits(),
        0x8000_0000,
        0x7fc0_0000,
        f32::NEG_INFINITY.to_bits(),
    ];
    let want: Vec<u64> = [3usize, 0, 0, 2, 1, 1, 3, 2]
        .iter()
        .map(|&i| v[i] as u64)
        .collect();
    assert_eq!(bits(&run_clean(&src, &l), "out_ptr"), want);
    // along axis 1 of 2 x 4: out[r][c] = s[r][idx[r][c]]
    let src = kernel(
        "out_ptr",
        "s = tl.reshape(tl.arange(0, 8) * 10, (2, 4))\ni = tl.reshape((tl.arange(0, 8) * 3) % 4, (2, 4))\ntl.store(out_ptr + tl.arange(0, 8), tl.ravel(tl.gather(s, i, 1)))",
    );
    let l = launch(&[1], json!({"out_ptr": zeros("int32", 8)}));
    // idx = [[0,3,2,1],[0,3,2,1]] ((3k) % 4 for k = 0..8); row 0 = [0,10,20,30], row 1 = [40,..,70]
    assert_eq!(
        bits(&run_clean(&src, &l), "out_ptr"),
        vec![0, 30, 20, 10, 40, 70, 60, 50]
    );
}

fn sorted_bits(call: &str, data: serde_json::Value, n_out: usize) -> Vec<u64> {
    let src = kernel(
        "x_ptr, out_ptr",
        &format!("x = tl.load(x_ptr + tl.arange(0, 8))\ntl.store(out_ptr + tl.arange(0, {n_out}), {call})"),
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", data), "out_ptr": zeros("float32", n_out)}),
    );
    bits(&run_clean(&src, &l), "out_ptr")
}

#[test]
fn sort_is_stable_with_nan_last() {
    // x = [3, -0.0, nan, 0.0, -inf, 2, 3, 1]
    let x = json!([3.0, -0.0, "nan", 0.0, "-inf", 2.0, 3.0, 1.0]);
    let f = |v: f32| v.to_bits() as u64;
    let nan = 0x7fc0_0000u64;
    // ascending: -inf, -0.0 (index 1), 0.0 (index 3), 1, 2, 3, 3, nan
    assert_eq!(
        sorted_bits("tl.sort(x)", x.clone(), 8),
        vec![
            f(f32::NEG_INFINITY),
            f(-0.0),
            f(0.0),
            f(1.0),
            f(2.0),
            f(3.0),
            f(3.0),
            nan
        ]
    );
    // descending: nan, 3, 3, 2, 1, -0.0 (index 1), 0.0 (index 3), -inf
    assert_eq!(
        sorted_bits("tl.sort(x, descending=True)", x.clone(), 8),
        vec![
            nan,
            f(3.0),
            f(3.0),
            f(2.0),
            f(1.0),
            f(-0.0),
            f(0.0),
            f(f32::NEG_INFINITY)
        ]
    );
    // topk: the first k of the descending order
    assert_eq!(
        sorted_bits("tl.topk(x, 2, descending=True)", x, 2),
        vec![nan, f(3.0)]
    );
}

#[test]
fn sort_works_row_by_row() {
    // rows of x = (7 * k) % 8 reshaped (2, 4): [[0,7,6,5],[4,3,2,1]]
    let got = out_i32(
        "x = tl.reshape((tl.arange(0, 8) * 7) % 8, (2, 4))\ntl.store(out_ptr + tl.arange(0, 8), tl.ravel(tl.sort(x)))",
        8,
    );
    assert_eq!(got, vec![0, 5, 6, 7, 1, 2, 3, 4]);
}

/// A slice whose bounds are None is the full slice (Triton's test_slice):
/// `x[None, None:None, None]`, `x[None, ::None, None]` are `x[None, :, None]`
/// ([1, 4, 1]); the stored values are x's, 0..4. A bound that is a number is
/// still refused.
#[test]
fn slices_with_none_bounds_are_full_slices() {
    let src = kernel(
        "out_ptr",
        "x = tl.arange(0, 4)
a = x[None, None:None, None]
tl.static_assert(a.shape == [1, 4, 1])
b = x[None, ::None, None]
tl.static_assert(b.shape == [1, 4, 1])
c = x[None:]
tl.store(out_ptr + tl.arange(0, 4), tl.reshape(a, (4,)) + tl.reshape(b, (4,)) + c)",
    );
    let l = launch(&[1], json!({"out_ptr": zeros("int32", 4)}));
    assert_eq!(bits(&run_clean(&src, &l), "out_ptr"), vec![0, 3, 6, 9]);
    let bad = kernel(
        "out_ptr",
        "x = tl.arange(0, 4)\ny = x[1:]\ntl.store(out_ptr, 0)",
    );
    let d = refused(&bad, &l);
    assert!(d.message.contains("slicing with bounds"), "{}", d.message);
}
