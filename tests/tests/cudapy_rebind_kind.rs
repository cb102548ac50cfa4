//! A number rebound to an array inside a loop or branch (numba-cuda's
//! `test_issue5493_unneeded_phi`): accepted where the rebinding reaches
//! every read of the name (all of them follow it in its own block, so no
//! read sees the number: numba's SSA needs no phi joining the two kinds);
//! refused, as before, where a read could see either. Expected values are
//! the Python function's, reasoned by hand.

use ksem_interp::launch::parse_launch;
use ksem_tests::*;
use serde_json::json;

fn module(body: &str) -> String {
    format!(
        "from numba import cuda\n\n@cuda.jit\ndef kern(res, m, n, B):\n{}\n",
        indent(body)
    )
}

fn launch() -> ksem_interp::launch::Launch {
    parse_launch(
        &json!({"grid": [1, 1, 1], "block": [1, 1, 1],
                "args": {"res": {"buffer": {"dtype": "float64", "data": [0.0]}},
                         "m": {"scalar": {"dtype": "int64", "value": 3}},
                         "n": {"scalar": {"dtype": "int64", "value": 4}},
                         "B": {"buffer": {"dtype": "float64", "data": [2.5]}}}})
        .to_string(),
    )
    .unwrap()
}

/// The loop variable `t` (a number) becomes the array B at the top of the
/// inner body, and every read follows: for each of t = 1, 2 the inner loop
/// stores B[0] = 2.5 at idx 0 and adds it at idx 1..3: res = 4 · 2.5 = 10.
#[test]
fn a_loop_variable_rebound_to_an_array_before_every_read() {
    let src = module(
        "for t in range(1, m):
    for idx in range(n):
        t = B
        if idx == 0:
            res[0] = t[0]
        else:
            res[0] += t[0]",
    );
    let r = run_clean(&src, &launch());
    assert_eq!(bits(&r, "res"), vec![10.0f64.to_bits()]);
}

/// A read of the number outside the rebinding's block (after the loop) could
/// see either kind: refused at the rebinding.
#[test]
fn a_read_that_could_see_the_number_is_still_refused() {
    let src = module(
        "t = 1
for idx in range(n):
    t = B
res[0] = t[0]",
    );
    let d = refused(&src, &launch());
    assert_diag(
        &src,
        &d,
        loc(&src, "    t = B", "t"),
        &["`t` is a number before this loop or branch"],
        None,
    );
}
