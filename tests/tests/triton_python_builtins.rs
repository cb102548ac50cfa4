//! Triton kernel features Triton's own language tests use (issue 24):
//! `getattr`/`hasattr` on constexpr names, `x.item()`, `tl.atomic_poll`,
//! the random builtins reached through `tl.random`, and Triton's wording of
//! the bitwise-operand error (its tests match it). Expected values by hand.

use ksem_tests::serde_json::json;
use ksem_tests::*;

fn i32_out(src: &str, l: &ksem_interp::launch::Launch) -> Vec<i32> {
    bits(&run_clean(src, l), "out_ptr")
        .iter()
        .map(|&b| b as u32 as i32)
        .collect()
}

#[test]
fn getattr_and_hasattr_read_attributes_by_constexpr_name() {
    // getattr(tl, "maximum")(x, y) is tl.maximum; hasattr(x, "dtype") holds
    // for a tensor and not for None
    let src = kernel(
        "out_ptr, F: tl.constexpr",
        "x = tl.arange(0, 4)\ny = 3 - tl.arange(0, 4)\nz = getattr(tl, F)(x, y)\nif hasattr(x, \"dtype\") and not hasattr(None, \"dtype\"):\n    z = z + 100\ntl.store(out_ptr + tl.arange(0, 4), z)",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 4), "F": cx(json!("maximum"))}),
    );
    // max([0,1,2,3], [3,2,1,0]) = [3,2,2,3], + 100
    assert_eq!(i32_out(&src, &l), vec![103, 102, 102, 103]);
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 4), "F": cx(json!("minimum"))}),
    );
    assert_eq!(i32_out(&src, &l), vec![100, 101, 101, 100]);
}

#[test]
fn item_is_the_one_element_as_a_scalar() {
    // 7 + 1 in both lanes
    let src = kernel(
        "out_ptr",
        "n = tl.full((1,), 7, dtype=tl.int32).item()\ntl.store(out_ptr + tl.arange(0, 2), tl.full((2,), n, tl.int32) + 1)",
    );
    assert_eq!(
        i32_out(&src, &launch(&[1], json!({"out_ptr": zeros("int32", 2)}))),
        vec![8, 8]
    );
}

#[test]
fn atomic_poll_is_true_where_the_flag_already_matches() {
    let src = kernel(
        "flag, out_ptr",
        "m = tl.atomic_poll(flag, 1, sem=\"acquire\", scope=\"gpu\", timeout_ns=0)\ntl.store(out_ptr, m.to(tl.int32))",
    );
    for (value, want) in [(1, 1), (0, 0)] {
        let l = launch(
            &[1],
            json!({"flag": buf("int32", json!([value])), "out_ptr": zeros("int32", 1)}),
        );
        assert_eq!(i32_out(&src, &l), vec![want], "flag {value}");
    }
}

#[test]
fn random_builtins_through_tl_random() {
    // uint_to_uniform_float(0) = 0 * 4.6566127342e-10 = 0.0
    let src = kernel(
        "out_ptr",
        "x = tl.zeros((2,), tl.uint32)\ntl.store(out_ptr + tl.arange(0, 2), tl.random.uint_to_uniform_float(x))",
    );
    let l = launch(&[1], json!({"out_ptr": zeros("float32", 2)}));
    assert_eq!(bits(&run_clean(&src, &l), "out_ptr"), vec![0, 0]);
}

#[test]
fn a_bitwise_operator_on_floats_is_refused_in_tritons_words() {
    // Triton's test_bitwise_op matches 'invalid operands of type'
    let src = kernel(
        "x_ptr, out_ptr",
        "x = tl.load(x_ptr + tl.arange(0, 2))\ntl.store(out_ptr + tl.arange(0, 2), x & x)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": zeros("float16", 2), "out_ptr": zeros("float16", 2)}),
    );
    let d = refused(&src, &l);
    assert!(
        d.message
            .starts_with("invalid operands of type fp16 and fp16"),
        "{}",
        d.message
    );
}

#[test]
fn shapes_as_separate_arguments_and_duplicate_axes() {
    // Triton's test_shapes_as_params: x.reshape(4, 8) is the shape (4, 8);
    // .permute(1, 0) then gives element [c][r] = 8 r + c
    let src = kernel(
        "out_ptr",
        "a = tl.arange(0, 32).reshape(4, 8).permute(1, 0)\ntl.static_assert(a.shape == [8, 4])\ntl.store(out_ptr + tl.arange(0, 32), a.reshape(32))",
    );
    let want: Vec<i32> = (0..8)
        .flat_map(|c| (0..4).map(move |r| 8 * r + c))
        .collect();
    assert_eq!(
        i32_out(&src, &launch(&[1], json!({"out_ptr": zeros("int32", 32)}))),
        want
    );
    // expand_dims with one axis twice is refused, as Triton refuses it
    let src = kernel(
        "out_ptr",
        "t = tl.expand_dims(tl.arange(0, 4), (0, 0))\ntl.store(out_ptr + tl.arange(0, 4), tl.ravel(t))",
    );
    let d = refused(&src, &launch(&[1], json!({"out_ptr": zeros("int32", 4)})));
    assert!(d.message.contains("duplicate axes"), "{}", d.message);
}

#[test]
fn tuples_concatenate_with_plus_and_tl_tuple_copies_one() {
    // (0, 1) + (2, 3) is (0, 1, 2, 3); tl.tuple((4, 5)) + (6, 7) is
    // (4, 5, 6, 7); tl.tuple((1, 2)) == (1, 2) holds, == (1, 3) does not
    let src = kernel(
        "out_ptr",
        "t = (0, 1) + (2, 3)
for i in tl.static_range(4):
    tl.store(out_ptr + i, t[i])
u = tl.tuple((4, 5)) + (6, 7)
for i in tl.static_range(4):
    tl.store(out_ptr + 4 + i, u[i])
tl.store(out_ptr + 8, tl.tuple((1, 2)) == (1, 2))
tl.store(out_ptr + 9, tl.tuple((1, 2)) == (1, 3))",
    );
    let l = launch(&[1], json!({"out_ptr": zeros("int32", 10)}));
    assert_eq!(i32_out(&src, &l), vec![0, 1, 2, 3, 4, 5, 6, 7, 1, 0]);
}

#[test]
fn other_arithmetic_on_tuples_is_refused_where_it_is() {
    let src = kernel("out_ptr", "t = (1, 2) * 2\ntl.store(out_ptr, t[0])");
    let d = refused(&src, &launch(&[1], json!({"out_ptr": zeros("int32", 1)})));
    assert_diag(
        &src,
        &d,
        loc1(&src, "(1, 2) * 2"),
        &["arithmetic on tuples other than `+`"],
        None,
    );
}

#[test]
fn isinstance_knows_triton_language_types() {
    // a loaded value is a tl.tensor, a constexpr number is not; x_ptr.dtype
    // is a pointer_type and so a dtype, not a block_type; a tuple of types
    // holds where one does. Lane i stores 1 where check i holds:
    // [1, 0, 1, 1, 0, 1]
    let src = kernel(
        "x_ptr, out_ptr, N: tl.constexpr",
        "x = tl.load(x_ptr)
tl.store(out_ptr + 0, isinstance(x, tl.tensor))
tl.store(out_ptr + 1, isinstance(N, tl.tensor))
tl.store(out_ptr + 2, isinstance(x_ptr.dtype, tl.pointer_type))
tl.store(out_ptr + 3, isinstance(x_ptr.dtype, tl.dtype))
tl.store(out_ptr + 4, isinstance(x_ptr.dtype, tl.block_type))
tl.store(out_ptr + 5, isinstance(N, (tl.dtype, tl.tensor)) or isinstance(x, (tl.dtype, tl.tensor)))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([5])), "out_ptr": zeros("int32", 6), "N": cx(json!(4))}),
    );
    assert_eq!(i32_out(&src, &l), vec![1, 0, 1, 1, 0, 1]);
}

#[test]
fn isinstance_against_a_python_type_is_refused() {
    // Triton binds a constexpr to a tl.constexpr object: isinstance(N, int)
    // does not say what a Python reader expects, so ksem refuses it
    let src = kernel(
        "out_ptr, N: tl.constexpr",
        "tl.store(out_ptr, isinstance(N, int))",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 1), "N": cx(json!(4))}),
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "isinstance"),
        &["isinstance() against `int` is not supported"],
        None,
    );
}

#[test]
fn device_assert_is_compiled_out_as_in_tritons_default_build() {
    // Triton builds tl.device_assert only with debug=True; by default a
    // false assertion does nothing and the kernel goes on: out = 5
    let src = kernel(
        "out_ptr",
        "x = tl.arange(0, 16)\ntl.device_assert(tl.abs(x) == x.abs())\ntl.device_assert(x < 0, \"never\")\ntl.store(out_ptr, 5)",
    );
    let l = launch(&[1], json!({"out_ptr": zeros("int32", 1)}));
    assert_eq!(i32_out(&src, &l), vec![5]);
}
