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

/// numba's `rewrite_semantic_constants` runs before the pruning: `len(t)`
/// of a tuple parameter (`*z` too) and `a.ndim` of an array parameter are
/// constants where the function never assigns the parameter, so
/// `if len(z) == 1:` compiles only the branch for the call's number of
/// arguments (numba-cuda's test_with_overload indexes `z[1]` in the other
/// one). With x = 7: f(7) = 7, f(7, 2) = 7 * 10 + 2 = 72, dims(out) = 1
/// (out is 1-d; the 2-d read is never compiled): 7 + 7200 + 1 = 7208.
#[test]
fn len_of_a_tuple_parameter_and_ndim_are_constants() {
    let src = "from numba import cuda

@cuda.jit(device=True)
def f(*z):
    if len(z) == 1:
        r = z[0]
    elif len(z) == 2:
        r = z[0] * 10 + z[1]
    return r

@cuda.jit(device=True)
def dims(a):
    if a.ndim == 1:
        d = 1
    else:
        d = a[0, 0]
    return d

@cuda.jit
def kern(out, x):
    out[0] = f(x) + f(x, 2) * 100 + dims(out)
";
    let r = run_clean(src, &launch());
    assert_eq!(bits(&r, "out"), vec![7208]);
}

/// A parameter the function assigns is not numba's argument any more: its
/// `len()` is no constant, both branches are compiled, and `z[1]` of a
/// one-item tuple is an error, as numba's typing of the branch is.
#[test]
fn an_assigned_parameter_is_not_a_semantic_constant() {
    let src = "from numba import cuda

@cuda.jit(device=True)
def f(*z):
    z = z
    if len(z) == 1:
        r = z[0]
    else:
        r = z[0] + z[1]
    return r

@cuda.jit
def kern(out, x):
    out[0] = f(x)
";
    let d = refused(src, &launch());
    assert_diag(
        src,
        &d,
        loc(src, "r = z[0] + z[1]", "z[1]"),
        &["tuple index 1 out of range"],
        None,
    );
}
