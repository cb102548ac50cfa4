//! Where Python finds a module of the kernel's project: the lookup the
//! Triton and TileLang front ends share for helpers imported from the
//! project's other files (`from .utils import helper`, `from sibling import
//! CONSTANT`).

use super::Source;
use rustpython_parser::ast;
use std::path::{Path, PathBuf};

/// Top-level packages that never hold a project's kernel helpers (the
/// languages themselves, the standard library, the usual host libraries).
pub const NOT_PROJECT: &[&str] = &[
    "torch",
    "numpy",
    "triton",
    "tilelang",
    "tvm",
    "math",
    "os",
    "sys",
    "typing",
    "functools",
    "itertools",
    "collections",
    "dataclasses",
    "enum",
    "logging",
    "warnings",
    "abc",
    "re",
    "json",
    "pytest",
    "argparse",
    "time",
    "contextlib",
    "importlib",
    "inspect",
    "packaging",
    "einops",
    "__future__",
];

/// Whether an import of `module` with `level` leading dots may name a
/// module of the project.
pub fn may_be_project(module: &str, level: usize) -> bool {
    let top = module.split('.').next().unwrap_or("");
    level > 0 || !NOT_PROJECT.contains(&top) || is_device_helper_package(module)
}

/// Packages of the host libraries that do hold `@triton.jit` device helpers
/// kernels import: torch-Inductor's generated kernels call
/// `triton_helpers.maximum`, `tl_math.exp`, … from
/// `torch._inductor.runtime` (found on `$KSEM_PYTHONPATH`, e.g. torch's
/// site-packages).
fn is_device_helper_package(module: &str) -> bool {
    module == "torch._inductor.runtime" || module.starts_with("torch._inductor.runtime.")
}

/// The directories an import of `level` dots from a file in `dir` is looked
/// up in: the package `level - 1` directories up for a relative import; for
/// an absolute one `dir` and each directory above it (the project's source
/// roots), then the directories of `$KSEM_PYTHONPATH` (`:`-separated).
pub fn roots(dir: &Path, level: usize) -> Vec<PathBuf> {
    if level > 0 {
        let mut d = dir.to_path_buf();
        for _ in 1..level {
            d = d.parent().map(Path::to_path_buf).unwrap_or(d);
        }
        return vec![d];
    }
    let mut out: Vec<PathBuf> = dir.ancestors().map(Path::to_path_buf).collect();
    if let Ok(extra) = std::env::var("KSEM_PYTHONPATH") {
        out.extend(
            extra
                .split(':')
                .filter(|s| !s.is_empty())
                .map(PathBuf::from),
        );
    }
    out
}

/// The file of dotted module `module` (`a/b.py` or `a/b/__init__.py`) under
/// the first root that has it.
pub fn find(roots: &[PathBuf], module: &str) -> Option<PathBuf> {
    if module.is_empty() {
        return None;
    }
    let rel: PathBuf = module.split('.').collect();
    roots.iter().find_map(|r| {
        let base = r.join(&rel);
        let file = base.with_extension("py");
        let init = base.join("__init__.py");
        [file, init].into_iter().find(|p| p.is_file())
    })
}

/// A name an `import` statement binds, as CPython binds it: `import a.b`
/// binds `a` to module `a`; `import a.b as c` binds `c` to module `a.b`;
/// `from m import x as y` binds `y` to attribute `x` of module `m`.
pub struct Bound {
    /// The name bound in the importing module.
    pub name: String,
    /// The module the statement names (with a `from` import's dots left off).
    pub module: String,
    /// For `from m import x`: `x`.
    pub attr: Option<String>,
}

impl Bound {
    /// The dotted path the name stands for (`m.x`, `a.b`).
    pub fn path(&self) -> String {
        match &self.attr {
            Some(a) => format!("{}.{a}", self.module),
            None => self.module.clone(),
        }
    }
}

/// The names an `import` or `from … import` statement binds (none for
/// another statement).
pub fn bindings(s: &ast::Stmt) -> Vec<Bound> {
    match s {
        ast::Stmt::Import(i) => i
            .names
            .iter()
            .map(|a| match &a.asname {
                Some(n) => Bound {
                    name: n.to_string(),
                    module: a.name.to_string(),
                    attr: None,
                },
                None => {
                    let top = a.name.split('.').next().unwrap_or_default();
                    Bound {
                        name: top.to_string(),
                        module: top.to_string(),
                        attr: None,
                    }
                }
            })
            .collect(),
        ast::Stmt::ImportFrom(f) => {
            let module = f.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
            f.names
                .iter()
                .map(|a| Bound {
                    name: a.asname.as_ref().unwrap_or(&a.name).to_string(),
                    module: module.clone(),
                    attr: Some(a.name.to_string()),
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// A module a front end scans from its file.
pub trait Scanned {
    /// The parsed file the module holds.
    fn source_mut(&mut self) -> &mut Source;

    /// Runs `scan` over the file's top-level statements, which are lent out
    /// of the module while `scan` fills the module in, and put back after.
    fn with_body<R>(&mut self, scan: impl FnOnce(&mut Self, &[ast::Stmt]) -> R) -> R
    where
        Self: Sized,
    {
        let body = std::mem::take(&mut self.source_mut().body);
        let r = scan(self, &body);
        self.source_mut().body = body;
        r
    }
}
