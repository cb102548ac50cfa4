//! The register program (`eval::regprog`) against the tree evaluator it
//! must match: every corpus kernel and a set of kernels aimed at its edges
//! (partial masks, affine lanes that wrap, accesses out of bounds or not
//! contiguous, UB in a lane, inexact and undefined elements, broadcasts,
//! reductions of rows) run both ways, on one thread and on two, and must
//! leave the same bits, inexact and undefined flags and UB reports.

use ksem_interp::eval::{register_program_covers, ProgramPath, RunOptions};
use ksem_interp::launch::{parse_launch, Launch, RunResult};
use ksem_tests::serde_json::json;
use ksem_tests::*;
use std::path::PathBuf;

/// A run of `k` over `l` with the register program on or off.
fn run_both(file: &str, src: &str, l: &Launch, threads: usize) -> (RunResult, RunResult) {
    let with = RunOptions { threads, ..opts() };
    let without = RunOptions {
        register_program: ProgramPath::Tree,
        ..with.clone()
    };
    let a = ksem_interp::run_source(file, src, l, None, &with).expect("runs");
    let b = ksem_interp::run_source(file, src, l, None, &without).expect("runs");
    (a, b)
}

/// Asserts both ways agree; whether the register program covers the kernel.
fn agree(file: &str, src: &str, l: &Launch) -> bool {
    for threads in [1, 2] {
        let (a, b) = run_both(file, src, l, threads);
        assert_eq!(a.buffers, b.buffers, "{file}: buffers, {threads} threads");
        assert_eq!(a.ub, b.ub, "{file}: UB, {threads} threads");
    }
    let k = ksem_interp::elaborate_source(file, src, l, None).expect("elaborates");
    register_program_covers(&k)
}

#[test]
fn every_triton_corpus_kernel_agrees_with_the_tree_evaluator() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/triton");
    let cases: Vec<PathBuf> = ksem_interp::corpus::case_files(&dir).expect("corpus dir");
    let mut covered = 0;
    for py in &cases {
        let src = std::fs::read_to_string(py).expect("read program");
        let text = std::fs::read_to_string(py.with_extension("json")).expect("read launch");
        let l = parse_launch(&text).expect("launch parses");
        let file = py.display().to_string();
        if ksem_interp::elaborate_source(&file, &src, &l, None).is_err() {
            continue;
        }
        covered += agree(&file, &src, &l) as usize;
    }
    eprintln!(
        "the register program covers {covered} of {} corpus kernels",
        cases.len()
    );
    assert!(
        covered >= 10,
        "the register program covers {covered} corpus kernels"
    );
}

/// `agree` on a kernel of this file, which the register program must cover.
fn covered(src: &str, l: &Launch) {
    assert!(agree(FILE, src, l), "not covered:\n{src}");
}

/// [`covered`], and every instance runs through the register program.
fn fast(src: &str, l: &Launch) {
    covered(src, l);
    for threads in [1, 2] {
        let o = RunOptions {
            threads,
            register_program: ProgramPath::RegisterOnly,
            ..opts()
        };
        if let Err(e) = ksem_interp::run_source(FILE, src, l, None, &o) {
            panic!("{}\n{src}", e.render());
        }
    }
}

#[test]
fn partial_masks_and_the_last_block_agree() {
    // 10 elements in blocks of 4: the last block's mask is partial and `x`
    // has no `other` (undefined lanes: that instance goes to the tree
    // evaluator), the others take the fast path
    let src = kernel(
        "x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr",
        "pid = tl.program_id(0)
offs = pid * BLOCK + tl.arange(0, BLOCK)
mask = offs < n
x = tl.load(x_ptr + offs, mask=mask)
y = tl.load(y_ptr + offs, mask=mask, other=1.5)
tl.store(out_ptr + offs, x * y - x, mask=mask)",
    );
    let vals = json!([1.0, -2.5, 3.0, 1e30, -0.0, 7.0, 1e-40, 2.0, -9.0, 0.5]);
    let l = launch(
        &[3],
        json!({"x_ptr": buf("float32", vals.clone()), "y_ptr": buf("float32", vals),
               "out_ptr": zeros("float32", 12), "n": scalar("int32", json!(10)),
               "BLOCK": cx(json!(4))}),
    );
    covered(&src, &l);
    // masks from the other side and of every ordering, over 8 elements (all
    // lanes active) and over 6 (the last block's mask a prefix, its other
    // lanes from `other`: still the register program); a mask whose active
    // lanes are not a prefix (`offs >= 2`) falls back; `offs % 4 < 2` is a
    // mask in lanes (a prefix of each block), `offs < 0` turns every lane off
    let masks = [
        "offs < n",
        "n > offs",
        "offs <= n - 1",
        "n - 1 >= offs",
        "offs >= 0",
    ];
    for (m, n) in masks
        .into_iter()
        .chain([
            "0 <= offs",
            "offs > -1",
            "-1 < offs",
            "offs % 4 < 2",
            "offs < 0",
        ])
        .chain(["offs >= 2"])
        .flat_map(|m| [(m, 8), (m, 6)])
    {
        let src = kernel(
            "x_ptr, out_ptr, n, BLOCK: tl.constexpr",
            &format!(
                "offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
mask = {m}
tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask, other=0.0) + 1.0, mask=mask)"
            ),
        );
        let l = launch(
            &[2],
            json!({"x_ptr": buf("float32", json!([1, 2, 3, 4, 5, 6, 7, 8])),
                   "out_ptr": zeros("float32", 8), "n": scalar("int32", json!(n)),
                   "BLOCK": cx(json!(4))}),
        );
        if m == "offs >= 2" {
            covered(&src, &l);
        } else {
            fast(&src, &l);
        }
    }
}

#[test]
fn out_of_bounds_and_ub_lanes_agree() {
    // the second block reads past the buffer: UB reported by the tree
    // evaluator, the same either way
    let src = kernel(
        "x_ptr, out_ptr, BLOCK: tl.constexpr",
        "offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
tl.store(out_ptr + offs, tl.load(x_ptr + offs))",
    );
    let l = launch(
        &[2],
        json!({"x_ptr": buf("int32", json!([1, 2, 3, 4, 5, 6])),
               "out_ptr": zeros("int32", 8), "BLOCK": cx(json!(4))}),
    );
    covered(&src, &l);
    // integer division by zero in one lane, after a store: the store
    // happens, then the UB stops the program
    let src = kernel(
        "x_ptr, y_ptr, out_ptr, q_ptr, BLOCK: tl.constexpr",
        "offs = tl.arange(0, BLOCK)
x = tl.load(x_ptr + offs)
y = tl.load(y_ptr + offs)
tl.store(out_ptr + offs, x + 1)
tl.store(q_ptr + offs, x // y)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([7, -7, 9, 100])),
               "y_ptr": buf("int32", json!([2, 0, -4, 3])),
               "out_ptr": zeros("int32", 4), "q_ptr": zeros("int32", 4),
               "BLOCK": cx(json!(4))}),
    );
    covered(&src, &l);
    // a float → int conversion out of range
    let src = kernel(
        "x_ptr, out_ptr, BLOCK: tl.constexpr",
        "offs = tl.arange(0, BLOCK)
tl.store(out_ptr + offs, tl.load(x_ptr + offs).to(tl.int8))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([1.5, -3.0, 300.0, 2.0])),
               "out_ptr": zeros("int8", 4), "BLOCK": cx(json!(4))}),
    );
    covered(&src, &l);
}

#[test]
fn wrapping_and_strided_lanes_agree() {
    // int32 offsets near the top of the range: pid * BLOCK + arange wraps
    // in the second block (lanes not consecutive: the tree evaluator, and
    // its out-of-bounds report)
    let src = kernel(
        "x_ptr, out_ptr, base, BLOCK: tl.constexpr",
        "offs = base + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
tl.store(out_ptr + (offs - base), tl.load(x_ptr + (offs - base)) * 2)",
    );
    let l = launch(
        &[2],
        json!({"x_ptr": buf("int32", json!([1, 2, 3, 4, 5, 6, 7, 8])),
               "out_ptr": zeros("int32", 8),
               "base": scalar("int32", json!(2147483645)), "BLOCK": cx(json!(4))}),
    );
    covered(&src, &l);
    // a stride of 2 (pointer lanes materialised, not consecutive) and a
    // reversed order
    let src = kernel(
        "x_ptr, out_ptr, BLOCK: tl.constexpr",
        "offs = tl.arange(0, BLOCK)
x = tl.load(x_ptr + offs * 2)
tl.store(out_ptr + (BLOCK - 1 - offs), x)",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int64", json!([1, -2, 3, -4, 5, -6, 7, -8])),
               "out_ptr": zeros("int64", 4), "BLOCK": cx(json!(4))}),
    );
    covered(&src, &l);
    // two lanes storing different values to one element: a race the
    // tree evaluator reports
    let src = kernel(
        "x_ptr, out_ptr, BLOCK: tl.constexpr",
        "offs = tl.arange(0, BLOCK)
tl.store(out_ptr + offs // 2, tl.load(x_ptr + offs))",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([1, 2, 3, 3])),
               "out_ptr": zeros("int32", 2), "BLOCK": cx(json!(4))}),
    );
    covered(&src, &l);
}

#[test]
fn inexact_and_undefined_elements_agree() {
    // softmax (inexact exp, reductions), then a buffer left uninitialised
    // and one whose elements a launch before made inexact
    let soft = kernel(
        "out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr",
        "row = tl.program_id(0)
offs = tl.arange(0, BLOCK)
mask = offs < n_cols
x = tl.load(in_ptr + row * n_cols + offs, mask=mask, other=-float('inf'))
x = x - tl.max(x, axis=0)
num = tl.exp(x)
den = tl.sum(num, axis=0)
tl.store(out_ptr + row * n_cols + offs, num / den, mask=mask)",
    );
    for (cols, block) in [(8, 8), (6, 8)] {
        let vals: Vec<f32> = (0..4 * cols)
            .map(|i| (i as f32 * 0.37).sin() * 20.0)
            .collect();
        let l = launch(
            &[4],
            json!({"out_ptr": zeros("float32", 4 * cols), "in_ptr": buf("float32", json!(vals)),
                   "n_cols": scalar("int32", json!(cols)), "BLOCK": cx(json!(block))}),
        );
        // (rows shorter than the block: `other` fills the rest)
        fast(&soft, &l);
    }
    let src = kernel(
        "u_ptr, v_ptr, BLOCK: tl.constexpr",
        "offs = tl.arange(0, BLOCK)
tl.store(v_ptr + offs, tl.load(u_ptr + offs) + 1.0)",
    );
    let l = launch(
        &[1],
        json!({"u_ptr": {"buffer": {"dtype": "float32", "len": 4, "init": "none"}},
               "v_ptr": zeros("float32", 4), "BLOCK": cx(json!(4))}),
    );
    covered(&src, &l);
    // a select between an exact and an inexact value, lanes on both sides
    // (per-lane flags: the tree evaluator) and all on one side
    for (data, all_positive) in [
        (json!([1.0, -1.0, 2.0, -3.0]), false),
        (json!([1.0, 1.0, 2.0, 3.0]), true),
    ] {
        let src = kernel(
            "x_ptr, out_ptr, BLOCK: tl.constexpr",
            "offs = tl.arange(0, BLOCK)
x = tl.load(x_ptr + offs)
tl.store(out_ptr + offs, tl.where(x > 0, x, tl.exp(x)))",
        );
        let l = launch(
            &[1],
            json!({"x_ptr": buf("float32", data), "out_ptr": zeros("float32", 4),
                   "BLOCK": cx(json!(4))}),
        );
        if all_positive {
            fast(&src, &l);
        } else {
            covered(&src, &l);
        }
    }
}

#[test]
fn broadcasts_rows_and_scalars_agree() {
    // a 2-D tile reduced along its rows, argmax, a 0-d load and store, a
    // bool tile, int64 and float64 arithmetic, fma
    let src = kernel(
        "x_ptr, s_ptr, i_ptr, o_ptr, b_ptr, d_ptr, R: tl.constexpr, C: tl.constexpr",
        "rows = tl.arange(0, R)
cols = tl.arange(0, C)
x = tl.load(x_ptr + tl.reshape(tl.arange(0, R * C), (R, C)))
one = tl.load(x_ptr + 3)
b = tl.load(x_ptr + cols) > 0.0
w = tl.load(x_ptr + cols).to(tl.float64)
tl.store(s_ptr + rows, tl.sum(x, axis=1))
tl.store(i_ptr + rows, tl.argmax(x, axis=1))
tl.store(o_ptr, one * 2.0 + tl.max(tl.max(x, axis=1), axis=0))
tl.store(b_ptr + cols, b)
tl.store(d_ptr + cols, tl.fma(w, w, w) + (cols.to(tl.int64) * 3000000000).to(tl.float64))",
    );
    let vals: Vec<f32> = (0..16).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
    let l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!(vals)), "s_ptr": zeros("float32", 4),
               "i_ptr": zeros("int32", 4), "o_ptr": zeros("float32", 1),
               "b_ptr": zeros("bool", 4), "d_ptr": zeros("float64", 4),
               "R": cx(json!(4)), "C": cx(json!(4))}),
    );
    fast(&src, &l);
}
