//! Compile-time Python values of a TileLang file: module constants, a
//! factory's arguments and the assignments of its body before the kernel,
//! evaluated with Python's semantics (ints are unbounded, `//` floors).

use super::{types, Module};
use crate::dtype::DType;
use crate::frontend::py::consts::{self, HostNames, NoValue};
use crate::frontend::py::num::{self, PyError, PyNum};
use crate::frontend::py::value::{compare, ops, Extra, PyValue};
use crate::launch::Launch;
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Constant};
use std::collections::HashMap;

/// A Python value known at compile time ([`PyValue`]), with TileLang's
/// own host object.
pub type Const = PyValue<Device>;

/// The host objects only TileLang's host code has.
#[derive(Clone, Debug, PartialEq)]
pub enum Device {
    /// `torch.cuda.get_device_properties(0)`: the launch's target device,
    /// whose `major`, `minor` and `multi_processor_count` host code reads.
    Props,
}

impl Extra for Device {
    fn type_name(&self) -> &'static str {
        "_CudaDeviceProperties"
    }
    /// A TileLang dtype object equals its own name only, not every
    /// spelling a buffer accepts (measured: `T.float32 == "float"` is
    /// False; tools/probes/tilelang/dtype_str_eq.json).
    fn dtype_eq_str(d: DType, s: &str) -> bool {
        types::is_own_name(d, s)
    }
}

impl Const {
    /// The dtype a value names: a dtype object or a dtype string.
    pub fn as_dtype(&self) -> Option<DType> {
        match self {
            Const::Type(d) => Some(*d),
            Const::Str(s) => types::dtype_named(s),
            _ => None,
        }
    }
}

/// Python raising on host code: the module (or the factory call) cannot
/// run as written.
fn raises(span: Span, err: PyError) -> Diagnostic {
    Diagnostic::new(span, format!("Python raises {err} here"))
}

/// Why an expression has no compile-time value.
fn not_const(span: Span) -> Diagnostic {
    Diagnostic::new(span, "this expression has no value at compile time")
}

/// The compile-time value of `e` under `env`, in module `m`. An error
/// without a span (`Span::default()`) only says `e` has no value at compile
/// time (callers that need one re-attach a span); one with a span is a
/// host call that cannot run as written (a device query of a device ksem's
/// target does not have), which callers report as it is. The expression
/// forms are the shared evaluator's (`py::consts::eval_at`, CPython's
/// rules); TileLang's own are [`HostEnv`]'s.
pub fn eval(m: &Module, env: &HashMap<String, Const>, e: &ast::Expr) -> DResult<Const> {
    consts::eval_at(e, &HostEnv { m, env }).map_err(|(why, at)| match why {
        NoValue::Unknown | NoValue::Other(_) => not_const(Span::default()),
        NoValue::Located(d) => *d,
        NoValue::Raises(err @ PyError::ZeroDivision(_)) if matches!(at, ast::Expr::BinOp(_)) => {
            raises(m.span(at), err)
                .with_help("check the kernel's arguments: this divisor is 0 for them")
        }
        NoValue::Raises(err) => raises(m.span(at), err),
    })
}

/// TileLang's host code as the shared evaluator sees it: the module and the
/// variables bound so far.
struct HostEnv<'a> {
    m: &'a Module,
    env: &'a HashMap<String, Const>,
}

impl HostNames<Device> for HostEnv<'_> {
    fn value(&self, name: &str) -> Option<Const> {
        self.env.get(name).cloned()
    }

    fn callee(&self, dotted: &str) -> String {
        dotted.to_string()
    }

    /// List displays, `{…}[key]`, `DataType(d).bits`, the device's
    /// properties, `T.float16`-style dtype paths and every call (device
    /// queries, host helpers, builtins, TileLang's own functions).
    fn own(&self, e: &ast::Expr) -> Option<Result<Const, NoValue>> {
        let (m, env) = (self.m, self.env);
        let r = match e {
            ast::Expr::List(t) => t
                .elts
                .iter()
                .map(|x| eval(m, env, x))
                .collect::<DResult<_>>()
                .map(Const::List),
            ast::Expr::Subscript(sub) => match &*sub.value {
                ast::Expr::Dict(d) => dict_item(self, d, &sub.slice),
                _ => return None,
            },
            ast::Expr::Attribute(a) => attribute(m, env, a),
            ast::Expr::Call(c) => call_value(m, env, c),
            _ => return None,
        };
        Some(r.map_err(|d| {
            if is_located(&d) {
                NoValue::Located(Box::new(d))
            } else {
                NoValue::Unknown
            }
        }))
    }
}

/// `{T.float32: 4, T.float16: 2}[key]`: the value of the first key equal
/// to `key`.
fn dict_item(h: &HostEnv, d: &ast::ExprDict, key: &ast::Expr) -> DResult<Const> {
    let (m, env) = (h.m, h.env);
    let key = eval(m, env, key)?;
    for (k, v) in d.keys.iter().zip(&d.values) {
        let Some(k) = k else {
            return Err(not_const(Span::default()));
        };
        if compare::py_eq(&eval(m, env, k)?, &key) == Some(true) {
            return eval(m, env, v);
        }
    }
    Err(not_const(Span::default()))
}

/// `DataType(dtype).bits`, a property of the target device, or a dtype
/// of TileLang's language module (`T.float16`).
fn attribute(m: &Module, env: &HashMap<String, Const>, a: &ast::ExprAttribute) -> DResult<Const> {
    let here = Span::default();
    if a.attr.as_str() == "bits" && is_data_type_call(&a.value) {
        let ast::Expr::Call(c) = &*a.value else {
            return Err(not_const(here));
        };
        return match c.args.as_slice() {
            [x] => match eval(m, env, x)?.as_dtype() {
                Some(d) => Ok(Const::Num(PyNum::Int(d.bits() as i128))),
                None => Err(not_const(here)),
            },
            _ => Err(not_const(here)),
        };
    }
    if is_device_props(m, env, &a.value)? {
        let (major, minor) = m.target.capability;
        return match a.attr.as_str() {
            "major" => Ok(Const::Num(PyNum::Int(major as i128))),
            "minor" => Ok(Const::Num(PyNum::Int(minor as i128))),
            "multi_processor_count" => Ok(Const::Num(PyNum::Int(m.target.num_sms as i128))),
            other => Err(Diagnostic::new(
                m.span(a),
                format!("ksem's target device has no `{other}`: it knows `major`, `minor` and `multi_processor_count`"),
            )
            .with_help("the launch's \"target\" gives num_sms and capability")),
        };
    }
    let e = ast::Expr::Attribute(a.clone());
    let p = super::super::py::dotted(&e).ok_or_else(|| not_const(here))?;
    let (base, last) = p.rsplit_once('.').ok_or_else(|| not_const(here))?;
    if m.lang.iter().any(|l| l == base) || base == "tilelang.language" {
        Ok(Const::Type(
            types::dtype_named(last).ok_or_else(|| not_const(here))?,
        ))
    } else {
        Err(not_const(here))
    }
}

/// A call in host code: a device query, a host helper, one of Python's
/// builtins or `math` functions (`py::value`), or TileLang's own.
fn call_value(m: &Module, env: &HashMap<String, Const>, c: &ast::ExprCall) -> DResult<Const> {
    let f = super::super::py::dotted(&c.func).unwrap_or_default();
    if let Some(v) = device_query(m, env, &f, c)? {
        return Ok(v);
    }
    if let Some(h) = host_helper(m, env, &f) {
        return call_helper(m, env, h, c);
    }
    let args: Vec<Const> = c
        .args
        .iter()
        .map(|a| eval(m, env, a))
        .collect::<DResult<_>>()?;
    let shared = match f.strip_prefix("math.") {
        Some(name) => ops::math(name, &args),
        None if !f.contains('.') && c.keywords.is_empty() => ops::builtin(&f, &args),
        None => None,
    };
    match shared {
        Some(r) => r.map_err(|err| raises(m.span(c), err)),
        None => call(&m.lang, &f, &args).ok_or_else(|| not_const(Span::default())),
    }
}

/// Where a dotted name of host code leads: its first part replaced by
/// what the file imported under that name (`driver.get_num_sms` →
/// `tilelang.carver.arch.driver.get_num_sms`); `None` where the first part
/// is no import (or a variable of `env` hides it).
fn imported(m: &Module, env: &HashMap<String, Const>, dotted: &str) -> Option<String> {
    let (first, rest) = match dotted.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (dotted, None),
    };
    if env.contains_key(first) {
        return None;
    }
    let path = m.imports.get(first)?;
    Some(match rest {
        Some(r) => format!("{path}.{r}"),
        None => path.clone(),
    })
}

/// The names under which the file imported a module whose device queries
/// [`device_query`] answers (`driver`, `torch`), for kernels whose host code
/// is elaborated with the kernel (eager kernels' prologues).
pub fn device_query_modules(m: &Module) -> impl Iterator<Item = &str> {
    m.imports
        .iter()
        .filter(|(_, path)| {
            path.starts_with("tilelang.carver.arch.driver")
                || ["torch", "torch.cuda"].contains(&path.as_str())
        })
        .map(|(name, _)| name.as_str())
}

/// The GPU queries of host code, answered from the module's target device
/// (the launch's `"target"`): `tilelang.carver.arch.driver.get_num_sms()`,
/// `torch.cuda.get_device_capability()` and
/// `torch.cuda.get_device_properties()` (`major`, `minor`,
/// `multi_processor_count`), all of device 0 (ksem's target is one device),
/// and `torch.cuda.is_available()` (true: the target is a CUDA GPU). `Ok(None)`: `f` is neither; an error with the
/// call's span: a device other than 0.
fn device_query(
    m: &Module,
    env: &HashMap<String, Const>,
    f: &str,
    c: &ast::ExprCall,
) -> DResult<Option<Const>> {
    let Some(path) = imported(m, env, f) else {
        return Ok(None);
    };
    let (param, value) = match path.as_str() {
        "tilelang.carver.arch.driver.get_num_sms"
        | "tilelang.carver.arch.driver.cuda_driver.get_num_sms" => (
            "device_id",
            Const::Num(PyNum::Int(m.target.num_sms as i128)),
        ),
        "torch.cuda.get_device_capability" => {
            let (major, minor) = m.target.capability;
            (
                "device",
                Const::Tuple(vec![
                    Const::Num(PyNum::Int(major as i128)),
                    Const::Num(PyNum::Int(minor as i128)),
                ]),
            )
        }
        "torch.cuda.get_device_properties" => ("device", Const::Extra(Device::Props)),
        // the target is a CUDA device
        "torch.cuda.is_available" if c.args.is_empty() && c.keywords.is_empty() => {
            return Ok(Some(Const::Num(PyNum::Bool(true))));
        }
        _ => return Ok(None),
    };
    let span = m.span(c);
    let device = match (c.args.as_slice(), c.keywords.as_slice()) {
        ([], []) => None,
        ([d], []) => Some(d),
        ([], [k]) if k.arg.as_deref() == Some(param) => Some(&k.value),
        _ => {
            return Err(Diagnostic::new(
                span,
                format!("`{f}` takes at most one argument, `{param}`"),
            ))
        }
    };
    // no argument: device 0
    let device = match device {
        Some(d) => eval(m, env, d).map_err(|_| {
            Diagnostic::new(
                span,
                format!("the `{param}` of `{f}` is not known at compile time"),
            )
        })?,
        None => Const::Num(PyNum::Int(0)),
    };
    // device 0 is the target; torch's `None`, "cuda" and "cuda:0" name it too
    let is_target = match &device {
        Const::None => param == "device",
        Const::Str(s) => param == "device" && (s == "cuda" || s == "cuda:0"),
        other => other.as_int() == Some(0),
    };
    if !is_target {
        let named = match &device {
            Const::Str(s) => format!("{s:?}"),
            Const::Num(PyNum::Int(i)) => i.to_string(),
            other => format!("{other:?}"),
        };
        return Err(Diagnostic::new(
            span,
            format!("`{f}` asks about device {named}, but ksem's target is one device, device 0"),
        )
        .with_help("ask about device 0; the launch's \"target\" says what it is"));
    }
    Ok(Some(value))
}

/// Deepest nesting of host helper calls ksem evaluates (Python's own
/// limit is 1000 frames; a deeper one has no value here).
const MAX_HOST_DEPTH: u32 = 64;

/// The module-level function `f` names, where it is a plain host function
/// (no decorator) that no variable of `env` hides.
fn host_helper<'m>(
    m: &'m Module,
    env: &HashMap<String, Const>,
    f: &str,
) -> Option<&'m ast::StmtFunctionDef> {
    let h = m.helpers.get(f).filter(|_| !env.contains_key(f))?;
    h.decorator_list.is_empty().then_some(h)
}

/// The value a call of host helper `h` returns (`block_M, threads =
/// get_configs()`): its parameters bound to the call's arguments or their
/// defaults, its body run by [`run_helper`] on the module's constants.
fn call_helper(
    m: &Module,
    env: &HashMap<String, Const>,
    h: &ast::StmtFunctionDef,
    c: &ast::ExprCall,
) -> DResult<Const> {
    let here = Span::default();
    let a = &h.args;
    if a.vararg.is_some() || a.kwarg.is_some() || m.host_depth.get() >= MAX_HOST_DEPTH {
        return Err(not_const(here));
    }
    let params: Vec<&ast::ArgWithDefault> = a.posonlyargs.iter().chain(&a.args).collect();
    if c.args.len() > params.len() {
        return Err(not_const(here));
    }
    let mut local = m.globals.clone();
    let mut given: Vec<&str> = Vec::new();
    for (p, x) in params.iter().zip(&c.args) {
        local.insert(p.def.arg.to_string(), eval(m, env, x)?);
        given.push(p.def.arg.as_str());
    }
    for k in &c.keywords {
        let name = k.arg.as_deref().ok_or_else(|| not_const(here))?;
        let is_param = params
            .iter()
            .copied()
            .chain(&a.kwonlyargs)
            .any(|p| p.def.arg.as_str() == name);
        if !is_param || given.contains(&name) {
            return Err(not_const(here));
        }
        local.insert(name.to_string(), eval(m, env, &k.value)?);
        given.push(name);
    }
    for p in params.iter().copied().chain(&a.kwonlyargs) {
        if given.contains(&p.def.arg.as_str()) {
            continue;
        }
        let d = p.default.as_deref().ok_or_else(|| not_const(here))?;
        local.insert(p.def.arg.to_string(), eval(m, &m.globals, d)?);
    }
    m.host_depth.set(m.host_depth.get() + 1);
    let r = run_helper(m, &h.body, &mut local);
    m.host_depth.set(m.host_depth.get() - 1);
    Ok(r?.unwrap_or(Const::None))
}

/// Runs the body of a host helper on compile-time values and gives the
/// value it returns (`None` where it falls off the end: Python's `None`).
/// Only statements whose effect ksem knows run: assignments, `if` on a
/// known condition, `assert`, `pass`, docstrings, `return`; any other
/// statement (a loop, a call for its effect) leaves the call without a
/// value rather than skipping it.
fn run_helper(
    m: &Module,
    body: &[ast::Stmt],
    env: &mut HashMap<String, Const>,
) -> DResult<Option<Const>> {
    let here = Span::default();
    for s in body {
        match s {
            ast::Stmt::Assign(asg) => {
                let v = eval(m, env, &asg.value)?;
                for t in &asg.targets {
                    if !matches!(
                        t,
                        ast::Expr::Name(_) | ast::Expr::Tuple(_) | ast::Expr::List(_)
                    ) {
                        return Err(not_const(here));
                    }
                    bind(t, Some(&v), env);
                }
            }
            ast::Stmt::AnnAssign(a) => {
                if let Some(value) = &a.value {
                    let v = eval(m, env, value)?;
                    bind(&a.target, Some(&v), env);
                }
            }
            ast::Stmt::AugAssign(a) => {
                let x = eval(m, env, &a.target)?;
                let y = eval(m, env, &a.value)?;
                let v = binop(a.op, &x, &y).ok_or_else(|| not_const(here))?;
                bind(&a.target, Some(&v), env);
            }
            ast::Stmt::If(i) => {
                let c = eval(m, env, &i.test)?
                    .truthy()
                    .ok_or_else(|| not_const(here))?;
                let branch = if c { &i.body } else { &i.orelse };
                if let Some(r) = run_helper(m, branch, env)? {
                    return Ok(Some(r));
                }
            }
            ast::Stmt::Assert(a) => {
                if eval(m, env, &a.test)?.truthy() != Some(true) {
                    return Err(not_const(here));
                }
            }
            ast::Stmt::Return(r) => {
                return match &r.value {
                    Some(v) => eval(m, env, v).map(Some),
                    None => Ok(Some(Const::None)),
                };
            }
            ast::Stmt::Pass(_) => {}
            ast::Stmt::Expr(x) if matches!(&*x.value, ast::Expr::Constant(_)) => {}
            _ => return Err(not_const(here)),
        }
    }
    Ok(None)
}

/// Whether an error of [`eval`] has a place in the file: a host call that
/// cannot run as written, to be reported; one without only says "not known
/// at compile time".
pub fn is_located(d: &Diagnostic) -> bool {
    d.span != Span::default()
}

/// The value of `r` where known: `Ok(None)` for "not known at compile
/// time", a located error passed on.
fn known(r: DResult<Const>) -> DResult<Option<Const>> {
    match r {
        Ok(c) => Ok(Some(c)),
        Err(d) if is_located(&d) => Err(d),
        Err(_) => Ok(None),
    }
}

/// Whether `e` is a call of TVM's `DataType` (`DataType(x)`, `tvm.DataType(x)`).
fn is_data_type_call(e: &ast::Expr) -> bool {
    match e {
        ast::Expr::Call(c) => super::super::py::dotted(&c.func)
            .is_some_and(|p| p == "DataType" || p.ends_with(".DataType")),
        _ => false,
    }
}

/// Whether `e` evaluates to `torch.cuda.get_device_properties(…)` of the
/// target (the call, or a name bound to it); a query of another device is
/// its error (with the query's span).
fn is_device_props(m: &Module, env: &HashMap<String, Const>, e: &ast::Expr) -> DResult<bool> {
    match eval(m, env, e) {
        Ok(c) => Ok(c == Const::Extra(Device::Props)),
        Err(d) if d.span != Span::default() => Err(d),
        Err(_) => Ok(false),
    }
}

/// TileLang's own host functions on constants: `T.ceildiv`,
/// `tilelang.cdiv`, `tilelang.next_power_of_2` (Python's builtins and
/// `math` are `py::value`'s).
fn call(lang: &[String], f: &str, args: &[Const]) -> Option<Const> {
    let last = f.rsplit('.').next().unwrap_or(f);
    let is_lang = lang.iter().any(|l| f == format!("{l}.{last}"));
    Some(match (last, args) {
        ("ceildiv", [a, b]) if is_lang => {
            let (a, b) = (a.as_int()?, b.as_int()?);
            Const::Num(PyNum::Int(ceil_div(a, b)?))
        }
        ("cdiv", [a, b]) if f.starts_with("tilelang") || f.starts_with("triton") => {
            let (a, b) = (a.as_int()?, b.as_int()?);
            Const::Num(PyNum::Int(ceil_div(a, b)?))
        }
        ("next_power_of_2", [x]) if f.starts_with("tilelang") || f.starts_with("triton") => {
            let n = x.as_int()?;
            Const::Num(PyNum::Int(if n <= 1 {
                1
            } else {
                1i128 << (128 - (n - 1).leading_zeros())
            }))
        }
        _ => return None,
    })
}

/// The seed's `T.ceildiv(a, b)`: ⌈a / b⌉; `None` for `b` = 0 or a quotient
/// beyond 128 bits.
pub fn ceil_div(a: i128, b: i128) -> Option<i128> {
    num::int_ceil_div(a, b)
}

/// `x op y` on Python values (`py::value`'s rule; `None` where Python
/// would raise).
pub fn binop(op: ast::Operator, x: &Const, y: &Const) -> Option<Const> {
    ops::binop(op, x, y)?.ok()
}

/// Calls a kernel factory: binds its parameters from the launch's
/// `factory_args` (or their defaults), runs the assignments of its body and
/// returns the `@T.prim_func` it defines with the names it can see.
pub fn call_factory(
    m: &Module,
    f: &ast::StmtFunctionDef,
    launch: &Launch,
) -> DResult<(ast::StmtFunctionDef, HashMap<String, Const>)> {
    let mut env = m.globals.clone();
    let a = &f.args;
    let positional: Vec<&ast::ArgWithDefault> = a
        .posonlyargs
        .iter()
        .chain(&a.args)
        .chain(&a.kwonlyargs)
        .collect();
    for p in &positional {
        let name = p.def.arg.to_string();
        let span = m.span(&p.def);
        let v = match launch.factory_args.iter().find(|(n, _)| *n == name) {
            Some((_, c)) => Const::from_arg(c),
            None => match &p.default {
                Some(d) => {
                    let v = eval(m, &env, d).map_err(|_| {
                        Diagnostic::new(span, format!("the default of `{name}` is not a constant"))
                    })?;
                    autotuned_default(m, f, &name, v, span)?
                }
                None => {
                    return Err(Diagnostic::new(
                        span,
                        format!("kernel factory `{}` needs `{name}`", f.name),
                    )
                    .with_help(format!(
                        "give it in the launch: \"factory_args\": {{\"{name}\": …}}"
                    )))
                }
            },
        };
        env.insert(name, v);
    }
    for (name, _) in &launch.factory_args {
        if !positional.iter().any(|p| p.def.arg.as_str() == name) {
            return Err(Diagnostic::new(
                m.span(f),
                format!("kernel factory `{}` has no parameter `{name}`", f.name),
            ));
        }
    }
    let mut kernels: HashMap<String, ast::StmtFunctionDef> = HashMap::new();
    let before = env.clone();
    let mut ret = run_host(m, &f.body, &mut env, &mut kernels)?;
    // `M = T.dynamic("M")` sizes take this launch's values, read off the
    // shapes of the returned kernel's tensors; then the host code runs
    // again with them known
    if let Some(ast::Expr::Name(n)) = &ret {
        if let Some(k) = kernels.get(n.id.as_str()) {
            let sizes = dynamic_sizes(m, &f.body, k, launch);
            if !sizes.is_empty() {
                env = before;
                env.extend(sizes);
                kernels.clear();
                ret = run_host(m, &f.body, &mut env, &mut kernels)?;
            }
        }
    }
    match ret {
        Some(ret) => match &ret {
            ast::Expr::Name(n) => match kernels.get(n.id.as_str()) {
                Some(k) => Ok((k.clone(), env)),
                None => Err(Diagnostic::new(
                    m.span(&ret),
                    format!(
                        "kernel factory `{}` returns `{}`, which is not a @T.prim_func it defines",
                        f.name, n.id
                    ),
                )),
            },
            other => Err(Diagnostic::new(
                m.span(other),
                format!(
                    "kernel factory `{}` must return the @T.prim_func it defines by name",
                    f.name
                ),
            )),
        },
        None => Err(Diagnostic::new(
            m.span(f),
            format!("kernel factory `{}` returns no @T.prim_func", f.name),
        )),
    }
}

/// A parameter's default `v` as the kernel sees it, or the error where
/// `f`'s `@autotune` tunes it and the default is `None`: real TileLang's
/// `@autotune` fills such a parameter from the config it measures fastest,
/// which ksem does not measure, so the launch must choose.
pub fn autotuned_default(
    m: &Module,
    f: &ast::StmtFunctionDef,
    name: &str,
    v: Const,
    span: Span,
) -> DResult<Const> {
    if v != Const::None || !m.autotunes(f, name) {
        return Ok(v);
    }
    Err(Diagnostic::new(
        span,
        format!(
            "`{name}` is None until @autotune fills it from the config it measures fastest, which ksem does not measure"
        ),
    )
    .with_help(format!(
        "choose the config in the launch: \"factory_args\": {{\"{name}\": …}}"
    )))
}

/// Runs the host statements of a factory body with Python's meaning on
/// compile-time values: assignments, `if`/`else` on known conditions,
/// asserts, `@T.prim_func` definitions (collected in `kernels`), up to the
/// `return`, whose expression is the result. Statements whose value ksem
/// cannot know at compile time make their names unknown; a condition it
/// cannot decide is an error, not a guess.
fn run_host(
    m: &Module,
    body: &[ast::Stmt],
    env: &mut HashMap<String, Const>,
    kernels: &mut HashMap<String, ast::StmtFunctionDef>,
) -> DResult<Option<ast::Expr>> {
    for s in body {
        let span = m.span(s);
        match s {
            ast::Stmt::FunctionDef(inner)
                if inner.decorator_list.iter().any(|d| m.is_prim_func(d)) =>
            {
                kernels.insert(inner.name.to_string(), inner.clone());
            }
            // a `T.dynamic` size already bound to the launch's value
            ast::Stmt::Assign(asg)
                if is_dynamic(m, &asg.value)
                    && matches!(asg.targets.as_slice(),
                        [t] if dynamic_targets(t)
                            .is_some_and(|ns| ns.iter().all(|n| env.contains_key(n)))) => {}
            ast::Stmt::Assign(asg) => {
                let v = known(eval(m, env, &asg.value))?;
                for t in &asg.targets {
                    bind(t, v.as_ref(), env);
                }
            }
            ast::Stmt::AnnAssign(a) => {
                if let Some(value) = &a.value {
                    let v = known(eval(m, env, value))?;
                    bind(&a.target, v.as_ref(), env);
                }
            }
            ast::Stmt::AugAssign(a) => {
                let v = known(eval(m, env, &a.target))?
                    .zip(known(eval(m, env, &a.value))?)
                    .and_then(|(x, y)| binop(a.op, &x, &y));
                bind(&a.target, v.as_ref(), env);
            }
            ast::Stmt::If(i) => {
                let c = known(eval(m, env, &i.test))?.and_then(|c| c.truthy());
                let Some(c) = c else {
                    return Err(Diagnostic::new(
                        m.span(&*i.test),
                        "this condition of the kernel factory is not known at compile time",
                    )
                    .with_help("make it depend only on the factory's arguments and constants"));
                };
                let branch = if c { &i.body } else { &i.orelse };
                if let Some(r) = run_host(m, branch, env, kernels)? {
                    return Ok(Some(r));
                }
            }
            ast::Stmt::Assert(a) => {
                if let Some(c) = known(eval(m, env, &a.test))? {
                    if c.truthy() == Some(false) {
                        return Err(Diagnostic::new(
                            span,
                            "an assertion of the kernel factory fails for these arguments",
                        ));
                    }
                }
            }
            ast::Stmt::Return(r) => {
                return Ok(Some(r.value.as_deref().cloned().unwrap_or_else(|| {
                    ast::Expr::Constant(ast::ExprConstant {
                        range: Default::default(),
                        value: Constant::None,
                        kind: None,
                    })
                })));
            }
            // docstrings, prints, imports and other host code do not
            // change the kernel
            _ => {}
        }
    }
    Ok(None)
}

/// Whether `e` is `T.dynamic(…)` or `T.symbolic(…)`: a size known only at
/// launch.
/// The shape of the buffer the launch passes for `name` (its given shape,
/// or one dimension of its length); `None` where it passes no buffer.
pub(super) fn launch_shape(launch: &Launch, name: &str) -> Option<Vec<usize>> {
    match launch.arg(name) {
        Some(crate::launch::ArgSpec::Buffer {
            bits, shape: given, ..
        }) => Some(given.clone().unwrap_or_else(|| vec![bits.len()])),
        _ => None,
    }
}

fn is_dynamic(m: &Module, e: &ast::Expr) -> bool {
    let ast::Expr::Call(c) = e else { return false };
    super::super::py::dotted(&c.func).is_some_and(|p| {
        m.lang
            .iter()
            .any(|l| p == format!("{l}.dynamic") || p == format!("{l}.symbolic"))
    })
}

/// The names a `T.dynamic(…)` assignment binds: `M = T.dynamic("m")` or
/// `B, S = T.dynamic("B, S")` (TileLang returns a tuple of variables where
/// the string lists several names); `None` for other targets.
pub(super) fn dynamic_targets(target: &ast::Expr) -> Option<Vec<String>> {
    let one = |e: &ast::Expr| match e {
        ast::Expr::Name(n) => Some(n.id.to_string()),
        _ => None,
    };
    match target {
        ast::Expr::Tuple(t) => t.elts.iter().map(one).collect(),
        ast::Expr::List(t) => t.elts.iter().map(one).collect(),
        other => one(other).map(|n| vec![n]),
    }
}

/// The values of a factory's `T.dynamic` sizes for `launch`: a size named
/// by a dimension of a tensor parameter of `kernel` (directly, or through a
/// name the factory binds to a shape list, `shape = [total, heads, dim]`)
/// takes that dimension of the launch's buffer.
fn dynamic_sizes(
    m: &Module,
    body: &[ast::Stmt],
    kernel: &ast::StmtFunctionDef,
    launch: &Launch,
) -> HashMap<String, Const> {
    let mut dynamic: Vec<String> = Vec::new();
    let mut shapes: HashMap<String, Vec<ast::Expr>> = HashMap::new();
    for s in body {
        let ast::Stmt::Assign(a) = s else { continue };
        if let ([t], true) = (a.targets.as_slice(), is_dynamic(m, &a.value)) {
            dynamic.extend(dynamic_targets(t).unwrap_or_default());
            continue;
        }
        let [ast::Expr::Name(n)] = a.targets.as_slice() else {
            continue;
        };
        match &*a.value {
            ast::Expr::Tuple(t) => {
                shapes.insert(n.id.to_string(), t.elts.clone());
            }
            ast::Expr::List(t) => {
                shapes.insert(n.id.to_string(), t.elts.clone());
            }
            _ => {}
        }
    }
    let mut out = HashMap::new();
    if dynamic.is_empty() {
        return out;
    }
    for p in kernel.args.args.iter().chain(&kernel.args.kwonlyargs) {
        let Some(ann) = p.def.annotation.as_deref() else {
            continue;
        };
        let Some(ast::Expr::Call(c)) = super::elab::tensor_call(ann) else {
            continue;
        };
        let items = match c.args.first() {
            Some(ast::Expr::Tuple(t)) => t.elts.clone(),
            Some(ast::Expr::List(t)) => t.elts.clone(),
            Some(ast::Expr::Name(n)) => match shapes.get(n.id.as_str()) {
                Some(v) => v.clone(),
                None => continue,
            },
            _ => continue,
        };
        let Some(actual) = launch_shape(launch, p.def.arg.as_str()) else {
            continue;
        };
        if actual.len() != items.len() {
            continue;
        }
        for (it, &n) in items.iter().zip(&actual) {
            if let ast::Expr::Name(s) = it {
                if dynamic.iter().any(|d| d == s.id.as_str()) {
                    out.entry(s.id.to_string())
                        .or_insert(Const::Num(PyNum::Int(n as i128)));
                }
            }
        }
    }
    out
}

/// Binds an assignment target to a value (`None`: not known at compile
/// time, so the name is removed); tuple targets unpack tuples.
pub fn bind(t: &ast::Expr, v: Option<&Const>, env: &mut HashMap<String, Const>) {
    let elts = match t {
        ast::Expr::Tuple(tt) => Some(&tt.elts),
        ast::Expr::List(tt) => Some(&tt.elts),
        _ => None,
    };
    match (t, elts, v) {
        (ast::Expr::Name(n), _, Some(v)) => {
            env.insert(n.id.to_string(), v.clone());
        }
        (ast::Expr::Name(n), _, None) => {
            env.remove(n.id.as_str());
        }
        (_, Some(elts), Some(Const::Tuple(vs) | Const::List(vs))) if elts.len() == vs.len() => {
            for (t, v) in elts.iter().zip(vs) {
                bind(t, Some(v), env);
            }
        }
        (_, Some(elts), _) => {
            for t in elts {
                bind(t, None, env);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_floor_division_and_modulo_of_constants() {
        // the seed's comparison table, floordiv/floormod columns
        for (a, b, q, r) in [
            (7, 2, 3, 1),
            (-7, 2, -4, 1),
            (7, -2, -4, -1),
            (-7, -2, 3, -1),
        ] {
            let (x, y) = (Const::Num(PyNum::Int(a)), Const::Num(PyNum::Int(b)));
            assert_eq!(
                binop(ast::Operator::FloorDiv, &x, &y),
                Some(Const::Num(PyNum::Int(q)))
            );
            assert_eq!(
                binop(ast::Operator::Mod, &x, &y),
                Some(Const::Num(PyNum::Int(r)))
            );
        }
        assert_eq!(
            binop(
                ast::Operator::FloorDiv,
                &Const::Num(PyNum::Int(1)),
                &Const::Num(PyNum::Int(0))
            ),
            None
        );
    }
}
