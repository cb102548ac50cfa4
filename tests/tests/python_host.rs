//! What the Python package (`python/`) relies on in the front ends: a file
//! whose kernels are decorated with ksem's stand-ins (`@ksem.triton.jit`,
//! `from ksem import cuda`) reads as Triton / CUDA Python when the host
//! names the dialect, and unsupported constructs are marked as such (the
//! package raises `ksem.UnsupportedSyntax` for them, `ksem.KsemError` else).

use ksem_interp::frontend::{elaborate_in, Dialect};
use ksem_interp::launch::{Launch, RunResult};
use ksem_interp::span::DiagKind;
use ksem_tests::serde_json::json;
use ksem_tests::*;

fn run_in(d: Dialect, src: &str, l: &Launch) -> RunResult {
    let k = elaborate_in(Some(d), "test.py", src, l, l.kernel.as_deref()).expect("elaborates");
    ksem_interp::eval::run(&k, l, &opts()).expect("runs")
}

const TRITON_ADD: &str = "
@DECORATOR
def add(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1.5)
";

fn add_launch() -> Launch {
    let mut l = launch(
        &[1],
        json!({"x_ptr": buf("float32", json!([1.0, -2.0])), "out_ptr": zeros("float32", 2), "BLOCK": cx(json!(2))}),
    );
    l.kernel = Some("add".into());
    l
}

#[test]
fn ksem_triton_stand_ins_read_as_triton() {
    // 1.0 + 1.5 = 2.5 and -2.0 + 1.5 = -0.5, both exact in float32
    let want = f32_bits(&[2.5, -0.5]);
    for (imports, decorator) in [
        ("import ksem.triton\nimport ksem.triton.language as tl", "ksem.triton.jit"),
        ("import ksem\nimport ksem.triton.language as tl", "ksem.triton.jit"),
        ("from ksem import triton as kt\nfrom ksem.triton import language as tl", "kt.jit"),
        ("from ksem.triton import jit\nimport ksem.triton.language as tl", "jit"),
        // the test-file idiom: Triton where installed, else ksem's stand-in
        ("import ksem.triton\ntry:\n    import triton.language as tl\nexcept ImportError:\n    import ksem.triton.language as tl", "ksem.triton.jit"),
    ] {
        let src = format!("{imports}\n{}", TRITON_ADD.replace("DECORATOR", decorator));
        let r = run_in(Dialect::Triton, &src, &add_launch());
        assert_eq!(bits(&r, "out_ptr"), want, "{imports}");
    }
}

#[test]
fn a_function_under_an_unknown_decorator_is_no_kernel() {
    let src = format!(
        "import numpy\n{}",
        TRITON_ADD.replace("DECORATOR", "numpy.vectorize")
    );
    let l = add_launch();
    let d = elaborate_in(Some(Dialect::Triton), "test.py", &src, &l, Some("add")).unwrap_err();
    assert!(d.message.contains("add"), "{}", d.message);
}

#[test]
fn ksem_cuda_stand_in_reads_as_numba_cuda() {
    // x[i] * 2 + 1 on int32: 3 * 2 + 1 = 7, -4 * 2 + 1 = -7
    for (imports, decorator) in [
        ("from ksem import cuda", "cuda.jit"),
        ("import ksem.cuda", "ksem.cuda.jit"),
        ("import ksem", "ksem.cuda.jit"),
    ] {
        let cu = if decorator.starts_with("ksem") {
            "ksem.cuda"
        } else {
            "cuda"
        };
        let src = format!(
            "{imports}\n\n@{decorator}\ndef k(x):\n    i = {cu}.grid(1)\n    if i < x.size:\n        x[i] = x[i] * 2 + 1\n"
        );
        let mut l = launch(&[1], json!({"x": buf("int32", json!([3, -4]))}));
        l.block = Some([4, 1, 1]);
        l.kernel = Some("k".into());
        let r = run_in(Dialect::CudaPy, &src, &l);
        assert_eq!(bits(&r, "x"), vec![7, (-7i32) as u32 as u64], "{imports}");
    }
}

#[test]
fn unsupported_constructs_are_marked() {
    let l = add_launch();
    let star = "import triton\nimport triton.language as tl\n@triton.jit\ndef add(x_ptr, *rest):\n    pass\n";
    let d = elaborate_in(None, "t.py", star, &l, Some("add")).unwrap_err();
    assert_eq!(d.kind, DiagKind::Unsupported, "{}", d.message);
    assert!(d.help.is_some());
    let undefined = "import triton\nimport triton.language as tl\n@triton.jit\ndef add(x_ptr, out_ptr, BLOCK: tl.constexpr):\n    tl.store(out_ptr, nope)\n";
    let d = elaborate_in(None, "t.py", undefined, &l, Some("add")).unwrap_err();
    assert_eq!(d.kind, DiagKind::Error, "{}", d.message);
}

#[test]
fn dialect_names_round_trip() {
    for d in [
        Dialect::Triton,
        Dialect::CudaPy,
        Dialect::TileLang,
        Dialect::Hidet,
    ] {
        assert_eq!(Dialect::from_name(d.name()), Some(d));
    }
    assert_eq!(Dialect::from_name("cuda"), None);
}
