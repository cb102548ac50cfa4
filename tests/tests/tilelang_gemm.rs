//! `T.gemm` on shared and fragment arrays runs as one operation in the
//! interpreter (`Stmt::Gemm`'s fast path); its loop nest is the meaning.
//! Each case runs the same kernel with the fast path required
//! (`GemmPath::FastOnly`, which errors where the fast path does not run)
//! and with the loop nest (`GemmPath::Reference`), and the bits and the
//! inexact marks of every buffer must be equal. Hand-reasoned values pin
//! the order itself (`seed_tilelang.rs` has more on global operands).

use ksem_interp::eval::{GemmPath, RunOptions};
use ksem_interp::launch::RunResult;
use ksem_tests::serde_json::json;
use ksem_tests::*;

fn module(rest: &str) -> String {
    format!("import tilelang\nimport tilelang.language as T\n\n{rest}")
}

fn run_with(src: &str, l: &ksem_interp::launch::Launch, path: GemmPath) -> RunResult {
    let k = ksem_interp::elaborate_source("gemm.py", src, l, None)
        .unwrap_or_else(|e| panic!("elaborates: {e:?}"));
    let opts = RunOptions {
        threads: 1,
        gemm: path,
        ..RunOptions::default()
    };
    let r = ksem_interp::eval::run(&k, l, &opts).unwrap_or_else(|e| panic!("runs: {e:?}"));
    assert!(r.ub.is_empty(), "no UB expected: {:?}", r.ub);
    r
}

/// A kernel that copies A and B into shared arrays (C into a fragment
/// unless `clear`), multiplies them with `T.gemm` and copies the fragment
/// out; A is m×k (k×m transposed), B k×n (n×k transposed).
fn kernel(
    ab: &str,
    acc: &str,
    (m, n, k): (usize, usize, usize),
    ta: bool,
    tb: bool,
    clear: bool,
) -> String {
    let (ar, ac) = if ta { (k, m) } else { (m, k) };
    let (br, bc) = if tb { (n, k) } else { (k, n) };
    let load_c = if clear {
        ""
    } else {
        "        T.copy(C, acc)\n"
    };
    module(&format!(
        "@T.prim_func\ndef main(A: T.Tensor(({ar}, {ac}), \"{ab}\"), B: T.Tensor(({br}, {bc}), \"{ab}\"), C: T.Tensor(({m}, {n}), \"{acc}\")):\n    with T.Kernel(1, threads=128) as bx:\n        As = T.alloc_shared(({ar}, {ac}), \"{ab}\")\n        Bs = T.alloc_shared(({br}, {bc}), \"{ab}\")\n        acc = T.alloc_fragment(({m}, {n}), \"{acc}\")\n        T.copy(A, As)\n        T.copy(B, Bs)\n{load_c}        T.gemm(As, Bs, acc, transpose_A={ta}, transpose_B={tb}, clear_accum={clear})\n        T.copy(acc, C)\n",
        ta = if ta { "True" } else { "False" },
        tb = if tb { "True" } else { "False" },
        clear = if clear { "True" } else { "False" },
    ))
}

/// Every dtype pair TileLang's GEMMs use, every transpose and
/// `clear_accum`, on random inputs (seeded): the fast path gives the loop
/// nest's bits and inexact marks.
#[test]
fn the_fast_path_gives_the_loop_nests_bits() {
    let pairs = [
        ("float16", "float32"),
        ("bfloat16", "float32"),
        ("float32", "float32"),
        ("float64", "float64"),
        ("float16", "float16"),
        ("int8", "int32"),
    ];
    let (m, n, k) = (3, 5, 7);
    for (ab, acc) in pairs {
        for (ta, tb, clear) in [
            (false, false, false),
            (true, false, false),
            (false, true, true),
            (true, true, false),
        ] {
            let src = kernel(ab, acc, (m, n, k), ta, tb, clear);
            let random = |seed: u64, len: usize, d: &str| json!({"buffer": {"dtype": d, "len": len, "init": {"random": {"seed": seed}}}});
            let l = launch(
                &[1],
                json!({"A": random(1, m * k, ab), "B": random(2, k * n, ab), "C": random(3, m * n, acc)}),
            );
            let fast = run_with(&src, &l, GemmPath::FastOnly);
            let slow = run_with(&src, &l, GemmPath::Reference);
            for (f, s) in fast.buffers.iter().zip(&slow.buffers) {
                assert_eq!(f.name, s.name);
                assert_eq!(
                    f.bits, s.bits,
                    "{ab}->{acc} ta={ta} tb={tb} clear={clear}: {}",
                    f.name
                );
                assert_eq!(
                    f.inexact, s.inexact,
                    "{ab}->{acc}: inexact marks of {}",
                    f.name
                );
            }
        }
    }
}

/// The order on arrays, by hand: float32 accumulation, k ascending, each
/// product and sum rounded: 1e8·1 + 1·1 + (-1e8)·1 + 1·1 = 1 (1e8 + 1
/// rounds to 1e8, whose ulp is 8); a tree or a wider accumulator gives 2.
/// With A given transposed (1×4 as 4×1) and C accumulated from 5: 1e8 + 5
/// rounds up to 100000008, + 1 back to it, - 1e8 gives 8, + 1 gives 9 (the
/// exact sum is 7).
#[test]
fn the_fast_path_rounds_each_product_and_sum() {
    for (ta, clear, want) in [(false, true, 1.0f32), (true, false, 9.0)] {
        let src = kernel("float32", "float32", (1, 1, 4), ta, false, clear);
        let l = launch(
            &[1],
            json!({"A": buf("float32", json!([1e8, 1, -1e8, 1])), "B": buf("float32", json!([1, 1, 1, 1])), "C": buf("float32", json!([5]))}),
        );
        let r = run_with(&src, &l, GemmPath::FastOnly);
        assert_eq!(bits(&r, "C"), f32_bits(&[want]), "transpose_A={ta}");
    }
}

/// A shared operand never written is still reported where the loop nest
/// reads it: the fast path declines and the loop nest runs.
#[test]
fn an_operand_never_written_is_reported_at_the_gemm() {
    let src = module(
        "@T.prim_func\ndef main(A: T.Tensor((2, 2), \"float32\"), C: T.Tensor((2, 2), \"float32\")):\n    with T.Kernel(1, threads=128) as bx:\n        As = T.alloc_shared((2, 2), \"float32\")\n        Bs = T.alloc_shared((2, 2), \"float32\")\n        acc = T.alloc_fragment((2, 2), \"float32\")\n        T.copy(A, As)\n        T.gemm(As, Bs, acc, clear_accum=True)\n        T.copy(acc, C)\n",
    );
    let l = launch(
        &[1],
        json!({"A": buf("float32", json!([1, 2, 3, 4])), "C": zeros("float32", 4)}),
    );
    let ubs = ub_of(&src, &l);
    let r = &ubs[0];
    // the first read of Bs: element [0, 0], for C[0, 0] at k = 0
    assert_ub(
        &src,
        r,
        "uninitialized-read",
        loc1(&src, "T.gemm"),
        [0, 0, 0],
        &[0],
    );
    assert!(r.message.contains("alloc_shared1[0]"), "{}", r.message);
    // where the fast path is required, ksem says it could not run
    let k = ksem_interp::elaborate_source("gemm.py", &src, &l, None).expect("elaborates");
    let opts = RunOptions {
        threads: 1,
        gemm: GemmPath::FastOnly,
        ..RunOptions::default()
    };
    let e = ksem_interp::eval::run(&k, &l, &opts).expect_err("refused");
    assert!(
        e.message.contains("could not run as one operation"),
        "{}",
        e.message
    );
    assert_eq!((e.span.line, e.span.col), loc1(&src, "T.gemm"));
}

/// An element derived from approximate math (`T.exp`) marks every sum it
/// enters as inexact, on the fast path as in the loop nest: B's row 0 goes
/// through `T.exp`, so every C[i, j] (k = 0 reads it) is inexact.
#[test]
fn inexact_operands_mark_the_sums_they_enter() {
    let src = module(
        "@T.prim_func\ndef main(A: T.Tensor((2, 3), \"float32\"), B: T.Tensor((3, 2), \"float32\"), C: T.Tensor((2, 2), \"float32\")):\n    with T.Kernel(1, threads=128) as bx:\n        As = T.alloc_shared((2, 3), \"float32\")\n        Bs = T.alloc_shared((3, 2), \"float32\")\n        acc = T.alloc_fragment((2, 2), \"float32\")\n        T.copy(A, As)\n        T.copy(B, Bs)\n        for j in T.Parallel(2):\n            Bs[0, j] = T.exp(Bs[0, j])\n        T.gemm(As, Bs, acc, clear_accum=True)\n        T.copy(acc, C)\n",
    );
    let l = launch(
        &[1],
        json!({"A": buf("float32", json!([1, 2, 3, 4, 5, 6])), "B": buf("float32", json!([0, 1, 2, 3, 4, 5])), "C": zeros("float32", 4)}),
    );
    let fast = run_with(&src, &l, GemmPath::FastOnly);
    let slow = run_with(&src, &l, GemmPath::Reference);
    let c = |r: &RunResult| r.buffers.iter().find(|b| b.name == "C").unwrap().clone();
    assert_eq!(c(&fast).bits, c(&slow).bits);
    assert_eq!(c(&fast).inexact, vec![true; 4]);
    assert_eq!(c(&slow).inexact, vec![true; 4]);
}

/// C the same array as A: the loop nest reads sums it has already stored,
/// so the fast path declines and the nest runs. acc = [[1, 2], [3, 4]],
/// `T.gemm(acc, B, acc)` with B = I + 1 (all ones plus the identity):
/// C[0,0] = 1 + 1·2 + 2·1 = 5; C[0,1] = 2 + 5·1 + 2·2 = 11 (reads the new
/// C[0,0] = 5); C[1,0] = 3 + 3·2 + 4·1 = 13; C[1,1] = 4 + 13·1 + 4·2 = 25.
#[test]
fn an_accumulator_that_is_also_an_operand_runs_as_the_loop_nest() {
    let src = module(
        "@T.prim_func\ndef main(B: T.Tensor((2, 2), \"float32\"), C: T.Tensor((2, 2), \"float32\")):\n    with T.Kernel(1, threads=128) as bx:\n        Bs = T.alloc_shared((2, 2), \"float32\")\n        acc = T.alloc_fragment((2, 2), \"float32\")\n        T.copy(B, Bs)\n        T.copy(C, acc)\n        T.gemm(acc, Bs, acc)\n        T.copy(acc, C)\n",
    );
    let l = launch(
        &[1],
        json!({"B": buf("float32", json!([2, 1, 1, 2])), "C": buf("float32", json!([1, 2, 3, 4]))}),
    );
    let fast = run_with(&src, &l, GemmPath::Fast);
    assert_eq!(bits(&fast, "C"), f32_bits(&[5.0, 11.0, 13.0, 25.0]));
    let slow = run_with(&src, &l, GemmPath::Reference);
    assert_eq!(bits(&slow, "C"), bits(&fast, "C"));
}
