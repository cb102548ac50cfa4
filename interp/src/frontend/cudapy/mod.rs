//! CUDA Python (the seed `004`: NumbaPro's dialect, as numba-cuda runs it
//! today): a module scan that finds `@cuda.jit` kernels and device
//! functions, signature strings, and the elaborator of `elab` that turns a
//! kernel into a SIMT program of the IR.

mod elab;
pub mod types;

use super::py::consts::{self, HostNames};
use super::py::modules::{self, Scanned as _};
use super::py::scanned::ScannedFile;
use super::py::value::{Extra, PyValue};
use super::py::{dotted, pick, Source};
use crate::dtype::DType;
use crate::ir::Kernel;
use crate::launch::Launch;
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Constant};

/// A parameter or result type of a signature string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SigType {
    Void,
    Scalar(DType),
    /// An array of `ndim` dimensions.
    Array(DType, usize),
    /// A complex scalar of these parts (`complex64`: float32).
    Complex(DType),
    /// A complex array of these parts and `ndim` dimensions.
    ComplexArray(DType, usize),
}

/// A `@cuda.jit` function: a kernel or a device function.
pub struct Func {
    pub def: ast::StmtFunctionDef,
    pub device: bool,
    /// From a signature string: result and parameter types.
    pub sig: Option<(SigType, Vec<SigType>)>,
    /// `debug=True`: a fired `raise`/`assert` is reported to the host.
    pub debug: bool,
    pub span: Span,
}

/// What a module-level name stands for: a Python value ([`PyValue`]: a
/// number, a string, `None`, a tuple of constants such as a shape
/// `SM_SIZE = 16, 16`, a type object such as `int16` or `np.float32`, a
/// module or a path into one such as `cuda` or `numba.cuda`), or one of
/// CUDA Python's own objects ([`Object`]).
pub type Global = PyValue<Object>;

/// The module-level objects only CUDA Python's module scan knows.
#[derive(Clone, Debug, PartialEq)]
pub enum Object {
    /// A class whose body binds names to constants: an `enum.Enum` or
    /// `IntEnum` as the pytest plugin writes it (`class Color: red = 1`);
    /// its members are their values, as numba lowers them. `int`: written
    /// `class C(int):`, numba's IntEnum, whose members compare as
    /// integers (the others are Enum classes).
    Class {
        members: Vec<(String, Global)>,
        int: bool,
    },
    /// A record dtype, `ksem.record({"itemsize": …, "fields": […]})` (the
    /// launch's `"record"` form, docs/formats.md): how the pytest plugin
    /// writes a structured dtype a kernel closes over.
    Record(std::sync::Arc<crate::launch::RecordLayout>),
}

impl Extra for Object {
    fn type_name(&self) -> &'static str {
        match self {
            Object::Class { .. } => "type",
            Object::Record(_) => "dtype",
        }
    }
}

impl HostNames<Object> for Module {
    fn value(&self, name: &str) -> Option<Global> {
        self.globals.get(name).cloned()
    }
    fn callee(&self, dotted: &str) -> String {
        self.resolve_path(dotted)
    }
}

/// A CUDA Python source file as ksem sees it: the file, its `@cuda.jit`
/// kernels and device functions (in source order) and its module-level
/// names (`py::scanned`).
pub type Module = ScannedFile<Func, Object>;

impl Module {
    /// Scans a parsed file: imports, constants and `@cuda.jit` functions.
    pub fn scan(src: Source) -> DResult<Module> {
        let mut m = ScannedFile::new(src);
        m.with_body(|m, body| body.iter().try_for_each(|s| m.scan_stmt(s)))?;
        Ok(m)
    }

    fn scan_stmt(&mut self, s: &ast::Stmt) -> DResult<()> {
        match s {
            ast::Stmt::Import(_) | ast::Stmt::ImportFrom(_) => {
                for b in modules::bindings(s) {
                    let module = canon(&b.module);
                    let g = match (&b.attr, b.attr.as_deref().and_then(types::dtype_named)) {
                        (_, Some(d)) if module == "numba" || module == "numpy" => PyValue::Type(d),
                        (Some(attr), _) => PyValue::Path(format!("{module}.{attr}")),
                        (None, _) => PyValue::Path(module),
                    };
                    self.globals.bind(&b.name, Some(g));
                }
            }
            ast::Stmt::Assign(a) => {
                if let [ast::Expr::Name(n)] = a.targets.as_slice() {
                    let v = self.const_value(&a.value)?;
                    self.globals.bind(n.id.as_str(), v);
                }
            }
            ast::Stmt::ClassDef(c) => {
                let int =
                    matches!(c.bases.as_slice(), [ast::Expr::Name(b)] if b.id.as_str() == "int");
                let members = self.class_members(c)?;
                let class = members.map(|members| PyValue::Extra(Object::Class { members, int }));
                self.globals.bind(c.name.as_str(), class);
            }
            ast::Stmt::FunctionDef(f) => {
                if let Some(func) = self.jit_func(f)? {
                    self.add(f.name.to_string(), func);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A module-level constant: what Python computes at import
    /// (`py::consts`: numbers, strings, tuples, names of other constants),
    /// or a record dtype. `Err`: Python raises on it.
    fn const_value(&self, e: &ast::Expr) -> DResult<Option<Global>> {
        if let ast::Expr::Call(c) = e {
            if dotted(&c.func).as_deref() == Some("ksem.record") {
                return self.record_dtype(c).map(Some);
            }
        }
        consts::at_import(e, self, self.src.span(e))
    }

    /// `ksem.record({"itemsize": N, "fields": […]})`: a record dtype in the
    /// launch's JSON form, written as a Python literal.
    fn record_dtype(&self, c: &ast::ExprCall) -> DResult<Global> {
        let span = self.src.span(c);
        let json = match (c.args.as_slice(), c.keywords.is_empty()) {
            ([a], true) => literal_json(a),
            _ => None,
        };
        let Some(json) = json else {
            return Err(Diagnostic::new(
                span,
                "ksem.record takes one literal: {\"itemsize\": N, \"fields\": [{\"name\": …, \"offset\": …, \"dtype\": …}, …]}",
            ));
        };
        crate::launch::layout_from_json(json)
            .map(|r| PyValue::Extra(Object::Record(r)))
            .map_err(|e| Diagnostic::new(span, format!("ksem.record: {e}")))
    }

    /// The members of a class whose body only binds names to constants
    /// (an enum as the pytest plugin writes it); `None` for other classes.
    fn class_members(&self, c: &ast::StmtClassDef) -> DResult<Option<Vec<(String, Global)>>> {
        let mut members = Vec::new();
        for s in &c.body {
            let ast::Stmt::Assign(a) = s else {
                return Ok(None);
            };
            let [ast::Expr::Name(n)] = a.targets.as_slice() else {
                return Ok(None);
            };
            match self.const_value(&a.value)? {
                Some(g) => members.push((n.id.to_string(), g)),
                None => return Ok(None),
            }
        }
        Ok(Some(members))
    }

    /// The function if it is decorated with `cuda.jit` (or NumbaPro's `autojit`).
    fn jit_func(&self, f: &ast::StmtFunctionDef) -> DResult<Option<Func>> {
        let span = self.src.span(f);
        for d in &f.decorator_list {
            let (callee, call) = match d {
                ast::Expr::Call(c) => (&*c.func, Some(c)),
                other => (other, None),
            };
            let Some(name) = dotted(callee).map(|n| self.resolve_path(&n)) else {
                continue;
            };
            if !matches!(
                name.as_str(),
                "numba.cuda.jit" | "numba.cuda.autojit" | "numba.jit"
            ) {
                continue;
            }
            let mut device = false;
            let mut debug = false;
            let mut sig = None;
            if let Some(c) = call {
                for kw in &c.keywords {
                    let on = matches!(&kw.value, ast::Expr::Constant(k) if k.value == Constant::Bool(true));
                    match kw.arg.as_deref() {
                        Some("device") => device = on,
                        Some("debug") => debug = on,
                        _ => {}
                    }
                }
                if let Some(first) = c.args.first() {
                    let ast::Expr::Constant(k) = first else {
                        return Err(Diagnostic::new(
                            self.src.span(first),
                            "a signature must be a string such as \"void(int32[:], float32)\"",
                        ));
                    };
                    let Constant::Str(text) = &k.value else {
                        return Err(Diagnostic::new(
                            self.src.span(first),
                            "a signature must be a string",
                        ));
                    };
                    sig = Some(parse_signature(text).map_err(|m| {
                        Diagnostic::new(
                            self.src.span(first),
                            format!("bad signature {text:?}: {m}"),
                        )
                    })?);
                }
            }
            return Ok(Some(Func {
                def: f.clone(),
                device,
                sig,
                debug,
                span,
            }));
        }
        Ok(None)
    }

    /// A dotted name with its first part replaced by what it was imported
    /// as, in numba's module names.
    pub fn resolve_path(&self, dotted: &str) -> String {
        canon(&self.globals.resolve(dotted))
    }
}

/// NumbaPro's module names are numba's, and so are those of ksem's Python
/// package where it stands in for numba (`from ksem import cuda`,
/// `@ksem.cuda.jit`).
pub(crate) fn canon(module: &str) -> String {
    if let Some(rest) = module.strip_prefix("numbapro") {
        return format!("numba{rest}");
    }
    match module.strip_prefix("ksem.cuda") {
        Some(rest) if rest.is_empty() || rest.starts_with('.') => format!("numba.cuda{rest}"),
        _ => module.to_string(),
    }
}

/// Parses a signature string: `"void(int32[:], float32)"`, `"int32(int32, int32)"`,
/// `"void(float32[:, ::1])"`.
pub fn parse_signature(text: &str) -> Result<(SigType, Vec<SigType>), String> {
    let t = text.trim();
    let open = t.find('(').ok_or("expected RESULT(ARGS)")?;
    if !t.ends_with(')') {
        return Err("expected RESULT(ARGS)".into());
    }
    let ret = t[..open].trim();
    let ret = if ret.is_empty() || ret == "void" || ret == "none" {
        SigType::Void
    } else {
        sig_type(ret)?
    };
    let inner = &t[open + 1..t.len() - 1];
    let mut args = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                args.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(&inner[start..]);
    let args: Vec<SigType> = args
        .into_iter()
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(sig_type)
        .collect::<Result<_, _>>()?;
    Ok((ret, args))
}

fn sig_type(s: &str) -> Result<SigType, String> {
    let (base, dims) = match s.find('[') {
        Some(i) => {
            if !s.ends_with(']') {
                return Err(format!("unclosed `[` in {s:?}"));
            }
            (&s[..i], Some(&s[i + 1..s.len() - 1]))
        }
        None => (s, None),
    };
    let base = base.trim();
    let name = base.rsplit('.').next().unwrap_or(base);
    let cx = types::complex_named(name);
    let d = match cx {
        Some(d) => d,
        None => types::dtype_named(name).ok_or_else(|| format!("unknown type {base:?}"))?,
    };
    Ok(match dims {
        None if cx.is_some() => SigType::Complex(d),
        None => SigType::Scalar(d),
        Some(dims) => {
            let parts: Vec<&str> = dims.split(',').map(str::trim).collect();
            if parts.iter().any(|p| !matches!(*p, ":" | "::1")) {
                return Err(format!(
                    "array dimensions must be `:` or `::1`, got [{dims}]"
                ));
            }
            if cx.is_some() {
                SigType::ComplexArray(d, parts.len())
            } else {
                SigType::Array(d, parts.len())
            }
        }
    })
}

/// Elaborates the kernel of a CUDA Python file for `launch`.
pub fn elaborate(src: Source, launch: &Launch, kernel: Option<&str>) -> DResult<Kernel> {
    let m = Module::scan(src)?;
    let want = kernel.or(launch.kernel.as_deref());
    if let Some(f) = want.and_then(|n| m.funcs.get(n)).filter(|f| f.device) {
        return Err(Diagnostic::new(
            f.span,
            format!(
                "`{}` is a device function (device=True); launch a kernel",
                f.def.name
            ),
        ));
    }
    let kernels: Vec<&str> = m.order.iter().map(|s| s.as_str()).collect();
    let words = pick::Words {
        function: "@cuda.jit kernel",
        kernel: "@cuda.jit kernel",
    };
    let is_kernel = |n: &str| !m.funcs[n].device;
    let name = pick::pick_kernel(want, &kernels, is_kernel, words)?;
    elab::Elab::new(&m).kernel(&name, launch)
}

/// A Python literal made of dicts with string keys, lists, tuples, strings
/// and non-negative integers, as JSON (`None` for anything else).
fn literal_json(e: &ast::Expr) -> Option<serde_json::Value> {
    use serde_json::Value as J;
    Some(match e {
        ast::Expr::Dict(d) => {
            let mut m = serde_json::Map::new();
            for (k, v) in d.keys.iter().zip(&d.values) {
                let Some(ast::Expr::Constant(k)) = k else {
                    return None;
                };
                let ast::Constant::Str(k) = &k.value else {
                    return None;
                };
                m.insert(k.clone(), literal_json(v)?);
            }
            J::Object(m)
        }
        ast::Expr::List(l) => J::Array(l.elts.iter().map(literal_json).collect::<Option<_>>()?),
        ast::Expr::Tuple(t) => J::Array(t.elts.iter().map(literal_json).collect::<Option<_>>()?),
        ast::Expr::Constant(c) => match &c.value {
            ast::Constant::Str(s) => J::String(s.clone()),
            ast::Constant::Int(i) => J::from(u64::try_from(i).ok()?),
            _ => return None,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_strings() {
        assert_eq!(
            parse_signature("void(int32[:], float32)"),
            Ok((
                SigType::Void,
                vec![SigType::Array(DType::I32, 1), SigType::Scalar(DType::F32)]
            ))
        );
        assert_eq!(
            parse_signature("int32(int32, int64)"),
            Ok((
                SigType::Scalar(DType::I32),
                vec![SigType::Scalar(DType::I32), SigType::Scalar(DType::I64)]
            ))
        );
        assert_eq!(
            parse_signature("void(float64[:, ::1])"),
            Ok((SigType::Void, vec![SigType::Array(DType::F64, 2)]))
        );
        assert!(parse_signature("void(int33[:])").is_err());
        assert!(parse_signature("void(int32[1:2])").is_err());
        assert!(parse_signature("void int32").is_err());
    }
}
