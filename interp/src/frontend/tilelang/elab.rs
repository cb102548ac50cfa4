//! Elaboration of one TileLang `@T.prim_func` into the IR: a SIMT program
//! whose blocks have one thread each (the module documentation says why).
//!
//! Typing is TVM's, measured (`types.rs`): a Python int literal is int32
//! (int64 where it does not fit), a float literal float32; mixed operands
//! meet in [`types::promote`]. `//` and `%` floor (the seed); `/` on
//! integers is refused, as TileLang refuses it. Python values that are known
//! at compile time (sizes, factory arguments, loop-invariant arithmetic on
//! them) stay Python values until they meet a runtime value.

use super::consts::{self, Const};
use super::{types, Module, DIALECT};
use crate::dtype::DType;
use crate::float::{Overflow, Rounding};
use crate::frontend::py::{self, dotted, op_text};
use crate::ir::build::*;
use crate::ir::*;
use crate::launch::{ArgSpec, Launch};
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Constant};
use std::collections::HashMap;

/// Integer `//`, `%`, `T.floordiv`, `T.floormod`: floor; a zero divisor is
/// UB (measured: the C target traps with SIGFPE).
const FLOOR: IntDiv = IntDiv::FLOOR;
/// `T.truncdiv`, `T.truncmod`: C's rounding.
const TRUNC: IntDiv = IntDiv::TRUNC;
/// Value conversion (`astype`, `T.Cast`, stores into a buffer of another dtype).
const CONVERT: CastKind = CastKind::Convert(Rounding::NearestEven, Overflow::Infinity);

/// A buffer: global (a parameter), shared or local (allocated in the kernel).
#[derive(Clone, Debug)]
struct Buf {
    name: String,
    base: Expr,
    dtype: DType,
    shape: Vec<usize>,
    space: AddrSpace,
    /// Made by `T.alloc_var`: its name alone means element 0.
    scalar: bool,
    /// Made by `T.alloc_local`: thread-private, so a `T.Parallel` index may
    /// not index it (TileLang's semantic check, measured).
    private: bool,
}

/// Part of a buffer: per dimension a start and an extent (`None`: an index,
/// not a slice, whose extent comes from the other side of a copy).
#[derive(Clone, Debug)]
struct Region {
    buf: Buf,
    starts: Vec<Expr>,
    extents: Vec<Option<usize>>,
}

/// What a name or expression denotes during elaboration.
#[derive(Clone, Debug)]
enum Val {
    /// A 0-d runtime value.
    Num(Expr),
    /// A Python value known at compile time.
    Py(Const),
    Buf(Buf),
    Region(Region),
    /// A dotted path into a module (`T`, `T.Parallel`).
    Path(String),
    /// A helper function of the module.
    Helper(String),
}

fn err<T>(span: Span, msg: impl Into<String>) -> DResult<T> {
    Err(Diagnostic::new(span, msg))
}

fn convert(e: Expr, d: DType) -> Expr {
    if dtype_of(&e) == d {
        return e;
    }
    let span = e.span;
    mk(ExprKind::Cast(Box::new(e), CONVERT), Type::scalar(d), span)
}

/// The elaborator of one kernel.
pub struct Elab<'m> {
    m: &'m Module,
    env: HashMap<String, Val>,
    vars: Vec<(String, Type)>,
    arrays: Vec<ArrayDecl>,
    blocks: Vec<Block>,
    grid: Option<([u32; 3], Span)>,
    threads: Option<([u32; 3], Span)>,
    /// Loops enclosing the current statement.
    loops: usize,
    /// Helper functions being inlined (recursion is refused).
    inlining: Vec<String>,
    /// Index variables of the enclosing `T.Parallel` loops.
    parallel: Vec<VarId>,
    params: Vec<Param>,
    /// Outputs made with `T.empty` (name, element count).
    fresh: Vec<(String, usize)>,
    /// Names from `T.const("M, N")` not yet bound to a size.
    symbols: Vec<String>,
    /// The launch's values of the scalar arguments.
    launch_scalars: HashMap<String, Const>,
}

impl<'m> Elab<'m> {
    /// An elaborator for a kernel of `m` that sees the compile-time names `consts`.
    pub fn new(m: &'m Module, consts: HashMap<String, Const>) -> Self {
        let mut env: HashMap<String, Val> =
            consts.into_iter().map(|(k, v)| (k, Val::Py(v))).collect();
        for l in &m.lang {
            env.insert(l.clone(), Val::Path("T".into()));
        }
        for h in m.helpers.keys() {
            env.insert(h.clone(), Val::Helper(h.clone()));
        }
        // host modules whose functions run on compile-time values
        for p in m.package.iter().map(String::as_str).chain(["math"]) {
            env.entry(p.to_string()).or_insert(Val::Path(p.to_string()));
        }
        Elab {
            m,
            env,
            vars: Vec::new(),
            arrays: Vec::new(),
            blocks: vec![Vec::new()],
            grid: None,
            threads: None,
            loops: 0,
            inlining: Vec::new(),
            parallel: Vec::new(),
            params: Vec::new(),
            fresh: Vec::new(),
            symbols: Vec::new(),
            launch_scalars: HashMap::new(),
        }
    }

    fn span(&self, node: &impl ast::Ranged) -> Span {
        self.m.span(node)
    }

    fn emit(&mut self, s: Stmt) {
        self.blocks.last_mut().expect("a block is open").push(s);
    }

    fn new_var(&mut self, name: &str, ty: Type) -> VarId {
        self.vars.push((name.to_string(), ty));
        self.vars.len() - 1
    }

    fn var_expr(&self, v: VarId, span: Span) -> Expr {
        mk(ExprKind::Var(v), self.vars[v].1.clone(), span)
    }

    fn block_of(&mut self, body: &[ast::Stmt]) -> DResult<Block> {
        self.blocks.push(Vec::new());
        let r = self.stmts(body);
        let b = self.blocks.pop().expect("pushed above");
        r.map(|()| b)
    }

    /// Elaborates `f` (the kernel `name`) for `launch`.
    pub fn kernel(
        mut self,
        name: &str,
        f: &ast::StmtFunctionDef,
        launch: &Launch,
    ) -> DResult<Kernel> {
        self.params = self.params(f, launch)?;
        self.stmts(&f.body)?;
        self.finish(name, f, launch)
    }

    /// Elaborates an eager-style kernel (`@tilelang.jit def f(A, B,
    /// block_M, …)`): the parameters annotated in the body
    /// (`A: T.Tensor((M, N), dtype)`) are the launch's tensors, the others
    /// come from `"factory_args"` (or their defaults); `M, N =
    /// T.const("M, N")` are sizes bound from the tensors' shapes; `C =
    /// T.empty(shape, dtype)` makes an output reported under its name.
    pub fn eager(
        mut self,
        name: &str,
        f: &ast::StmtFunctionDef,
        launch: &Launch,
    ) -> DResult<Kernel> {
        let tensors: Vec<String> = f
            .body
            .iter()
            .filter_map(|s| match s {
                ast::Stmt::AnnAssign(a) if a.value.is_none() => match &*a.target {
                    ast::Expr::Name(n) => Some(n.id.to_string()),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let a = &f.args;
        if let Some(v) = a.vararg.as_deref().or(a.kwarg.as_deref()) {
            return py::unsupported(
                self.span(v),
                "`*args` / `**kwargs`",
                DIALECT,
                "use explicit parameters",
            );
        }
        for p in a.posonlyargs.iter().chain(&a.args).chain(&a.kwonlyargs) {
            let pname = p.def.arg.to_string();
            if tensors.contains(&pname) {
                continue;
            }
            let span = self.span(&p.def);
            let v = match launch.factory_args.iter().find(|(n, _)| *n == pname) {
                Some((_, c)) => Const::from_arg(c),
                None => match &p.default {
                    Some(d) => self.py_value(d)?,
                    None => {
                        return err(span, format!("`{name}` needs `{pname}`")).map_err(|d| {
                            d.with_help(format!(
                                "give it in the launch: \"factory_args\": {{\"{pname}\": …}}"
                            ))
                        })
                    }
                },
            };
            self.env.insert(pname, Val::Py(v));
        }
        for (fname, _) in &launch.factory_args {
            let known = a
                .posonlyargs
                .iter()
                .chain(&a.args)
                .chain(&a.kwonlyargs)
                .any(|p| p.def.arg.as_str() == fname);
            if !known || tensors.contains(fname) {
                return err(
                    self.span(f),
                    format!("`{name}` has no non-tensor parameter `{fname}`"),
                );
            }
        }
        // first the sizes: a T.const name takes its value from the shape of a
        // tensor whose annotation names it (a name may be used before that
        // annotation), read off the annotations without evaluating them;
        // then everything in order
        let mut shapes: HashMap<String, Vec<ast::Expr>> = HashMap::new();
        for s in &f.body {
            match s {
                ast::Stmt::Assign(a)
                    if self.is_lang_call(&a.value, "const")
                        || self.is_lang_call(&a.value, "dynamic") =>
                {
                    self.eager_assign(&a.targets[0], &a.value, self.span(s))?;
                }
                ast::Stmt::Assign(a) => {
                    // `shape = (M, K)`, or `(M, K) if not trans else (K, M)`
                    let mut value = &*a.value;
                    if let ast::Expr::IfExp(i) = value {
                        match self.py_value(&i.test).ok().and_then(|c| consts::truthy(&c)) {
                            Some(true) => value = &i.body,
                            Some(false) => value = &i.orelse,
                            None => {}
                        }
                    }
                    let elts = match value {
                        ast::Expr::Tuple(t) => Some(&t.elts),
                        ast::Expr::List(t) => Some(&t.elts),
                        _ => None,
                    };
                    if let ([ast::Expr::Name(n)], Some(elts)) = (a.targets.as_slice(), elts) {
                        shapes.insert(n.id.to_string(), elts.clone());
                    }
                }
                ast::Stmt::AnnAssign(an) if an.value.is_none() => {
                    let ast::Expr::Name(n) = &*an.target else {
                        unreachable!("collected above")
                    };
                    self.bind_sizes(n.id.as_str(), &an.annotation, &shapes, launch);
                }
                _ => {}
            }
        }
        let mut in_kernel = false;
        for s in &f.body {
            match s {
                ast::Stmt::AnnAssign(an) if an.value.is_none() => {
                    let ast::Expr::Name(n) = &*an.target else {
                        unreachable!("collected above")
                    };
                    self.tensor_param(n.id.as_str(), &an.annotation, launch, self.span(s))?;
                }
                ast::Stmt::Assign(a)
                    if self.is_lang_call(&a.value, "const")
                        || self.is_lang_call(&a.value, "dynamic") => {}
                ast::Stmt::With(_) => {
                    in_kernel = true;
                    self.stmt(s)?;
                }
                // the prologue is host Python: asserts on constants and
                // tuple unpacking of constants are Python's
                ast::Stmt::Assert(a) if !in_kernel => {
                    if let Ok(c) = self.py_value(&a.test) {
                        if consts::truthy(&c) == Some(false) {
                            return err(
                                self.span(s),
                                "an assertion of the kernel fails for these arguments",
                            );
                        }
                    }
                }
                ast::Stmt::Assign(a)
                    if !in_kernel
                        && matches!(
                            a.targets.as_slice(),
                            [ast::Expr::Tuple(_) | ast::Expr::List(_)]
                        ) =>
                {
                    let v = self.py_value(&a.value).ok();
                    let mut bound: HashMap<String, Const> = HashMap::new();
                    consts::bind(&a.targets[0], v.as_ref(), &mut bound);
                    if bound.is_empty() {
                        return py::unsupported(
                            self.span(s),
                            "tuple unpacking of runtime values",
                            DIALECT,
                            "assign each value separately",
                        );
                    }
                    for (k, v) in bound {
                        self.env.insert(k, Val::Py(v));
                    }
                }
                ast::Stmt::Return(r) => {
                    let made = |e: &ast::Expr| matches!(e, ast::Expr::Name(n) if self.fresh.iter().any(|(f, _)| f == n.id.as_str()));
                    let ok = match r.value.as_deref() {
                        None => true,
                        Some(ast::Expr::Tuple(t)) => t.elts.iter().all(made),
                        Some(e) => made(e),
                    };
                    if !ok {
                        return err(
                            self.span(s),
                            "an eager kernel returns the outputs it made with T.empty",
                        );
                    }
                }
                other => self.stmt(other)?,
            }
        }
        for (n, _) in &launch.args {
            if !self.params.iter().any(|p| &p.name == n) {
                return err(self.span(f), format!("kernel `{name}` has no tensor `{n}`"));
            }
        }
        self.finish(name, f, launch)
    }

    /// Binds the unbound `T.const` names that annotation `ann` of tensor
    /// `name` uses as whole dimensions, from the launch tensor's shape
    /// (`shapes`: prologue names bound to shape lists).
    fn bind_sizes(
        &mut self,
        name: &str,
        ann: &ast::Expr,
        shapes: &HashMap<String, Vec<ast::Expr>>,
        launch: &Launch,
    ) {
        let call = tensor_call(ann);
        let Some(ast::Expr::Call(c)) = &call else {
            return;
        };
        let Some(shape_e) = c.args.first() else {
            return;
        };
        let items: Vec<ast::Expr> = match shape_e {
            ast::Expr::Tuple(t) => t.elts.clone(),
            ast::Expr::List(t) => t.elts.clone(),
            ast::Expr::Name(n) => match shapes.get(n.id.as_str()) {
                Some(v) => v.clone(),
                None => return,
            },
            one => vec![one.clone()],
        };
        let Some(ArgSpec::Buffer {
            bits, shape: given, ..
        }) = launch.arg(name)
        else {
            return;
        };
        let actual: Vec<usize> = given.clone().unwrap_or_else(|| vec![bits.len()]);
        if items.len() != actual.len() {
            return;
        }
        for (it, &n) in items.iter().zip(&actual) {
            if let ast::Expr::Name(s) = it {
                if let Some(k) = self.symbols.iter().position(|x| x == s.id.as_str()) {
                    self.symbols.remove(k);
                    self.env
                        .insert(s.id.to_string(), Val::Py(Const::Int(n as i128)));
                }
            }
        }
    }

    /// `A: T.Tensor((M, N), dtype)` in an eager kernel: the launch's tensor
    /// `A`, whose shape binds the sizes of `T.const`.
    fn tensor_param(
        &mut self,
        name: &str,
        ann: &ast::Expr,
        launch: &Launch,
        span: Span,
    ) -> DResult<()> {
        let call = tensor_call(ann);
        let Some(ast::Expr::Call(c)) = &call else {
            return err(
                span,
                "Annotation should be Var: a tensor is annotated `T.Tensor(shape, dtype)`",
            );
        };
        let shape_e = c
            .args
            .first()
            .ok_or_else(|| Diagnostic::new(span, "T.Tensor needs a shape"))?;
        let d = match c.args.get(1) {
            Some(e) => self.dtype_arg(e)?,
            None => DType::F32,
        };
        let Some(ArgSpec::Buffer {
            dtype,
            bits,
            shape: given,
        }) = launch.arg(name)
        else {
            return err(span, format!("the launch must pass a buffer for `{name}`"));
        };
        if *dtype != d {
            return err(
                span,
                format!(
                    "`{name}` is a {} tensor but the launch passes {}",
                    types::dtype_name(d),
                    types::dtype_name(*dtype)
                ),
            );
        }
        let actual: Vec<usize> = given.clone().unwrap_or_else(|| vec![bits.len()]);
        if let (ast::Expr::Name(_), Ok(Const::Tuple(dims))) = (shape_e, self.py_value(shape_e)) {
            // a shape held in a name (`q_shape = [batch, heads, dim]`)
            let want: Option<Vec<usize>> = dims
                .iter()
                .map(|d| d.as_int().map(|n| n as usize))
                .collect();
            if want.as_deref() != Some(actual.as_slice()) {
                return err(
                    span,
                    format!("`{name}` has shape {want:?} but the launch passes {actual:?}"),
                );
            }
            return self.declare_tensor(name, d, actual, span);
        }
        let items: Vec<&ast::Expr> = match shape_e {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            ast::Expr::List(t) => t.elts.iter().collect(),
            one => vec![one],
        };
        if items.len() != actual.len() {
            return err(
                span,
                format!(
                    "`{name}` has {} dimension(s) but the launch passes shape {actual:?}",
                    items.len()
                ),
            )
            .map_err(|d| d.with_help("give the buffer a \"shape\" in the launch"));
        }
        for (it, &n) in items.iter().zip(&actual) {
            if let ast::Expr::Name(s) = it {
                if let Some(k) = self.symbols.iter().position(|x| x == s.id.as_str()) {
                    self.symbols.remove(k);
                    self.env
                        .insert(s.id.to_string(), Val::Py(Const::Int(n as i128)));
                    continue;
                }
            }
            match self.py_value(it).ok().and_then(|c| c.as_int()) {
                Some(v) if v == n as i128 => {}
                Some(v) => {
                    return err(
                        self.span(*it),
                        format!("`{name}` needs size {v} here but the launch passes {n}"),
                    )
                }
                None => {
                    return err(
                        self.span(*it),
                        "a tensor size must be a T.const name or a compile-time constant",
                    )
                }
            }
        }
        self.declare_tensor(name, d, actual, span)
    }

    /// The tensor parameter `name` of dtype `d` and shape `actual`.
    fn declare_tensor(
        &mut self,
        name: &str,
        d: DType,
        actual: Vec<usize>,
        span: Span,
    ) -> DResult<()> {
        let v = self.new_var(name, Type::global_ptr(d));
        self.params.push(Param {
            name: name.to_string(),
            kind: ParamKind::Pointer(d),
            var: Some(v),
        });
        let base = self.var_expr(v, span);
        self.env.insert(
            name.to_string(),
            Val::Buf(Buf {
                name: name.to_string(),
                base,
                dtype: d,
                shape: actual,
                space: AddrSpace::Global,
                scalar: false,
                private: false,
            }),
        );
        Ok(())
    }

    /// The grid and the kernel, once the body has been elaborated.
    fn finish(mut self, name: &str, f: &ast::StmtFunctionDef, launch: &Launch) -> DResult<Kernel> {
        let fspan = self.span(f);
        let Some(grid) = self.grid else {
            return err(
                fspan,
                format!("kernel `{name}` has no `with T.Kernel(…)` block"),
            )
            .map_err(|d| {
                d.with_help(
                    "put the kernel's body under `with T.Kernel(grid_x, …, threads=N) as bx:`",
                )
            });
        };
        // the launch may give grid and block; they must agree with T.Kernel
        let (grid, _) = crate::frontend::geometry(launch, Some(grid), self.threads)?;
        let body = self.blocks.pop().expect("the kernel's block");
        Ok(Kernel {
            name: name.to_string(),
            model: Model::Simt,
            grid,
            block: [1, 1, 1],
            params: self.params,
            fresh: self.fresh,
            arrays: self.arrays,
            vars: self.vars,
            body,
        })
    }

    /// The kernel's parameters: `T.Tensor`/`T.Buffer` buffers and typed scalars.
    fn params(&mut self, f: &ast::StmtFunctionDef, launch: &Launch) -> DResult<Vec<Param>> {
        let a = &f.args;
        if let Some(v) = a.vararg.as_deref().or(a.kwarg.as_deref()) {
            return py::unsupported(
                self.span(v),
                "`*args` / `**kwargs`",
                DIALECT,
                "use explicit parameters",
            );
        }
        let mut params = Vec::new();
        for p in a.posonlyargs.iter().chain(&a.args).chain(&a.kwonlyargs) {
            let name = p.def.arg.to_string();
            let span = self.span(&p.def);
            let Some(ann) = p.def.annotation.as_deref() else {
                return err(span, format!("parameter `{name}` has no annotation")).map_err(|d| {
                    d.with_help("annotate it: `A: T.Tensor((M, N), \"float16\")` or `n: T.int32`")
                });
            };
            let arg = launch.arg(&name);
            match self.annotation(ann)? {
                (Some(shape), d) => {
                    let Some(ArgSpec::Buffer {
                        dtype,
                        bits,
                        shape: given,
                    }) = arg
                    else {
                        return err(span, format!("the launch must pass a buffer for `{name}`"));
                    };
                    if *dtype != d {
                        return err(
                            span,
                            format!(
                                "`{name}` is a {} tensor but the launch passes {}",
                                types::dtype_name(d),
                                types::dtype_name(*dtype)
                            ),
                        );
                    }
                    let n: usize = shape.iter().product();
                    if bits.len() != n || given.as_ref().is_some_and(|g| *g != shape) {
                        return err(span, format!("`{name}` has shape {shape:?} ({n} elements) but the launch passes {} elements{}", bits.len(), given.as_ref().map_or(String::new(), |g| format!(" of shape {g:?}"))));
                    }
                    let v = self.new_var(&name, Type::global_ptr(d));
                    params.push(Param {
                        name: name.clone(),
                        kind: ParamKind::Pointer(d),
                        var: Some(v),
                    });
                    let base = self.var_expr(v, span);
                    self.env.insert(
                        name.clone(),
                        Val::Buf(Buf {
                            name,
                            base,
                            dtype: d,
                            shape,
                            space: AddrSpace::Global,
                            scalar: false,
                            private: false,
                        }),
                    );
                }
                (None, d) => {
                    let Some(ArgSpec::Scalar { dtype, .. }) = arg else {
                        return err(span, format!("the launch must pass a scalar for `{name}`"));
                    };
                    if *dtype != d {
                        return err(
                            span,
                            format!(
                                "`{name}` is {} but the launch passes {}",
                                types::dtype_name(d),
                                types::dtype_name(*dtype)
                            ),
                        );
                    }
                    if let Some(ArgSpec::Scalar { bits, .. }) = arg {
                        // the launch's value, for grid sizes (ksem elaborates per launch)
                        let c = if d.is_float() {
                            Const::Float(crate::float::to_f64(d, *bits))
                        } else {
                            Const::Int(crate::ops::int_value(d, *bits))
                        };
                        self.launch_scalars.insert(name.clone(), c);
                    }
                    let v = self.new_var(&name, Type::scalar(d));
                    params.push(Param {
                        name: name.clone(),
                        kind: ParamKind::Scalar(d),
                        var: Some(v),
                    });
                    let e = self.var_expr(v, span);
                    self.env.insert(name, Val::Num(e));
                }
            }
        }
        for (n, _) in &launch.args {
            if !params.iter().any(|p| &p.name == n) {
                return err(
                    self.span(f),
                    format!("kernel `{}` has no parameter `{n}`", f.name),
                );
            }
        }
        Ok(params)
    }

    /// A parameter annotation: `T.Tensor(shape, dtype)` / `T.Buffer(…)`
    /// (shape `Some`) or a scalar dtype such as `T.int32` (shape `None`).
    fn annotation(&mut self, ann: &ast::Expr) -> DResult<(Option<Vec<usize>>, DType)> {
        let span = self.span(ann);
        let bad = || {
            Err(Diagnostic::new(span, "Annotation should be Var: this annotation is not a TileLang type")
                .with_help("use T.Tensor((M, N), dtype) or T.Buffer((M, N), dtype) for buffers, T.int32 … for scalars"))
        };
        // `T.Tensor[shape, dtype]` is `T.Tensor(shape, dtype)`
        let call = tensor_call(ann);
        let ann = call.as_ref().unwrap_or(ann);
        match ann {
            ast::Expr::Call(c) => {
                let f = dotted(&c.func).unwrap_or_default();
                let is = |n: &str| self.m.lang.iter().any(|l| f == format!("{l}.{n}"));
                if !(is("Tensor") || is("Buffer")) {
                    return bad();
                }
                let shape_e = c
                    .args
                    .first()
                    .ok_or_else(|| Diagnostic::new(span, "T.Tensor needs a shape"))?;
                let shape = self.static_shape(shape_e)?;
                let dtype_e = c.args.get(1).or_else(|| {
                    c.keywords
                        .iter()
                        .find(|k| k.arg.as_deref() == Some("dtype"))
                        .map(|k| &k.value)
                });
                let d = match dtype_e {
                    Some(e) => self.dtype_arg(e)?,
                    None => DType::F32,
                };
                Ok((Some(shape), d))
            }
            _ => match self.py_value(ann).ok().and_then(|c| c.as_dtype()) {
                Some(d) => Ok((None, d)),
                None => bad(),
            },
        }
    }

    /// A compile-time value of `e`, with `e`'s span on the error.
    fn py_value(&self, e: &ast::Expr) -> DResult<Const> {
        let consts: HashMap<String, Const> = self
            .env
            .iter()
            .filter_map(|(k, v)| match v {
                Val::Py(c) => Some((k.clone(), c.clone())),
                _ => None,
            })
            .collect();
        consts::eval(&self.m.lang, &consts, e).map_err(|d| Diagnostic {
            span: self.span(e),
            ..d
        })
    }

    /// The value of `e` with the scalar arguments taking the launch's values.
    fn py_value_at_launch(&self, e: &ast::Expr) -> DResult<Const> {
        let mut consts: HashMap<String, Const> = self
            .env
            .iter()
            .filter_map(|(k, v)| match v {
                Val::Py(c) => Some((k.clone(), c.clone())),
                _ => None,
            })
            .collect();
        consts.extend(self.launch_scalars.clone());
        consts::eval(&self.m.lang, &consts, e).map_err(|d| Diagnostic {
            span: self.span(e),
            ..d
        })
    }

    /// A shape: a tuple (or one value) of compile-time non-negative ints.
    fn static_shape(&self, e: &ast::Expr) -> DResult<Vec<usize>> {
        let span = self.span(e);
        let c = self.py_value(e).map_err(|_| {
            Diagnostic::new(span, "a buffer's shape must be known at compile time")
                .with_help("use constants or the kernel factory's arguments")
        })?;
        let items = match c {
            Const::Tuple(v) => v,
            one => vec![one],
        };
        let dims: Vec<usize> = items
            .iter()
            .map(|x| match x.as_int() {
                Some(n) if (0..=1 << 28).contains(&n) => Ok(n as usize),
                _ => err(
                    span,
                    format!("a buffer dimension must be a non-negative int, got {x:?}"),
                ),
            })
            .collect::<DResult<_>>()?;
        let total = dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
        if total.is_none_or(|n| n > crate::launch::MAX_BUFFER_LEN) {
            return err(
                span,
                format!(
                    "a buffer of shape {dims:?} has more than {} elements",
                    crate::launch::MAX_BUFFER_LEN
                ),
            );
        }
        Ok(dims)
    }

    /// A dtype argument: `"float16"`, `"float"`, `T.float16`, or a name bound to one.
    fn dtype_arg(&self, e: &ast::Expr) -> DResult<DType> {
        let span = self.span(e);
        let c = match self.py_value(e) {
            Ok(c) => Some(c),
            // `F.dtype` of a buffer or a runtime value
            Err(_) => match e {
                ast::Expr::Attribute(a) if a.attr.as_str() == "dtype" => match &*a.value {
                    ast::Expr::Name(n) => match self.env.get(n.id.as_str()) {
                        Some(Val::Buf(b)) => Some(Const::Type(b.dtype)),
                        Some(Val::Num(x)) => Some(Const::Type(dtype_of(x))),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            },
        };
        match c {
            Some(c) => c.as_dtype().ok_or_else(|| {
                Diagnostic::new(span, format!("{c:?} is not a dtype TileLang knows"))
            }),
            None => err(span, "a dtype must be known at compile time"),
        }
    }

    // ----- statements --------------------------------------------------------------

    fn stmts(&mut self, body: &[ast::Stmt]) -> DResult<()> {
        for s in body {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &ast::Stmt) -> DResult<()> {
        let span = self.span(s);
        match s {
            ast::Stmt::With(w) => self.with_stmt(w, span),
            ast::Stmt::Assign(a) => {
                if a.targets.len() > 1 && self.grid.is_none() {
                    // host Python before the kernel: `x = y = 16`
                    let v = self.py_value(&a.value)?;
                    for t in &a.targets {
                        let mut bound = HashMap::new();
                        consts::bind(t, Some(&v), &mut bound);
                        for (k, v) in bound {
                            self.env.insert(k, Val::Py(v));
                        }
                    }
                    return Ok(());
                }
                if a.targets.len() > 1 {
                    return err(
                        span,
                        "Consequential assignments like 'a = b = c' are not supported",
                    )
                    .map_err(|d| d.with_help("use separate assignment statements"));
                }
                if let Some(done) = self.eager_assign(&a.targets[0], &a.value, span)? {
                    return Ok(done);
                }
                if let ast::Expr::Tuple(_) | ast::Expr::List(_) = &a.targets[0] {
                    return self.assign(&a.targets[0], Val::Py(Const::None));
                }
                let v = self.expr(&a.value)?;
                self.assign(&a.targets[0], v)
            }
            ast::Stmt::AugAssign(a) => {
                let cur = self.expr(&a.target)?;
                let rhs = self.expr(&a.value)?;
                let v = self.binop(a.op, cur, rhs, span)?;
                self.assign(&a.target, v)
            }
            ast::Stmt::AnnAssign(a) => match &a.value {
                Some(v) => {
                    let v = self.expr(v)?;
                    let v = match self.py_value(&a.annotation).ok().and_then(|c| c.as_dtype()) {
                        Some(d) => Val::Num(convert(self.num(v, span)?, d)),
                        None => v,
                    };
                    self.assign(&a.target, v)
                }
                None => err(
                    span,
                    "an annotation without a value declares nothing in a TileLang kernel",
                ),
            },
            ast::Stmt::For(f) => self.for_stmt(f, span),
            ast::Stmt::While(w) => {
                self.materialize_assigned(&w.body, span)?;
                self.blocks.push(Vec::new());
                let c = self.cond(&w.test);
                let pre = self.blocks.pop().expect("pushed");
                let c = c?;
                self.loops += 1;
                let body = self.block_of(&w.body);
                self.loops -= 1;
                let mut body = body?;
                if !w.orelse.is_empty() {
                    return py::unsupported(
                        span,
                        "`while … else`",
                        DIALECT,
                        "use a flag after the loop",
                    );
                }
                // while True: { pre; if !c: break; body }
                let mut full = pre;
                full.push(Stmt::If {
                    cond: unary(UnOp::LogicalNot, c, span),
                    then_body: vec![Stmt::Break],
                    else_body: vec![],
                });
                full.append(&mut body);
                let t = konst(DType::Bool, 1, span);
                self.emit(Stmt::While {
                    cond: t,
                    body: full,
                    span,
                });
                Ok(())
            }
            ast::Stmt::If(i) => {
                let c = self.expr(&i.test)?;
                if let Val::Py(c) = c {
                    // decided at compile time, as Python runs the kernel's builder
                    let taken = match c {
                        Const::Bool(b) => b,
                        Const::Int(n) => n != 0,
                        Const::None => false,
                        _ => return err(span, "Python objects as conditions are not supported: this condition is not a number"),
                    };
                    return self.stmts(if taken { &i.body } else { &i.orelse });
                }
                let c = self.truth(self.num(c, span)?, span)?;
                self.materialize_assigned(&i.body, span)?;
                self.materialize_assigned(&i.orelse, span)?;
                let then_body = self.block_of(&i.body)?;
                let else_body = self.block_of(&i.orelse)?;
                self.emit(Stmt::If {
                    cond: c,
                    then_body,
                    else_body,
                });
                Ok(())
            }
            ast::Stmt::Break(_) | ast::Stmt::Continue(_) if self.loops == 0 => {
                err(span, "`break`/`continue` outside a loop")
            }
            ast::Stmt::Break(_) => {
                self.emit(Stmt::Break);
                Ok(())
            }
            ast::Stmt::Continue(_) => {
                self.emit(Stmt::Continue);
                Ok(())
            }
            ast::Stmt::Pass(_) => Ok(()),
            ast::Stmt::Expr(e) => {
                if let ast::Expr::Call(c) = &*e.value {
                    if let Some(done) = self.statement_call(c, span)? {
                        return Ok(done);
                    }
                }
                if let ast::Expr::Constant(_) = &*e.value {
                    return Ok(()); // a docstring
                }
                self.expr(&e.value).map(|_| ())
            }
            ast::Stmt::Return(_) => py::unsupported(
                span,
                "`return` in a kernel",
                DIALECT,
                "let the kernel's body end; guard the rest with `if`",
            ),
            ast::Stmt::Import(_) | ast::Stmt::ImportFrom(_) => py::unsupported(
                span,
                "`import`",
                DIALECT,
                "import at module level, not inside the kernel",
            ),
            ast::Stmt::Try(_) | ast::Stmt::TryStar(_) => py::unsupported(
                span,
                "`try` / `except`",
                DIALECT,
                "check conditions with `if`",
            ),
            ast::Stmt::ClassDef(_) => py::unsupported(
                span,
                "`class`",
                DIALECT,
                "define classes outside the kernel",
            ),
            ast::Stmt::FunctionDef(_) | ast::Stmt::AsyncFunctionDef(_) => py::unsupported(
                span,
                "a nested function definition",
                DIALECT,
                "define the helper at module level and call it",
            ),
            // an assert on compile-time values is Python's (meta-programming)
            ast::Stmt::Assert(a) => match self
                .py_value(&a.test)
                .ok()
                .and_then(|c| consts::truthy(&c))
            {
                Some(true) => Ok(()),
                Some(false) => err(span, "this assertion fails for these arguments"),
                None => {
                    py::unsupported(span, "`assert`", DIALECT, "use T.device_assert or T.assert")
                }
            },
            ast::Stmt::Global(_) | ast::Stmt::Nonlocal(_) => py::unsupported(
                span,
                "`global` / `nonlocal`",
                DIALECT,
                "pass the value as a parameter",
            ),
            _ => py::unsupported(
                span,
                "this statement",
                DIALECT,
                "see the TileLang seed's table of supported syntax",
            ),
        }
    }

    /// `with T.Kernel(gx, gy, threads=N) as (bx, by):`.
    fn with_stmt(&mut self, w: &ast::StmtWith, span: Span) -> DResult<()> {
        let [item] = w.items.as_slice() else {
            return py::unsupported(
                span,
                "`with` of several items",
                DIALECT,
                "use one `with T.Kernel(…)`",
            );
        };
        let ast::Expr::Call(c) = &item.context_expr else {
            return py::unsupported(
                span,
                "this `with`",
                DIALECT,
                "only `with T.Kernel(…)` (and `T.ws`) are supported",
            );
        };
        let f = dotted(&c.func).unwrap_or_default();
        let is = |n: &str| self.m.lang.iter().any(|l| f == format!("{l}.{n}"));
        if is("ws") {
            return self.stmts(&w.body);
        }
        if !is("Kernel") {
            return py::unsupported(
                span,
                "this `with`",
                DIALECT,
                "only `with T.Kernel(…)` (and `T.ws`) are supported",
            );
        }
        if self.grid.is_some() {
            return err(span, "a second `with T.Kernel(…)`: a kernel has one launch");
        }
        let mut grid = [1u32; 3];
        if c.args.is_empty() || c.args.len() > 3 {
            return err(span, "T.Kernel takes 1 to 3 grid dimensions");
        }
        for (i, a) in c.args.iter().enumerate() {
            // a grid size may use a scalar argument: the launch gives its value
            let n = self
                .py_value(a)
                .or_else(|_| self.py_value_at_launch(a))
                .ok()
                .and_then(|v| v.as_int());
            match n {
                Some(n) if (1..=u32::MAX as i128).contains(&n) => grid[i] = n as u32,
                Some(n) => {
                    return err(
                        self.span(a),
                        format!("grid dimension {i} is {n}: a launch needs at least one block"),
                    )
                }
                None => {
                    return err(
                        self.span(a),
                        "a grid dimension must be known at compile time",
                    )
                }
            }
        }
        if grid.iter().map(|&g| g as u64).product::<u64>() > crate::launch::MAX_PROGRAMS {
            return err(
                span,
                format!(
                    "grid {grid:?} has more than {} blocks",
                    crate::launch::MAX_PROGRAMS
                ),
            );
        }
        let mut threads = [128u32, 1, 1];
        for k in &c.keywords {
            match k.arg.as_deref() {
                Some("threads") => {
                    let v = self.py_value(&k.value).map_err(|_| {
                        Diagnostic::new(
                            self.span(&k.value),
                            "`threads` must be known at compile time",
                        )
                    })?;
                    let items = match v {
                        Const::Tuple(t) => t,
                        one => vec![one],
                    };
                    if items.is_empty() || items.len() > 3 {
                        return err(self.span(&k.value), "`threads` has 1 to 3 dimensions");
                    }
                    threads = [1, 1, 1];
                    for (i, t) in items.iter().enumerate() {
                        match t.as_int() {
                            Some(n) if (1..=1024).contains(&n) => threads[i] = n as u32,
                            _ => {
                                return err(
                                    self.span(&k.value),
                                    format!("threads = {t:?}: a block has 1 to 1024 threads"),
                                )
                            }
                        }
                    }
                    if threads.iter().product::<u32>() > 1024 {
                        return err(
                            self.span(&k.value),
                            format!("threads {threads:?}: a block has at most 1024 threads"),
                        );
                    }
                }
                Some("prelude") | Some("is_cpu") | Some("cluster_dims") => {}
                other => {
                    return err(
                        span,
                        format!("T.Kernel has no argument `{}`", other.unwrap_or("**")),
                    )
                }
            }
        }
        self.grid = Some((grid, span));
        self.threads = Some((threads, span));
        let dims = c.args.len();
        if let Some(v) = &item.optional_vars {
            let names: Vec<&ast::Expr> = match &**v {
                ast::Expr::Tuple(t) => t.elts.iter().collect(),
                one => vec![one],
            };
            if names.len() > dims {
                return err(
                    self.span(&**v),
                    format!(
                        "T.Kernel has {dims} grid dimension(s) but binds {} names",
                        names.len()
                    ),
                );
            }
            for (i, n) in names.iter().enumerate() {
                let ast::Expr::Name(n) = n else {
                    return err(self.span(*n), "bind block indices to names");
                };
                let e = mk(ExprKind::BlockId(i as u8), Type::scalar(DType::I32), span);
                self.env.insert(n.id.to_string(), Val::Num(e));
            }
        }
        self.stmts(&w.body)
    }

    /// Names bound to Python numbers that `body` assigns become runtime
    /// variables first: a loop or a runtime branch may change them, so their
    /// value is no longer known at compile time.
    fn materialize_assigned(&mut self, body: &[ast::Stmt], span: Span) -> DResult<()> {
        let mut names = Vec::new();
        assigned_names(body, &mut names);
        for n in names {
            if let Some(Val::Py(c @ (Const::Int(_) | Const::Float(_) | Const::Bool(_)))) =
                self.env.get(&n).cloned()
            {
                let e = self.literal(&c, span)?;
                let slot = self.new_var(&n, e.ty.clone());
                self.emit(Stmt::Let(slot, e));
                let ve = self.var_expr(slot, span);
                self.env.insert(n, Val::Num(ve));
            }
        }
        Ok(())
    }

    /// Whether `e` is a call of `T.<name>`.
    fn is_lang_call(&self, e: &ast::Expr, name: &str) -> bool {
        let ast::Expr::Call(c) = e else { return false };
        dotted(&c.func).is_some_and(|f| self.m.lang.iter().any(|l| f == format!("{l}.{name}")))
    }

    /// `M, N = T.const("M, N")` (sizes bound later from tensor shapes) and
    /// `C = T.empty(shape, dtype)` (an output); `None` for other assignments.
    fn eager_assign(
        &mut self,
        target: &ast::Expr,
        value: &ast::Expr,
        span: Span,
    ) -> DResult<Option<()>> {
        let ast::Expr::Call(c) = value else {
            return Ok(None);
        };
        let Some(f) = dotted(&c.func) else {
            return Ok(None);
        };
        let is = |n: &str| self.m.lang.iter().any(|l| f == format!("{l}.{n}"));
        if is("dynamic") {
            // a symbolic size (`M = T.dynamic("m")`): one launch fixes it,
            // so it is bound from the tensors' shapes like a T.const size
            let ast::Expr::Name(n) = target else {
                return err(span, "T.dynamic is bound to a name");
            };
            self.symbols.push(n.id.to_string());
            self.env.remove(n.id.as_str());
            return Ok(Some(()));
        }
        if is("const") {
            let names: Vec<&ast::Expr> = match target {
                ast::Expr::Tuple(t) => t.elts.iter().collect(),
                one => vec![one],
            };
            let spelled = match c.args.first() {
                Some(ast::Expr::Constant(k)) => match &k.value {
                    Constant::Str(s) => s.clone(),
                    _ => String::new(),
                },
                _ => String::new(),
            };
            let listed: Vec<&str> = spelled
                .split([',', ' '])
                .filter(|x| !x.is_empty())
                .collect();
            if listed.len() != names.len() {
                return err(
                    span,
                    format!(
                        "T.const names {} size(s) but {} are assigned",
                        listed.len(),
                        names.len()
                    ),
                );
            }
            for n in names {
                let ast::Expr::Name(n) = n else {
                    return err(self.span(n), "T.const sizes are bound to names");
                };
                self.symbols.push(n.id.to_string());
                self.env.remove(n.id.as_str());
            }
            return Ok(Some(()));
        }
        if is("empty") {
            let ast::Expr::Name(n) = target else {
                return err(span, "T.empty(…) must be assigned to a name");
            };
            let name = n.id.to_string();
            let shape_e = c
                .args
                .first()
                .ok_or_else(|| Diagnostic::new(span, "T.empty needs a shape"))?;
            let shape = self.static_shape(shape_e)?;
            let dtype_e = c.args.get(1).or_else(|| {
                c.keywords
                    .iter()
                    .find(|k| k.arg.as_deref() == Some("dtype"))
                    .map(|k| &k.value)
            });
            let d = match dtype_e {
                Some(e) => self.dtype_arg(e)?,
                None => DType::F32,
            };
            let len: usize = shape.iter().product();
            let v = self.new_var(&name, Type::global_ptr(d));
            self.params.push(Param {
                name: name.clone(),
                kind: ParamKind::Pointer(d),
                var: Some(v),
            });
            self.fresh.push((name.clone(), len));
            let base = self.var_expr(v, span);
            self.env.insert(
                name.clone(),
                Val::Buf(Buf {
                    name,
                    base,
                    dtype: d,
                    shape,
                    space: AddrSpace::Global,
                    scalar: false,
                    private: false,
                }),
            );
            return Ok(Some(()));
        }
        Ok(None)
    }

    /// Assigns `v` to a name or a buffer element.
    fn assign(&mut self, target: &ast::Expr, v: Val) -> DResult<()> {
        let span = self.span(target);
        match target {
            ast::Expr::Name(n) => {
                let name = n.id.to_string();
                match (self.env.get(&name).cloned(), v) {
                    (Some(Val::Buf(b)), v) if b.scalar => {
                        let e = self.num(v, span)?;
                        let p = self.elem_ptr(&b, vec![konst(DType::I64, 0, span)], span)?;
                        self.store(p, e, b.dtype, span);
                    }
                    (Some(Val::Num(old)), v @ (Val::Num(_) | Val::Py(_)))
                        if matches!(old.kind, ExprKind::Var(_)) =>
                    {
                        let ExprKind::Var(slot) = old.kind else {
                            unreachable!()
                        };
                        let e = self.num(v, span)?;
                        let d = dtype_of(&old);
                        self.emit(Stmt::Let(slot, convert(e, d)));
                    }
                    (_, Val::Num(e)) => {
                        let slot = self.new_var(&name, e.ty.clone());
                        self.emit(Stmt::Let(slot, e));
                        let ve = self.var_expr(slot, span);
                        self.env.insert(name, Val::Num(ve));
                    }
                    (_, v) => {
                        self.env.insert(name, v);
                    }
                }
                Ok(())
            }
            ast::Expr::Subscript(s) => {
                let b = self.buffer_of(&s.value)?;
                let idx = self.indices(&s.slice)?;
                let e = self.num(v, span)?;
                let p = self.elem_ptr(&b, idx, span)?;
                self.store(p, e, b.dtype, span);
                Ok(())
            }
            ast::Expr::Tuple(_) | ast::Expr::List(_) => py::unsupported(
                span,
                "tuple unpacking (except in T.Parallel loops)",
                DIALECT,
                "assign each value separately",
            ),
            _ => py::unsupported(
                span,
                "this assignment target",
                DIALECT,
                "assign to a name or a buffer element",
            ),
        }
    }

    fn store(&mut self, ptr: Expr, value: Expr, d: DType, span: Span) {
        let value = convert(value, d);
        self.emit(Stmt::Store {
            ptr,
            value,
            mask: None,
            span,
        });
    }

    /// `for` over `range`, `T.serial`, `T.unroll`, `T.Pipelined`, `T.Parallel`, `T.grid`.
    fn for_stmt(&mut self, f: &ast::StmtFor, span: Span) -> DResult<()> {
        if !f.orelse.is_empty() {
            return py::unsupported(span, "`for … else`", DIALECT, "use a flag after the loop");
        }
        let not_loop = |me: &Self| {
            py::unsupported::<()>(me.span(&*f.iter), "iterating over a collection (Expect the for loop to be one of: range, T.serial, T.grid, T.Parallel, T.Pipelined, T.unroll)", DIALECT, "use range(), T.serial(), or T.Parallel() with an index")
        };
        let ast::Expr::Call(c) = &*f.iter else {
            return not_loop(self);
        };
        let fname = dotted(&c.func).unwrap_or_default();
        let kind = match fname.as_str() {
            "range" => "serial",
            p if p.ends_with(".Serial") => "serial",
            p => match p.rsplit_once('.') {
                Some((base, k)) if self.m.lang.iter().any(|l| l == base) => k,
                _ => return not_loop(self),
            },
        };
        let targets: Vec<&ast::Expr> = match &*f.target {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            one => vec![one],
        };
        // (start, end, step) per nested loop, outermost first
        let mut ranges: Vec<(Val, Val, Val)> = Vec::new();
        let zero = || Val::Py(Const::Int(0));
        let one = || Val::Py(Const::Int(1));
        let args: Vec<Val> = c
            .args
            .iter()
            .map(|a| self.expr(a))
            .collect::<DResult<_>>()?;
        match kind {
            "serial" | "unroll" | "Pipelined" => {
                let mut a = args;
                if kind == "Pipelined" && a.len() > 2 {
                    return err(
                        span,
                        "T.Pipelined takes an extent (or start, stop) and keyword options",
                    );
                }
                match a.len() {
                    1 => ranges.push((zero(), a.remove(0), one())),
                    2 => {
                        let e = a.remove(1);
                        ranges.push((a.remove(0), e, one()))
                    }
                    3 => {
                        let s = a.remove(2);
                        let e = a.remove(1);
                        ranges.push((a.remove(0), e, s))
                    }
                    _ => return err(span, format!("{fname} takes 1 to 3 arguments")),
                }
            }
            "Parallel" | "grid" => {
                if args.is_empty() {
                    return err(span, format!("{fname} needs at least one extent"));
                }
                for a in args {
                    ranges.push((zero(), a, one()));
                }
            }
            _ => return not_loop(self),
        }
        if targets.len() != ranges.len() {
            return err(
                self.span(&*f.target),
                format!(
                    "{fname} makes {} loop indices but the loop binds {}",
                    ranges.len(),
                    targets.len()
                ),
            );
        }
        let mut loop_vars = Vec::new();
        let mut bounds = Vec::new();
        for (t, (s, e, st)) in targets.iter().zip(ranges) {
            let ast::Expr::Name(n) = t else {
                return err(self.span(*t), "a loop index must be a name");
            };
            let (s, e, st) = (self.num(s, span)?, self.num(e, span)?, self.num(st, span)?);
            let d = [&s, &e, &st]
                .iter()
                .map(|x| dtype_of(x))
                .try_fold(DType::I32, types::promote)
                .filter(|d| d.is_int() && *d != DType::Bool);
            let Some(d) = d else {
                return err(span, "loop bounds must be integers");
            };
            if fold_int(&st) == Some(0) {
                return err(span, "a loop step of 0");
            }
            let v = self.new_var(n.id.as_str(), Type::scalar(d));
            let ve = self.var_expr(v, span);
            self.env.insert(n.id.to_string(), Val::Num(ve));
            loop_vars.push(v);
            bounds.push((convert(s, d), convert(e, d), convert(st, d)));
        }
        self.materialize_assigned(&f.body, span)?;
        let outer = self.parallel.len();
        if kind == "Parallel" {
            self.parallel.extend(loop_vars.iter().copied());
        }
        let first_array = self.arrays.len();
        self.loops += 1;
        let body = self.block_of(&f.body);
        self.loops -= 1;
        self.parallel.truncate(outer);
        let mut body = body?;
        // T.Parallel's iterations are independent: arrays allocated in its
        // body belong to one iteration each
        let parallel = (kind == "Parallel").then(|| Parallel {
            private: (first_array..self.arrays.len()).collect(),
        });
        for (v, (start, end, step)) in loop_vars.into_iter().zip(bounds).rev() {
            body = vec![Stmt::For {
                var: v,
                start,
                end,
                step,
                body,
                span,
                parallel: parallel.clone(),
            }];
        }
        for s in body {
            self.emit(s);
        }
        Ok(())
    }

    // ----- expressions -------------------------------------------------------------

    /// A 0-d runtime value of `v` (Python numbers take their literal dtype).
    fn num(&self, v: Val, span: Span) -> DResult<Expr> {
        match v {
            Val::Num(e) => Ok(e),
            Val::Py(c) => self.literal(&c, span),
            Val::Buf(b) if b.scalar => {
                let p = self.elem_ptr(&b, vec![konst(DType::I64, 0, span)], span)?;
                Ok(load(p, b.dtype, span))
            }
            Val::Buf(b) => err(
                span,
                format!("buffer `{}` used as a number; index it", b.name),
            ),
            _ => err(span, "this is not a number"),
        }
    }

    /// A Python constant as a runtime value (measured literal typing).
    fn literal(&self, c: &Const, span: Span) -> DResult<Expr> {
        Ok(match c {
            Const::Int(i) if i64::try_from(*i).is_ok() => {
                int_const(types::int_literal_dtype(*i), *i, span)
            }
            Const::Bool(b) => konst(DType::Bool, *b as u64, span),
            Const::Float(f) => float_const(DType::F32, *f, span),
            other => {
                return err(
                    span,
                    format!("{other:?} is not a number TileLang can compute with"),
                )
            }
        })
    }

    fn cond(&mut self, e: &ast::Expr) -> DResult<Expr> {
        let span = self.span(e);
        let v = self.expr(e)?;
        let n = self.num(v, span)?;
        self.truth(n, span)
    }

    fn truth(&self, e: Expr, span: Span) -> DResult<Expr> {
        let d = dtype_of(&e);
        Ok(if d == DType::Bool {
            e
        } else {
            bin(BinOp::Ne, e, konst(d, 0, span), span)
        })
    }

    fn expr(&mut self, e: &ast::Expr) -> DResult<Val> {
        let span = self.span(e);
        match e {
            ast::Expr::Constant(c) => Ok(Val::Py(match &c.value {
                Constant::Int(i) => Const::Int(
                    i128::try_from(i)
                        .map_err(|_| Diagnostic::new(span, "integer literal too large"))?,
                ),
                Constant::Float(f) => Const::Float(*f),
                Constant::Bool(b) => Const::Bool(*b),
                Constant::Str(s) => Const::Str(s.clone()),
                Constant::None => Const::None,
                Constant::Ellipsis => {
                    return py::unsupported(span, "Ellipsis", DIALECT, "index every dimension")
                }
                _ => return err(span, "unsupported constant"),
            })),
            ast::Expr::Name(n) => match self.env.get(n.id.as_str()) {
                Some(v) => Ok(v.clone()),
                None => match n.id.as_str() {
                    "True" | "False" => Ok(Val::Py(Const::Bool(n.id.as_str() == "True"))),
                    "range" => Ok(Val::Path("range".into())),
                    other => err(span, format!("unknown name `{other}`")),
                },
            },
            ast::Expr::Tuple(_) | ast::Expr::List(_) | ast::Expr::Dict(_) => {
                // only constant tuples and lists (shapes) and dicts
                let c = self.py_value(e).map_err(|_| {
                    Diagnostic::new(span, "a tuple of runtime values")
                        .with_help("tuples are for shapes and other constants")
                });
                Ok(Val::Py(c?))
            }
            ast::Expr::Attribute(a) => self.attribute(a),
            ast::Expr::Subscript(s) => self.subscript(s, span),
            ast::Expr::BinOp(b) => {
                let l = self.expr(&b.left)?;
                let r = self.expr(&b.right)?;
                self.binop(b.op, l, r, span)
            }
            ast::Expr::UnaryOp(u) => {
                let v = self.expr(&u.operand)?;
                self.unop(u.op, v, span)
            }
            ast::Expr::BoolOp(b) => self.bool_op(b, span),
            ast::Expr::Compare(c) => self.compare(c, span),
            ast::Expr::IfExp(i) => {
                let c = self.expr(&i.test)?;
                if let Val::Py(c) = c {
                    let taken = c.as_int().map(|x| x != 0).unwrap_or(false);
                    return self.expr(if taken { &i.body } else { &i.orelse });
                }
                let c = self.truth(self.num(c, span)?, span)?;
                self.lazy_select(c, &i.body, &i.orelse, span)
            }
            ast::Expr::Call(c) => self.call(c, span),
            ast::Expr::Lambda(_) => {
                py::unsupported(span, "`lambda`", DIALECT, "define a named function")
            }
            ast::Expr::ListComp(_) | ast::Expr::SetComp(_) => py::unsupported(
                span,
                "a list comprehension",
                DIALECT,
                "use an explicit loop",
            ),
            ast::Expr::DictComp(_) => py::unsupported(
                span,
                "a dict comprehension",
                DIALECT,
                "use an explicit loop",
            ),
            ast::Expr::GeneratorExp(_) => py::unsupported(
                span,
                "a generator expression",
                DIALECT,
                "use an explicit loop",
            ),
            ast::Expr::NamedExpr(_) => py::unsupported(
                span,
                "the walrus operator `:=`",
                DIALECT,
                "assign on a line of its own",
            ),
            ast::Expr::Starred(_) => {
                py::unsupported(span, "`*args`", DIALECT, "use explicit arguments")
            }
            _ => py::unsupported(
                span,
                "this expression",
                DIALECT,
                "see the TileLang seed's table of supported syntax",
            ),
        }
    }

    /// `c ? body : orelse` evaluating only the branch taken (TVM's `if_then_else`).
    fn lazy_select(
        &mut self,
        c: Expr,
        body: &ast::Expr,
        orelse: &ast::Expr,
        span: Span,
    ) -> DResult<Val> {
        self.blocks.push(Vec::new());
        let a = self.expr(body).and_then(|v| self.num(v, span));
        let pre_a = self.blocks.pop().expect("pushed");
        self.blocks.push(Vec::new());
        let b = self.expr(orelse).and_then(|v| self.num(v, span));
        let pre_b = self.blocks.pop().expect("pushed");
        let (a, b) = (a?, b?);
        let d = types::promote(dtype_of(&a), dtype_of(&b))
            .ok_or_else(|| Diagnostic::new(span, "the two branches have no common dtype"))?;
        let r = self.new_var("_sel", Type::scalar(d));
        let mut then_body = pre_a;
        then_body.push(Stmt::Let(r, convert(a, d)));
        let mut else_body = pre_b;
        else_body.push(Stmt::Let(r, convert(b, d)));
        self.emit(Stmt::If {
            cond: c,
            then_body,
            else_body,
        });
        Ok(Val::Num(self.var_expr(r, span)))
    }

    fn attribute(&mut self, a: &ast::ExprAttribute) -> DResult<Val> {
        let base = self.expr(&a.value)?;
        let attr = a.attr.as_str();
        match base {
            Val::Path(p) => {
                if let Some(d) = types::dtype_named(attr) {
                    return Ok(Val::Py(Const::Type(d)));
                }
                Ok(Val::Path(format!("{p}.{attr}")))
            }
            Val::Buf(b) if attr == "shape" => Ok(Val::Py(Const::Tuple(
                b.shape.iter().map(|&n| Const::Int(n as i128)).collect(),
            ))),
            Val::Buf(b) if attr == "dtype" => Ok(Val::Py(Const::Type(b.dtype))),
            Val::Num(e) if attr == "dtype" => Ok(Val::Py(Const::Type(dtype_of(&e)))),
            other => Ok(Val::Path(format!(
                "{}.{attr}",
                match other {
                    Val::Num(_) => "<number>",
                    Val::Buf(_) => "<buffer>",
                    _ => "<value>",
                }
            ))),
        }
    }

    fn subscript(&mut self, s: &ast::ExprSubscript, span: Span) -> DResult<Val> {
        let base = self.expr(&s.value)?;
        match base {
            Val::Py(Const::Tuple(items)) => {
                let i = self
                    .py_value(&s.slice)
                    .ok()
                    .and_then(|c| c.as_int())
                    .ok_or_else(|| {
                        Diagnostic::new(span, "a constant tuple takes a constant index")
                    })?;
                let n = items.len() as i128;
                let k = if i < 0 { i + n } else { i };
                items
                    .get(k as usize)
                    .filter(|_| (0..n).contains(&k))
                    .cloned()
                    .map(Val::Py)
                    .ok_or_else(|| {
                        Diagnostic::new(span, format!("index {i} out of range for a tuple of {n}"))
                    })
            }
            Val::Buf(b) => {
                let has_slice = match &*s.slice {
                    ast::Expr::Slice(_) => true,
                    ast::Expr::Tuple(t) => t.elts.iter().any(|x| matches!(x, ast::Expr::Slice(_))),
                    _ => false,
                };
                if has_slice {
                    return Ok(Val::Region(self.region(&b, &s.slice)?));
                }
                let idx = self.indices(&s.slice)?;
                let p = self.elem_ptr(&b, idx, span)?;
                Ok(Val::Num(load(p, b.dtype, span)))
            }
            _ => err(span, "only buffers and constant tuples can be indexed"),
        }
    }

    fn buffer_of(&mut self, e: &ast::Expr) -> DResult<Buf> {
        let span = self.span(e);
        match self.expr(e)? {
            Val::Buf(b) => Ok(b),
            _ => err(span, "this is not a buffer"),
        }
    }

    /// The index expressions of a subscript (`a[i]`, `a[i, j]`).
    fn indices(&mut self, slice: &ast::Expr) -> DResult<Vec<Val>> {
        let items: Vec<&ast::Expr> = match slice {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            one => vec![one],
        };
        items.into_iter().map(|x| self.expr(x)).collect()
    }

    /// Pointer to element `idx` of `b`; a constant negative index counts
    /// from the end (the seed: `A[-1]` is the last element).
    fn elem_ptr(&self, b: &Buf, idx: Vec<impl Into<IndexArg>>, span: Span) -> DResult<Expr> {
        if idx.len() != b.shape.len() {
            return err(
                span,
                format!(
                    "buffer `{}` has {} dimension(s) but is indexed with {}",
                    b.name,
                    b.shape.len(),
                    idx.len()
                ),
            );
        }
        let mut out = Vec::new();
        for (i, (x, &dim)) in idx.into_iter().zip(&b.shape).enumerate() {
            let e = match x.into() {
                IndexArg::Expr(e) => e,
                IndexArg::Val(Val::Py(c)) => match c.as_int() {
                    Some(n) => {
                        let n = if n < 0 { n + dim as i128 } else { n };
                        if n < 0 || n >= dim as i128 {
                            return err(span, format!("index {n} is out of bounds for dimension {i} of `{}` (size {dim})", b.name));
                        }
                        konst(DType::I64, n as u64, span)
                    }
                    None => return err(span, "a buffer index must be an integer"),
                },
                IndexArg::Val(v) => self.num(v, span)?,
            };
            let d = dtype_of(&e);
            if !d.is_int() {
                return err(
                    span,
                    format!(
                        "a buffer index must be an integer, not {}",
                        types::dtype_name(d)
                    ),
                );
            }
            if b.private && !self.parallel.is_empty() && e_mentions(&e, &self.parallel) {
                return err(span, format!("[Tilelang Semantic Check] Local buffer `{}` is indexed by a T.Parallel loop variable. Local buffers are thread-private and do not participate in parallel layout inference", b.name))
                    .map_err(|d| d.with_help("use T.serial/T.unroll for per-thread local indexing, or T.alloc_fragment when the indexed dimension should be distributed across threads"));
            }
            out.push(convert(e, DType::I64));
        }
        Ok(mk(
            ExprKind::ElemPtr {
                base: Box::new(b.base.clone()),
                indices: out,
                dims: b.shape.clone(),
                neg: NegIndex::Ub,
            },
            b.base.ty.clone(),
            span,
        ))
    }

    /// A region `a[s0:e0, i, …]` for `T.copy`/`T.fill`: slices need a
    /// compile-time extent (their bounds may be runtime values that differ by
    /// a constant).
    fn region(&mut self, b: &Buf, slice: &ast::Expr) -> DResult<Region> {
        let items: Vec<&ast::Expr> = match slice {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            one => vec![one],
        };
        if items.len() != b.shape.len() {
            return err(
                self.span(slice),
                format!(
                    "buffer `{}` has {} dimension(s) but the region names {}",
                    b.name,
                    b.shape.len(),
                    items.len()
                ),
            );
        }
        let mut starts = Vec::new();
        let mut extents = Vec::new();
        for (x, &dim) in items.into_iter().zip(&b.shape) {
            let span = self.span(x);
            match x {
                ast::Expr::Slice(s) => {
                    if s.step.is_some() {
                        return py::unsupported(
                            span,
                            "a step in a slice",
                            DIALECT,
                            "copy with an explicit loop",
                        );
                    }
                    let lo = match &s.lower {
                        Some(l) => self.expr(l)?,
                        None => Val::Py(Const::Int(0)),
                    };
                    let hi = match &s.upper {
                        Some(u) => self.expr(u)?,
                        None => Val::Py(Const::Int(dim as i128)),
                    };
                    let (lo, hi) = (self.num(lo, span)?, self.num(hi, span)?);
                    let ext = match (linear(&hi), linear(&lo)) {
                        (Some(h), Some(l)) => h.minus(&l).constant(),
                        _ => None,
                    };
                    let Some(ext) = ext.filter(|&e| e >= 0) else {
                        return err(span, "a slice's extent must be a compile-time constant")
                            .map_err(|d| {
                                d.with_help("write bounds such as `by * BM:(by + 1) * BM`")
                            });
                    };
                    starts.push(convert(lo, DType::I64));
                    extents.push(Some(ext as usize));
                }
                other => {
                    let v = self.expr(other)?;
                    let e = self.num(v, span)?;
                    starts.push(convert(e, DType::I64));
                    extents.push(None);
                }
            }
        }
        Ok(Region {
            buf: b.clone(),
            starts,
            extents,
        })
    }

    fn binop(&mut self, op: ast::Operator, l: Val, r: Val, span: Span) -> DResult<Val> {
        if let (Val::Py(a), Val::Py(b)) = (&l, &r) {
            if let Some(c) = consts::binop(op, a, b) {
                return Ok(Val::Py(c));
            }
        }
        use ast::Operator as O;
        if op == O::Pow {
            return self.power(l, r, span);
        }
        let a = self.num(l, span)?;
        let b = self.num(r, span)?;
        let (da, db) = (dtype_of(&a), dtype_of(&b));
        let d = types::promote(da, db).ok_or_else(|| {
            Diagnostic::new(
                span,
                format!(
                    "`{}` of {} and {}: TileLang has no common dtype",
                    op_text(op),
                    types::dtype_name(da),
                    types::dtype_name(db)
                ),
            )
            .with_help("convert one operand with .astype(…)")
        })?;
        let (a, b) = (convert(a, d), convert(b, d));
        let int = d.is_int();
        let bop = match op {
            O::Add => BinOp::Add,
            O::Sub => BinOp::Sub,
            O::Mult => BinOp::Mul,
            O::Div if int => {
                return err(span, "TVM supports multiple types of integer divisions, please call div, indexdiv/indexmod, floordiv/floormod or truncdiv/truncmod directly to avoid ambiguity in the code")
                    .map_err(|d| d.with_help("use `//` (floor), T.truncdiv or T.ceildiv"));
            }
            O::Div => BinOp::FDiv,
            O::FloorDiv | O::Mod if !int => {
                return err(
                    span,
                    format!(
                        "`{}` on {}: TileLang floors only integers",
                        op_text(op),
                        types::dtype_name(d)
                    ),
                )
                .map_err(|d| d.with_help("use T.floor(a / b) for floats"));
            }
            O::FloorDiv => BinOp::IDiv(FLOOR),
            O::Mod => BinOp::IRem(FLOOR),
            O::BitAnd | O::BitOr | O::BitXor | O::LShift | O::RShift if !int => {
                return err(
                    span,
                    format!(
                        "`{}` needs integers, not {}",
                        op_text(op),
                        types::dtype_name(d)
                    ),
                );
            }
            O::BitAnd => BinOp::And,
            O::BitOr => BinOp::Or,
            O::BitXor => BinOp::Xor,
            O::LShift => BinOp::Shl(ShiftRange::Ub),
            O::RShift if d.is_signed_int() => BinOp::Shr(ShrKind::Arith, ShiftRange::Ub),
            O::RShift => BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
            O::MatMult => return py::unsupported(span, "`@`", DIALECT, "use T.gemm"),
            O::Pow => unreachable!("handled above"),
        };
        Ok(Val::Num(bin(bop, a, b, span)))
    }

    /// `a ** b`. The seed lists `**` as supported; real TileLang 0.1.15
    /// refuses it on buffer elements (docs/divergences.md): ksem computes an
    /// integer power by repeated multiplication (wrapping) and a float power
    /// with `pow`.
    fn power(&mut self, l: Val, r: Val, span: Span) -> DResult<Val> {
        let a = self.num(l, span)?;
        let d = dtype_of(&a);
        if d.is_int() {
            let n = match &r {
                Val::Py(c) => c.as_int().filter(|&n| (0..=64).contains(&n)),
                _ => None,
            };
            let Some(n) = n else {
                return err(
                    span,
                    "an integer power needs a constant exponent from 0 to 64",
                );
            };
            let mut acc = konst(d, 1, span);
            for _ in 0..n {
                acc = bin(BinOp::Mul, acc, a.clone(), span);
            }
            return Ok(Val::Num(acc));
        }
        let b = convert(self.num(r, span)?, d);
        Ok(Val::Num(bin(BinOp::Pow, a, b, span)))
    }

    fn unop(&mut self, op: ast::UnaryOp, v: Val, span: Span) -> DResult<Val> {
        if let Val::Py(c) = &v {
            match (op, c) {
                (ast::UnaryOp::USub, Const::Int(i)) => return Ok(Val::Py(Const::Int(-i))),
                (ast::UnaryOp::USub, Const::Float(f)) => return Ok(Val::Py(Const::Float(-f))),
                (ast::UnaryOp::UAdd, _) => return Ok(v),
                (ast::UnaryOp::Not, _) => return Ok(Val::Py(Const::Bool(c.as_int() == Some(0)))),
                _ => {}
            }
        }
        let e = self.num(v, span)?;
        let d = dtype_of(&e);
        Ok(Val::Num(match op {
            ast::UnaryOp::UAdd => e,
            ast::UnaryOp::USub if d.is_unsigned_int() => {
                return err(span, "unary minus of an unsigned integer: TileLang refuses it (cannot make uint from negative value -1)")
                    .map_err(|d| d.with_help("compute in a signed dtype"));
            }
            ast::UnaryOp::USub => unary(UnOp::Neg, e, span),
            ast::UnaryOp::Invert if !d.is_int() => return err(span, "`~` needs an integer"),
            ast::UnaryOp::Invert => unary(UnOp::Not, e, span),
            ast::UnaryOp::Not => {
                let t = self.truth(e, span)?;
                unary(UnOp::LogicalNot, t, span)
            }
        }))
    }

    /// `a and b`, `a or b`: as C's `&&`/`||`, the right side only where needed.
    fn bool_op(&mut self, b: &ast::ExprBoolOp, span: Span) -> DResult<Val> {
        let is_and = matches!(b.op, ast::BoolOp::And);
        let first = self.expr(&b.values[0])?;
        let first = self.num(first, span)?;
        let r = self.new_var("_boolop", Type::scalar(DType::Bool));
        let t = self.truth(first, span)?;
        self.emit(Stmt::Let(r, t));
        for x in &b.values[1..] {
            self.blocks.push(Vec::new());
            let v = self
                .expr(x)
                .and_then(|v| self.num(v, span))
                .and_then(|e| self.truth(e, span));
            let mut body = self.blocks.pop().expect("pushed");
            body.push(Stmt::Let(r, v?));
            let cur = self.var_expr(r, span);
            let go_on = if is_and {
                cur
            } else {
                unary(UnOp::LogicalNot, cur, span)
            };
            self.emit(Stmt::If {
                cond: go_on,
                then_body: body,
                else_body: vec![],
            });
        }
        Ok(Val::Num(self.var_expr(r, span)))
    }

    fn compare(&mut self, c: &ast::ExprCompare, span: Span) -> DResult<Val> {
        if c.ops.len() != 1 {
            return py::unsupported(
                span,
                "a chained comparison",
                DIALECT,
                "combine comparisons with `and`",
            );
        }
        let op = match c.ops[0] {
            ast::CmpOp::Eq => BinOp::Eq,
            ast::CmpOp::NotEq => BinOp::Ne,
            ast::CmpOp::Lt => BinOp::Lt,
            ast::CmpOp::LtE => BinOp::Le,
            ast::CmpOp::Gt => BinOp::Gt,
            ast::CmpOp::GtE => BinOp::Ge,
            ast::CmpOp::In | ast::CmpOp::NotIn => {
                return py::unsupported(
                    span,
                    "membership testing (`in`)",
                    DIALECT,
                    "compare with `==` explicitly",
                )
            }
            ast::CmpOp::Is | ast::CmpOp::IsNot => {
                // `x is None` is Python meta-programming: compile-time
                // values compare as Python does, and a buffer or a runtime
                // value is never None
                if let Ok(v) = self.py_value(&ast::Expr::Compare(c.clone())) {
                    return Ok(Val::Py(v));
                }
                let l = self.expr(&c.left)?;
                let r = self.expr(&c.comparators[0])?;
                let none = |v: &Val| matches!(v, Val::Py(Const::None));
                if none(&l) || none(&r) {
                    let same = none(&l) && none(&r);
                    let is = matches!(c.ops[0], ast::CmpOp::Is);
                    return Ok(Val::Py(Const::Bool(same == is)));
                }
                return py::unsupported(
                    span,
                    "`is` on runtime values",
                    DIALECT,
                    "compare with `==`",
                );
            }
        };
        let l = self.expr(&c.left)?;
        let r = self.expr(&c.comparators[0])?;
        if let (Val::Py(a), Val::Py(b)) = (&l, &r) {
            if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
                let v = match op {
                    BinOp::Eq => x == y,
                    BinOp::Ne => x != y,
                    BinOp::Lt => x < y,
                    BinOp::Le => x <= y,
                    BinOp::Gt => x > y,
                    _ => x >= y,
                };
                return Ok(Val::Py(Const::Bool(v)));
            }
            if let (Const::Str(x), Const::Str(y)) = (a, b) {
                match op {
                    BinOp::Eq => return Ok(Val::Py(Const::Bool(x == y))),
                    BinOp::Ne => return Ok(Val::Py(Const::Bool(x != y))),
                    _ => {}
                }
            }
        }
        let (a, b) = (self.num(l, span)?, self.num(r, span)?);
        let d = types::promote(dtype_of(&a), dtype_of(&b))
            .ok_or_else(|| Diagnostic::new(span, "the operands have no common dtype"))?;
        Ok(Val::Num(bin(op, convert(a, d), convert(b, d), span)))
    }

    // ----- calls ------------------------------------------------------------------

    fn call(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        // unsupported argument syntax is named before an unknown callee
        for a in &c.args {
            if matches!(
                a,
                ast::Expr::GeneratorExp(_)
                    | ast::Expr::ListComp(_)
                    | ast::Expr::DictComp(_)
                    | ast::Expr::SetComp(_)
                    | ast::Expr::Lambda(_)
                    | ast::Expr::Starred(_)
            ) {
                self.expr(a)?;
            }
        }
        let callee = match &*c.func {
            // Python builtins are not names of the kernel
            ast::Expr::Name(n) if !self.env.contains_key(n.id.as_str()) => {
                Val::Path(format!("builtins.{}", n.id))
            }
            f => self.expr(f)?,
        };
        match callee {
            Val::Py(Const::Type(d)) => {
                // `T.float32(1.0)`: a value of that dtype
                let [a] = c.args.as_slice() else {
                    return err(span, "a dtype takes one value");
                };
                let v = self.expr(a)?;
                Ok(Val::Num(self.cast(v, d, span)?))
            }
            Val::Helper(h) => self.inline(&h, c, span),
            Val::Path(p) if p.starts_with("T.") => self.lang_call(&p[2..], c, span),
            Val::Path(p) if p.starts_with('<') && p.ends_with(".astype") => {
                let ast::Expr::Attribute(a) = &*c.func else {
                    unreachable!("an attribute path")
                };
                let v = self.expr(&a.value)?;
                let d = self.dtype_arg(
                    c.args
                        .first()
                        .ok_or_else(|| Diagnostic::new(span, "astype needs a dtype"))?,
                )?;
                Ok(Val::Num(self.cast(v, d, span)?))
            }
            _ => {
                let name = dotted(&c.func).unwrap_or_default();
                match name.as_str() {
                    "range" => err(span, "range() makes a loop: use it in `for i in range(…)`"),
                    "len" => py::unsupported(span, "`len()`", DIALECT, "use buffer.shape[dim]"),
                    "print" => py::unsupported(
                        span,
                        "`print()` of runtime values",
                        DIALECT,
                        "use T.print()",
                    ),
                    "type" | "isinstance" => py::unsupported(
                        span,
                        "`type()` / `isinstance()`",
                        DIALECT,
                        "types are fixed at compile time",
                    ),
                    "enumerate" | "zip" => {
                        py::unsupported(span, "enumerate/zip", DIALECT, "use an index-based loop")
                    }
                    "max" | "min" | "abs" if c.args.iter().all(|a| self.py_value(a).is_ok()) => {
                        Ok(Val::Py(self.py_value(&ast::Expr::Call(c.clone()))?))
                    }
                    "max" | "min" => py::unsupported(
                        span,
                        "Python max()/min() of runtime values",
                        DIALECT,
                        "use T.max / T.min, or T.reduce_max / T.reduce_min",
                    ),
                    "int" | "float" | "bool" => {
                        let v = self.py_value(
                            c.args
                                .first()
                                .ok_or_else(|| Diagnostic::new(span, "one argument"))?,
                        );
                        match (name.as_str(), v) {
                            ("int", Ok(Const::Float(f))) => {
                                Ok(Val::Py(Const::Int(f.trunc() as i128)))
                            }
                            ("float", Ok(c)) if c.as_int().is_some() => {
                                Ok(Val::Py(Const::Float(c.as_int().unwrap_or(0) as f64)))
                            }
                            (_, Ok(c)) => Ok(Val::Py(c)),
                            _ => err(span, format!("{name}() of a runtime value").as_str())
                                .map_err(|d| d.with_help("use .astype(…) or T.Cast(…)")),
                        }
                    }
                    // a host function on compile-time values (`tilelang.cdiv`, `math.ceil`)
                    _ => match self.py_value(&ast::Expr::Call(c.clone())) {
                        Ok(v) => Ok(Val::Py(v)),
                        Err(_) => err(
                            span,
                            format!(
                                "`{}` is not callable in a TileLang kernel",
                                if name.is_empty() { "this" } else { &name }
                            ),
                        ),
                    },
                }
            }
        }
    }

    /// The arguments of a call as values (keywords are looked up by name).
    fn args(&mut self, c: &ast::ExprCall, n: usize, what: &str, span: Span) -> DResult<Vec<Val>> {
        if c.args.len() != n {
            return err(
                span,
                format!("{what} takes {n} argument(s), got {}", c.args.len()),
            );
        }
        c.args.iter().map(|a| self.expr(a)).collect()
    }

    fn ints(&mut self, vals: Vec<Val>, what: &str, span: Span) -> DResult<(Expr, Expr)> {
        let [a, b]: [Val; 2] = vals
            .try_into()
            .map_err(|_| Diagnostic::new(span, format!("{what} takes two arguments")))?;
        let (a, b) = (self.num(a, span)?, self.num(b, span)?);
        let d = types::promote(dtype_of(&a), dtype_of(&b))
            .filter(|d| d.is_int())
            .ok_or_else(|| Diagnostic::new(span, format!("{what} needs integers")))?;
        Ok((convert(a, d), convert(b, d)))
    }

    /// `T.something(…)` in an expression.
    fn lang_call(&mut self, f: &str, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let math = |name: &str| -> Option<MathFn> {
            Some(match name {
                "exp" => MathFn::Exp,
                "exp2" => MathFn::Exp2,
                "log" => MathFn::Log,
                "log2" => MathFn::Log2,
                "log10" => MathFn::Log10,
                "sqrt" => MathFn::Sqrt,
                "rsqrt" => MathFn::Rsqrt,
                "sin" => MathFn::Sin,
                "cos" => MathFn::Cos,
                "tan" => MathFn::Tan,
                "tanh" => MathFn::Tanh,
                "sigmoid" => MathFn::Sigmoid,
                "erf" => MathFn::Erf,
                "floor" => MathFn::Floor,
                "ceil" => MathFn::Ceil,
                _ => return None,
            })
        };
        if let Some(m) = math(f) {
            let [v]: [Val; 1] = self.args(c, 1, f, span)?.try_into().expect("one");
            let e = self.num(v, span)?;
            if !dtype_of(&e).is_float() {
                return err(
                    span,
                    format!(
                        "T.{f} needs a float, not {}",
                        types::dtype_name(dtype_of(&e))
                    ),
                )
                .map_err(|d| d.with_help("convert with .astype(\"float32\")"));
            }
            return Ok(Val::Num(unary(UnOp::Math(m), e, span)));
        }
        match f {
            "floordiv" | "floormod" | "truncdiv" | "truncmod" | "ceildiv" => {
                let vals = self.args(c, 2, f, span)?;
                if let (Val::Py(a), Val::Py(b)) = (&vals[0], &vals[1]) {
                    if let (Some(x), Some(y), "ceildiv") = (a.as_int(), b.as_int(), f) {
                        if y != 0 {
                            return Ok(Val::Py(Const::Int(consts::ceil_div(x, y))));
                        }
                    }
                }
                let (a, b) = self.ints(vals, f, span)?;
                Ok(Val::Num(match f {
                    "floordiv" => bin(BinOp::IDiv(FLOOR), a, b, span),
                    "floormod" => bin(BinOp::IRem(FLOOR), a, b, span),
                    "truncdiv" => bin(BinOp::IDiv(TRUNC), a, b, span),
                    "truncmod" => bin(BinOp::IRem(TRUNC), a, b, span),
                    _ => {
                        // the seed: ⌈a / b⌉ = floor(a / b) + (a mod b != 0);
                        // real TileLang computes (a + b - 1) // b (docs/divergences.md)
                        let d = dtype_of(&a);
                        let q = bin(BinOp::IDiv(FLOOR), a.clone(), b.clone(), span);
                        let r = bin(BinOp::IRem(FLOOR), a, b, span);
                        let up = bin(BinOp::Ne, r, konst(d, 0, span), span);
                        let one = mk(ExprKind::Cast(Box::new(up), CONVERT), Type::scalar(d), span);
                        bin(BinOp::Add, q, one, span)
                    }
                }))
            }
            "min" | "max" => {
                let vals = self.args(c, 2, f, span)?;
                let [a, b]: [Val; 2] = vals.try_into().expect("two");
                let (a, b) = (self.num(a, span)?, self.num(b, span)?);
                let d = types::promote(dtype_of(&a), dtype_of(&b))
                    .ok_or_else(|| Diagnostic::new(span, "no common dtype"))?;
                let (a, b) = (convert(a, d), convert(b, d));
                Ok(Val::Num(min_max(f == "min", a, b, span)))
            }
            "abs" => {
                let [v]: [Val; 1] = self.args(c, 1, f, span)?.try_into().expect("one");
                let e = self.num(v, span)?;
                Ok(Val::Num(abs_of(e, span)))
            }
            "clamp" => {
                let vals = self.args(c, 3, f, span)?;
                let [x, lo, hi]: [Val; 3] = vals.try_into().expect("three");
                let x = self.num(x, span)?;
                let d = dtype_of(&x);
                let lo = convert(self.num(lo, span)?, d);
                let hi = convert(self.num(hi, span)?, d);
                // T.clamp(x, lo, hi) = T.max(T.min(x, hi), lo)
                Ok(Val::Num(min_max(
                    false,
                    min_max(true, x, hi, span),
                    lo,
                    span,
                )))
            }
            "if_then_else" => {
                if c.args.len() != 3 {
                    return err(span, "T.if_then_else takes (cond, then, else)");
                }
                let cond = self.cond(&c.args[0])?;
                self.lazy_select(cond, &c.args[1], &c.args[2], span)
            }
            "Cast" | "cast" => {
                if c.args.len() != 2 {
                    return err(span, "T.Cast takes (dtype, value)");
                }
                let d = self.dtype_arg(&c.args[0])?;
                let v = self.expr(&c.args[1])?;
                Ok(Val::Num(self.cast(v, d, span)?))
            }
            "min_value" | "max_value" | "infinity" => {
                let d = self.dtype_arg(
                    c.args
                        .first()
                        .ok_or_else(|| Diagnostic::new(span, format!("T.{f} needs a dtype")))?,
                )?;
                Ok(Val::Num(match (f, d.is_float()) {
                    ("infinity", true) => float_const(d, f64::INFINITY, span),
                    ("min_value", true) => konst(d, max_finite(d) | (1u64 << (d.bits() - 1)), span),
                    ("max_value", true) => konst(d, max_finite(d), span),
                    ("min_value", false) => int_const(d, d.int_range().0, span),
                    ("max_value", false) => int_const(d, d.int_range().1, span),
                    _ => return err(span, format!("T.{f} of an integer dtype")),
                }))
            }
            "ieee_add" | "ieee_sub" | "ieee_mul" | "ieee_fdiv" | "ieee_fsqrt" | "ieee_frcp" | "ieee_fmaf" => {
                self.ieee(f, c, span)
            }
            "ieee_frsqrt" => err(span, "T.ieee_frsqrt is not supported by ksem yet")
                .map_err(|d| d.with_help("use T.ieee_frcp(T.ieee_fsqrt(x, \"rn\"), \"rn\") if two roundings are acceptable")),
            "alloc_shared" | "alloc_fragment" | "alloc_local" => {
                let shape_e = c
                    .args
                    .first()
                    .ok_or_else(|| Diagnostic::new(span, format!("T.{f} needs a shape")))?;
                let shape = self.static_shape(shape_e)?;
                let dtype_e = c
                    .args
                    .get(1)
                    .or_else(|| {
                        c.keywords
                            .iter()
                            .find(|k| k.arg.as_deref() == Some("dtype"))
                            .map(|k| &k.value)
                    })
                    .ok_or_else(|| Diagnostic::new(span, format!("T.{f} needs a dtype")))?;
                let d = self.dtype_arg(dtype_e)?;
                let space = if f == "alloc_shared" {
                    AddrSpace::Shared
                } else {
                    AddrSpace::Local
                };
                Ok(Val::Buf(self.alloc(f, d, shape, space, false, span)))
            }
            "alloc_global" => {
                let shape_e = c.args.first().ok_or_else(|| Diagnostic::new(span, "T.alloc_global needs a shape"))?;
                let shape = self.static_shape(shape_e)?;
                let dtype_e = c.args.get(1).or_else(|| {
                    c.keywords.iter().find(|k| k.arg.as_deref() == Some("dtype")).map(|k| &k.value)
                });
                let d = match dtype_e {
                    Some(e) => self.dtype_arg(e)?,
                    None => DType::F32,
                };
                // global memory every block sees: made zeroed, reported as an output
                let made = self.params.iter().filter(|p| p.name.starts_with("alloc_global")).count();
                let name = format!("alloc_global{made}");
                let len: usize = shape.iter().product();
                let v = self.new_var(&name, Type::global_ptr(d));
                self.params.push(Param { name: name.clone(), kind: ParamKind::Pointer(d), var: Some(v) });
                self.fresh.push((name.clone(), len));
                let base = self.var_expr(v, span);
                Ok(Val::Buf(Buf { name, base, dtype: d, shape, space: AddrSpace::Global, scalar: false, private: false }))
            }
            "empty" => err(
                span,
                "T.empty(…) must be assigned to a name: `C = T.empty(shape, dtype)`",
            ),
            "const" => err(
                span,
                "T.const(…) must be unpacked into names: `M, N = T.const(\"M, N\")`",
            ),
            "alloc_var" => {
                let dtype_e = c
                    .args
                    .first()
                    .or_else(|| {
                        c.keywords
                            .iter()
                            .find(|k| k.arg.as_deref() == Some("dtype"))
                            .map(|k| &k.value)
                    })
                    .ok_or_else(|| Diagnostic::new(span, "T.alloc_var needs a dtype"))?;
                let d = self.dtype_arg(dtype_e)?;
                let b = self.alloc(f, d, vec![1], AddrSpace::Local, true, span);
                let init = c.args.get(1).or_else(|| {
                    c.keywords
                        .iter()
                        .find(|k| k.arg.as_deref() == Some("init"))
                        .map(|k| &k.value)
                });
                if let Some(i) = init {
                    let v = self.expr(i)?;
                    let e = self.num(v, span)?;
                    let p = self.elem_ptr(&b, vec![konst(DType::I64, 0, span)], span)?;
                    self.store(p, e, d, span);
                }
                Ok(Val::Buf(b))
            }
            "copy" | "fill" | "clear" | "reduce_sum" | "reduce_max" | "reduce_min" | "gemm" => {
                err(span, format!("T.{f} is a statement, not a value"))
            }
            "print" => py::unsupported(
                span,
                "T.print",
                DIALECT,
                "ksem does not run T.print yet; remove it",
            ),
            other => err(span, format!("T.{other} is not supported by ksem yet")),
        }
    }

    /// `T.ieee_add(x, y, rounding_mode="rn")` and its siblings: IEEE
    /// operations in x's dtype (float32 or float64) with the rounding mode
    /// `"rn"`, `"rz"`, `"ru"` or `"rd"`, exact (CUDA's `__fadd_rz` …).
    fn ieee(&mut self, f: &str, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let arity = match f {
            "ieee_fsqrt" | "ieee_frcp" => 1,
            "ieee_fmaf" => 3,
            _ => 2,
        };
        if c.args.len() < arity || c.args.len() > arity + 1 {
            return err(
                span,
                format!("T.{f} takes {arity} operand(s) and a rounding mode"),
            );
        }
        let mode_e = c.args.get(arity).or_else(|| {
            c.keywords
                .iter()
                .find(|k| k.arg.as_deref() == Some("rounding_mode"))
                .map(|k| &k.value)
        });
        let mode = match mode_e {
            None => Rounding::NearestEven,
            Some(e) => match self.py_value(e) {
                Ok(Const::Str(m)) => match m.as_str() {
                    "rn" => Rounding::NearestEven,
                    "rz" => Rounding::TowardZero,
                    "ru" => Rounding::Up,
                    "rd" => Rounding::Down,
                    other => {
                        return err(self.span(e), format!("unknown rounding mode {other:?}"))
                            .map_err(|d| d.with_help("use \"rn\", \"rz\", \"ru\" or \"rd\""))
                    }
                },
                _ => {
                    return err(
                        self.span(e),
                        "the rounding mode is a string: \"rn\", \"rz\", \"ru\" or \"rd\"",
                    )
                }
            },
        };
        let vals: Vec<Val> = c.args[..arity]
            .iter()
            .map(|a| self.expr(a))
            .collect::<DResult<_>>()?;
        let mut it = vals.into_iter();
        let x = self.num(it.next().expect("one operand"), span)?;
        let d = dtype_of(&x);
        if !matches!(d, DType::F32 | DType::F64) {
            return err(
                span,
                format!(
                    "T.{f} computes in float32 or float64, not {}",
                    types::dtype_name(d)
                ),
            )
            .map_err(|e| e.with_help("convert the operand with .astype(\"float32\")"));
        }
        // the other operands take x's dtype (TVM converts Python numbers to it)
        let mut rest = Vec::new();
        for v in it {
            let e = self.num(v, span)?;
            if !matches!(e.kind, ExprKind::Const(_)) && dtype_of(&e) != d {
                return err(
                    span,
                    format!("T.{f} operands must all be {}", types::dtype_name(d)),
                );
            }
            rest.push(convert(e, d));
        }
        let b = |op| bin(BinOp::Ieee(op, mode), x.clone(), rest[0].clone(), span);
        Ok(Val::Num(match f {
            "ieee_add" => b(IeeeBinary::Add),
            "ieee_sub" => b(IeeeBinary::Sub),
            "ieee_mul" => b(IeeeBinary::Mul),
            "ieee_fdiv" => b(IeeeBinary::Div),
            "ieee_fsqrt" => unary(UnOp::Ieee(IeeeUnary::Sqrt, mode), x, span),
            "ieee_frcp" => unary(UnOp::Ieee(IeeeUnary::Rcp, mode), x, span),
            _ => {
                if mode != Rounding::NearestEven {
                    return err(span, "T.ieee_fmaf with a rounding mode other than \"rn\" is not supported by ksem yet");
                }
                let ty = x.ty.clone();
                mk(
                    ExprKind::Fma(
                        Box::new(x),
                        Box::new(rest[0].clone()),
                        Box::new(rest[1].clone()),
                    ),
                    ty,
                    span,
                )
            }
        }))
    }

    /// `T.Cast(d, v)` / `v.astype(d)`. A Python constant becomes a constant
    /// of `d`: TileLang refuses a negative one for an unsigned `d`
    /// (measured: "cannot make uint from negative value -4").
    fn cast(&self, v: Val, d: DType, span: Span) -> DResult<Expr> {
        if let (Val::Py(Const::Int(n)), true) = (&v, d.is_unsigned_int()) {
            if *n < 0 {
                return err(span, format!("cannot make uint from negative value {n}")).map_err(
                    |e| e.with_help("cast a signed value, or use a non-negative constant"),
                );
            }
        }
        // measured: "Literal value 1984 exceeds maximum of uint8"
        if let (Val::Py(Const::Int(n)), true) = (&v, d.is_int() && d != DType::Bool) {
            let (lo, hi) = d.int_range();
            if *n > hi || *n < lo {
                return err(
                    span,
                    format!(
                        "Literal value {n} exceeds the range of {}",
                        types::dtype_name(d)
                    ),
                )
                .map_err(|e| e.with_help("wrap it in Python first, or cast a runtime value"));
            }
        }
        Ok(convert(self.num(v, span)?, d))
    }

    fn alloc(
        &mut self,
        what: &str,
        d: DType,
        shape: Vec<usize>,
        space: AddrSpace,
        scalar: bool,
        span: Span,
    ) -> Buf {
        let id = self.arrays.len();
        let name = format!("{what}{id}");
        self.arrays.push(ArrayDecl {
            name: name.clone(),
            dtype: d,
            space,
            shape: shape.clone(),
            span,
        });
        let base = mk(
            ExprKind::ArrayBase(id),
            Type {
                elem: Elem::Ptr(d, space),
                shape: vec![],
            },
            span,
        );
        Buf {
            name,
            base,
            dtype: d,
            shape,
            space,
            scalar,
            private: what == "alloc_local",
        }
    }

    /// `T.copy`, `T.fill`, `T.clear` as statements; `None` for other calls.
    fn statement_call(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Option<()>> {
        let Some(p) = dotted(&c.func) else {
            return Ok(None);
        };
        let Some((base, f)) = p.rsplit_once('.') else {
            return Ok(None);
        };
        if !self.m.lang.iter().any(|l| l == base) {
            return Ok(None);
        }
        match f {
            "copy" => {
                if c.args.len() != 2 {
                    return err(span, "T.copy takes (src, dst)");
                }
                let src = self.region_arg(&c.args[0])?;
                let dst = self.region_arg(&c.args[1])?;
                self.copy(src, dst, span)?;
                Ok(Some(()))
            }
            "atomic_add" | "atomic_max" | "atomic_min" => {
                self.atomic(f, c, span)?;
                Ok(Some(()))
            }
            // hints that change how, not what, the block computes
            "use_swizzle" | "annotate_layout" | "sync_threads" | "annotate_padding" => Ok(Some(())),
            "fill" | "clear" => {
                let n = if f == "fill" { 2 } else { 1 };
                if c.args.len() != n {
                    return err(span, format!("T.{f} takes {n} argument(s)"));
                }
                let dst = self.region_arg(&c.args[0])?;
                let v = if f == "fill" {
                    self.expr(&c.args[1])?
                } else {
                    Val::Py(Const::Int(0))
                };
                let e = self.num(v, span)?;
                let ext: Vec<usize> = dst.extents.iter().map(|e| e.unwrap_or(1)).collect();
                let value = convert(e, dst.buf.dtype);
                self.nest(&ext, span, &mut |me, idx| {
                    let at: Vec<Expr> = offset(&dst, idx, span);
                    let p = me.elem_ptr(&dst.buf, at, span)?;
                    me.emit(Stmt::Store {
                        ptr: p,
                        value: value.clone(),
                        mask: None,
                        span,
                    });
                    Ok(())
                })?;
                Ok(Some(()))
            }
            "reduce_sum" | "reduce_max" | "reduce_min" | "reduce_abssum" | "reduce_absmax" => {
                self.reduce(f, c, span)?;
                Ok(Some(()))
            }
            "gemm" => {
                self.gemm(c, span)?;
                Ok(Some(()))
            }
            _ => Ok(None),
        }
    }

    /// `T.atomic_add(dst, value)` (also `atomic_max`, `atomic_min`): `dst` an
    /// element (`C[i, j]`) with a value, or a buffer or region with a source
    /// buffer or region of the same extent, element by element. Atomics from
    /// different blocks or `T.Parallel` iterations do not race; a float sum
    /// is marked order-dependent.
    fn atomic(&mut self, f: &str, c: &ast::ExprCall, span: Span) -> DResult<()> {
        if c.args.len() != 2 {
            return err(span, format!("T.{f} takes (dst, value)"));
        }
        let op = match f {
            "atomic_add" => AtomicOp::Add,
            "atomic_max" => AtomicOp::Max,
            _ => AtomicOp::Min,
        };
        let emit = |me: &mut Self, ptr: Expr, value: Expr, d: DType| {
            let e = mk(
                ExprKind::Atomic {
                    op,
                    ptr: Box::new(ptr),
                    val: Box::new(convert(value, d)),
                    cmp: None,
                },
                Type::scalar(d),
                span,
            );
            let v = me.new_var("_atomic", Type::scalar(d));
            me.emit(Stmt::Let(v, e));
        };
        // the element form: dst is `B[i, j]`
        if let ast::Expr::Subscript(sub) = &c.args[0] {
            let is_slice = match &*sub.slice {
                ast::Expr::Slice(_) => true,
                ast::Expr::Tuple(t) => t.elts.iter().any(|x| matches!(x, ast::Expr::Slice(_))),
                _ => false,
            };
            let value = self.expr(&c.args[1])?;
            if !is_slice && !matches!(value, Val::Buf(_) | Val::Region(_)) {
                let b = self.buffer_of(&sub.value)?;
                let idx = self.indices(&sub.slice)?;
                let p = self.elem_ptr(&b, idx, span)?;
                let v = self.num(value, span)?;
                emit(self, p, v, b.dtype);
                return Ok(());
            }
        }
        let dst = self.region_arg(&c.args[0])?;
        let src = self.region_arg(&c.args[1])?;
        let squeeze = |r: &Region| -> Vec<usize> {
            r.extents
                .iter()
                .flatten()
                .copied()
                .filter(|&e| e != 1)
                .collect()
        };
        let shape = if src.extents.iter().all(Option::is_none) {
            squeeze(&dst)
        } else {
            squeeze(&src)
        };
        let src = fill_open(src, &shape, span)?;
        let dst = fill_open(dst, &shape, span)?;
        if squeeze(&src) != squeeze(&dst) {
            return err(
                span,
                format!(
                    "T.{f} of a {:?} region into a {:?} region",
                    squeeze(&src),
                    squeeze(&dst)
                ),
            );
        }
        self.nest(&shape, span, &mut |me, idx| {
            let sp = me.elem_ptr(&src.buf, offset(&src, idx, span), span)?;
            let dp = me.elem_ptr(&dst.buf, offset(&dst, idx, span), span)?;
            let v = load(sp, src.buf.dtype, span);
            emit(me, dp, v, dst.buf.dtype);
            Ok(())
        })
    }

    /// A keyword argument of a call, or its positional argument `pos`.
    fn kwarg<'c>(c: &'c ast::ExprCall, name: &str, pos: usize) -> Option<&'c ast::Expr> {
        c.keywords
            .iter()
            .find(|k| k.arg.as_deref() == Some(name))
            .map(|k| &k.value)
            .or_else(|| c.args.get(pos))
    }

    /// A compile-time bool or int argument.
    fn flag(&self, e: Option<&ast::Expr>, default: i128) -> DResult<i128> {
        match e {
            None => Ok(default),
            Some(e) => self
                .py_value(e)
                .ok()
                .and_then(|c| c.as_int())
                .ok_or_else(|| {
                    Diagnostic::new(self.span(e), "this argument must be known at compile time")
                }),
        }
    }

    /// `T.reduce_{sum,max,min,abssum,absmax}(src, dst, dim=-1, clear=True)`:
    /// for every element of `dst`, the elements of `src` along `dim` (their
    /// absolute values for the abs forms) combined in DESIGN.md's canonical
    /// order: `x[i] = x[i] ⊕ x[i + s]` for s = p/2, p/4, …, 1 (p the length
    /// rounded up to a power of two; elements past the length are left out).
    /// Float max/min ignore a NaN operand (CUDA's fmaxf/fminf, which
    /// TileLang's MaxOp/MinOp use on the GPU; the C target cannot compile
    /// reductions, so this is not measured). `clear=False` combines the
    /// result with what `dst` holds.
    fn reduce(&mut self, f: &str, c: &ast::ExprCall, span: Span) -> DResult<()> {
        let src_e = c
            .args
            .first()
            .ok_or_else(|| Diagnostic::new(span, format!("T.{f} takes (src, dst, dim=…)")))?;
        let dst_e = c
            .args
            .get(1)
            .ok_or_else(|| Diagnostic::new(span, format!("T.{f} takes (src, dst, dim=…)")))?;
        let src = self.buffer_of(src_e)?;
        let dst = self.buffer_of(dst_e)?;
        let rank = src.shape.len() as i128;
        let dim = self.flag(Self::kwarg(c, "dim", 2), -1)?;
        let dim = if dim < 0 { dim + rank } else { dim };
        if !(0..rank).contains(&dim) {
            return err(
                span,
                format!("dim {dim} is out of range for a {rank}-dimensional buffer"),
            );
        }
        let dim = dim as usize;
        if f == "reduce_abssum" && c.keywords.iter().any(|k| k.arg.as_deref() == Some("clear")) {
            // measured: TileLang's reduce_abssum has no `clear`
            return err(
                span,
                "T.reduce_abssum() got an unexpected keyword argument 'clear'",
            );
        }
        let clear = self.flag(Self::kwarg(c, "clear", 3), 1)? != 0;
        let mut kept: Vec<usize> = src.shape.clone();
        kept.remove(dim);
        let keep_dims = dst.shape.len() == src.shape.len();
        let want: Vec<usize> = if keep_dims {
            let mut k = src.shape.clone();
            k[dim] = 1;
            k
        } else {
            kept.clone()
        };
        if dst.shape != want && !(kept.is_empty() && dst.shape == [1]) {
            return err(
                span,
                format!(
                    "T.{f} of a {:?} buffer along dim {dim} makes {want:?}, not {:?}",
                    src.shape, dst.shape
                ),
            );
        }
        let d = src.dtype;
        let n = src.shape[dim];
        let p = n.next_power_of_two().max(1);
        let (op, abs) = match f {
            "reduce_sum" => (BinOp::Add, false),
            "reduce_abssum" => (BinOp::Add, true),
            "reduce_max" => (BinOp::Max(NanMode::Ignore), false),
            "reduce_absmax" => (BinOp::Max(NanMode::Ignore), true),
            _ => (BinOp::Min(NanMode::Ignore), false),
        };
        let tmp = self.alloc("_reduce", d, vec![p], AddrSpace::Local, false, span);
        self.nest(&kept, span, &mut |me, idx| {
            let at = |r: Expr| -> Vec<Expr> {
                let mut v: Vec<Expr> = idx.to_vec();
                v.insert(dim, r);
                v
            };
            let elem = |me: &Self, i: Expr| me.elem_ptr(&tmp, vec![i], span);
            // x[r] = f(src[…, r, …])
            let r = me.new_var("_r", Type::scalar(DType::I64));
            let rv = me.var_expr(r, span);
            let sp = me.elem_ptr(&src, at(rv.clone()), span)?;
            let mut v = load(sp, d, span);
            if abs {
                v = abs_of(v, span);
            }
            let fill = vec![Stmt::Store {
                ptr: elem(me, rv)?,
                value: v,
                mask: None,
                span,
            }];
            me.emit(Stmt::For {
                var: r,
                start: konst(DType::I64, 0, span),
                end: konst(DType::I64, n as u64, span),
                step: konst(DType::I64, 1, span),
                body: fill,
                span,
                parallel: None,
            });
            let mut s = p / 2;
            while s >= 1 {
                let i = me.new_var("_s", Type::scalar(DType::I64));
                let iv = me.var_expr(i, span);
                let j = bin(
                    BinOp::Add,
                    iv.clone(),
                    konst(DType::I64, s as u64, span),
                    span,
                );
                let a = load(elem(me, iv.clone())?, d, span);
                let b = load(elem(me, j.clone())?, d, span);
                let step = Stmt::Store {
                    ptr: elem(me, iv.clone())?,
                    value: bin(op, a, b, span),
                    mask: None,
                    span,
                };
                // elements past the length take no part
                let guarded = Stmt::If {
                    cond: bin(BinOp::Lt, j, konst(DType::I64, n as u64, span), span),
                    then_body: vec![step],
                    else_body: vec![],
                };
                me.emit(Stmt::For {
                    var: i,
                    start: konst(DType::I64, 0, span),
                    end: konst(DType::I64, s as u64, span),
                    step: konst(DType::I64, 1, span),
                    body: vec![guarded],
                    span,
                    parallel: None,
                });
                s /= 2;
            }
            let mut result = load(elem(me, konst(DType::I64, 0, span))?, d, span);
            let mut out_at: Vec<Expr> = idx.to_vec();
            if keep_dims {
                out_at.insert(dim, konst(DType::I64, 0, span));
            } else if out_at.is_empty() {
                out_at.push(konst(DType::I64, 0, span));
            }
            let dp = me.elem_ptr(&dst, out_at, span)?;
            if !clear {
                let old = load(dp.clone(), dst.dtype, span);
                result = bin(op, convert(old, d), result, span);
            }
            me.store(dp, result, dst.dtype, span);
            Ok(())
        })
    }

    /// `T.gemm(A, B, C, transpose_A=False, transpose_B=False,
    /// clear_accum=False)`: C = C + A·B (C = A·B with `clear_accum`). The
    /// order is exact and documented: for each C[i, j], for k ascending,
    /// `acc = acc + a·b` with a and b converted to C's dtype, the product
    /// rounded, then the sum rounded (no fused multiply-add).
    fn gemm(&mut self, c: &ast::ExprCall, span: Span) -> DResult<()> {
        if c.args.len() < 3 {
            return err(span, "T.gemm takes (A, B, C, …)");
        }
        let a = self.buffer_of(&c.args[0])?;
        let b = self.buffer_of(&c.args[1])?;
        let cb = self.buffer_of(&c.args[2])?;
        let ta = self.flag(Self::kwarg(c, "transpose_A", 3), 0)? != 0;
        let tb = self.flag(Self::kwarg(c, "transpose_B", 4), 0)? != 0;
        let clear = self.flag(
            c.keywords
                .iter()
                .find(|k| k.arg.as_deref() == Some("clear_accum"))
                .map(|k| &k.value),
            0,
        )? != 0;
        let two = |x: &Buf| -> DResult<(usize, usize)> {
            match x.shape.as_slice() {
                [r, c] => Ok((*r, *c)),
                _ => err(
                    span,
                    format!(
                        "T.gemm needs 2-dimensional buffers; `{}` has shape {:?}",
                        x.name, x.shape
                    ),
                ),
            }
        };
        let (ar, ac) = two(&a)?;
        let (br, bc) = two(&b)?;
        let (m, n) = two(&cb)?;
        let (am, ak) = if ta { (ac, ar) } else { (ar, ac) };
        let (bk, bn) = if tb { (bc, br) } else { (br, bc) };
        if am != m || bn != n || ak != bk {
            return err(
                span,
                format!(
                    "T.gemm shapes do not fit: A {:?}{}, B {:?}{}, C {:?}",
                    a.shape,
                    if ta { "ᵀ" } else { "" },
                    b.shape,
                    if tb { "ᵀ" } else { "" },
                    cb.shape
                ),
            );
        }
        let d = cb.dtype;
        let acc = self.new_var("_acc", Type::scalar(d));
        self.nest(&[m, n], span, &mut |me, ij| {
            let (i, j) = (ij[0].clone(), ij[1].clone());
            let cp = me.elem_ptr(&cb, vec![i.clone(), j.clone()], span)?;
            let init = if clear {
                konst(d, 0, span)
            } else {
                load(cp.clone(), d, span)
            };
            me.emit(Stmt::Let(acc, init));
            let k = me.new_var("_k", Type::scalar(DType::I64));
            let kv = me.var_expr(k, span);
            let a_at = if ta {
                vec![kv.clone(), i.clone()]
            } else {
                vec![i.clone(), kv.clone()]
            };
            let b_at = if tb {
                vec![j.clone(), kv.clone()]
            } else {
                vec![kv.clone(), j.clone()]
            };
            let av = convert(load(me.elem_ptr(&a, a_at, span)?, a.dtype, span), d);
            let bv = convert(load(me.elem_ptr(&b, b_at, span)?, b.dtype, span), d);
            let prod = bin(BinOp::Mul, av, bv, span);
            let sum = bin(BinOp::Add, me.var_expr(acc, span), prod, span);
            me.emit(Stmt::For {
                var: k,
                start: konst(DType::I64, 0, span),
                end: konst(DType::I64, ak as u64, span),
                step: konst(DType::I64, 1, span),
                body: vec![Stmt::Let(acc, sum)],
                span,
                parallel: None,
            });
            let value = me.var_expr(acc, span);
            me.emit(Stmt::Store {
                ptr: cp,
                value,
                mask: None,
                span,
            });
            Ok(())
        })
    }

    /// A `T.copy`/`T.fill` operand: a whole buffer, a region, or a buffer
    /// element naming where a region starts.
    fn region_arg(&mut self, e: &ast::Expr) -> DResult<Region> {
        let span = self.span(e);
        match self.expr(e)? {
            Val::Buf(b) => Ok(Region {
                starts: vec![konst(DType::I64, 0, span); b.shape.len()],
                extents: b.shape.iter().map(|&n| Some(n)).collect(),
                buf: b,
            }),
            Val::Region(r) => Ok(r),
            Val::Num(_) => {
                let ast::Expr::Subscript(s) = e else {
                    return err(span, "this is not a buffer region");
                };
                let b = self.buffer_of(&s.value)?;
                let idx = self.indices(&s.slice)?;
                if idx.len() != b.shape.len() {
                    return err(
                        span,
                        format!(
                            "buffer `{}` has {} dimension(s) but is indexed with {}",
                            b.name,
                            b.shape.len(),
                            idx.len()
                        ),
                    );
                }
                let starts = idx
                    .into_iter()
                    .map(|v| self.num(v, span).map(|x| convert(x, DType::I64)))
                    .collect::<DResult<Vec<_>>>()?;
                Ok(Region {
                    extents: vec![None; starts.len()],
                    starts,
                    buf: b,
                })
            }
            _ => err(span, "this is not a buffer region"),
        }
    }

    /// `T.copy(src, dst)`: element by element over the copied extent (the
    /// dimensions of extent > 1 of both sides, in order, must agree). A
    /// global element outside its buffer is not read (the destination gets
    /// 0) or not written.
    fn copy(&mut self, src: Region, dst: Region, span: Span) -> DResult<()> {
        let squeeze = |r: &Region| -> Vec<usize> {
            r.extents
                .iter()
                .flatten()
                .copied()
                .filter(|&e| e != 1)
                .collect()
        };
        let (se, de) = (squeeze(&src), squeeze(&dst));
        let src_open = src.extents.iter().all(Option::is_none);
        let dst_open = dst.extents.iter().all(Option::is_none);
        let shape = match (src_open, dst_open) {
            (true, true) => {
                return err(
                    span,
                    "T.copy needs an extent: give a buffer or a slice on one side",
                )
            }
            (true, false) => de,
            (false, true) => se,
            (false, false) if se == de => se,
            _ => {
                return err(
                    span,
                    format!("T.copy of a {se:?} region into a {de:?} region"),
                )
            }
        };
        let src = fill_open(src, &shape, span)?;
        let dst = fill_open(dst, &shape, span)?;
        self.nest(&shape, span, &mut |me, idx| {
            let s_at = offset(&src, idx, span);
            let d_at = offset(&dst, idx, span);
            let s_ok = in_bounds(&src.buf, &s_at, span);
            let d_ok = in_bounds(&dst.buf, &d_at, span);
            let sp = me.elem_ptr(&src.buf, s_at, span)?;
            let dp = me.elem_ptr(&dst.buf, d_at, span)?;
            let value = convert(load(sp, src.buf.dtype, span), dst.buf.dtype);
            let zero = konst(dst.buf.dtype, 0, span);
            let write_value = match s_ok {
                None => vec![Stmt::Store {
                    ptr: dp.clone(),
                    value,
                    mask: None,
                    span,
                }],
                Some(c) => vec![Stmt::If {
                    cond: c,
                    then_body: vec![Stmt::Store {
                        ptr: dp.clone(),
                        value,
                        mask: None,
                        span,
                    }],
                    else_body: vec![Stmt::Store {
                        ptr: dp,
                        value: zero,
                        mask: None,
                        span,
                    }],
                }],
            };
            match d_ok {
                None => write_value.into_iter().for_each(|s| me.emit(s)),
                Some(c) => me.emit(Stmt::If {
                    cond: c,
                    then_body: write_value,
                    else_body: vec![],
                }),
            }
            Ok(())
        })
    }

    /// Loops `for i_k in range(ext_k)` nested outermost first, calling `body`
    /// with the index variables.
    fn nest(
        &mut self,
        ext: &[usize],
        span: Span,
        body: &mut dyn FnMut(&mut Self, &[Expr]) -> DResult<()>,
    ) -> DResult<()> {
        let vars: Vec<VarId> = ext
            .iter()
            .map(|_| self.new_var("_i", Type::scalar(DType::I64)))
            .collect();
        let idx: Vec<Expr> = vars.iter().map(|&v| self.var_expr(v, span)).collect();
        self.blocks.push(Vec::new());
        let r = body(self, &idx);
        let mut b = self.blocks.pop().expect("pushed");
        r?;
        for (v, &n) in vars.into_iter().zip(ext).rev() {
            b = vec![Stmt::For {
                var: v,
                start: konst(DType::I64, 0, span),
                end: konst(DType::I64, n as u64, span),
                step: konst(DType::I64, 1, span),
                body: b,
                span,
                parallel: None,
            }];
        }
        for s in b {
            self.emit(s);
        }
        Ok(())
    }

    /// Inlines a call of a module-level helper: binds its parameters and
    /// elaborates its body; a `return` must be its last statement.
    fn inline(&mut self, name: &str, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        if self.inlining.iter().any(|n| n == name) {
            return py::unsupported(span, "recursion", DIALECT, "write the recursion as a loop");
        }
        let f = self.m.helpers[name].clone();
        if f.args.vararg.is_some() || f.args.kwarg.is_some() {
            return py::unsupported(
                span,
                "`*args` / `**kwargs`",
                DIALECT,
                "use explicit parameters",
            );
        }
        let params: Vec<&ast::ArgWithDefault> = f
            .args
            .posonlyargs
            .iter()
            .chain(&f.args.args)
            .chain(&f.args.kwonlyargs)
            .collect();
        if c.args.len() > params.len() {
            return err(
                span,
                format!(
                    "`{name}` takes {} argument(s), got {}",
                    params.len(),
                    c.args.len()
                ),
            );
        }
        let mut bound: Vec<Option<Val>> = vec![None; params.len()];
        for (k, a) in c.args.iter().enumerate() {
            bound[k] = Some(self.expr(a)?);
        }
        for kw in &c.keywords {
            let Some(kn) = kw.arg.as_deref() else {
                return py::unsupported(span, "`**kwargs`", DIALECT, "use explicit arguments");
            };
            let Some(k) = params.iter().position(|p| p.def.arg.as_str() == kn) else {
                return err(span, format!("`{name}` has no parameter `{kn}`"));
            };
            bound[k] = Some(self.expr(&kw.value)?);
        }
        let mut args = Vec::new();
        for (p, b) in params.iter().zip(bound) {
            let v = match (b, &p.default) {
                (Some(v), _) => v,
                (None, Some(d)) => self.expr(d)?,
                (None, None) => return err(span, format!("`{name}` needs `{}`", p.def.arg)),
            };
            args.push(v);
        }
        let params: Vec<String> = params.iter().map(|p| p.def.arg.to_string()).collect();
        let saved = self.env.clone();
        for (p, a) in params.iter().zip(args) {
            self.env.insert(p.clone(), a);
        }
        self.inlining.push(name.to_string());
        let r = self.helper_body(&f.body);
        self.inlining.pop();
        self.env = saved;
        r
    }

    fn helper_body(&mut self, body: &[ast::Stmt]) -> DResult<Val> {
        for (i, s) in body.iter().enumerate() {
            if let ast::Stmt::Return(r) = s {
                if i + 1 != body.len() {
                    return err(
                        self.span(s),
                        "a helper's `return` must be its last statement",
                    );
                }
                return match &r.value {
                    Some(v) => self.expr(v),
                    None => Ok(Val::Py(Const::None)),
                };
            }
            self.stmt(s)?;
        }
        Ok(Val::Py(Const::None))
    }
}

/// The names `body` assigns (`x = …`, `x += …`), nested blocks included.
fn assigned_names(body: &[ast::Stmt], out: &mut Vec<String>) {
    for s in body {
        match s {
            ast::Stmt::Assign(a) => {
                for t in &a.targets {
                    if let ast::Expr::Name(n) = t {
                        out.push(n.id.to_string());
                    }
                }
            }
            ast::Stmt::AugAssign(a) => {
                if let ast::Expr::Name(n) = &*a.target {
                    out.push(n.id.to_string());
                }
            }
            ast::Stmt::AnnAssign(a) => {
                if let ast::Expr::Name(n) = &*a.target {
                    out.push(n.id.to_string());
                }
            }
            ast::Stmt::For(f) => assigned_names(&f.body, out),
            ast::Stmt::While(w) => assigned_names(&w.body, out),
            ast::Stmt::If(i) => {
                assigned_names(&i.body, out);
                assigned_names(&i.orelse, out);
            }
            ast::Stmt::With(w) => assigned_names(&w.body, out),
            _ => {}
        }
    }
}

/// An index argument: an expression already built, or a value.
enum IndexArg {
    Expr(Expr),
    Val(Val),
}

impl From<Expr> for IndexArg {
    fn from(e: Expr) -> IndexArg {
        IndexArg::Expr(e)
    }
}

impl From<Val> for IndexArg {
    fn from(v: Val) -> IndexArg {
        IndexArg::Val(v)
    }
}

/// A tensor annotation as a call: `T.Tensor[shape, dtype]` is
/// `T.Tensor(shape, dtype)`; other annotations are returned as they are.
fn tensor_call(ann: &ast::Expr) -> Option<ast::Expr> {
    match ann {
        ast::Expr::Subscript(sub) => match &*sub.slice {
            ast::Expr::Tuple(t) => Some(ast::Expr::Call(ast::ExprCall {
                range: sub.range,
                func: sub.value.clone(),
                args: t.elts.clone(),
                keywords: vec![],
            })),
            _ => None,
        },
        other => Some(other.clone()),
    }
}

/// Whether `e` reads one of the variables `vars`.
fn e_mentions(e: &Expr, vars: &[VarId]) -> bool {
    let mut found = false;
    e.for_each(&mut |x| {
        if let ExprKind::Var(v) = x.kind {
            found = found || vars.contains(&v);
        }
    });
    found
}

/// `|v|`: the float abs, or `v < 0 ? -v : v` for a signed int.
fn abs_of(v: Expr, span: Span) -> Expr {
    let d = dtype_of(&v);
    if d.is_float() {
        unary(UnOp::Math(MathFn::Abs), v, span)
    } else if d.is_signed_int() {
        let neg = bin(BinOp::Lt, v.clone(), konst(d, 0, span), span);
        select(neg, unary(UnOp::Neg, v.clone(), span), v, span)
    } else {
        v
    }
}

/// The bits of the largest finite value of float dtype `d`.
fn max_finite(d: DType) -> u64 {
    d.float_format().map_or(0, |f| f.max_finite_bits())
}

/// `T.min`/`T.max` as TVM's C code writes them: `a < b ? a : b`,
/// `a > b ? a : b` (a NaN operand: the second).
fn min_max(is_min: bool, a: Expr, b: Expr, span: Span) -> Expr {
    let op = if is_min { BinOp::Lt } else { BinOp::Gt };
    let c = bin(op, a.clone(), b.clone(), span);
    select(c, a, b, span)
}

/// A region whose extents are open (element form) gets the copy's shape.
fn fill_open(mut r: Region, shape: &[usize], span: Span) -> DResult<Region> {
    if r.extents.iter().all(Option::is_none) {
        let n = r.extents.len();
        if shape.len() > n {
            return err(
                span,
                format!("a region of {} dimensions cannot hold a {shape:?} copy", n),
            );
        }
        // the copy's dimensions are the region's last ones
        let mut ext = vec![Some(1); n - shape.len()];
        ext.extend(shape.iter().map(|&e| Some(e)));
        r.extents = ext;
    }
    Ok(r)
}

/// The buffer indices of element `idx` of a copy over `r` (dimensions of
/// extent 1 do not take a copy index).
fn offset(r: &Region, idx: &[Expr], span: Span) -> Vec<Expr> {
    let mut k = 0;
    r.starts
        .iter()
        .zip(&r.extents)
        .map(|(s, e)| {
            if e.unwrap_or(1) == 1 {
                s.clone()
            } else {
                let i = idx[k].clone();
                k += 1;
                bin(BinOp::Add, s.clone(), i, span)
            }
        })
        .collect()
}

/// For a global buffer, the condition that `at` is inside it (`None`: no
/// check; shared and local buffers must be in bounds, else UB).
fn in_bounds(b: &Buf, at: &[Expr], span: Span) -> Option<Expr> {
    if b.space != AddrSpace::Global {
        return None;
    }
    at.iter()
        .zip(&b.shape)
        .map(|(i, &n)| {
            let lo = bin(BinOp::Ge, i.clone(), konst(DType::I64, 0, span), span);
            let hi = bin(
                BinOp::Lt,
                i.clone(),
                konst(DType::I64, n as u64, span),
                span,
            );
            bin(BinOp::LogicalAnd, lo, hi, span)
        })
        .reduce(|a, b| bin(BinOp::LogicalAnd, a, b, span))
}

/// An integer expression as `constant + Σ coefficient·atom`, where atoms are
/// variables and ids: enough to see that `(by + 1) * BM - by * BM` is `BM`.
#[derive(Clone, Debug, PartialEq)]
struct Linear {
    constant: i128,
    terms: Vec<(ExprKind, i128)>,
}

impl Linear {
    fn minus(&self, o: &Linear) -> Linear {
        let mut r = self.clone();
        r.constant -= o.constant;
        for (a, c) in &o.terms {
            r.add(a.clone(), -c);
        }
        r
    }
    fn add(&mut self, a: ExprKind, c: i128) {
        match self.terms.iter_mut().find(|(x, _)| *x == a) {
            Some((_, k)) => *k += c,
            None => self.terms.push((a, c)),
        }
        self.terms.retain(|(_, k)| *k != 0);
    }
    fn scale(&mut self, k: i128) {
        self.constant *= k;
        for (_, c) in &mut self.terms {
            *c *= k;
        }
        self.terms.retain(|(_, c)| *c != 0);
    }
    fn constant(&self) -> Option<i128> {
        self.terms.is_empty().then_some(self.constant)
    }
}

fn linear(e: &Expr) -> Option<Linear> {
    if let Some(v) = fold_int(e) {
        return Some(Linear {
            constant: v,
            terms: vec![],
        });
    }
    match &e.kind {
        ExprKind::Var(_) | ExprKind::BlockId(_) => Some(Linear {
            constant: 0,
            terms: vec![(e.kind.clone(), 1)],
        }),
        ExprKind::Cast(x, _) if dtype_of(x).is_int() => linear(x),
        ExprKind::Binary(BinOp::Add, a, b) => {
            let (mut l, r) = (linear(a)?, linear(b)?);
            l.constant += r.constant;
            for (t, c) in r.terms {
                l.add(t, c);
            }
            Some(l)
        }
        ExprKind::Binary(BinOp::Sub, a, b) => Some(linear(a)?.minus(&linear(b)?)),
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let (l, r) = (linear(a)?, linear(b)?);
            let (mut x, k) = match (l.constant(), r.constant()) {
                (Some(k), _) => (r, k),
                (_, Some(k)) => (l, k),
                _ => return None,
            };
            x.scale(k);
            Some(x)
        }
        _ => None,
    }
}
