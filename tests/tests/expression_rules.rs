//! The expression rules the front ends share (`interp/src/frontend/py/simt.rs`'s
//! `short_circuit`, `branch_value`; `py/exprs.rs`'s refused forms): one
//! expression in four dialects gets one decision about which operands are
//! evaluated, or one refusal. Each case reads
//! `o[n + 100]` of a 4-element `o` (out of bounds: ksem reports it as UB)
//! in the operand Python does not evaluate, with `n = o[0] = 0` known only
//! at run time, so a run without UB shows that operand was not evaluated.
//!
//! Expected values by hand: Python (and numba-cuda, which follows it)
//! evaluates `a and b` as `a` when `a` is falsy, `a or b` as `a` when `a`
//! is truthy, `x if c else y` evaluates one side, and `a < b < c` is
//! `a < b and b < c` with `b` evaluated once. Hidet and TileLang lower
//! `and`/`or` to C's `&&`/`||` (also short-circuit, value 0 or 1) and Hidet
//! a chain to `(a < b) && (b < c)`; TileLang and Triton refuse chains
//! (Triton 3.6: "simultaneous multiple comparison is not supported").

use ksem_interp::launch::Launch;
use ksem_tests::dialects::{triton_launch, Dialect, SIMT};
use ksem_tests::*;

/// Runs `body` in dialect `d` without UB; the bits of `o`.
fn o_after(d: &Dialect, body: &str) -> Vec<u64> {
    let src = (d.src)(body);
    let r = run_clean(&src, &(d.launch)());
    bits(&r, "o")
}

fn in_simt<'a>(which: &'a [&'a str]) -> impl Iterator<Item = &'static Dialect> + 'a {
    SIMT.iter().filter(move |d| which.contains(&d.name))
}

#[test]
fn and_or_do_not_evaluate_the_operand_after_one_that_decides() {
    // n = 0: `n > 0` decides `and` (false), `n == 0` decides `or` (true);
    // the third operand is never reached either
    let body = "n = o[0]\nif n > 0 and o[n + 100] > 0 and o[n + 200] > 0:\n    o[1] = 5\nelse:\n    o[1] = 7\nif n == 0 or o[n + 100] > 0 or o[n + 200] > 0:\n    o[2] = 9\nelse:\n    o[2] = 4";
    for d in SIMT {
        assert_eq!(o_after(d, body), [0, 7, 9, 0], "{}", d.name);
    }
}

#[test]
fn and_or_give_python_values_in_cuda_python_and_c_truth_in_hidet_and_tilelang() {
    // `0 or 6` is 6 and `2 and 3` is 3 in Python; C's `||` and `&&` give 1
    let body = "n = o[0]\nm = n + 2\no[1] = n or 6\no[2] = m and 3";
    let got: Vec<Vec<u64>> = SIMT.iter().map(|d| o_after(d, body)).collect();
    assert_eq!(got[0], [0, 6, 3, 0], "CUDA Python");
    assert_eq!(got[1], [0, 1, 1, 0], "Hidet script");
    assert_eq!(got[2], [0, 1, 1, 0], "TileLang");
}

#[test]
fn a_conditional_expression_evaluates_only_the_side_taken() {
    let body = "n = o[0]\no[1] = o[n + 100] if n > 0 else 3\no[2] = 8 if n == 0 else o[n + 100]";
    for d in SIMT {
        assert_eq!(o_after(d, body), [0, 3, 8, 0], "{}", d.name);
    }
    let src = kernel(
        "o",
        "n = tl.load(o)\ntl.store(o + 1, tl.load(o + n + 100) if n > 0 else 3)\ntl.store(o + 2, 8 if n == 0 else tl.load(o + n + 100))",
    );
    let r = run_clean(&src, &triton_launch());
    assert_eq!(bits(&r, "o"), [0, 3, 8, 0], "Triton");
}

#[test]
fn a_comparison_chain_stops_at_the_first_false_comparison() {
    // `n > 0 > o[n + 100]` is `n > 0 and 0 > o[n + 100]`: n = 0 stops it.
    // Hidet evaluated every operand of a chain before this rule was shared
    // (an out-of-bounds read here), where C's `&&` evaluates the second
    // comparison only if the first holds.
    let body = "n = o[0]\nif n > 0 > o[n + 100]:\n    o[1] = 5\nelse:\n    o[1] = 7\nif -1 < n < 1 < n + 2:\n    o[2] = 6";
    for d in in_simt(&["CUDA Python", "Hidet script"]) {
        assert_eq!(o_after(d, body), [0, 7, 6, 0], "{}", d.name);
    }
}

#[test]
fn a_comparison_chain_evaluates_its_middle_operand_once_in_cuda_python() {
    // Python evaluates `b` of `a < b < c` once: the atomic add (which
    // returns the old value, 0) runs once, so o[3] is 1, and 0 < 0 fails
    // the second comparison
    let body = "if -1 < cuda.atomic.add(o, 3, 1) < 0:\n    o[1] = 5\nelse:\n    o[1] = 7";
    let d = &SIMT[0];
    assert_eq!(o_after(d, body), [0, 7, 0, 1], "{}", d.name);
}

#[test]
fn tilelang_and_triton_refuse_a_comparison_chain() {
    let body = "n = o[0]\nif 0 < n < 4:\n    o[1] = 1";
    let tl = &SIMT[2];
    assert_eq!(tl.name, "TileLang");
    let src = (tl.src)(body);
    let d = refused(&src, &(tl.launch)());
    assert_diag(
        &src,
        &d,
        loc(&src, "if 0 < n", "0 < n"),
        &["chained comparison"],
        None,
    );
    let src = kernel("o", "n = tl.load(o)\nif 0 < n < 4:\n    tl.store(o + 1, 1)");
    let d = refused(&src, &triton_launch());
    assert_diag(
        &src,
        &d,
        loc(&src, "if 0 < n", "0 < n"),
        &["chained comparison"],
        None,
    );
}

#[test]
fn refused_expression_forms_have_one_form_in_every_dialect() {
    // `py/exprs.rs` names each form once; each dialect gives its own help
    let cases = [
        ("f = lambda v: v", "lambda", "`lambda`"),
        ("y = [i for i in range(2)]", "[i", "a list comprehension"),
        (
            "y = {i: i for i in range(2)}",
            "{i:",
            "a dict comprehension",
        ),
        (
            "y = (i for i in range(2))",
            "(i for",
            "a generator expression",
        ),
    ];
    for (body, at, what) in cases {
        let mut srcs: Vec<(&str, String, Launch)> = SIMT
            .iter()
            .map(|d| (d.name, (d.src)(body), (d.launch)()))
            .collect();
        srcs.push(("Triton", kernel("o", body), triton_launch()));
        for (name, src, l) in srcs {
            let d = refused(&src, &l);
            let msg = format!("{what} is not supported in a {name} kernel");
            assert_diag(&src, &d, loc(&src, body, at), &[&msg], None);
        }
    }
}
