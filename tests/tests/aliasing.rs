//! Pointer arguments that share one storage (`k(x, x[1:])`): a launch gives
//! the second as a view into the first (`{"view": {"of": "x", "offset": 1,
//! "len": 3}}`, docs/formats.md), so a write through one is read through the
//! other, as on a GPU where both are addresses into the same memory. The
//! expected values follow by hand from the kernels, as written beside each.

use ksem_tests::serde_json::json;
use ksem_tests::*;

fn i32s(r: &ksem_interp::launch::RunResult, name: &str) -> Vec<i32> {
    bits(r, name).iter().map(|&b| b as u32 as i32).collect()
}

/// `y_ptr` is `x_ptr + 1`: the three stores through `y` land in x[1..4], and
/// the load through `x` after them (program order, one program) reads them.
const THROUGH: &str = "offs = tl.arange(0, 4)
tl.store(y_ptr + offs, offs + 10, mask=offs < 3)
tl.store(out_ptr + offs, tl.load(x_ptr + offs))";

fn view_launch(offset: u64, len: u64) -> ksem_interp::launch::Launch {
    launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([100, 101, 102, 103])),
               "y_ptr": {"view": {"of": "x_ptr", "offset": offset, "len": len}},
               "out_ptr": zeros("int32", 4)}),
    )
}

/// x = [100, 101, 102, 103]; y[0..3] = 10, 11, 12 writes x[1..4]; the load
/// of x[0..4] then gives [100, 10, 11, 12] (separate buffers would give
/// the initial [100, 101, 102, 103]). The result has one buffer for the
/// memory, named by its base; the view has none of its own.
#[test]
fn a_write_through_a_view_is_read_through_its_base() {
    let src = kernel("x_ptr, y_ptr, out_ptr", THROUGH);
    let r = run_clean(&src, &view_launch(1, 3));
    assert_eq!(i32s(&r, "out_ptr"), vec![100, 10, 11, 12]);
    assert_eq!(i32s(&r, "x_ptr"), vec![100, 10, 11, 12]);
    assert!(r.buffers.iter().all(|b| b.name != "y_ptr"));
}

/// A view's addresses are its base's: y[3] is x[4], one past x's end, so an
/// unmasked store of four elements through y is out of bounds at lane 3.
#[test]
fn a_view_is_bounded_by_its_base_memory() {
    let src = kernel(
        "x_ptr, y_ptr, out_ptr",
        "offs = tl.arange(0, 4)\ntl.store(y_ptr + offs, offs)",
    );
    let ub = ub_of(&src, &view_launch(1, 3));
    assert_eq!(ub.len(), 1, "{ub:?}");
    assert_ub(
        &src,
        &ub[0],
        "out-of-bounds-store",
        loc1(&src, "tl.store"),
        [0, 0, 0],
        &[3],
    );
    assert!(ub[0].message.contains("x_ptr[4]"), "{}", ub[0].message);
}

/// Two programs: program 1 writes x[1] through y (y[0]) while program 0
/// reads x[1] through x, with nothing ordering them: one memory, so a race.
#[test]
fn accesses_through_a_view_and_its_base_race() {
    let src = kernel(
        "x_ptr, y_ptr, out_ptr",
        "pid = tl.program_id(0)
if pid == 1:
    tl.store(y_ptr, 7)
else:
    tl.store(out_ptr, tl.load(x_ptr + 1))",
    );
    let l = launch(
        &[2],
        json!({"x_ptr": buf("int32", json!([1, 2])),
               "y_ptr": {"view": {"of": "x_ptr", "offset": 1, "len": 1}},
               "out_ptr": zeros("int32", 1)}),
    );
    let ub = ub_of(&src, &l);
    assert!(
        ub.iter()
            .any(|u| u.kind == "data-race" && u.message.contains("x_ptr[1]")),
        "{ub:?}"
    );
}

/// A view must name a buffer argument of numbers and lie inside it.
#[test]
fn a_view_outside_its_base_or_of_no_buffer_is_a_launch_error() {
    let cases = [
        (
            json!({"of": "x", "offset": 2, "len": 3}),
            "not all inside `x` (4 elements)",
        ),
        (
            json!({"of": "nope", "offset": 0, "len": 1}),
            "\"nope\" is not a buffer argument",
        ),
        (
            json!({"of": "s", "offset": 0, "len": 1}),
            "\"s\" is not a buffer argument",
        ),
        (
            json!({"of": "v", "offset": 0, "len": 1}),
            "\"v\" is not a buffer argument",
        ),
        (json!({"of": "x", "len": 1}), "offset"),
    ];
    for (view, needle) in cases {
        let text = json!({"grid": [1], "args": {
            "x": buf("int32", json!([1, 2, 3, 4])),
            "s": scalar("int32", json!(1)),
            "v": {"view": {"of": "x", "offset": 0, "len": 1}},
            "w": {"view": view}}})
        .to_string();
        let e = try_launch(&text).expect_err(needle);
        assert!(e.contains("args.") && e.contains(needle), "{needle}: {e}");
    }
}
