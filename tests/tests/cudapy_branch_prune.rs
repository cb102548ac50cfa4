//! numba's dead-branch pruning: an `if` whose condition is a
//! module-level constant (a global, or a closed-over variable the plugin
//! binds as one) or one comparison of it with another or a constant is
//! decided before typing, so only the branch taken is compiled.
//! numba-cuda's test_issue5219 rebinds a tuple to its element under `if b_is_tuple is True:` with
//! `b_is_tuple` closed over (numba compiles it; values by hand below).

use ksem_interp::launch::parse_launch;
use ksem_tests::*;
use serde_json::json;

fn launch() -> ksem_interp::launch::Launch {
    parse_launch(
        &json!({"grid": [1], "block": [1], "args": {
            "out": {"buffer": {"dtype": "int64", "len": 1}},
            "x": {"scalar": {"dtype": "int64", "value": 7}}}})
        .to_string(),
    )
    .unwrap()
}

fn kernel(flag: &str, test: &str) -> String {
    format!(
        "from numba import cuda

FLAG = {flag}

@cuda.jit
def kern(out, x):
    b = (x, 2)
    if {test}:
        b = b[0]
    else:
        b = b[1]
    out[0] = b
"
    )
}

/// The tuple `b` becomes its element 0 (7) where the condition holds, its
/// element 1 (2) where it does not: a change of kind only a pruned branch
/// allows.
#[test]
fn constant_conditions_compile_only_the_branch_taken() {
    for (flag, test, want) in [
        ("True", "FLAG is True", 7),
        ("False", "FLAG is True", 2),
        ("True", "FLAG", 7),
        ("3", "FLAG == 3", 7),
        ("3", "2 > FLAG", 2),
    ] {
        let r = run_clean(&kernel(flag, test), &launch());
        assert_eq!(bits(&r, "out"), vec![want], "FLAG = {flag}; if {test}");
    }
}

/// A condition on a run-time value is not pruned: both branches are
/// compiled, and a tuple rebound to a number in one of them is refused.
#[test]
fn runtime_conditions_are_not_pruned() {
    let src = kernel("True", "x > 0");
    let d = refused(&src, &launch());
    assert!(
        d.message
            .contains("`b` is not a number before this loop or branch"),
        "{}",
        d.message
    );
}
