//! A tuple local rebound inside a branch or loop (issue 24: numba-cuda's
//! test_atomics 2-D helpers): the new value holds only where the branch
//! runs, and a new tuple made from the old one reads the old values.
//! Expected values are numba's, reasoned by hand (out[tx, ty] = t[0] * 10 +
//! t[1] with t = (tx, ty) unless the branch swaps it).

use ksem_interp::launch::parse_launch;
use ksem_tests::*;
use serde_json::json;

fn module(body: &str) -> String {
    format!(
        "from numba import cuda\n\n@cuda.jit\ndef kern(out):\n{}\n",
        indent(body)
    )
}

fn run(body: &str) -> Vec<i64> {
    let l = parse_launch(
        &json!({"grid": [1, 1, 1], "block": [3, 2, 1],
                "args": {"out": {"buffer": {"dtype": "int64", "len": 6, "shape": [3, 2]}}}})
        .to_string(),
    )
    .unwrap();
    bits(&run_clean(&module(body), &l), "out")
        .iter()
        .map(|&b| b as i64)
        .collect()
}

/// A branch no thread takes leaves the tuple as it was: out[tx, ty] = tx*10 + ty,
/// row-major over (3, 2): 0, 1, 10, 11, 20, 21.
#[test]
fn a_branch_not_taken_leaves_the_tuple() {
    let got = run("tx = cuda.threadIdx.x
ty = cuda.threadIdx.y
t = (tx, ty)
if tx > 100:
    t = (ty, tx)
out[tx, ty] = t[0] * 10 + t[1]");
    assert_eq!(got, vec![0, 1, 10, 11, 20, 21]);
}

/// Taken by the threads with tx == 1 only: they store ty*10 + tx (10 + 1·0 →
/// out[1,0] = 0*10+1 = 1, out[1,1] = 1*10+1 = 11); the others tx*10 + ty.
#[test]
fn a_branch_taken_by_some_threads_swaps_for_them_only() {
    let got = run("tx = cuda.threadIdx.x
ty = cuda.threadIdx.y
t = (tx, ty)
if tx == 1:
    t = (t[1], t[0])
out[tx, ty] = t[0] * 10 + t[1]");
    assert_eq!(got, vec![0, 1, 1, 11, 20, 21]);
}

/// The tuple does not alias the variables it was made from: changing tx
/// after `t = (tx, ty)` leaves t; a loop swapping twice restores it.
#[test]
fn a_tuple_owns_its_values_and_a_loop_swaps_through_the_old_ones() {
    let got = run("tx = cuda.threadIdx.x
ty = cuda.threadIdx.y
t = (tx, ty)
tx = 7
for i in range(2):
    t = (t[1], t[0])
out[cuda.threadIdx.x, ty] = t[0] * 10 + t[1] + tx - 7");
    assert_eq!(got, vec![0, 1, 10, 11, 20, 21]);
}

/// `(x := v)` assigns v to x and is v (the plugin rebuilds a tuple argument
/// this way in the header of a kernel whose first statement is an `if`):
/// t = (tx, ty) from the header on; out[tx, ty] = tx*10 + ty + (1 where
/// tx > 0).
#[test]
fn an_assignment_expression_binds_where_it_is_evaluated() {
    let got = run(
        "if ((t := (cuda.threadIdx.x, cuda.threadIdx.y)), t[0] > 0)[1]:
    out[t[0], t[1]] = t[0] * 10 + t[1] + 1
else:
    out[t[0], t[1]] = (n := t[0] * 10) + t[1] + n * 0",
    );
    assert_eq!(got, vec![0, 1, 11, 12, 21, 22]);
}
