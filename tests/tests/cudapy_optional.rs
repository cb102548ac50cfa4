//! numba's `Optional` of a number (numba-cuda's `test_unhandled_undefined`):
//! a device function that returns None on some paths and a number on
//! others; the caller tests `is None` / `is not None` at run time and uses
//! the number where it is not None. Expected values are the Python
//! function's, reasoned by hand.

use ksem_interp::launch::parse_launch;
use ksem_tests::serde_json::json;
use ksem_tests::*;

fn module(kernel_body: &str) -> String {
    format!(
        "from numba import cuda

@cuda.jit(device=True)
def f(x):
    if x > 0:
        return x * 2
    elif x == 0:
        return None
    return

@cuda.jit
def kern(out, a):
{}
",
        indent(kernel_body)
    )
}

fn run_on(body: &str) -> Vec<u64> {
    let l = parse_launch(
        &json!({"grid": [1, 1, 1], "block": [4, 1, 1], "args": {
            "out": {"buffer": {"dtype": "int64", "len": 4}},
            "a": {"buffer": {"dtype": "int64", "data": [3, -1, 5, 0]}}}})
        .to_string(),
    )
    .unwrap();
    bits(&run_clean(&module(body), &l), "out")
}

/// a = [3, -1, 5, 0]: f gives 6 and 10 for the positive ones, None for -1
/// (falls to the bare `return`) and 0 (`return None`): [6, 99, 10, 99].
#[test]
fn is_none_tests_which_return_ran() {
    let got = run_on(
        "i = cuda.threadIdx.x
r = f(a[i])
if r is None:
    out[i] = 99
else:
    out[i] = r",
    );
    assert_eq!(got, vec![6, 99, 10, 99]);
}

/// `is not None`, with None on the left too: [7, 0, 11, 0] (r + 1 where a
/// number came back).
#[test]
fn is_not_none_and_none_on_the_left() {
    let got = run_on(
        "i = cuda.threadIdx.x
r = f(a[i])
out[i] = 0
if r is not None:
    out[i] = r + 1
if None is r:
    out[i] = out[i] * 1",
    );
    assert_eq!(got, vec![7, 0, 11, 0]);
}
