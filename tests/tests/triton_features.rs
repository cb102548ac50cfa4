//! Triton front-end features real kernels need (issue 12): runtime values
//! passed to `tl.constexpr` helper parameters, Python `min`/`max`, dtype
//! introspection, string constexprs, the `f = triton.jit(f)` call form.
//! Every expected value is derived by hand in the test (bit patterns written
//! out), never copied from ksem's output.

use ksem_tests::serde_json::json;
use ksem_tests::*;

/// The source of a module: the imports, then `body` (module-level code, not indented).
fn module(body: &str) -> String {
    format!("{PRELUDE}{body}")
}

/// The int32 values of buffer `name` of a clean run.
fn i32s(src: &str, l: &ksem_interp::launch::Launch, name: &str) -> Vec<i32> {
    bits(&run_clean(src, l), name)
        .iter()
        .map(|&b| b as u32 as i32)
        .collect()
}

// ----- bug 3: a tensor passed to a tl.constexpr parameter of a helper --------

/// The fused-attention tutorial's pattern: `offs_m: tl.constexpr` of a helper
/// receives a `tl.arange` tile; the helper sees an ordinary runtime value.
#[test]
fn tensor_passed_to_a_constexpr_helper_parameter_is_a_runtime_value() {
    let src = module(
        "@triton.jit
def helper(x, offs: tl.constexpr, SCALE: tl.constexpr):
    return x + offs * SCALE


@triton.jit
def kern(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, helper(x, offs, 2))
",
    );
    let l = launch(
        &[1],
        json!({"x_ptr": buf("int32", json!([10, 20, 30, 40])),
               "out_ptr": zeros("int32", 4), "BLOCK": cx(json!(4))}),
    );
    // x + offs * 2 = [10 + 0, 20 + 2, 30 + 4, 40 + 6]
    assert_eq!(i32s(&src, &l, "out_ptr"), vec![10, 22, 34, 46]);
}

/// A runtime scalar (`tl.program_id`) passed to a constexpr parameter too.
#[test]
fn runtime_scalar_passed_to_a_constexpr_helper_parameter() {
    let src = module(
        "@triton.jit
def at(base, PID: tl.constexpr):
    return base + PID


@triton.jit
def kern(out_ptr):
    pid = tl.program_id(0)
    tl.store(at(out_ptr, pid), pid * 10)
",
    );
    let l = launch(&[3], json!({"out_ptr": zeros("int32", 3)}));
    assert_eq!(i32s(&src, &l, "out_ptr"), vec![0, 10, 20]);
}

/// Where the helper needs a compile-time value, the runtime one is refused
/// there (Triton refuses it too: tl.arange's bounds must be constexprs).
#[test]
fn runtime_value_in_a_constexpr_parameter_used_as_a_size_is_refused() {
    let src = module(
        "@triton.jit
def helper(N: tl.constexpr):
    return tl.arange(0, N)


@triton.jit
def kern(out_ptr, n):
    tl.store(out_ptr + helper(n), 1)
",
    );
    let l = launch(
        &[1],
        json!({"out_ptr": zeros("int32", 4), "n": scalar("int32", json!(4))}),
    );
    let d = refused(&src, &l);
    assert_diag(
        &src,
        &d,
        loc1(&src, "tl.arange(0, N)"),
        &["arange end must be a compile-time integer"],
        None,
    );
}
