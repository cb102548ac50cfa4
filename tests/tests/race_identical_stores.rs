//! A race between plain stores of program instances stays a data race
//! (ksem's contract), and its report says when every store stored the same
//! bits (Triton's own tests store one value from every program on purpose;
//! the pytest plugin makes exactly those a warning). Issue 24.

use ksem_interp::eval::IDENTICAL_STORES;
use ksem_tests::serde_json::json;
use ksem_tests::*;

fn races(body: &str, grid: u64) -> Vec<String> {
    let src = kernel("out_ptr", body);
    let l = launch(&[grid], json!({"out_ptr": zeros("float32", 2)}));
    let ub = ub_of(&src, &l);
    assert!(
        !ub.is_empty() && ub.iter().all(|u| u.kind == "data-race"),
        "{ub:?}"
    );
    ub.into_iter().map(|u| u.message).collect()
}

/// Four programs each store 7.0 to out[0]: a race of identical stores.
#[test]
fn every_program_storing_the_same_bits() {
    for m in races("tl.store(out_ptr, 7.0)", 4) {
        assert!(m.ends_with(IDENTICAL_STORES), "{m}");
    }
}

/// Each program stores its own id: the bits differ.
#[test]
fn programs_storing_different_bits() {
    for m in races("tl.store(out_ptr, tl.program_id(0).to(tl.float32))", 4) {
        assert!(!m.contains(IDENTICAL_STORES), "{m}");
    }
}

/// Program 0 stores the 0.0 already there, program 1 stores 1.0: the first
/// store changing nothing does not make the later, different one identical.
#[test]
fn an_unchanged_first_store_then_a_different_one() {
    for m in races("tl.store(out_ptr, tl.program_id(0).to(tl.float32))", 2) {
        assert!(!m.contains(IDENTICAL_STORES), "{m}");
    }
}
