//! The TileLang front end (seed 002): `@T.prim_func` kernels at module
//! level and kernel factories (`def matmul(M, N, …): … @T.prim_func def
//! main(…) … return main`, also under `@tilelang.jit`), elaborated into a
//! SIMT program of the IR in which each block is one sequential thread: a
//! TileLang kernel describes what a whole block computes, and a race-free
//! one computes the same when its parallel loops run one iteration after
//! the other. `T.Parallel` is such a loop; `T.copy`, `T.fill` and `T.clear`
//! become loops over their regions. Helpers and constants imported from
//! the project's other modules are read from their files (`imports.rs`);
//! the rest of the file (other imports, host code, `if __name__ ==
//! "__main__":`) is ignored.

mod consts;
mod elab;
mod imports;
mod scope;
pub mod types;

pub use consts::Const;
pub use elab::{BufRegion, Buffer, Elab, LoopKind, Part, Value};

use crate::ir::Kernel;
use crate::launch::{Launch, Target};
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast;
use std::collections::HashMap;

use super::py::modules::{self, Scanned};
use super::py::{pick, Source};

/// The name of the dialect in messages.
const DIALECT: &str = "TileLang";

/// A kernel the file defines.
#[derive(Clone)]
enum KernelDef {
    /// `@T.prim_func def name(…)` at module level.
    PrimFunc(ast::StmtFunctionDef),
    /// A function whose body defines a `@T.prim_func` and returns it.
    Factory(ast::StmtFunctionDef),
    /// `@tilelang.jit def f(A, B, block_M, …)` whose body is the kernel
    /// itself (TileLang's eager style).
    Eager(ast::StmtFunctionDef),
}

/// A TileLang source file as ksem sees it.
pub struct Module {
    src: Source,
    /// The names `tilelang.language` is imported as (`T`).
    lang: Vec<String>,
    /// The names the `tilelang` package is imported as (`tilelang`, `tl`).
    pub(crate) package: Vec<String>,
    kernels: Vec<(String, KernelDef)>,
    /// Module-level functions that are not kernels (helpers a kernel calls).
    helpers: HashMap<String, ast::StmtFunctionDef>,
    /// Module-level constants.
    globals: HashMap<String, Const>,
    /// What each imported name stands for, as a full dotted path
    /// (`driver` → `tilelang.carver.arch.driver` after `from
    /// tilelang.carver.arch import driver`).
    imports: HashMap<String, String>,
    /// The GPU the host code's device queries describe.
    target: Target,
    /// Modules of the project this one imports from (`imports.rs`).
    imported: Vec<Module>,
    /// Helper functions imported from them: the bound name → the module's
    /// index in `imported` and the function's name there.
    foreign: HashMap<String, (usize, String)>,
    /// Host helper calls under evaluation now (bounds their recursion).
    host_depth: std::cell::Cell<u32>,
    /// The first module-level statement Python raises on: the module
    /// cannot be imported, so none of its kernels runs.
    import_error: Option<Diagnostic>,
}

impl Scanned for Module {
    fn source_mut(&mut self) -> &mut Source {
        &mut self.src
    }
}

impl Module {
    /// Parses a TileLang file: its imports, module constants and kernels
    /// (what the programmatic elaborator, [`Elab::for_module`], works in).
    pub fn parse(file: &str, text: &str) -> DResult<Module> {
        Ok(Module::scan(Source::parse(file, text)?, Target::default()))
    }

    /// The value of module constant `name` (`N = 1024` at module level).
    pub fn constant(&self, name: &str) -> Option<&Const> {
        self.globals.get(name)
    }

    /// Scans a file whose host device queries describe `target`.
    fn scan(src: Source, target: Target) -> Module {
        Module::scan_in(src, target, &mut imports::Chain::default())
    }

    /// [`Module::scan`] of a module imported through `chain`.
    fn scan_in(src: Source, target: Target, chain: &mut imports::Chain) -> Module {
        let mut m = Module {
            src,
            lang: Vec::new(),
            package: vec!["tilelang".into()],
            kernels: Vec::new(),
            helpers: HashMap::new(),
            globals: HashMap::new(),
            imports: HashMap::new(),
            target,
            imported: Vec::new(),
            foreign: HashMap::new(),
            host_depth: Default::default(),
            import_error: None,
        };
        m.with_body(|m, body| m.scan_body(body, chain));
        if m.lang.is_empty() {
            m.lang.push("T".into());
        }
        m
    }

    /// Scans the file's top-level statements into the module.
    fn scan_body(&mut self, body: &[ast::Stmt], chain: &mut imports::Chain) {
        let m = self;
        for s in body {
            match s {
                ast::Stmt::Import(i) => {
                    for b in modules::bindings(s) {
                        m.imports.insert(b.name.clone(), b.path());
                    }
                    for a in &i.names {
                        if a.name.as_str() == "tilelang.language" {
                            let alias = a.asname.as_ref().map_or("tilelang.language", |n| n);
                            m.lang.push(alias.to_string());
                        }
                        if a.name.as_str() == "tilelang" {
                            if let Some(alias) = &a.asname {
                                m.package.push(alias.to_string());
                                m.lang.push(format!("{alias}.language"));
                            }
                        }
                    }
                }
                ast::Stmt::ImportFrom(f) => {
                    m.import_from(f, chain);
                    if f.level.is_none_or(|l| l.to_u32() == 0) && f.module.is_some() {
                        for b in modules::bindings(s) {
                            m.imports.insert(b.name.clone(), b.path());
                        }
                    }
                    if f.module.as_deref() != Some("tilelang") {
                        continue;
                    }
                    for a in &f.names {
                        if a.name.as_str() == "language" {
                            let alias = a.asname.as_ref().map_or("language", |n| n);
                            m.lang.push(alias.to_string());
                        }
                    }
                }
                // `N = 1024`, `M = N = K = 1024`, `A, B = 1, 2`
                ast::Stmt::Assign(a) => {
                    let v = match consts::eval(m, &m.globals, &a.value) {
                        Ok(v) => Some(v),
                        Err(d) => {
                            if consts::is_located(&d) && m.import_error.is_none() {
                                m.import_error = Some(d);
                            }
                            None
                        }
                    };
                    for t in &a.targets {
                        consts::bind(t, v.as_ref(), &mut m.globals);
                    }
                }
                ast::Stmt::FunctionDef(f) => {
                    let name = f.name.to_string();
                    if f.decorator_list.iter().any(|d| m.is_prim_func(d)) {
                        m.kernels.push((name, KernelDef::PrimFunc(f.clone())));
                    } else if m.inner_prim_func(&f.body).is_some() {
                        m.kernels.push((name, KernelDef::Factory(f.clone())));
                    } else if m.is_eager(f) {
                        m.kernels.push((name, KernelDef::Eager(f.clone())));
                    } else {
                        m.helpers.insert(name, f.clone());
                    }
                }
                _ => {}
            }
        }
    }

    /// Whether a decorator is `@T.prim_func` (also `@tilelang.language.prim_func`).
    fn is_prim_func(&self, d: &ast::Expr) -> bool {
        let target = match d {
            ast::Expr::Call(c) => &*c.func,
            other => other,
        };
        super::py::dotted(target).is_some_and(|p| {
            self.package.iter().any(|t| p == format!("{t}.prim_func"))
                || self.lang.iter().any(|l| p == format!("{l}.prim_func"))
        })
    }

    /// Whether `f` is an eager kernel: under `@tilelang.jit`, with a
    /// `with T.Kernel(…)` in its own body.
    fn is_eager(&self, f: &ast::StmtFunctionDef) -> bool {
        let jit = f.decorator_list.iter().any(|d| {
            let target = match d {
                ast::Expr::Call(c) => &*c.func,
                other => other,
            };
            super::py::dotted(target)
                .is_some_and(|p| p == "jit" || self.package.iter().any(|t| p == format!("{t}.jit")))
        });
        let kernel_with = f.body.iter().any(|s| match s {
            ast::Stmt::With(w) => w.items.iter().any(|i| match &i.context_expr {
                ast::Expr::Call(c) => super::py::dotted(&c.func)
                    .is_some_and(|p| self.lang.iter().any(|l| p == format!("{l}.Kernel"))),
                _ => false,
            }),
            _ => false,
        });
        jit && kernel_with
    }

    /// Whether `@autotune` tunes parameter `name` of `f`: its `configs`
    /// name it (as a key or keyword), in the decorator's own text or in the
    /// module functions it calls to build them (`configs=get_configs()`,
    /// `dict(block_M=[…], …)`). A parameter they do not name keeps its
    /// default, `None` included (`window_size=None`: full attention).
    fn autotunes(&self, f: &ast::StmtFunctionDef, name: &str) -> bool {
        let Some(call) = f.decorator_list.iter().find_map(|d| match d {
            ast::Expr::Call(c) if self.is_autotuned_decorator(&c.func) => Some(c),
            _ => None,
        }) else {
            return false;
        };
        let Some(configs) = call
            .keywords
            .iter()
            .find(|k| k.arg.as_deref() == Some("configs"))
            .map(|k| &k.value)
            .or(call.args.first())
        else {
            return true;
        };
        let text = |r: ast::text_size::TextRange| {
            self.src
                .src
                .get(usize::from(r.start())..usize::from(r.end()))
                .unwrap_or("")
        };
        let mut texts = vec![text(ast::Ranged::range(configs))];
        for (h, def) in &self.helpers {
            if mentions(texts[0], h) {
                texts.push(text(ast::Ranged::range(def)));
            }
        }
        texts.iter().any(|t| mentions(t, name))
    }

    /// Whether `d` (a decorator's callee) is TileLang's `autotune`.
    fn is_autotuned_decorator(&self, d: &ast::Expr) -> bool {
        super::py::dotted(d).is_some_and(|p| {
            p == "autotune"
                || p == "tilelang.autotuner.autotune"
                || self.package.iter().any(|t| p == format!("{t}.autotune"))
        })
    }

    /// The `@T.prim_func` function a factory body defines.
    fn inner_prim_func<'a>(&self, body: &'a [ast::Stmt]) -> Option<&'a ast::StmtFunctionDef> {
        body.iter().find_map(|s| match s {
            ast::Stmt::FunctionDef(f) if f.decorator_list.iter().any(|d| self.is_prim_func(d)) => {
                Some(f)
            }
            _ => None,
        })
    }

    fn span(&self, node: &impl ast::Ranged) -> Span {
        self.src.span(node)
    }
}

/// Elaborates the kernel of a TileLang file for `launch`: the one named by
/// `kernel` or the launch's `"kernel"`, else the file's only kernel.
pub fn elaborate(src: Source, launch: &Launch, kernel: Option<&str>) -> DResult<Kernel> {
    let m = Module::scan(src, launch.target);
    if let Some(d) = m.import_error.clone() {
        return Err(d);
    }
    let want = kernel.or(launch.kernel.as_deref());
    let names: Vec<&str> = m.kernels.iter().map(|(n, _)| n.as_str()).collect();
    let words = pick::Words {
        function: "@T.prim_func kernel or kernel factory",
        kernel: "@T.prim_func kernel or kernel factory",
    };
    let picked = pick::pick_kernel(want, &names, |_| true, words)?;
    let (name, def) = m
        .kernels
        .iter()
        .find(|(n, _)| *n == picked)
        .expect("picked from these");
    let (func, env) = match def {
        KernelDef::PrimFunc(f) => (f.clone(), m.globals.clone()),
        KernelDef::Factory(f) => consts::call_factory(&m, f, launch)?,
        KernelDef::Eager(f) => {
            return elab::Elab::new(&m, m.globals.clone()).eager(name, f, launch);
        }
    };
    elab::Elab::new(&m, env).kernel(name, &func, launch)
}

/// Whether `text` has `name` as a whole identifier.
fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}
