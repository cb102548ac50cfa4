//! Undefined behaviour: every kind DESIGN.md names is reported with its kind,
//! line, column, program instance and element, and nothing else is reported.

use ksem_interp::launch::Launch;
use ksem_tests::serde_json::{json, Value as Json};
use ksem_tests::*;

// ----- an element-wise kernel over two inputs ----------------------------------

const BIN_PARAMS: &str = "a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr";

/// `c = EXPR` over tiles `a` and `b` of program `pid` (BLOCK elements each).
fn bin_src(expr: &str) -> String {
    kernel(
        BIN_PARAMS,
        &format!(
            "pid = tl.program_id(0)\noffs = pid * BLOCK + tl.arange(0, BLOCK)\na = tl.load(a_ptr + offs)\nb = tl.load(b_ptr + offs)\nc = {expr}\ntl.store(out_ptr + offs, c)"
        ),
    )
}

/// Two programs of four elements: `a` and `b` have 8 elements each.
fn bin_launch(da: &str, a: Json, db: &str, b: Json, dout: &str) -> Launch {
    launch(
        &[2],
        json!({
            "a_ptr": buf(da, a),
            "b_ptr": buf(db, b),
            "out_ptr": zeros(dout, 8),
            "BLOCK": cx(json!(4)),
        }),
    )
}

/// Runs `c = EXPR`, expects exactly one UB report, at EXPR.
fn one_ub(expr: &str, l: &Launch, kind: &str, program: [u32; 3], element: &[usize]) {
    let src = bin_src(expr);
    let ub = ub_of(&src, l);
    assert_eq!(ub.len(), 1, "expected one UB report, got {ub:?}");
    assert_ub(
        &src,
        &ub[0],
        kind,
        loc(&src, "c = ", expr),
        program,
        element,
    );
}

// ----- integer division ---------------------------------------------------------

#[test]
fn int32_division_by_zero() {
    let l = bin_launch(
        "int32",
        json!([10, 11, 12, 13, 14, 15, 16, 17]),
        "int32",
        json!([1, 2, 3, 4, 5, 6, 0, 7]),
        "int32",
    );
    one_ub("a // b", &l, "division-by-zero", [1, 0, 0], &[2]);
}

#[test]
fn int32_remainder_by_zero() {
    let l = bin_launch(
        "int32",
        json!([10, 11, 12, 13, 14, 15, 16, 17]),
        "int32",
        json!([1, 2, 0, 4, 5, 6, 7, 8]),
        "int32",
    );
    one_ub("a % b", &l, "remainder-by-zero", [0, 0, 0], &[2]);
}

#[test]
fn uint8_division_by_zero() {
    let l = bin_launch(
        "uint8",
        json!([10, 11, 12, 13, 14, 15, 16, 17]),
        "uint8",
        json!([1, 2, 3, 4, 0, 6, 7, 8]),
        "uint8",
    );
    one_ub("a // b", &l, "division-by-zero", [1, 0, 0], &[0]);
}

#[test]
fn int64_remainder_by_zero() {
    let l = bin_launch(
        "int64",
        json!([10, 11, 12, 13, 14, 15, 16, 17]),
        "int64",
        json!([1, 2, 3, 4, 5, 6, 7, 0]),
        "int64",
    );
    one_ub("a % b", &l, "remainder-by-zero", [1, 0, 0], &[3]);
}

#[test]
fn int32_min_div_minus_one() {
    let l = bin_launch(
        "int32",
        json!([1, 2, 3, 4, 5, -2147483648i64, 7, 8]),
        "int32",
        json!([1, 1, 1, 1, 1, -1, 1, 1]),
        "int32",
    );
    one_ub("a // b", &l, "division-overflow", [1, 0, 0], &[1]);
}

#[test]
fn int32_min_rem_minus_one() {
    let l = bin_launch(
        "int32",
        json!([1, 2, 3, 4, 5, -2147483648i64, 7, 8]),
        "int32",
        json!([1, 1, 1, 1, 1, -1, 1, 1]),
        "int32",
    );
    one_ub("a % b", &l, "division-overflow", [1, 0, 0], &[1]);
}

#[test]
fn int8_min_div_minus_one() {
    let l = bin_launch(
        "int8",
        json!([1, 2, 3, -128, 5, 6, 7, 8]),
        "int8",
        json!([1, 1, 1, -1, 1, 1, 1, 1]),
        "int8",
    );
    one_ub("a // b", &l, "division-overflow", [0, 0, 0], &[3]);
}

#[test]
fn int8_min_div_minus_one_other_lanes_are_fine() {
    // -127 // -1 and -128 // 1 are defined; only MIN // -1 overflows.
    let l = bin_launch(
        "int8",
        json!([-127, -128, 3, 4, 5, 6, 7, 8]),
        "int8",
        json!([-1, 1, 1, 1, 1, 1, 1, 1]),
        "int8",
    );
    let r = run_clean(&bin_src("a // b"), &l);
    assert_eq!(bits(&r, "out_ptr")[..2], [127, 0x80]);
}

#[test]
fn unsigned_min_div_all_ones_is_defined() {
    let l = bin_launch(
        "uint32",
        json!([2147483648u64, 1, 1, 1, 1, 1, 1, 1]),
        "uint32",
        json!([4294967295u64, 1, 1, 1, 1, 1, 1, 1]),
        "uint32",
    );
    let r = run_clean(&bin_src("a // b"), &l);
    assert_eq!(bits(&r, "out_ptr")[0], 0);
}

#[test]
fn float_division_by_zero_is_not_ub() {
    let l = bin_launch(
        "float32",
        json!([1.0, -1.0, 0.0, 4, 5, 6, 7, 8]),
        "float32",
        json!([0.0, 0.0, 0.0, 1, 1, 1, 1, 1]),
        "float32",
    );
    let r = run_clean(&bin_src("a / b"), &l);
    let out = bits(&r, "out_ptr");
    assert_eq!(out[0], f32::INFINITY.to_bits() as u64);
    assert_eq!(out[1], f32::NEG_INFINITY.to_bits() as u64);
    assert!(f32::from_bits(out[2] as u32).is_nan());
}

// ----- shifts -------------------------------------------------------------------

#[test]
fn shl_by_width() {
    let l = bin_launch(
        "int32",
        json!([1, 1, 1, 1, 1, 1, 1, 1]),
        "int32",
        json!([0, 1, 31, 4, 5, 6, 32, 7]),
        "int32",
    );
    one_ub("a << b", &l, "shift-out-of-range", [1, 0, 0], &[2]);
}

#[test]
fn shl_by_negative() {
    let l = bin_launch(
        "int32",
        json!([1, 1, 1, 1, 1, 1, 1, 1]),
        "int32",
        json!([0, -1, 3, 4, 5, 6, 7, 8]),
        "int32",
    );
    one_ub("a << b", &l, "shift-out-of-range", [0, 0, 0], &[1]);
}

#[test]
fn shr_by_width() {
    let l = bin_launch(
        "int32",
        json!([-8, 8, 8, 8, 8, 8, 8, 8]),
        "int32",
        json!([31, 1, 2, 3, 4, 32, 6, 7]),
        "int32",
    );
    one_ub("a >> b", &l, "shift-out-of-range", [1, 0, 0], &[1]);
}

#[test]
fn shr_by_negative() {
    let l = bin_launch(
        "int32",
        json!([8, 8, 8, 8, 8, 8, 8, 8]),
        "int32",
        json!([1, 1, 1, -5, 1, 1, 1, 1]),
        "int32",
    );
    one_ub("a >> b", &l, "shift-out-of-range", [0, 0, 0], &[3]);
}

#[test]
fn uint32_logical_shr_by_width() {
    let l = bin_launch(
        "uint32",
        json!([8, 8, 8, 8, 8, 8, 8, 8]),
        "uint32",
        json!([1, 1, 1, 1, 1, 1, 1, 32]),
        "uint32",
    );
    one_ub("a >> b", &l, "shift-out-of-range", [1, 0, 0], &[3]);
}

#[test]
fn int8_shl_by_8() {
    let l = bin_launch(
        "int8",
        json!([1, 1, 1, 1, 1, 1, 1, 1]),
        "int8",
        json!([7, 8, 1, 1, 1, 1, 1, 1]),
        "int8",
    );
    one_ub("a << b", &l, "shift-out-of-range", [0, 0, 0], &[1]);
}

#[test]
fn shl_by_literal_32() {
    let l = bin_launch(
        "int32",
        json!([1, 1, 1, 1, 1, 1, 1, 1]),
        "int32",
        json!([1, 1, 1, 1, 1, 1, 1, 1]),
        "int32",
    );
    let src = bin_src("a << 32");
    let ub = ub_of(&src, &l);
    // Every program hits it, at its first element.
    assert_eq!(ub.len(), 2, "{ub:?}");
    assert_ub(
        &src,
        &ub[0],
        "shift-out-of-range",
        loc1(&src, "a << 32"),
        [0, 0, 0],
        &[0],
    );
    assert_ub(
        &src,
        &ub[1],
        "shift-out-of-range",
        loc1(&src, "a << 32"),
        [1, 0, 0],
        &[0],
    );
}

// ----- float -> int conversions -------------------------------------------------------

fn conv_launch(a: Json, dout: &str) -> Launch {
    bin_launch(
        "float32",
        a,
        "float32",
        json!([0, 0, 0, 0, 0, 0, 0, 0]),
        dout,
    )
}

#[test]
fn nan_to_int32() {
    let l = conv_launch(json!([1.5, -2.5, 3, 4, 5, 6, "nan", 8]), "int32");
    one_ub(
        "a.to(tl.int32)",
        &l,
        "float-to-int-out-of-range",
        [1, 0, 0],
        &[2],
    );
}

#[test]
fn inf_to_int32() {
    let l = conv_launch(json!([1.5, "-inf", 3, 4, 5, 6, 7, 8]), "int32");
    one_ub(
        "a.to(tl.int32)",
        &l,
        "float-to-int-out-of-range",
        [0, 0, 0],
        &[1],
    );
}

#[test]
fn three_billion_to_int32() {
    let l = conv_launch(json!([1, 2, 3e9, 4, 5, 6, 7, 8]), "int32");
    one_ub(
        "a.to(tl.int32)",
        &l,
        "float-to-int-out-of-range",
        [0, 0, 0],
        &[2],
    );
}

#[test]
fn largest_int32_values_convert() {
    // 2147483520 is the largest float32 below 2^31; -2^31 is exact.
    let l = conv_launch(
        json!([2147483520.0, -2147483648.0, -2.7, 2.7, 5, 6, 7, 8]),
        "int32",
    );
    let r = run_clean(&bin_src("a.to(tl.int32)"), &l);
    assert_eq!(
        bits(&r, "out_ptr")[..4],
        [2147483520, 0x8000_0000, 0xffff_fffe, 2]
    );
}

#[test]
fn minus_one_to_uint8() {
    // -0.9 truncates to 0 (defined); -1.0 is out of range.
    let l = conv_launch(json!([1, 2, 255.5, -0.9, 5, -1.0, 7, 8]), "uint8");
    one_ub(
        "a.to(tl.uint8)",
        &l,
        "float-to-int-out-of-range",
        [1, 0, 0],
        &[1],
    );
}

#[test]
fn tl_cast_reports_at_the_cast() {
    let l = conv_launch(json!([1, 2, 3, 4, 5, 6, "nan", 8]), "int32");
    one_ub(
        "tl.cast(a, tl.int32)",
        &l,
        "float-to-int-out-of-range",
        [1, 0, 0],
        &[2],
    );
}

#[test]
fn implicit_conversion_on_store_reports_at_the_value() {
    // Storing float32 into an int32 buffer converts (Triton's store casts to
    // the pointee type): NaN is UB there, reported at the stored value.
    let src = kernel(
        BIN_PARAMS,
        "pid = tl.program_id(0)\noffs = pid * BLOCK + tl.arange(0, BLOCK)\na = tl.load(a_ptr + offs)\ntl.store(out_ptr + offs, a)",
    );
    let l = conv_launch(json!([1, 2, 3, 4, 5, "nan", 7, 8]), "int32");
    let ub = ub_of(&src, &l);
    assert_eq!(ub.len(), 1, "{ub:?}");
    assert_ub(
        &src,
        &ub[0],
        "float-to-int-out-of-range",
        loc(&src, "tl.store(out_ptr + offs, a)", "a)"),
        [1, 0, 0],
        &[1],
    );
}

// ----- out-of-bounds memory access ------------------------------------------------

/// Loads `a` (and `b`), stores `a + b`; buffer lengths chosen per test.
fn mem_launch(grid: u64, a_len: usize, b_len: usize, out_len: usize) -> Launch {
    launch(
        &[grid],
        json!({
            "a_ptr": zeros("int32", a_len),
            "b_ptr": zeros("int32", b_len),
            "out_ptr": zeros("int32", out_len),
            "BLOCK": cx(json!(4)),
        }),
    )
}

#[test]
fn unmasked_out_of_bounds_load() {
    let src = bin_src("a + b");
    let ub = ub_of(&src, &mem_launch(3, 10, 12, 12));
    assert_eq!(ub.len(), 1, "{ub:?}");
    // program 2 loads a[8..12]; a has 10 elements: a[10] is element 2.
    assert_ub(
        &src,
        &ub[0],
        "out-of-bounds-load",
        loc(&src, "a = tl.load(a_ptr + offs)", "tl.load"),
        [2, 0, 0],
        &[2],
    );
}

#[test]
fn unmasked_out_of_bounds_store() {
    let src = bin_src("a + b");
    let ub = ub_of(&src, &mem_launch(2, 8, 8, 6));
    assert_eq!(ub.len(), 1, "{ub:?}");
    assert_ub(
        &src,
        &ub[0],
        "out-of-bounds-store",
        loc(&src, "tl.store(out_ptr + offs, c)", "tl.store"),
        [1, 0, 0],
        &[2],
    );
}

#[test]
fn out_of_bounds_store_writes_nothing_of_that_store() {
    // The instance stops at the faulting store; no lane of it is written,
    // and the other instance's store is complete.
    let src = bin_src("a + 7");
    let r = run(&src, &mem_launch(2, 8, 8, 6)).expect("runs");
    assert_eq!(r.ub.len(), 1);
    assert_eq!(bits(&r, "out_ptr"), vec![7, 7, 7, 7, 0, 0]);
}

#[test]
fn negative_offset_load() {
    let src = kernel(
        BIN_PARAMS,
        "pid = tl.program_id(0)\noffs = pid * BLOCK + tl.arange(0, BLOCK)\na = tl.load(a_ptr + offs - 1)\ntl.store(out_ptr + offs, a)",
    );
    let ub = ub_of(&src, &mem_launch(2, 8, 8, 8));
    assert_eq!(ub.len(), 1, "{ub:?}");
    assert_ub(
        &src,
        &ub[0],
        "out-of-bounds-load",
        loc1(&src, "tl.load(a_ptr + offs - 1)"),
        [0, 0, 0],
        &[0],
    );
}

#[test]
fn negative_offset_store() {
    let src = kernel(
        BIN_PARAMS,
        "pid = tl.program_id(0)\noffs = pid * BLOCK + tl.arange(0, BLOCK)\na = tl.load(a_ptr + offs)\ntl.store(out_ptr + (offs - 2), a)",
    );
    let ub = ub_of(&src, &mem_launch(2, 8, 8, 8));
    assert_eq!(ub.len(), 1, "{ub:?}");
    assert_ub(
        &src,
        &ub[0],
        "out-of-bounds-store",
        loc1(&src, "tl.store(out_ptr + (offs - 2), a)"),
        [0, 0, 0],
        &[0],
    );
}

#[test]
fn far_out_of_bounds_scalar_load() {
    // A 0-d load far past the end: the element index is empty.
    let src = kernel(
        BIN_PARAMS,
        "v = tl.load(a_ptr + 1000000)\ntl.store(out_ptr, v)",
    );
    let ub = ub_of(&src, &mem_launch(1, 8, 8, 8));
    assert_ub(
        &src,
        &ub[0],
        "out-of-bounds-load",
        loc1(&src, "tl.load(a_ptr + 1000000)"),
        [0, 0, 0],
        &[],
    );
}

#[test]
fn masked_off_out_of_bounds_lanes_are_not_ub() {
    // 6 elements, 2 programs of 4: lanes 6 and 7 are masked off for both the
    // load (they take `other`) and the store (they are not written).
    let body = "pid = tl.program_id(0)\noffs = pid * BLOCK + tl.arange(0, BLOCK)\nmask = offs < n\na = tl.load(a_ptr + offs, mask=mask, other=-1.0)\ntl.store(out_ptr + offs, a + 1.0, mask=mask)";
    let l = launch(
        &[2],
        json!({
            "a_ptr": buf("float32", json!([1, 2, 3, 4, 5, 6])),
            "out_ptr": zeros("float32", 8),
            "n": scalar("int32", json!(6)),
            "BLOCK": cx(json!(4)),
        }),
    );
    let params = "a_ptr, out_ptr, n, BLOCK: tl.constexpr";
    let r = run_clean(&kernel(params, body), &l);
    assert_eq!(
        bits(&r, "out_ptr"),
        f32_bits(&[2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.0, 0.0])
    );
    // Masked-off lanes of a load without `other` are not out of bounds
    // either, but their values are undefined (issue 26): program 1's lanes
    // 6 and 7 select `b + 10.0` and the sum of them is stored: UB at that
    // store, not an out-of-bounds load (program 0 selects only 0.0).
    let more = format!(
        "{body}\nb = tl.load(a_ptr + offs, mask=mask)\ntl.store(out_ptr + 6 + pid, tl.sum(tl.where(mask, 0.0, b + 10.0)))"
    );
    let src = kernel(params, &more);
    let ub = ub_of(&src, &l);
    assert_eq!(ub.len(), 1, "{ub:?}");
    assert_ub(
        &src,
        &ub[0],
        "undefined-value",
        loc1(&src, "tl.store(out_ptr + 6"),
        [1, 0, 0],
        &[],
    );
}

// ----- tl.where evaluates both sides ------------------------------------------------

#[test]
fn division_by_zero_in_unselected_where_lane_is_still_ub() {
    let l = bin_launch(
        "int32",
        json!([10, 11, 12, 13, 14, 15, 16, 17]),
        "int32",
        json!([1, 2, 3, 4, 5, 6, 0, 7]),
        "int32",
    );
    let src = bin_src("tl.where(b != 0, a // b, 0)");
    let ub = ub_of(&src, &l);
    assert_eq!(ub.len(), 1, "{ub:?}");
    assert_ub(
        &src,
        &ub[0],
        "division-by-zero",
        loc(&src, "c = ", "a // b"),
        [1, 0, 0],
        &[2],
    );
}

// ----- element indices of 2-d tiles, helpers and 0-d values ----------------------

#[test]
fn element_index_of_a_2d_tile() {
    let src = kernel(
        "a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr",
        "offs = tl.arange(0, BLOCK)\na = tl.load(a_ptr + offs)\nb = tl.load(b_ptr + offs)\nq = a[:, None] // b[None, :]\ntl.store(out_ptr + offs[:, None] * BLOCK + offs[None, :], q)",
    );
    let l = launch(
        &[1],
        json!({
            "a_ptr": buf("int32", json!([1, 2, 3, 4])),
            "b_ptr": buf("int32", json!([1, 1, 0, 1])),
            "out_ptr": zeros("int32", 16),
            "BLOCK": cx(json!(4)),
        }),
    );
    let ub = ub_of(&src, &l);
    assert_eq!(ub.len(), 1, "{ub:?}");
    assert_ub(
        &src,
        &ub[0],
        "division-by-zero",
        loc1(&src, "a[:, None] // b[None, :]"),
        [0, 0, 0],
        &[0, 2],
    );
}

#[test]
fn ub_inside_a_jit_helper_points_into_the_helper() {
    let src = format!(
        "{PRELUDE}@triton.jit\ndef safe_div(x, y):\n    return x // y\n\n\n@triton.jit\ndef kern({BIN_PARAMS}):\n    pid = tl.program_id(0)\n    offs = pid * BLOCK + tl.arange(0, BLOCK)\n    a = tl.load(a_ptr + offs)\n    b = tl.load(b_ptr + offs)\n    tl.store(out_ptr + offs, safe_div(a, b))\n"
    );
    let l = bin_launch(
        "int32",
        json!([10, 11, 12, 13, 14, 15, 16, 17]),
        "int32",
        json!([1, 2, 3, 4, 5, 6, 0, 7]),
        "int32",
    );
    let ub = ub_of(&src, &l);
    assert_eq!(ub.len(), 1, "{ub:?}");
    assert_ub(
        &src,
        &ub[0],
        "division-by-zero",
        loc1(&src, "x // y"),
        [1, 0, 0],
        &[2],
    );
}

#[test]
fn ub_on_a_0d_value_in_a_loop() {
    // 12 // (3 - i) divides by zero when i == 3: a 0-d value, element [].
    let src = kernel(
        "out_ptr, n",
        "acc = 0\nfor i in range(n):\n    acc += 12 // (3 - i)\ntl.store(out_ptr, acc)",
    );
    let l = launch(
        &[1, 2],
        json!({"out_ptr": zeros("int32", 1), "n": scalar("int32", json!(5))}),
    );
    let ub = ub_of(&src, &l);
    // Both program instances (0,0,0) and (0,1,0) hit it.
    assert_eq!(ub.len(), 2, "{ub:?}");
    let pos = loc1(&src, "12 // (3 - i)");
    assert_ub(&src, &ub[0], "division-by-zero", pos, [0, 0, 0], &[]);
    assert_ub(&src, &ub[1], "division-by-zero", pos, [0, 1, 0], &[]);
}

// ----- range() with a zero runtime step -----------------------------------------------

#[test]
fn range_with_zero_runtime_step() {
    let src = kernel(
        "out_ptr, step",
        "pid = tl.program_id(0)\nacc = 0\nfor i in range(0, 4, step):\n    acc += i\ntl.store(out_ptr + pid, acc)",
    );
    let l = launch(
        &[2],
        json!({"out_ptr": zeros("int32", 2), "step": scalar("int32", json!(0))}),
    );
    let ub = ub_of(&src, &l);
    assert_eq!(ub.len(), 2, "{ub:?}");
    let pos = loc(&src, "for i in range(0, 4, step):", "for");
    assert_ub(&src, &ub[0], "zero-range-step", pos, [0, 0, 0], &[]);
    assert_ub(&src, &ub[1], "zero-range-step", pos, [1, 0, 0], &[]);
}

#[test]
fn range_with_nonzero_runtime_step_runs() {
    let src = kernel(
        "out_ptr, step",
        "pid = tl.program_id(0)\nacc = 0\nfor i in range(10, 0, step):\n    acc += i\ntl.store(out_ptr + pid, acc)",
    );
    let l = launch(
        &[2],
        json!({"out_ptr": zeros("int32", 2), "step": scalar("int32", json!(-3))}),
    );
    let r = run_clean(&src, &l);
    // 10 + 7 + 4 + 1
    assert_eq!(bits(&r, "out_ptr"), vec![22, 22]);
}

// ----- data races between program instances ----------------------------------------------

/// Program `pid` stores to out[pid*2 .. pid*2+4): programs 0 and 1 overlap on out[2], out[3].
fn overlapping_store_src() -> String {
    kernel(
        "x_ptr, out_ptr, BLOCK: tl.constexpr",
        "pid = tl.program_id(0)\noffs = pid * 2 + tl.arange(0, BLOCK)\nx = tl.load(x_ptr + offs)\ntl.store(out_ptr + offs, x)",
    )
}

fn race_launch(grid: &[u64]) -> Launch {
    launch(
        grid,
        json!({
            "x_ptr": zeros("float32", 8),
            "out_ptr": zeros("float32", 8),
            "res_ptr": zeros("float32", 8),
            "BLOCK": cx(json!(4)),
        }),
    )
}

fn race_launch_no_res(grid: &[u64]) -> Launch {
    let mut l = race_launch(grid);
    l.args.retain(|(n, _)| n != "res_ptr");
    l
}

#[test]
fn write_write_race() {
    let src = overlapping_store_src();
    let ub = ub_of(&src, &race_launch_no_res(&[2]));
    assert!(ub.iter().all(|u| u.kind == "data-race"), "{ub:?}");
    let u = &ub[0];
    assert_eq!(u.kind, "data-race");
    assert_eq!(
        (u.line, u.col),
        loc1(&src, "tl.store(out_ptr + offs, x)"),
        "{u:?}"
    );
    assert_eq!(u.program, [1, 0, 0], "{u:?}");
    assert!(
        u.message.contains("out_ptr[2]"),
        "the message should name the element out_ptr[2]: {u:?}"
    );
}

#[test]
fn write_write_race_element_is_the_buffer_index() {
    // For a data race, UbReport.element is the index in the buffer (the
    // element both programs touch): out[2], lane 0 of program 1's store.
    let src = overlapping_store_src();
    let ub = ub_of(&src, &race_launch_no_res(&[2]));
    assert_ub(
        &src,
        &ub[0],
        "data-race",
        loc1(&src, "tl.store(out_ptr + offs, x)"),
        [1, 0, 0],
        &[2],
    );
}

/// Program 0 stores out[0..4]; program 1 loads out[0..4] (and stores it to res).
/// With `reverse`, program 0 loads and program 1 stores.
fn read_write_src(reverse: bool) -> String {
    let (w, r) = if reverse { (1, 0) } else { (0, 1) };
    kernel(
        "x_ptr, out_ptr, res_ptr, BLOCK: tl.constexpr",
        &format!(
            "pid = tl.program_id(0)\noffs = tl.arange(0, BLOCK)\nif pid == {w}:\n    tl.store(out_ptr + offs, 1.0)\nif pid == {r}:\n    v = tl.load(out_ptr + offs)\n    tl.store(res_ptr + offs, v)"
        ),
    )
}

#[test]
fn read_of_another_programs_write_is_a_race() {
    let src = read_write_src(false);
    let ub = ub_of(&src, &race_launch(&[2]));
    assert_ub(
        &src,
        &ub[0],
        "data-race",
        loc1(&src, "tl.load(out_ptr + offs)"),
        [1, 0, 0],
        &[0],
    );
}

#[test]
fn write_of_another_programs_read_is_a_race() {
    let src = read_write_src(true);
    let ub = ub_of(&src, &race_launch(&[2]));
    assert_ub(
        &src,
        &ub[0],
        "data-race",
        loc1(&src, "tl.store(out_ptr + offs, 1.0)"),
        [1, 0, 0],
        &[0],
    );
}

#[test]
fn race_between_programs_of_a_2d_grid() {
    let src = kernel(
        "x_ptr, out_ptr, BLOCK: tl.constexpr",
        "offs = tl.arange(0, BLOCK)\nx = tl.load(x_ptr + offs)\ntl.store(out_ptr + offs + tl.program_id(0) * BLOCK, x)",
    );
    // grid (1, 2): programs (0,0,0) and (0,1,0) both store out[0..4].
    let ub = ub_of(&src, &race_launch_no_res(&[1, 2]));
    let u = &ub[0];
    assert_eq!(u.kind, "data-race", "{u:?}");
    assert_eq!(u.program, [0, 1, 0], "{u:?}");
    assert_eq!((u.line, u.col), loc(&src, "tl.store(", "tl.store"), "{u:?}");
}

#[test]
fn disjoint_writes_and_shared_reads_are_not_races() {
    // Every program reads all of x (shared, read-only), and reads, then
    // writes, only its own part of out.
    let src = kernel(
        "x_ptr, out_ptr, BLOCK: tl.constexpr",
        "pid = tl.program_id(0)\nall_x = tl.load(x_ptr + tl.arange(0, 2 * BLOCK))\nmine = pid * BLOCK + tl.arange(0, BLOCK)\nold = tl.load(out_ptr + mine)\ntl.store(out_ptr + mine, old + tl.sum(all_x))\ntl.store(out_ptr + mine, old + 2.0 * tl.sum(all_x))",
    );
    let l = launch(
        &[2],
        json!({
            "x_ptr": buf("float32", json!([1, 1, 1, 1, 1, 1, 1, 1])),
            "out_ptr": buf("float32", json!([0, 1, 2, 3, 4, 5, 6, 7])),
            "BLOCK": cx(json!(4)),
        }),
    );
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "out_ptr"),
        f32_bits(&[16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0])
    );
}

// ----- the CLI: exit status 1 and the UB JSON ---------------------------------------------

#[test]
fn cli_ub_exit_1_with_ub_json() {
    let Some(bin) = ksem_or_skip("cli_ub_exit_1_with_ub_json") else {
        return;
    };
    let src = bin_src("a // b");
    let args = json!({
        "a_ptr": buf("int32", json!([10, 11, 12, 13, 14, 15, 16, 17])),
        "b_ptr": buf("int32", json!([1, 2, 3, 4, 5, 6, 0, 7])),
        "out_ptr": zeros("int32", 8),
        "BLOCK": cx(json!(4)),
    });
    let out = cli_case(&bin, "run", &src, &launch_json(&[2], args), &["--json"]);
    out.assert_code(1);
    let v: Json = ksem_tests::serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", out.stdout));
    let ub = v["ub"].as_array().expect("\"ub\" is a list");
    assert_eq!(ub.len(), 1, "{v}");
    let (line, col) = loc1(&src, "a // b");
    assert_eq!(ub[0]["kind"], "division-by-zero");
    assert_eq!(ub[0]["line"], line);
    assert_eq!(ub[0]["col"], col);
    assert_eq!(ub[0]["program"], json!([1, 0, 0]));
    assert_eq!(ub[0]["element"], json!([2]));
    assert!(ub[0]["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert!(
        out.stderr.contains(&format!("{FILE}:{line}:{col}:")),
        "stderr should point at the UB:\n{}",
        out.stderr
    );
}

#[test]
fn cli_clean_run_exit_0() {
    let Some(bin) = ksem_or_skip("cli_clean_run_exit_0") else {
        return;
    };
    let src = bin_src("a // b");
    let args = json!({
        "a_ptr": buf("int32", json!([10, 11, 12, 13, 14, 15, 16, 17])),
        "b_ptr": buf("int32", json!([1, 2, 3, 4, 5, 6, 8, 7])),
        "out_ptr": zeros("int32", 8),
        "BLOCK": cx(json!(4)),
    });
    let out = cli_case(&bin, "run", &src, &launch_json(&[2], args), &["--json"]);
    out.assert_code(0);
    let v: Json = ksem_tests::serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(v["ub"], json!([]));
    assert_eq!(
        v["buffers"]["out_ptr"]["bits"],
        json!([
            "0x0000000a",
            "0x00000005",
            "0x00000004",
            "0x00000003",
            "0x00000002",
            "0x00000002",
            "0x00000002",
            "0x00000002"
        ])
    );
}

#[test]
fn lanes_of_one_store_writing_different_values_to_one_element_race() {
    // offs // 2 maps lanes 0,1 -> out[0] and 2,3 -> out[1]; x differs in each pair,
    // so the store's lanes 0 and 1 (unordered on a GPU) conflict.
    let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, out_ptr):\n    offs = tl.arange(0, 4)\n    x = tl.load(x_ptr + offs)\n    tl.store(out_ptr + offs // 2, x)\n";
    let l = ksem_interp::launch::parse_launch(r#"{"grid": [1], "args": {"x_ptr": {"buffer": {"dtype": "int32", "data": [1, 2, 3, 3]}}, "out_ptr": {"buffer": {"dtype": "int32", "len": 2}}}}"#).unwrap();
    let r = ksem_interp::run_source(
        "k.py",
        src,
        &l,
        None,
        &ksem_interp::eval::RunOptions::default(),
    )
    .unwrap();
    assert_eq!(r.ub.len(), 1);
    assert_eq!(r.ub[0].kind, "data-race");
    assert_eq!((r.ub[0].line, r.ub[0].col), (8, 5));
    assert_eq!(r.ub[0].element, vec![1]);
    // equal values written twice (lanes 2 and 3 both write 3) are not a race
    let l2 = ksem_interp::launch::parse_launch(r#"{"grid": [1], "args": {"x_ptr": {"buffer": {"dtype": "int32", "data": [1, 1, 3, 3]}}, "out_ptr": {"buffer": {"dtype": "int32", "len": 2}}}}"#).unwrap();
    let r2 = ksem_interp::run_source(
        "k.py",
        src,
        &l2,
        None,
        &ksem_interp::eval::RunOptions::default(),
    )
    .unwrap();
    assert!(r2.ub.is_empty());
    assert_eq!(r2.buffers[1].bits, vec![1, 3]);
}

#[test]
fn return_under_a_runtime_if_ends_the_program_instance() {
    // Regression (issue 12, bug 1): the `return` inside an `if` on a loaded
    // value was dropped, so instance 1 went on to store 0 * 2 = 0 over its -1.
    // By hand: x = [1, 0, 3] gives o = [2, -1, 6].
    let src = kernel(
        "x_ptr, o_ptr",
        "pid = tl.program_id(0)\nv = tl.load(x_ptr + pid)\nif v == 0:\n    tl.store(o_ptr + pid, -1)\n    return\ntl.store(o_ptr + pid, v * 2)",
    );
    let l = launch(
        &[3],
        json!({"x_ptr": buf("int32", json!([1, 0, 3])), "o_ptr": zeros("int32", 3)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "o_ptr"), vec![2, 0xffff_ffff, 6]);
}
