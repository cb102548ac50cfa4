//! TileLang kernels that import helpers and constants from their project's
//! other modules (`from block_causal_attention import LOG2_E,
//! _fwd_tile_allowed`, as TileLang's own block-causal example does):
//! ksem reads the module where Python would find it, copies its constants
//! and inlines its helpers against the helper's own module. Expected values
//! are reasoned by hand in each test.

use ksem_interp::launch::{parse_launch, Launch, RunResult};
use ksem_tests::*;
use serde_json::json;

fn launch(n: usize) -> Launch {
    parse_launch(
        &json!({"args": {"A": buf("int32", json!((0..n as i64).collect::<Vec<_>>())), "B": zeros("int32", n)}})
            .to_string(),
    )
    .expect("launch")
}

fn run_file(path: &std::path::Path, l: &Launch) -> Result<RunResult, ksem_interp::Error> {
    let src = std::fs::read_to_string(path).unwrap();
    no_panic("running", || {
        ksem_interp::run_source(&path.display().to_string(), &src, l, None, &opts())
    })
}

fn i32s(r: &RunResult, name: &str) -> Vec<i32> {
    bits(r, name).iter().map(|&b| b as u32 as i32).collect()
}

/// The kernel of the tests: B[i] = scale(A[i]) + OFFSET, for 4 elements.
const KERNEL: &str = "import tilelang\nimport tilelang.language as T\n\nfrom helpers import OFFSET, scale\n\n@T.prim_func\ndef main(A: T.Tensor((4,), \"int32\"), B: T.Tensor((4,), \"int32\")):\n    with T.Kernel(1, threads=1) as bx:\n        for i in T.serial(4):\n            B[i] = scale(A[i]) + OFFSET\n";

/// A constant and a helper from a sibling module; the helper uses its own
/// module's constant `FACTOR` and helper `twice`, which the kernel's file
/// does not have (its own `FACTOR` is different and must not be seen).
/// scale(x) = twice(x) * FACTOR = 2x · 3; B = 6·A + 10 = [10, 16, 22, 28].
#[test]
fn a_helper_and_a_constant_from_a_sibling_module() {
    let d = TempDir::new("tl-imports");
    d.write(
        "helpers.py",
        "import tilelang.language as T\n\nOFFSET = 10\nFACTOR = 3\n\ndef twice(x):\n    return x * 2\n\ndef scale(x):\n    return twice(x) * FACTOR\n",
    );
    let k = d.write(
        "kernel.py",
        KERNEL.replace(
            "from helpers import OFFSET, scale\n",
            "from helpers import OFFSET, scale\n\nFACTOR = 100\n",
        ),
    );
    let r = run_file(&k, &launch(4)).unwrap_or_else(|e| panic!("{}", e.render()));
    assert!(r.ub.is_empty());
    assert_eq!(i32s(&r, "B"), [10, 16, 22, 28]);
}

/// A relative import from the kernel's package, of a helper the helpers
/// module itself imported from a third module, bound under another name:
/// `from .lib import scale` where lib.py has `from .core import triple as
/// scale`; core.triple(x) = 3x, OFFSET comes from lib: B = 3·A + 7.
#[test]
fn a_relative_import_of_a_reexported_helper() {
    let d = TempDir::new("tl-imports-rel");
    std::fs::create_dir_all(d.path.join("pkg")).unwrap();
    d.write("pkg/__init__.py", "");
    d.write("pkg/core.py", "def triple(x):\n    return x * 3\n");
    d.write(
        "pkg/lib.py",
        "from .core import triple as scale\n\nOFFSET = 7\n",
    );
    let k = d.write(
        "pkg/kernel.py",
        KERNEL.replace(
            "from helpers import OFFSET, scale",
            "from .lib import OFFSET, scale",
        ),
    );
    let r = run_file(&k, &launch(4)).unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(i32s(&r, "B"), [7, 10, 13, 16]);
}

/// An error inside an imported helper is reported at the kernel file's
/// call, naming the helper and its file (its own lines are in another
/// file); a module no file of the project holds binds nothing, and the
/// kernel is told where the name came from.
#[test]
fn errors_in_imported_helpers_and_missing_modules() {
    let d = TempDir::new("tl-imports-err");
    d.write(
        "helpers.py",
        "OFFSET = 1\n\ndef scale(x):\n    return x / 2\n",
    );
    let k = d.write("kernel.py", KERNEL);
    let src = std::fs::read_to_string(&k).unwrap();
    let e = run_file(&k, &launch(4)).expect_err("integer `/` is refused");
    let ksem_interp::Error::Source { diag, .. } = &e else {
        panic!("{}", e.render())
    };
    assert_eq!(
        (diag.span.line, diag.span.col),
        loc(&src, "B[i] = scale", "scale"),
        "{diag:?}"
    );
    let help = diag.help.clone().unwrap_or_default();
    assert!(
        help.contains("in `scale` of") && help.contains("helpers.py"),
        "{diag:?}"
    );

    let gone = TempDir::new("tl-imports-missing");
    let k = gone.write("kernel.py", KERNEL);
    let e = run_file(&k, &launch(4)).expect_err("no helpers module");
    assert!(
        e.render()
            .contains("`scale` is imported from `helpers`, a module ksem cannot find"),
        "{}",
        e.render()
    );
}
