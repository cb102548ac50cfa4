//! Integers as pointers in the Triton front end (Triton's `semantic.cast`:
//! `int_to_ptr`, `ptr_to_int`; Triton's `test_where[*int32]`): `x.to(tl.pi32_t)`
//! makes the pointer whose 64-bit representation is the integer
//! (zero-extended), `tl.where` selects between pointers, and a store of
//! pointers into an int64 buffer stores their representation, so the bits
//! come back unchanged. Dereferencing such a pointer is UB.

use ksem_tests::serde_json::json;
use ksem_tests::*;

/// int64 values through pointers and back: where(c, a, b) of the pointers
/// stores a's bits where c is true and b's elsewhere, negative and large
/// values included (their two's-complement bits); an int32 -1 zero-extends
/// to 0x00000000ffffffff.
#[test]
fn integers_round_trip_through_pointers() {
    let src = kernel(
        "c_ptr, a_ptr, b_ptr, i_ptr, o_ptr, w_ptr",
        "offs = tl.arange(0, 4)
c = tl.load(c_ptr + offs)
a = tl.load(a_ptr + offs).to(tl.pi32_t)
b = tl.load(b_ptr + offs).to(tl.pi32_t)
tl.store(o_ptr + offs, tl.where(c, a, b))
w = tl.load(i_ptr + offs).to(tl.pi32_t)
tl.store(w_ptr + offs, w.to(tl.int64))",
    );
    let l = launch(
        &[1],
        json!({"c_ptr": buf("bool", json!([true, false, true, false])),
               "a_ptr": buf("int64", json!([1, 2, -3, 4])),
               "b_ptr": buf("int64", json!([10, i64::MIN, 30, i64::MAX])),
               "i_ptr": buf("int32", json!([-1, 0, 7, i32::MIN])),
               "o_ptr": zeros("int64", 4), "w_ptr": zeros("int64", 4)}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(
        bits(&r, "o_ptr"),
        vec![
            1,
            0x8000_0000_0000_0000,
            (-3i64) as u64,
            0x7fff_ffff_ffff_ffff
        ]
    );
    assert_eq!(bits(&r, "w_ptr"), vec![0xffff_ffff, 0, 7, 0x8000_0000]);
}

/// `tl.where` of two scalar pointer arguments picks one buffer to load
/// from: a's [5, 6] where the first condition is true.
#[test]
fn where_selects_between_pointer_arguments() {
    let src = kernel(
        "c_ptr, a_ptr, b_ptr, o_ptr",
        "offs = tl.arange(0, 2)
p = tl.where(tl.load(c_ptr), a_ptr, b_ptr)
tl.store(o_ptr + offs, tl.load(p + offs))",
    );
    let l = launch(
        &[1],
        json!({"c_ptr": buf("bool", json!([true])), "a_ptr": buf("int64", json!([5, 6])),
               "b_ptr": buf("int64", json!([7, 8])), "o_ptr": zeros("int64", 2)}),
    );
    assert_eq!(bits(&run_clean(&src, &l), "o_ptr"), vec![5, 6]);
}

/// Loading through a pointer made from an integer is UB, never a crash.
#[test]
fn loading_through_an_integer_pointer_is_ub() {
    let src = kernel(
        "a_ptr, o_ptr",
        "p = tl.load(a_ptr).to(tl.pi32_t)
tl.store(o_ptr, tl.load(p))",
    );
    let l = launch(
        &[1],
        json!({"a_ptr": buf("int64", json!([4096])), "o_ptr": zeros("int32", 1)}),
    );
    let ub = no_panic("load through an integer pointer", || ub_of(&src, &l));
    assert!(!ub.is_empty());
}

/// Triton's `cast` converts a pointer only to a 64-bit integer or int1, and
/// only integers to pointers; the rest is refused at the call.
#[test]
fn other_pointer_conversions_are_refused() {
    let l = launch(
        &[1],
        json!({"a_ptr": buf("int64", json!([1])), "f_ptr": buf("float32", json!([1.0]))}),
    );
    for (expr, msg) in [
        (
            "a_ptr.to(tl.int32)",
            "converts to int64, uint64 or int1 only",
        ),
        (
            "tl.load(f_ptr).to(tl.pi32_t)",
            "only integers become pointers",
        ),
        ("f_ptr.to(tl.pi32_t)", "a pointer to another dtype"),
    ] {
        let src = kernel("a_ptr, f_ptr", &format!("x = {expr}"));
        let d = refused(&src, &l);
        let at = loc1(&src, expr);
        assert_diag(&src, &d, at, &[msg], None);
    }
}
