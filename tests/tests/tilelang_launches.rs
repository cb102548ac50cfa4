//! TileLang kernels of several launches: `with T.Kernel(…)` after `with
//! T.Kernel(…)` in one `@T.prim_func`. Each launch runs to its end before
//! the next begins, on the same global memory, with its own grid; UB and
//! races are found per launch and reported at the line that has them.
//! Expected values are reasoned by hand in each test.

use ksem_interp::launch::{parse_launch, Launch};
use ksem_tests::*;
use serde_json::{json, Value as Json};

/// A TileLang module: the imports, then `rest`.
fn module(rest: &str) -> String {
    format!("import tilelang\nimport tilelang.language as T\n\n\n{rest}")
}

/// A launch with only arguments (the `T.Kernel`s fix the grids).
fn args(a: Json) -> Launch {
    let text = json!({ "args": a }).to_string();
    parse_launch(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn i32_values(bits: &[u64]) -> Vec<i64> {
    bits.iter().map(|&b| b as u32 as i32 as i64).collect()
}

/// Launch 1 writes B = A + 1 (4 blocks), launch 2 doubles B in place (2
/// blocks of 2 elements), launch 3 reads B in reverse into C.
const ORDERED: &str = r#"@T.prim_func
def main(A: T.Tensor((4,), "int32"), B: T.Tensor((4,), "int32"), C: T.Tensor((4,), "int32")):
    with T.Kernel(4, threads=32) as bx:
        B[bx] = A[bx] + 1
    with T.Kernel(2, threads=64) as bx:
        for i in T.Parallel(2):
            B[bx * 2 + i] = B[bx * 2 + i] * 2
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(4):
            C[i] = B[3 - i] - 100
"#;

#[test]
fn launches_run_in_order_and_each_sees_the_writes_before_it() {
    let src = module(ORDERED);
    let l = args(json!({
        "A": buf("int32", json!([1, 2, 3, 4])),
        "B": buf("int32", json!([100, 100, 100, 100])),
        "C": zeros("int32", 4),
    }));
    let k = elaborate(&src, &l).expect("elaborates");
    // three launches: the first in the kernel, two after it, each with the
    // grid of its own T.Kernel
    assert_eq!(k.grid, [4, 1, 1]);
    let grids: Vec<[u32; 3]> = k.then.iter().map(|n| n.grid).collect();
    assert_eq!(grids, vec![[2, 1, 1], [1, 1, 1]]);
    let r = run_clean(&src, &l);
    // in order: B = (A + 1) * 2 = [4, 6, 8, 10]; C = reversed B - 100.
    // Launch 2 before launch 1 would leave B = A + 1 = [2, 3, 4, 5]; launch
    // 2 not seeing launch 1's writes would double the 100s (200); launch 3
    // not seeing launch 2's would give C from [2, 3, 4, 5] or the 100s.
    assert_eq!(i32_values(&bits(&r, "B")), vec![4, 6, 8, 10]);
    assert_eq!(i32_values(&bits(&r, "C")), vec![-90, -92, -94, -96]);
}

#[test]
fn an_out_of_bounds_read_in_the_second_launch_is_reported_at_its_line() {
    let src = module(
        r#"@T.prim_func
def main(A: T.Tensor((8,), "int32"), B: T.Tensor((8,), "int32"), C: T.Tensor((12,), "int32")):
    with T.Kernel(2, threads=32) as bx:
        for i in T.serial(4):
            B[bx * 4 + i] = A[bx * 4 + i]
    with T.Kernel(3, threads=32) as by:
        for i in T.serial(4):
            C[by * 4 + i] = A[by * 3 + i] + 1
"#,
    );
    let l = args(json!({"A": zeros("int32", 8), "B": zeros("int32", 8), "C": zeros("int32", 12)}));
    let u = ub_of(&src, &l);
    // only block 2 of launch 2 leaves A: by * 3 + i = 6, 7, 8 (out), …; its
    // loop stops at the first bad read (i = 2, element 8).
    assert_eq!(u.len(), 1, "{u:?}");
    let pos = loc(&src, "A[by * 3 + i]", "A[by * 3 + i]");
    assert_eq!(u[0].kind, "out-of-bounds-index", "{u:?}");
    assert!(u[0].message.contains("index 8 is out of bounds"), "{u:?}");
    assert_eq!((u[0].line, u[0].col), pos, "{u:?}");
    // line 12: the second launch's body (its `with` is line 10)
    assert_eq!(u[0].line, 12);
    assert_eq!(u[0].program, [2, 0, 0]);
}

#[test]
fn the_launch_that_hits_ub_is_the_last_to_run() {
    // launch 1 divides by A[0] = 0 in block 0; launch 2 would set C[0] = 5
    let src = module(
        r#"@T.prim_func
def main(A: T.Tensor((2,), "int32"), C: T.Tensor((2,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        C[1] = A[1] // A[0]
    with T.Kernel(1, threads=1) as bx:
        C[0] = 5
"#,
    );
    let l = args(json!({"A": buf("int32", json!([0, 7])), "C": zeros("int32", 2)}));
    let r = run(&src, &l).expect("runs");
    assert_eq!(r.ub.len(), 1, "{:?}", r.ub);
    assert_eq!(r.ub[0].kind, "division-by-zero");
    assert_eq!(r.ub[0].line, 8);
    // the second launch did not run: C[0] is still 0
    assert_eq!(i32_values(&bits(&r, "C"))[0], 0);
}

#[test]
fn launches_do_not_race_with_each_other_but_blocks_of_one_launch_do() {
    // block 0 of launch 1 writes B[0]; every block of launch 2 reads it:
    // launch 1 has ended, so no race
    let ok = module(
        r#"@T.prim_func
def main(B: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        B[0] = 3
    with T.Kernel(3, threads=1) as bx:
        B[bx + 1] = B[0] + bx
"#,
    );
    let l = args(json!({"B": zeros("int32", 4)}));
    let r = run_clean(&ok, &l);
    assert_eq!(i32_values(&bits(&r, "B")), vec![3, 3, 4, 5]);
    // in launch 2 every block writes B[0]: a race between its blocks
    let racy = module(
        r#"@T.prim_func
def main(B: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        B[1] = 3
    with T.Kernel(2, threads=1) as bx:
        B[0] = bx
"#,
    );
    let u = ub_of(&racy, &l);
    assert!(u.iter().all(|u| u.kind == "data-race"), "{u:?}");
    assert_eq!((u[0].line, u[0].element.as_slice()), (10, &[0usize][..]));
}

#[test]
fn names_bound_in_one_launch_are_not_seen_by_the_next() {
    // TVM's parser gives each `with` a frame of its own: `S` and `bx` of
    // launch 1 are unbound in launch 2
    let src = module(
        r#"@T.prim_func
def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
    with T.Kernel(1, threads=4) as bx:
        S = T.alloc_shared((4,), "float32")
        T.copy(A, S)
    with T.Kernel(1, threads=4) as by:
        T.copy(S, B)
"#,
    );
    let l = args(json!({"A": zeros("float32", 4), "B": zeros("float32", 4)}));
    let d = refused(&src, &l);
    assert_eq!(d.span.line, 11, "{d:?}");
    assert!(d.message.contains('S'), "{d:?}");
}

#[test]
fn a_kernel_inside_a_kernel_or_a_statement_is_refused() {
    let nested = module(
        r#"@T.prim_func
def main(A: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        with T.Kernel(2, threads=1) as by:
            A[by] = 1
"#,
    );
    let l = args(json!({"A": zeros("int32", 4)}));
    let d = refused(&nested, &l);
    assert_diag(
        &nested,
        &d,
        (8, 9),
        &["inside another one"],
        Some("one after the other"),
    );
    let in_loop = module(
        r#"@T.prim_func
def main(A: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        A[0] = 1
    for i in range(2):
        with T.Kernel(2, threads=1) as by:
            A[by] = i
"#,
    );
    let d = refused(&in_loop, &l);
    assert_diag(
        &in_loop,
        &d,
        (10, 9),
        &["inside a statement"],
        Some("one after the other"),
    );
}

#[test]
fn a_launch_spec_grid_must_agree_with_every_launch() {
    let src = module(ORDERED);
    let a = json!({
        "A": zeros("int32", 4),
        "B": zeros("int32", 4),
        "C": zeros("int32", 4),
    });
    // [4] is the first launch's grid but not the second's
    let text = json!({"grid": [4], "args": a}).to_string();
    let l = parse_launch(&text).expect("parses");
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        (9, 5),
        &["the launch's grid [4, 1, 1] disagrees with the kernel's [2, 1, 1]"],
        Some("leave \"grid\" out"),
    );
    // "block" likewise: threads=32 is the first launch's only
    let text = json!({"block": [32], "args": a}).to_string();
    let l = parse_launch(&text).expect("parses");
    let d = refused(&src, &l);
    assert_eq!(d.span.line, 9, "{d:?}");
}

#[test]
fn the_verifier_checks_every_launch() {
    let src = module(ORDERED);
    let l = args(json!({
        "A": zeros("int32", 4),
        "B": zeros("int32", 4),
        "C": zeros("int32", 4),
    }));
    let k = elaborate(&src, &l).expect("elaborates");
    let verify = ksem_interp::ir::verify::verify;
    assert!(verify(&k).is_ok());
    // a later launch whose variable table lacks the parameters' slots
    let mut bad = k.clone();
    bad.then[1].vars.truncate(1);
    let e = verify(&bad).expect_err("parameter slots missing");
    assert!(e.message.contains("not declared"), "{}", e.message);
    // a later launch of no blocks
    let mut bad = k.clone();
    bad.then[0].grid = [0, 1, 1];
    let e = verify(&bad).expect_err("an empty grid");
    assert!(e.message.contains("has no thread"), "{}", e.message);
    // a later launch whose body is ill-typed: launch 3's store of
    // `B[3 - i] - 100` into int32 C made to store a float32
    let mut bad = k;
    let ksem_interp::ir::Stmt::For { body, .. } = &mut bad.then[1].body[0] else {
        panic!("launch 3 starts with its loop: {:?}", bad.then[1].body[0]);
    };
    let ksem_interp::ir::Stmt::Store { value, .. } = &mut body[0] else {
        panic!("the loop stores: {:?}", body[0]);
    };
    value.ty = ksem_interp::ir::Type::scalar(ksem_interp::dtype::DType::F32);
    assert!(
        verify(&bad).is_err(),
        "a float stored through an int32 pointer"
    );
}
