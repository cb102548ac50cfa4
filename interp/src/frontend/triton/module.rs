//! A Triton source file as ksem sees it: its imports, module-level
//! constants and `@triton.jit` functions.

use super::promote::PyNum;
use super::value::{ModPath, Value};
use crate::dtype::DType;
use crate::frontend::py::consts::{self, HostNames};
use crate::frontend::py::value::PyValue;
use crate::frontend::py::Source;
use crate::span::{DResult, LineIndex, Span};
use rustpython_parser::ast::{self, Constant, Expr, Ranged, Stmt};
use std::collections::HashMap;

/// A parsed Triton module.
pub struct Module {
    pub file: String,
    pub src: String,
    pub lines: LineIndex,
    /// `@triton.jit` functions by name.
    pub funcs: HashMap<String, ast::StmtFunctionDef>,
    /// Names of the jit functions in source order.
    pub func_order: Vec<String>,
    /// Module-level names: import aliases and constants.
    pub globals: HashMap<String, Value>,
    /// Module-level functions that are not (or not yet) `@triton.jit`, by
    /// name: a later `f = triton.jit(f)` makes one a jit function.
    pub plain_funcs: HashMap<String, ast::StmtFunctionDef>,
    /// `@triton.constexpr_function` functions by name (bound in `globals`
    /// as `Value::ConstexprFunc`).
    pub constexpr_funcs: HashMap<String, ast::StmtFunctionDef>,
    /// The `@triton.autotune` configs of each autotuned jit function.
    pub autotune: HashMap<String, super::autotune::Configs>,
    /// The `@triton.heuristics` of each jit function that has them (or why
    /// they cannot be read: reported when the kernel is launched).
    pub heuristics: HashMap<String, DResult<Vec<super::heuristics::Heuristic>>>,
    /// The project modules this one imports helpers from
    /// (`Value::Foreign` indexes them; `super::imports`).
    pub imports: Vec<Module>,
    /// Imports the scan could not bind, for `super::imports::resolve`.
    pub pending: Vec<super::imports::Pending>,
    /// The first module-level number expression Python raises on: the
    /// module cannot be imported, so none of its kernels runs.
    pub import_error: Option<crate::span::Diagnostic>,
}

impl Module {
    /// Parses a Triton source file.
    pub fn parse(file: &str, src: &str) -> DResult<Module> {
        Ok(Module::from_source(Source::parse(file, src)?))
    }

    /// Reads the project modules this one imports helpers from, where its
    /// file is on disk (`super::imports`).
    pub fn resolve_imports(&mut self) {
        super::imports::resolve(self, &mut super::imports::Resolution::default());
    }

    /// Scans a parsed source file for its imports, constants and jit functions.
    pub fn from_source(source: Source) -> Module {
        Module::from_source_with(source, HashMap::new())
    }

    /// Scans a parsed source file as [`Module::from_source`] does, with
    /// `preset` bound before its first statement: the names another module
    /// re-exports `triton` or `triton.language` under (Inductor's
    /// `from .triton_compat import triton, tl`), which the scan must know to
    /// see `@triton.jit` and `tl.constexpr(…)` (`super::imports`).
    pub fn from_source_with(source: Source, preset: HashMap<String, Value>) -> Module {
        let Source {
            file,
            src,
            lines,
            body,
        } = source;
        let mut m = Module {
            file,
            src,
            lines,
            funcs: HashMap::new(),
            func_order: Vec::new(),
            globals: HashMap::new(),
            plain_funcs: HashMap::new(),
            constexpr_funcs: HashMap::new(),
            autotune: HashMap::new(),
            heuristics: HashMap::new(),
            imports: Vec::new(),
            pending: Vec::new(),
            import_error: None,
        };
        m.globals.extend(preset);
        for stmt in body {
            m.scan(stmt);
        }
        m
    }

    /// The span of a syntax node.
    pub fn span(&self, node: &impl Ranged) -> Span {
        self.lines.span(&self.src, usize::from(node.start()))
    }

    fn scan(&mut self, stmt: Stmt) {
        match stmt {
            Stmt::Import(i) => {
                for alias in i.names {
                    let path = alias.name.as_str();
                    match &alias.asname {
                        Some(a) => {
                            if let Some(p) = module_path(path) {
                                self.globals.insert(a.to_string(), Value::Module(p));
                            } else if path == "torch" {
                                self.globals
                                    .insert(a.to_string(), Value::Module(ModPath::Torch));
                            } else {
                                self.pend(a.to_string(), path.to_string(), 0, None);
                            }
                        }
                        None if path == "torch" => {
                            self.globals
                                .insert("torch".into(), Value::Module(ModPath::Torch));
                        }
                        None => {
                            if path == "triton" || path.starts_with("triton.") {
                                self.globals
                                    .insert("triton".into(), Value::Module(ModPath::Triton));
                            } else if path == "ksem" || path.starts_with("ksem.") {
                                self.globals
                                    .insert("ksem".into(), Value::Module(ModPath::Ksem));
                            } else if !path.contains('.') {
                                // `import helpers`: the project's module, by its name
                                self.pend(path.to_string(), path.to_string(), 0, None);
                            }
                        }
                    }
                }
            }
            Stmt::ImportFrom(i) => {
                let base = i.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
                let base = ksem_stand_in(&base).to_string();
                for alias in i.names {
                    let full = format!("{base}.{}", alias.name);
                    let full = ksem_stand_in(&full);
                    let name = alias.asname.as_ref().unwrap_or(&alias.name).to_string();
                    if let Some(p) = module_path(full) {
                        self.globals.insert(name, Value::Module(p));
                    } else if full == "triton.jit" {
                        self.globals.insert(name, Value::Builtin("jit".into()));
                    } else if matches!(
                        full,
                        "triton.constexpr_function"
                            | "triton.runtime.constexpr_function"
                            | "triton.runtime.jit.constexpr_function"
                    ) {
                        self.globals
                            .insert(name, Value::Builtin("constexpr_function".into()));
                    } else if let Some(v) = super::named::import_marker(&base, &alias.name) {
                        self.globals.insert(name, v);
                    } else if full == "triton.Config" {
                        self.globals.insert(name, Value::Builtin("Config".into()));
                    } else if full == "triton.autotune" || full == "triton.heuristics" {
                        self.globals
                            .insert(name, Value::Builtin(alias.name.to_string()));
                    } else if let Some(p) = module_path(&base) {
                        if matches!(p, ModPath::Language | ModPath::Math | ModPath::Libdevice) {
                            self.globals.insert(name, member(p, alias.name.as_str()));
                        }
                    } else {
                        let level = i.level.map_or(0, |l| l.to_u32() as usize);
                        self.pend(name, base.clone(), level, Some(alias.name.to_string()));
                    }
                }
            }
            // imports guarded by a version check or `try`/`except
            // ImportError` (`from triton.language.extra.libdevice import
            // rsqrt`, else another path): the first binding of a name wins
            Stmt::If(i) => {
                self.scan_guarded(i.body);
                self.scan_guarded(i.orelse);
            }
            Stmt::Try(t) => {
                self.scan_guarded(t.body);
                for h in t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    self.scan_guarded(h.body);
                }
                self.scan_guarded(t.orelse);
                self.scan_guarded(t.finalbody);
            }
            Stmt::FunctionDef(f) if f.decorator_list.iter().any(|d| self.is_jit(d)) => {
                let name = f.name.to_string();
                if let Some(c) = f.decorator_list.iter().find_map(|d| self.autotune_call(d)) {
                    let configs = super::autotune::read_configs(self, c);
                    self.autotune.insert(name.clone(), configs);
                }
                if let Some(c) = f
                    .decorator_list
                    .iter()
                    .find_map(|d| self.wrapper_call(d, "heuristics"))
                {
                    let h = super::heuristics::read(self, c);
                    self.heuristics.insert(name.clone(), h);
                }
                self.func_order.push(name.clone());
                self.funcs.insert(name, f);
            }
            Stmt::FunctionDef(f)
                if f.decorator_list
                    .iter()
                    .any(|d| self.is_constexpr_function(d)) =>
            {
                let name = f.name.to_string();
                self.globals
                    .insert(name.clone(), Value::ConstexprFunc(name.clone()));
                self.constexpr_funcs.insert(name, f);
            }
            Stmt::FunctionDef(f) => {
                self.plain_funcs.insert(f.name.to_string(), f);
            }
            Stmt::ClassDef(c) => {
                if let Some(class) = super::named::class_def(self, &c) {
                    self.bind_class(c.name.to_string(), class);
                }
            }
            Stmt::Assign(a) if a.targets.len() == 1 => {
                if let Expr::Name(n) = &a.targets[0] {
                    // `g = triton.jit(f)`: the plain function `f` becomes the
                    // jit function `g` (the name the host launches it by)
                    if let Some(f) = self.jit_wrapped(&a.value) {
                        if let Some(def) = self.plain_funcs.remove(&f) {
                            let name = n.id.to_string();
                            if let Some(c) = self.autotune_wrapper(&a.value) {
                                let configs = super::autotune::read_configs(self, c);
                                self.autotune.insert(name.clone(), configs);
                            }
                            if let Some(c) = self.wrapper_in(&a.value, "heuristics") {
                                let h = super::heuristics::read(self, c);
                                self.heuristics.insert(name.clone(), h);
                            }
                            self.func_order.retain(|g| *g != name);
                            self.func_order.push(name.clone());
                            self.funcs.insert(name, def);
                            return;
                        }
                    }
                    if let Some(class) = super::named::factory_call(self, &a.value) {
                        self.bind_class(n.id.to_string(), class);
                    } else if let Some(v) = self.const_eval(&a.value) {
                        self.globals.insert(n.id.to_string(), v);
                    } else {
                        self.note_raising(&a.value);
                    }
                }
            }
            Stmt::AnnAssign(a) => {
                if let (Expr::Name(n), Some(v)) = (&*a.target, &a.value) {
                    if let Some(v) = self.const_eval(v) {
                        self.globals.insert(n.id.to_string(), v);
                    }
                }
            }
            _ => {}
        }
    }

    /// Binds `name` to a NamedTuple class, or records why Python fails to
    /// make it (the module cannot be imported).
    fn bind_class(&mut self, name: String, class: DResult<super::named::NamedClass>) {
        match class {
            Ok(c) => {
                self.globals
                    .insert(name, Value::NamedClass(std::sync::Arc::new(c)));
            }
            Err(d) => {
                self.globals.remove(&name);
                if self.import_error.is_none() {
                    self.import_error = Some(d);
                }
            }
        }
    }

    /// Whether decorator `d` is `@triton.constexpr_function` (or a name
    /// imported for it).
    fn is_constexpr_function(&self, d: &Expr) -> bool {
        self.const_eval(d) == Some(Value::Builtin("constexpr_function".into()))
    }

    /// Records an import that may name a module of the project.
    fn pend(&mut self, bind: String, module: String, level: usize, attr: Option<String>) {
        let p = super::imports::Pending {
            bind,
            module,
            level,
            attr,
        };
        if p.worth_resolving() {
            self.pending.push(p);
        }
    }

    /// The imports and constant assignments among `stmts` (a module-level
    /// `if`/`try` body, searched in nested ones too), binding only names not
    /// bound yet: the first branch wins (unsloth's `if Version(triton) >=
    /// "3.0.0": triton_cast = tl.cast else: …`, written for the Triton that
    /// runs it).
    fn scan_guarded(&mut self, stmts: Vec<Stmt>) {
        for s in stmts {
            match s {
                Stmt::Import(_) | Stmt::ImportFrom(_) | Stmt::Assign(_) | Stmt::AnnAssign(_) => {
                    let before = self.globals.clone();
                    self.scan(s);
                    for (k, v) in before {
                        self.globals.insert(k, v);
                    }
                }
                Stmt::If(_) | Stmt::Try(_) => self.scan(s),
                _ => {}
            }
        }
    }

    /// The function `f` that `e` wraps in `triton.jit(f)`, `triton.jit(…)(f)`,
    /// or either under `triton.autotune(…)(…)` / `triton.heuristics(…)(…)`.
    fn jit_wrapped(&self, e: &Expr) -> Option<String> {
        let Expr::Call(c) = e else { return None };
        let [arg] = c.args.as_slice() else {
            return None;
        };
        if self.is_jit(&c.func) {
            return match arg {
                Expr::Name(n) => Some(n.id.to_string()),
                _ => None,
            };
        }
        let Expr::Call(w) = &*c.func else { return None };
        let wrapper = match &*w.func {
            Expr::Attribute(a) => {
                matches!(&*a.value, Expr::Name(n) if self.globals.get(n.id.as_str()) == Some(&Value::Module(ModPath::Triton)))
                    && matches!(a.attr.as_str(), "autotune" | "heuristics")
            }
            Expr::Name(n) => matches!(
                self.globals.get(n.id.as_str()),
                Some(Value::Builtin(b)) if b == "autotune" || b == "heuristics"
            ),
            _ => false,
        };
        if wrapper {
            self.jit_wrapped(arg)
        } else {
            None
        }
    }

    /// The `triton.autotune(…)` call of decorator `d`, if it is one.
    fn autotune_call<'e>(&self, d: &'e Expr) -> Option<&'e ast::ExprCall> {
        self.wrapper_call(d, "autotune")
    }

    /// The `triton.WRAPPER(…)` call of decorator `d` (`autotune`,
    /// `heuristics`), if it is one.
    fn wrapper_call<'e>(&self, d: &'e Expr, wrapper: &str) -> Option<&'e ast::ExprCall> {
        let Expr::Call(c) = d else { return None };
        let named = match &*c.func {
            Expr::Attribute(a) => {
                a.attr.as_str() == wrapper
                    && matches!(&*a.value, Expr::Name(n) if self.globals.get(n.id.as_str()) == Some(&Value::Module(ModPath::Triton)))
            }
            Expr::Name(n) => {
                self.globals.get(n.id.as_str()) == Some(&Value::Builtin(wrapper.into()))
            }
            _ => false,
        };
        named.then_some(c)
    }

    /// The `triton.autotune(…)` call of `triton.autotune(…)(…)` in `e`
    /// (the assignment form `k = triton.autotune(…)(triton.jit(f))`).
    fn autotune_wrapper<'e>(&self, e: &'e Expr) -> Option<&'e ast::ExprCall> {
        self.wrapper_in(e, "autotune")
    }

    /// The `triton.WRAPPER(…)` call of `triton.WRAPPER(…)(…)` anywhere in
    /// the wrapping chain `e`.
    fn wrapper_in<'e>(&self, e: &'e Expr, wrapper: &str) -> Option<&'e ast::ExprCall> {
        let Expr::Call(c) = e else { return None };
        self.wrapper_call(&c.func, wrapper)
            .or_else(|| c.args.first().and_then(|a| self.wrapper_in(a, wrapper)))
    }

    /// Records `e` as the module's import error where Python raises on it
    /// (`A = 1.0 // 0.0`, also inside `tl.constexpr(…)`).
    fn note_raising(&mut self, e: &Expr) {
        if self.import_error.is_some() {
            return;
        }
        let inner = match e {
            Expr::Call(c) if c.args.len() == 1 => &c.args[0],
            other => other,
        };
        if let Err(consts::NoValue::Raises(err)) = consts::eval(inner, self) {
            self.import_error = Some(consts::raises_at_import(self.span(inner), err));
        }
    }

    /// A module-level constant expression's value, if it is one.
    pub fn const_value(&self, e: &Expr) -> Option<Value> {
        self.const_eval(e)
    }

    fn is_jit(&self, d: &Expr) -> bool {
        match d {
            Expr::Call(c) => self.is_jit(&c.func),
            Expr::Attribute(a) => {
                a.attr.as_str() == "jit"
                    && self.const_eval(&a.value) == Some(Value::Module(ModPath::Triton))
            }
            Expr::Name(n) => self.globals.get(n.id.as_str()) == Some(&Value::Builtin("jit".into())),
            _ => false,
        }
    }

    /// `torch.finfo(D).min/max/eps/tiny` and `torch.iinfo(D).min/max`: the
    /// dtype's limits as Python numbers (torch's values, which are IEEE's).
    fn type_info(&self, e: &Expr) -> Option<Value> {
        let Expr::Attribute(a) = e else { return None };
        let Expr::Call(c) = &*a.value else {
            return None;
        };
        let Expr::Attribute(f) = &*c.func else {
            return None;
        };
        if self.const_eval(&f.value)? != Value::Module(ModPath::Torch) || c.args.len() != 1 {
            return None;
        }
        let Value::DType(d) = self.const_eval(&c.args[0])? else {
            return None;
        };
        let field = a.attr.as_str();
        let num = match (f.attr.as_str(), d.is_float()) {
            ("finfo", true) => {
                let f = d.float_format()?;
                let max = crate::float::to_f64(d, f.max_finite_bits());
                PyNum::Float(match field {
                    "max" => max,
                    "min" => -max,
                    "tiny" | "smallest_normal" => crate::float::to_f64(d, 1 << f.man_bits),
                    "eps" => 2f64.powi(-(f.man_bits as i32)),
                    _ => return None,
                })
            }
            ("iinfo", false) if d != DType::Bool => {
                let (lo, hi) = d.int_range();
                PyNum::Int(if field == "min" {
                    lo
                } else if field == "max" {
                    hi
                } else {
                    return None;
                })
            }
            _ => return None,
        };
        Some(Value::Num(num))
    }

    /// Evaluates a module-level constant expression, if it is one.
    fn const_eval(&self, e: &Expr) -> Option<Value> {
        match e {
            Expr::Constant(c) => constant_value(&c.value),
            Expr::Name(n) => self.globals.get(n.id.as_str()).cloned(),
            Expr::Tuple(t) => Some(Value::Tuple(
                t.elts
                    .iter()
                    .map(|x| self.const_eval(x))
                    .collect::<Option<_>>()?,
            )),
            // what Python computes at import (`py::consts`)
            Expr::UnaryOp(_)
            | Expr::BinOp(_)
            | Expr::Compare(_)
            | Expr::BoolOp(_)
            | Expr::IfExp(_)
            | Expr::Subscript(_) => consts::eval(e, self).ok().map(Value::from_host),
            Expr::Attribute(a) => {
                if let Some(v) = self.type_info(e) {
                    return Some(v);
                }
                match self.const_eval(&a.value)? {
                    Value::Module(ModPath::Torch) => torch_dtype(a.attr.as_str()).map(Value::DType),
                    Value::Module(p) => Some(member(p, a.attr.as_str())),
                    _ => None,
                }
            }
            Expr::Call(c) if c.args.len() == 1 && c.keywords.is_empty() => {
                match self.const_eval(&c.func) {
                    Some(Value::Builtin(b)) if b == "constexpr" => self.const_eval(&c.args[0]),
                    _ => consts::eval(e, self).ok().map(Value::from_host),
                }
            }
            Expr::Call(_) => consts::eval(e, self).ok().map(Value::from_host),
            _ => None,
        }
    }
}

impl HostNames<Value> for Module {
    fn value(&self, name: &str) -> Option<PyValue<Value>> {
        self.globals.get(name).map(Value::host)
    }
    /// Python's own builtins and `math` (which Triton's module scan does
    /// not bind); a name the module binds is none of them.
    fn callee(&self, dotted: &str) -> String {
        let head = dotted.split('.').next().unwrap_or(dotted);
        if self.globals.contains_key(head) && head != "math" {
            format!("<module>.{dotted}")
        } else {
            dotted.to_string()
        }
    }
}

/// ksem's Python package stands in for Triton where Triton is not installed
/// (`from ksem import triton`, `import ksem.triton.language as tl`,
/// `@ksem.triton.jit`): its module paths name Triton's.
fn ksem_stand_in(path: &str) -> &str {
    match path.strip_prefix("ksem.") {
        Some(rest) if rest == "triton" || rest.starts_with("triton.") => rest,
        _ => path,
    }
}

fn module_path(path: &str) -> Option<ModPath> {
    Some(match ksem_stand_in(path) {
        "triton" => ModPath::Triton,
        "triton.language" => ModPath::Language,
        "triton.language.math" => ModPath::Math,
        "triton.language.extra" | "triton.language.extra.cuda" => ModPath::Extra,
        "triton.language.extra.libdevice" | "triton.language.extra.cuda.libdevice" => {
            ModPath::Libdevice
        }
        _ => return None,
    })
}

/// The dtype `torch.NAME` names (those Triton has).
fn torch_dtype(name: &str) -> Option<DType> {
    Some(match name {
        "float32" | "float" => DType::F32,
        "float64" | "double" => DType::F64,
        "float16" | "half" => DType::F16,
        "bfloat16" => DType::BF16,
        "int8" => DType::I8,
        "int16" | "short" => DType::I16,
        "int32" | "int" => DType::I32,
        "int64" | "long" => DType::I64,
        "uint8" => DType::U8,
        "uint16" => DType::U16,
        "uint32" => DType::U32,
        "uint64" => DType::U64,
        "bool" => DType::Bool,
        "float8_e4m3fn" => DType::F8E4Nv,
        "float8_e5m2" => DType::F8E5,
        _ => return None,
    })
}

/// A member of a Triton module: a submodule, dtype, or builtin.
pub fn member(p: ModPath, name: &str) -> Value {
    match (p, name) {
        (ModPath::Ksem, "triton") => Value::Module(ModPath::Triton),
        (ModPath::Triton, "language") => Value::Module(ModPath::Language),
        (ModPath::Triton, "jit") => Value::Builtin("jit".into()),
        (ModPath::Triton, "constexpr_function") => Value::Builtin("constexpr_function".into()),
        (ModPath::Triton, "cdiv") => Value::Builtin("cdiv".into()),
        (ModPath::Triton, "next_power_of_2") => Value::Builtin("next_power_of_2".into()),
        (ModPath::Language, "math") => Value::Module(ModPath::Math),
        (ModPath::Language, "PropagateNan") => Value::Module(ModPath::PropagateNan),
        (ModPath::Language, "extra") => Value::Module(ModPath::Extra),
        (ModPath::PropagateNan, "ALL") => Value::NanMode(crate::ir::NanMode::Propagate),
        (ModPath::PropagateNan, "NONE") => Value::NanMode(crate::ir::NanMode::Ignore),
        (ModPath::Language, "pi32_t") => Value::PtrDType(DType::I32),
        (ModPath::Language, n) => match dtype_name(n) {
            Some(d) => Value::DType(d),
            None => Value::Builtin(n.to_string()),
        },
        (ModPath::Math, n) => Value::Builtin(n.to_string()),
        (ModPath::Extra, "cuda") => Value::Module(ModPath::Extra),
        (ModPath::Extra, "libdevice") => Value::Module(ModPath::Libdevice),
        (ModPath::Libdevice, n) => Value::Builtin(format!("libdevice:{n}")),
        (_, n) => Value::Builtin(format!("?{n}")),
    }
}

/// Triton's dtype attribute names (`tl.float32`, `tl.int1`, …).
pub fn dtype_name(n: &str) -> Option<DType> {
    // Triton calls bool `int1`; the others are their JSON names
    match n {
        "int1" => Some(DType::Bool),
        "bool" => None,
        n => DType::from_json_name(n),
    }
}

/// The dtype a launch's string constexpr names, if it names one (the rule of
/// `tools/triton_run.py`, which passes such a string as that `tl` dtype and
/// any other string as a Python `str`): a launch dtype name (`float16`,
/// `fp16`, `f16`, `int1`, `bool`, …) or one of the host spellings `half`,
/// `float`, `double`, `float8_e4m3fn`, `float8_e5m2`.
pub fn constexpr_dtype(s: &str) -> Option<DType> {
    dtype_name(s).or_else(|| DType::from_name(s)).or(match s {
        "half" => Some(DType::F16),
        "float" => Some(DType::F32),
        "double" => Some(DType::F64),
        "float8_e4m3fn" => Some(DType::F8E4Nv),
        "float8_e5m2" => Some(DType::F8E5),
        _ => None,
    })
}

/// The value of a Python literal.
pub fn constant_value(c: &Constant) -> Option<Value> {
    Some(match c {
        Constant::None => Value::None,
        Constant::Bool(b) => Value::Num(PyNum::Bool(*b)),
        Constant::Int(i) => Value::Num(PyNum::Int(i128::try_from(i).ok()?)),
        Constant::Float(f) => Value::Num(PyNum::Float(*f)),
        Constant::Str(s) => Value::Str(s.clone()),
        Constant::Tuple(t) => Value::Tuple(t.iter().map(constant_value).collect::<Option<_>>()?),
        _ => return None,
    })
}
