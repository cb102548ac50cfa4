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
use std::collections::{HashMap, HashSet};
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

/// Modules one kernel file's resolution may read in all: a backstop for
/// import graphs that fan out (a host library's package), where each module
/// is read once per import chain that reaches it.
const MAX_MODULES: usize = 64;

/// The state of one kernel file's import resolution.
pub struct Resolution {
    /// The files on the import chain being resolved (a cycle binds nothing).
    seen: HashSet<PathBuf>,
    /// How many more modules may be read.
    budget: usize,
}

impl Default for Resolution {
    fn default() -> Self {
        Resolution {
            seen: HashSet::new(),
            budget: MAX_MODULES,
        }
    }
}

/// Resolves the pending imports of a kernel file's module `m` from files on
/// disk (where `m.file` is one), recursively. Only imports whose bound name
/// appears in the file are followed.
pub fn resolve(m: &mut Module, r: &mut Resolution) {
    let demand = identifiers(&m.src);
    let bound = resolve_demanded(m, r, 0, &demand);
    if let Some(again) = rescanned(m, &bound, r, 0, &demand) {
        *m = again;
    }
}

/// `m` scanned again with the Triton modules its imports (`bound`, the
/// names its resolution bound) turned out to re-export bound from the
/// start, and resolved again; `None` when its imports re-export none (the
/// first scan saw every `@triton.jit`).
fn rescanned(
    m: &Module,
    bound: &HashSet<String>,
    r: &mut Resolution,
    depth: usize,
    demand: &HashSet<String>,
) -> Option<Module> {
    let preset: HashMap<String, Value> = m
        .globals
        .iter()
        .filter(|(name, v)| matches!(v, Value::Module(_)) && bound.contains(name.as_str()))
        .map(|(name, v)| (name.clone(), v.clone()))
        .collect();
    if preset.is_empty() {
        return None;
    }
    let source = Source::parse(&m.file, &m.src).ok()?;
    let mut again = Module::from_source_with(source, preset);
    let mut demand = demand.clone();
    demand.extend(used_by_jit_functions(&again));
    resolve_demanded(&mut again, r, depth, &demand);
    Some(again)
}

/// Resolves the imports of `m` that bind a name in `demand` (the names its
/// importer may ask of it, with those its own jit functions use); the
/// names it bound.
fn resolve_demanded(
    m: &mut Module,
    r: &mut Resolution,
    depth: usize,
    demand: &HashSet<String>,
) -> HashSet<String> {
    let mut bound = HashSet::new();
    // as Python does for a script, through symbolic links to the real file
    let Ok(file) = PathBuf::from(&m.file).canonicalize() else {
        return bound;
    };
    if depth > MAX_DEPTH || !file.is_file() {
        return bound;
    }
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let dir = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    };
    let pending = std::mem::take(&mut m.pending);
    for p in pending {
        if !demand.contains(&p.bind)
            || m.globals.contains_key(&p.bind)
            || m.funcs.contains_key(&p.bind)
        {
            continue;
        }
        let roots = modules::roots(&dir, p.level);
        // `from M import NAME` where M.NAME is a module of its own
        if let Some(a) = &p.attr {
            let sub = join(&p.module, a);
            if let Some(path) = modules::find(&roots, &sub) {
                if let Some(i) = load(m, &path, r, depth, demand) {
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
        // `from M import NAME` asks M for NAME alone; `import M` for
        // whatever the importer may use
        let asked: HashSet<String>;
        let sub_demand = match &p.attr {
            Some(a) => {
                asked = HashSet::from([a.clone()]);
                &asked
            }
            None => demand,
        };
        let Some(i) = load(m, &path, r, depth, sub_demand) else {
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
        bound.insert(p.bind.clone());
        m.globals.insert(p.bind, v);
    }
    bound
}

/// Every identifier-like word of `text`: a superset of the names the code
/// in it uses (keywords and words in strings or comments included).
fn identifiers(text: &str) -> HashSet<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().next().is_some_and(|c| !c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// The names `m`'s jit functions and constexpr_functions use, by the text
/// of their definitions.
fn used_by_jit_functions(m: &Module) -> HashSet<String> {
    let mut out = HashSet::new();
    for f in m.funcs.values().chain(m.constexpr_funcs.values()) {
        let lo = usize::from(f.range.start());
        let hi = usize::from(f.range.end()).min(m.src.len());
        if let Some(text) = m.src.get(lo..hi) {
            out.extend(identifiers(text));
        }
    }
    out
}

/// What `name` of imported module `imported` (at index `i` of the importer's
/// imports) is to the importer: a jit function or constexpr_function (called
/// in its own module), or a global that does not refer to the imported
/// module's own imports.
pub fn member(imported: &Module, i: usize, name: &str) -> Option<Value> {
    if imported.funcs.contains_key(name) || imported.constexpr_funcs.contains_key(name) {
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

/// Reads, scans and resolves the module at `path` into `m.imports`, asked
/// for the names in `demand`; its index.
fn load(
    m: &mut Module,
    path: &Path,
    r: &mut Resolution,
    depth: usize,
    demand: &HashSet<String>,
) -> Option<usize> {
    let key = path.canonicalize().ok()?;
    if r.seen.contains(&key) || r.budget == 0 {
        return None;
    }
    r.budget -= 1;
    let src = std::fs::read_to_string(path).ok()?;
    let source = Source::parse(&path.display().to_string(), &src).ok()?;
    let mut sub = Module::from_source(source);
    let mut sub_demand = used_by_jit_functions(&sub);
    sub_demand.extend(demand.iter().cloned());
    r.seen.insert(key.clone());
    let bound = resolve_demanded(&mut sub, r, depth + 1, &sub_demand);
    if let Some(again) = rescanned(&sub, &bound, r, depth + 1, &sub_demand) {
        sub = again;
    }
    r.seen.remove(&key);
    m.imports.push(sub);
    Some(m.imports.len() - 1)
}
