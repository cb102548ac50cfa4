//! Hidet script (the seed `003`): a module scan that finds the
//! `@hidet.script` functions of `with hidet.script_module()` blocks, and
//! the elaborator of `elab` that turns a `cuda_kernel` (or a `cpu_kernel`,
//! one sequential thread) into a SIMT program of the IR.
//!
//! What a file may contain besides its script functions (imports, host code
//! that builds and calls the module, `if __name__ == "__main__":`) is
//! ignored. Module-level constants (`N = 16`) are host values the functions
//! may use, as in Python.

mod elab;
pub mod layout;
pub mod mapping;
pub mod ops;
pub mod types;

use super::py::consts::{self, HostNames};
use super::py::modules::{self, Scanned as _};
use super::py::scanned::ScannedFile;
use super::py::value::{NoExtra, PyValue};
use super::py::{dotted, pick, Source};
use crate::ir::Kernel;
use crate::launch::Launch;
use crate::span::{DResult, Span};
use rustpython_parser::ast;

/// A module-level value a script function can read: a Python value
/// ([`PyValue`]), with an imported module or a name from one as its full
/// dotted path (`hidet.lang.f32`, `hidet.lang.cuda.threadIdx`).
pub type Global = PyValue;

/// A `@hidet.script` function.
pub struct Func {
    pub def: ast::StmtFunctionDef,
    pub span: Span,
}

/// A Hidet script file as ksem sees it: the file, its script functions (in
/// source order) and its module-level names (`py::scanned`).
pub type Module = ScannedFile<Func, NoExtra>;

impl Module {
    /// Scans a parsed file: imports, constants and script functions (at
    /// module level, in `with hidet.script_module()` blocks, and in such
    /// blocks inside a module-level function).
    pub fn scan(src: Source) -> DResult<Module> {
        let mut m = ScannedFile::new(src);
        m.with_body(|m, body| m.scan_block(body, 0))?;
        Ok(m)
    }

    fn scan_block(&mut self, body: &[ast::Stmt], depth: usize) -> DResult<()> {
        for s in body {
            self.scan_stmt(s, depth)?;
        }
        Ok(())
    }

    fn scan_stmt(&mut self, s: &ast::Stmt, depth: usize) -> DResult<()> {
        match s {
            ast::Stmt::Import(_) | ast::Stmt::ImportFrom(_) => {
                for b in modules::bindings(s) {
                    self.globals.bind(&b.name, Some(PyValue::Path(b.path())));
                }
            }
            ast::Stmt::Assign(a) if depth == 0 => {
                // `m, n = 4, 2`: each name gets its value
                if let ([ast::Expr::Tuple(t)], ast::Expr::Tuple(v)) =
                    (a.targets.as_slice(), &*a.value)
                {
                    if t.elts.len() == v.elts.len() {
                        for (n, e) in t.elts.iter().zip(&v.elts) {
                            if let ast::Expr::Name(n) = n {
                                let v = self.const_value(e)?;
                                self.globals.bind(n.id.as_str(), v);
                            }
                        }
                    }
                }
                if let [ast::Expr::Name(n)] = a.targets.as_slice() {
                    let v = self.const_value(&a.value)?;
                    self.globals.bind(n.id.as_str(), v);
                }
            }
            // a class that builds a module in a method (a Hidet `Task`)
            ast::Stmt::ClassDef(c) => {
                for s in &c.body {
                    self.scan_stmt(s, depth + 1)?;
                }
            }
            ast::Stmt::With(w) => {
                let is_module = w.items.iter().any(|it| {
                    let callee = match &it.context_expr {
                        ast::Expr::Call(c) => dotted(&c.func),
                        _ => None,
                    };
                    callee.is_some_and(|c| c.ends_with("script_module"))
                });
                if is_module {
                    self.scan_block(&w.body, depth + 1)?;
                }
            }
            ast::Stmt::FunctionDef(f) => {
                if self.is_script(f) {
                    self.add_func(f);
                } else {
                    // a builder or test function: `def build(): with
                    // hidet.script_module() …`, or script functions defined in it
                    for s in &f.body {
                        self.scan_stmt(s, depth + 1)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Registers a script function under its name; a later one of the same
    /// name (another test function's `kernel`) is reachable as `NAME@LINE`.
    fn add_func(&mut self, f: &ast::StmtFunctionDef) {
        let span = self.src.span(f);
        let mut name = f.name.to_string();
        if self.funcs.contains_key(&name) {
            name = format!("{name}@{}", span.line);
        }
        self.add(
            name,
            Func {
                def: f.clone(),
                span,
            },
        );
    }

    /// Whether `f` is decorated with `@hidet.script` (or `@script` imported
    /// from hidet).
    fn is_script(&self, f: &ast::StmtFunctionDef) -> bool {
        f.decorator_list.iter().any(|d| {
            let Some(name) = dotted(d) else { return false };
            let full = self.resolve(&name);
            full == "hidet.script" || full.ends_with("lang.script") || full == "hidet.lang.script"
        })
    }

    /// The full dotted path a dotted name of the module stands for.
    pub fn resolve(&self, name: &str) -> String {
        self.globals.resolve(name)
    }

    /// A module-level constant: what Python computes at import
    /// (`py::consts`). `Err`: Python raises on it.
    fn const_value(&self, e: &ast::Expr) -> DResult<Option<Global>> {
        consts::at_import(e, self, self.src.span(e))
    }
}

impl HostNames for Module {
    fn value(&self, name: &str) -> Option<Global> {
        self.globals.get(name).cloned()
    }
    fn callee(&self, dotted: &str) -> String {
        self.resolve(dotted)
    }
}

/// Elaborates the kernel of a Hidet script file for `launch`: the one named
/// by `kernel` (or the launch's `"kernel"`), else the only `cuda_kernel` or
/// `cpu_kernel` of the file.
pub fn elaborate(src: Source, launch: &Launch, kernel: Option<&str>) -> DResult<Kernel> {
    let m = Module::scan(src)?;
    let want = kernel.or(launch.kernel.as_deref());
    let defined: Vec<&str> = m.order.iter().map(|s| s.as_str()).collect();
    let words = pick::Words {
        function: "@hidet.script function",
        kernel: "Hidet kernel (a @hidet.script function with attrs.func_kind = 'cuda_kernel' or 'cpu_kernel')",
    };
    let is_kernel = |n: &str| elab::is_kernel(&m, &m.funcs[n]);
    let name = pick::pick_kernel(want, &defined, is_kernel, words)?;
    elab::Elab::new(&m).kernel(&name, launch)
}
