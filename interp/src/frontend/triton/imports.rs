//! `@triton.jit` helpers imported from the kernel's other modules:
//! `from .utils import triton_cast`, `from flag_gems.utils import
//! triton_lang_extension as tle`, `import pkg.helpers as h`. Real projects
//! keep their device helpers in a module of their own; Python finds it on
//! its path, and ksem looks where Python would for a file of the project:
//! relative imports from the kernel file's package, absolute ones from each
//! directory above the kernel file (the project's source roots) and from the
//! directories of `$KSEM_PYTHONPATH` (`:`-separated). A module found there
//! is read as a Triton module of its own (its helpers see its own globals);
//! one that is not found, or does not parse, binds nothing (a kernel that
//! uses the name then gets "not defined", with the import named).

use super::module::Module;
use super::value::Value;
use crate::frontend::py::{modules, Source};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Modules imported through other imported modules, at most this deep.
const MAX_DEPTH: usize = 8;

/// An import the module scan could not bind to a known Triton name.
#[derive(Clone, Debug)]
pub struct Pending {
    /// The name the import binds in the importing module.
    pub bind: String,
    /// The dotted module path after the leading dots (may be empty).
    pub module: String,
    /// The number of leading dots (0: absolute).
    pub level: usize,
    /// For `from M import NAME`: NAME (a submodule of M or a member of it).
    pub attr: Option<String>,
}

impl Pending {
    /// Whether the import may name a module of the project.
    pub fn worth_resolving(&self) -> bool {
        modules::may_be_project(&self.module, self.level)
    }
}

/// Resolves `m`'s pending imports from files on disk (where `m.file` is one),
/// recursively; `seen` holds the files already on the import chain.
pub fn resolve(m: &mut Module, seen: &mut HashSet<PathBuf>, depth: usize) {
    // as Python does for a script, through symbolic links to the real file
    let Ok(file) = PathBuf::from(&m.file).canonicalize() else {
        return;
    };
    if depth > MAX_DEPTH || !file.is_file() {
        return;
    }
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let dir = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    };
    let pending = std::mem::take(&mut m.pending);
    for p in pending {
        if m.globals.contains_key(&p.bind) || m.funcs.contains_key(&p.bind) {
            continue;
        }
        let roots = modules::roots(&dir, p.level);
        // `from M import NAME` where M.NAME is a module of its own
        if let Some(a) = &p.attr {
            let sub = join(&p.module, a);
            if let Some(path) = modules::find(&roots, &sub) {
                if let Some(i) = load(m, &path, seen, depth) {
                    m.globals.insert(
                        p.bind,
                        Value::Foreign {
                            module: i,
                            name: None,
                        },
                    );
                }
                continue;
            }
        }
        let Some(path) = modules::find(&roots, &p.module) else {
            continue;
        };
        let Some(i) = load(m, &path, seen, depth) else {
            continue;
        };
        let v = match &p.attr {
            None => Value::Foreign {
                module: i,
                name: None,
            },
            Some(a) => match member(&m.imports[i], i, a) {
                Some(v) => v,
                None => continue,
            },
        };
        m.globals.insert(p.bind, v);
    }
}

/// What `name` of imported module `imported` (at index `i` of the importer's
/// imports) is to the importer: a jit function, or a global that does not
/// refer to the imported module's own imports.
pub fn member(imported: &Module, i: usize, name: &str) -> Option<Value> {
    if imported.funcs.contains_key(name) {
        return Some(Value::Foreign {
            module: i,
            name: Some(name.to_string()),
        });
    }
    match imported.globals.get(name)? {
        Value::Foreign { .. } | Value::Func(_) => None,
        v => Some(v.clone()),
    }
}

/// `a.b` joined with `c` (either may be empty).
fn join(module: &str, attr: &str) -> String {
    if module.is_empty() {
        attr.to_string()
    } else {
        format!("{module}.{attr}")
    }
}

/// Reads, scans and resolves the module at `path` into `m.imports`; its index.
fn load(m: &mut Module, path: &Path, seen: &mut HashSet<PathBuf>, depth: usize) -> Option<usize> {
    let key = path.canonicalize().ok()?;
    if seen.contains(&key) {
        return None;
    }
    let src = std::fs::read_to_string(path).ok()?;
    let source = Source::parse(&path.display().to_string(), &src).ok()?;
    let mut sub = Module::from_source(source);
    seen.insert(key.clone());
    resolve(&mut sub, seen, depth + 1);
    seen.remove(&key);
    m.imports.push(sub);
    Some(m.imports.len() - 1)
}
