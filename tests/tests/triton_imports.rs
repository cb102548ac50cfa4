//! Triton helpers imported from the kernel's other modules (issue 12: 11 of
//! the 73 real-world kernels called helpers of FlagGems' `tle`, unsloth's
//! `utils` or Inductor's `triton_helpers`), and host constants a module
//! computes with torch. Each case writes a small project to a temporary
//! directory and runs the kernel file from there; expected values by hand.

use ksem_tests::serde_json::json;
use ksem_tests::*;

fn run_file(
    path: &std::path::Path,
    l: &ksem_interp::launch::Launch,
) -> Result<ksem_interp::launch::RunResult, ksem_interp::Error> {
    let src = std::fs::read_to_string(path).unwrap();
    ksem_interp::run_source(&path.display().to_string(), &src, l, None, &opts())
}

fn out_i64(r: &ksem_interp::launch::RunResult) -> Vec<i64> {
    bits(r, "o_ptr").iter().map(|&b| b as i64).collect()
}

/// `from .ext import program_id` (relative), `from proj.utils import ext as
/// tle` (absolute, found from a directory above the kernel file) and
/// `import proj.utils.ext as e2`: the helpers run with their own module's
/// names (`ext`'s `OFFSET` constant and its private `_widen` helper).
#[test]
fn helpers_of_other_modules_of_the_project() {
    let d = TempDir::new("imports");
    std::fs::create_dir_all(d.path.join("proj/utils")).unwrap();
    std::fs::create_dir_all(d.path.join("proj/ops")).unwrap();
    d.write("proj/__init__.py", "");
    d.write("proj/utils/__init__.py", "");
    d.write(
        "proj/utils/ext.py",
        "import triton\nimport triton.language as tl\n\nOFFSET = 100\n\n\n@triton.jit\ndef _widen(x):\n    return x.to(tl.int64)\n\n\n@triton.jit\ndef program_id(axis: int):\n    return _widen(tl.program_id(axis)) + OFFSET\n",
    );
    d.write("proj/ops/__init__.py", "");
    d.write(
        "proj/ops/ext.py",
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef program_id(axis: int):\n    return tl.program_id(axis) * 1000\n",
    );
    let k = d.write(
        "proj/ops/kern.py",
        "import triton\nimport triton.language as tl\nfrom .ext import program_id\nfrom proj.utils import ext as tle\nimport proj.utils.ext as e2\n\n\n@triton.jit\ndef kern(o_ptr):\n    pid = tl.program_id(0)\n    tl.store(o_ptr + pid * 3, program_id(0))\n    tl.store(o_ptr + pid * 3 + 1, tle.program_id(0))\n    tl.store(o_ptr + pid * 3 + 2, e2.OFFSET + e2.program_id(0))\n",
    );
    let l = launch(&[2], json!({"o_ptr": zeros("int64", 6)}));
    let r = run_file(&k, &l).expect("runs");
    // relative: the sibling proj/ops/ext.py (pid * 1000); absolute: proj/utils/ext.py (pid + 100)
    assert_eq!(out_i64(&r), vec![0, 100, 200, 1000, 101, 201]);
}

/// An error inside an imported helper is reported at the kernel file's call
/// of it, naming the helper and its file.
#[test]
fn an_error_inside_an_imported_helper_points_at_the_call() {
    let d = TempDir::new("imports-err");
    d.write(
        "helpers.py",
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef bad(x):\n    return x + undefined_name\n",
    );
    let src = "import triton\nimport triton.language as tl\nfrom helpers import bad\n\n\n@triton.jit\ndef kern(o_ptr):\n    tl.store(o_ptr, bad(1))\n";
    let k = d.write("kern.py", src);
    let l = launch(&[1], json!({"o_ptr": zeros("int32", 1)}));
    let e = run_file(&k, &l).expect_err("refused");
    let ksem_interp::Error::Source { diag, .. } = e else {
        panic!("a source error, got {e:?}")
    };
    assert!(diag.message.contains("undefined_name"), "{}", diag.message);
    assert_eq!(
        (diag.span.line, diag.span.col),
        loc(src, "bad(1)", "bad(1)")
    );
    let help = diag.help.unwrap_or_default();
    assert!(
        help.contains("in `bad` of") && help.contains("helpers.py"),
        "{help}"
    );
}

/// A module-level `if`/`try` binds its first branch's constants (unsloth:
/// `if Version(triton.__version__) >= Version("3.0.0"): triton_cast = tl.cast`),
/// and `torch.finfo`/`torch.iinfo` limits are host constants (FlagGems'
/// `_MIN_FLOAT32_VAL = tl.constexpr(torch.finfo(torch.float32).min)`).
#[test]
fn guarded_constants_and_torch_limits() {
    let src = "import torch\nimport triton\nimport triton.language as tl\n\nif triton.__version__ >= \"3.0.0\":\n    triton_cast = tl.cast\nelse:\n    triton_cast = None\nLO = tl.constexpr(torch.finfo(torch.float32).min)\nHI = torch.finfo(torch.float16).max\nEPS = torch.finfo(torch.bfloat16).eps\nIMIN = torch.iinfo(torch.int8).min\n\n\n@triton.jit\ndef kern(o_ptr, f_ptr):\n    tl.store(o_ptr, triton_cast(2.75, tl.int32))\n    tl.store(f_ptr, LO)\n    tl.store(f_ptr + 1, HI)\n    tl.store(f_ptr + 2, EPS)\n    tl.store(f_ptr + 3, IMIN)\n";
    let l = launch(
        &[1],
        json!({"o_ptr": zeros("int32", 1), "f_ptr": zeros("float32", 4)}),
    );
    let r = run_clean(src, &l);
    assert_eq!(bits(&r, "o_ptr"), vec![2]);
    // float32 min = -(2 - 2^-23) * 2^127; float16 max 65504; bfloat16 eps 2^-7
    let lo = -(2.0f64 - 2f64.powi(-23)) * 2f64.powi(127);
    assert_eq!(
        bits(&r, "f_ptr"),
        f32_bits(&[lo as f32, 65504.0, 2f32.powi(-7), -128.0])
    );
}

/// Inductor's helpers bind `triton` and `tl` through a compatibility module
/// (`from .triton_compat import triton, tl`): the helpers' `@triton.jit` and
/// their `tl.constexpr(…)` constants are seen once that import resolves,
/// and a package under `torch._inductor.runtime` (a host library, normally
/// left alone) is read for them, here from a directory above the kernel.
#[test]
fn helpers_whose_triton_comes_through_a_compat_module() {
    let d = TempDir::new("imports-compat");
    let rt = "torch/_inductor/runtime";
    std::fs::create_dir_all(d.path.join(rt)).unwrap();
    for pkg in ["torch", "torch/_inductor", rt] {
        d.write(&format!("{pkg}/__init__.py"), "");
    }
    d.write(
        &format!("{rt}/triton_compat.py"),
        "try:\n    import triton\nexcept ImportError:\n    triton = None\n\nif triton is not None:\n    import triton.language as tl\n",
    );
    d.write(
        &format!("{rt}/triton_helpers.py"),
        "import math as pymath\nfrom .triton_compat import triton, tl\n\n_SHIFT: tl.constexpr = tl.constexpr(1000)\n\n\n@triton.jit\ndef maximum(a, b):\n    return tl.maximum(a, b) + _SHIFT\n",
    );
    std::fs::create_dir_all(d.path.join("gen")).unwrap();
    let k = d.write(
        "gen/kern.py",
        "import triton\nimport triton.language as tl\nfrom torch._inductor.runtime import triton_helpers\n\n\n@triton.jit\ndef kern(o_ptr):\n    x = tl.arange(0, 4)\n    tl.store(o_ptr + x, triton_helpers.maximum(x, 2 - x))\n",
    );
    let l = launch(&[1], json!({"o_ptr": zeros("int32", 4)}));
    let r = run_file(&k, &l).expect("runs");
    // max(x, 2 - x) for x = 0..3 is 2, 1, 2, 3; plus the helper's 1000
    assert_eq!(bits(&r, "o_ptr"), vec![1002, 1001, 1002, 1003]);
}

/// Imports the kernel never uses are not followed: a package whose every
/// module imports six others (eight levels deep that is 6^8 module reads
/// when each import is followed) costs one read for the one helper used.
#[test]
fn unused_imports_of_a_wide_package_are_not_read() {
    let d = TempDir::new("imports-wide");
    std::fs::create_dir_all(d.path.join("wide")).unwrap();
    d.write("wide/__init__.py", "");
    for i in 0..12 {
        let others: Vec<String> = (1..=6).map(|j| format!("m{}", (i + j) % 12)).collect();
        d.write(
            &format!("wide/m{i}.py"),
            format!(
                "import triton\nimport triton.language as tl\nfrom . import {}\n\n\n@triton.jit\ndef f{i}(x):\n    return x + {i}\n",
                others.join(", ")
            ),
        );
    }
    let k = d.write(
        "kern.py",
        "import triton\nimport triton.language as tl\nfrom wide.m3 import f3\n\n\n@triton.jit\ndef kern(o_ptr):\n    tl.store(o_ptr, f3(10))\n",
    );
    let l = launch(&[1], json!({"o_ptr": zeros("int32", 1)}));
    let r = run_file(&k, &l).expect("runs");
    assert_eq!(bits(&r, "o_ptr"), vec![13]);
    // the module tree the resolution built: the kernel file imports m3 alone
    let src = std::fs::read_to_string(&k).unwrap();
    let mut m =
        ksem_interp::frontend::triton::module::Module::parse(&k.display().to_string(), &src)
            .expect("parses");
    m.resolve_imports();
    fn modules_read(m: &ksem_interp::frontend::triton::module::Module) -> usize {
        m.imports.iter().map(|i| 1 + modules_read(i)).sum()
    }
    assert_eq!(modules_read(&m), 1);
}
