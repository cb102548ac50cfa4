//! Elaboration of one TileLang `@T.prim_func` into the IR: a SIMT program
//! whose blocks have one thread each (the module documentation says why),
//! or the block's `threads` threads once the kernel binds a thread index
//! (`threads.rs`).
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
use crate::float::Rounding;
use crate::frontend::py::call::Call;
use crate::frontend::py::num::PyNum;
use crate::frontend::py::simt::{self, Blocks};
use crate::frontend::py::walk::Walk;
use crate::frontend::py::{self, dotted, op_text, Binary};
use crate::ir::build::*;
use crate::ir::*;
use crate::launch::{ArgSpec, Launch};
use crate::span::{err, err_help, DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Constant};
use std::collections::HashMap;

mod api;
mod eager;
mod expr;
mod im2col;
mod stmt;
mod threads;
mod tile_ops;
mod views;

pub use api::{BufRegion, Buffer, LoopKind, Part, Value};
use expr::select_join;

/// Integer `//`, `%`, `T.floordiv`, `T.floormod`: floor; a zero divisor is
/// UB (measured: the C target traps with SIGFPE).
const FLOOR: IntDiv = IntDiv::FLOOR;
/// `T.truncdiv`, `T.truncmod`: C's rounding.
const TRUNC: IntDiv = IntDiv::TRUNC;

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
    /// A helper function of an imported module: its index in
    /// `Module::imported` and its name there.
    Foreign(usize, String),
}

/// A launch's `threads` (x, y, z) with the span of its `T.Kernel(…)`.
type Threads = ([u32; 3], Span);

/// The elaborator of one kernel.
pub struct Elab<'m> {
    m: &'m Module,
    env: HashMap<String, Val>,
    vars: Vec<(String, Type)>,
    arrays: Vec<ArrayDecl>,
    blocks: Vec<Block>,
    /// The current launch's grid and `threads`, with the span of its
    /// `T.Kernel(…)`.
    grid: Option<([u32; 3], Span)>,
    threads: Option<([u32; 3], Span)>,
    /// Launches before the current one (a second `with T.Kernel(…)`), each
    /// with its `threads`.
    finished: Vec<(NextLaunch, Option<Threads>)>,
    /// What the kernel held when its first launch began (statements, number
    /// of variables, number of arrays): every later launch starts from it.
    prologue: Option<(Block, usize, usize)>,
    /// Inside the body of a `with T.Kernel(…)`.
    in_launch: bool,
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
    /// The kernel has per-thread code (a thread binding, `threads.rs`): it
    /// runs on the block's `threads` threads, not one.
    per_thread: bool,
    /// The first block-level operation, while no thread is bound yet.
    tile_op_at: Option<Span>,
    /// While a helper of an imported module is inlined: the kernel file's
    /// call of it (where everything inside is reported).
    call_site: Option<Span>,
}

/// The names a kernel (or helper) of module `m` sees: the compile-time
/// values `consts`, `T`, the module's helpers and imported helpers, and the
/// host modules whose functions run on compile-time values.
fn module_env(m: &Module, consts: HashMap<String, Const>) -> HashMap<String, Val> {
    let mut env: HashMap<String, Val> = consts.into_iter().map(|(k, v)| (k, Val::Py(v))).collect();
    for l in &m.lang {
        env.insert(l.clone(), Val::Path("T".into()));
    }
    for h in m.helpers.keys() {
        env.insert(h.clone(), Val::Helper(h.clone()));
    }
    for (bound, (i, name)) in &m.foreign {
        env.entry(bound.clone())
            .or_insert_with(|| Val::Foreign(*i, name.clone()));
    }
    for p in m
        .package
        .iter()
        .map(String::as_str)
        .chain(["math"])
        .chain(consts::device_query_modules(m))
    {
        env.entry(p.to_string()).or_insert(Val::Path(p.to_string()));
    }
    env
}

simt::impl_blocks!(Elab<'_>);

impl<'m> Elab<'m> {
    /// An elaborator for a kernel of `m` that sees the compile-time names `consts`.
    pub fn new(m: &'m Module, consts: HashMap<String, Const>) -> Self {
        let env = module_env(m, consts);
        Elab {
            m,
            env,
            vars: Vec::new(),
            arrays: Vec::new(),
            blocks: vec![Vec::new()],
            grid: None,
            threads: None,
            finished: Vec::new(),
            prologue: None,
            in_launch: false,
            loops: 0,
            inlining: Vec::new(),
            parallel: Vec::new(),
            params: Vec::new(),
            fresh: Vec::new(),
            symbols: Vec::new(),
            launch_scalars: HashMap::new(),
            per_thread: false,
            tile_op_at: None,
            call_site: None,
        }
    }

    /// Where `node` is in the kernel's file; inside a helper of an imported
    /// module, the call that led there.
    fn span(&self, node: &impl ast::Ranged) -> Span {
        self.call_site.unwrap_or_else(|| self.m.span(node))
    }

    fn block_of(&mut self, body: &[ast::Stmt]) -> DResult<Block> {
        let (r, b) = self.collect(|me| me.stmts(body));
        r.map(|()| b)
    }

    /// Elaborates `f` (the kernel `name`) for `launch`.
    pub fn kernel(
        mut self,
        name: &str,
        f: &ast::StmtFunctionDef,
        launch: &Launch,
    ) -> DResult<Kernel> {
        self.params(f, launch)?;
        self.stmts(&f.body)?;
        self.finish(name, f, launch)
    }

    /// The grid and the kernel, once the body has been elaborated.
    fn finish(self, name: &str, f: &ast::StmtFunctionDef, launch: &Launch) -> DResult<Kernel> {
        let fspan = self.span(f);
        self.finish_at(name, fspan, launch)
    }

    /// The kernel `name` (defined at `fspan`) for `launch`, once its body
    /// has been elaborated.
    fn finish_at(mut self, name: &str, fspan: Span, launch: &Launch) -> DResult<Kernel> {
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
        let last = self.take_launch(grid);
        let mut launches = std::mem::take(&mut self.finished);
        launches.push(last);
        // the launch may give grid and block; they must agree with every T.Kernel
        for (l, threads) in &launches {
            crate::frontend::geometry(launch, Some((l.grid, l.span)), *threads)?;
        }
        let mut launches = launches.into_iter().map(|(l, _)| l);
        let first = launches.next().expect("the last launch at least");
        let geometry = (first.grid, first.block);
        let (params, fresh) = (self.params, self.fresh);
        Ok(Kernel {
            then: launches.collect(),
            ..Kernel::simt(
                name,
                geometry,
                params,
                fresh,
                first.arrays,
                first.vars,
                first.body,
            )
        })
    }

    /// Ends the current launch (grid and span `grid`): its arrays, variables
    /// and statements, with its `threads`; the elaborator is left with the
    /// prologue, ready for the next launch.
    fn take_launch(&mut self, grid: ([u32; 3], Span)) -> (NextLaunch, Option<Threads>) {
        let (body, nvars, narrays) = self
            .prologue
            .clone()
            .unwrap_or_else(|| (Vec::new(), self.vars.len(), self.arrays.len()));
        let vars = self.vars[..nvars].to_vec();
        let arrays = self.arrays[..narrays].to_vec();
        let mut l = NextLaunch {
            grid: grid.0,
            block: [1, 1, 1],
            arrays: std::mem::replace(&mut self.arrays, arrays),
            vars: std::mem::replace(&mut self.vars, vars),
            body: std::mem::replace(self.blocks.first_mut().expect("the kernel's block"), body),
            span: grid.1,
        };
        self.grid = None;
        let threads = self.threads.take();
        // per-thread code runs on the launch's threads, with TileLang's barriers
        if std::mem::take(&mut self.per_thread) {
            let (t, kspan) = threads.expect("a thread binding needs T.Kernel");
            l.block = t;
            l.body = threads::implicit_syncs(std::mem::take(&mut l.body), &l.arrays, kspan);
        }
        self.tile_op_at = None;
        (l, threads)
    }

    /// The kernel's parameters: `T.Tensor`/`T.Buffer` buffers and typed scalars.
    fn params(&mut self, f: &ast::StmtFunctionDef, launch: &Launch) -> DResult<()> {
        for p in self.explicit_params(f)? {
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
                    let (count, given) = tensor_arg(arg, &name, d, span)?;
                    let n: usize = shape.iter().product();
                    if count != n || given.as_ref().is_some_and(|g| *g != shape) {
                        return err(span, format!("`{name}` has shape {shape:?} ({n} elements) but the launch passes {count} elements{}", given.as_ref().map_or(String::new(), |g| format!(" of shape {g:?}"))));
                    }
                    self.global_param(&name, d, shape, false, span);
                }
                (None, d) => {
                    let Some(ArgSpec::Scalar { dtype, .. }) = arg else {
                        return err(span, format!("the launch must pass a scalar for `{name}`"));
                    };
                    same_dtype(
                        &format!("`{name}` is {}", types::dtype_name(d)),
                        d,
                        *dtype,
                        span,
                    )?;
                    if let Some(ArgSpec::Scalar { bits, .. }) = arg {
                        // the launch's value, for grid sizes (ksem elaborates per launch)
                        let c = if d.is_float() {
                            Const::Num(PyNum::Float(crate::float::to_f64(d, *bits)))
                        } else {
                            Const::Num(PyNum::Int(crate::ops::int_value(d, *bits)))
                        };
                        self.launch_scalars.insert(name.clone(), c);
                    }
                    let v = self.new_var(&name, Type::scalar(d));
                    self.params.push(Param {
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
            if !self.params.iter().any(|p| &p.name == n) {
                return err(
                    self.span(f),
                    format!("kernel `{}` has no parameter `{n}`", f.name),
                );
            }
        }
        Ok(())
    }

    /// The parameters of `f`, refusing `*args` and `**kwargs`.
    fn explicit_params<'f>(
        &self,
        f: &'f ast::StmtFunctionDef,
    ) -> DResult<Vec<&'f ast::ArgWithDefault>> {
        py::plain_params(
            &f.args,
            |v| self.span(v),
            DIALECT,
            "use explicit parameters",
        )
    }

    /// A global buffer parameter `name` of dtype `d` and `shape`, bound to
    /// its name; `fresh`: the kernel makes it (a `T.empty` output, a
    /// `T.alloc_global` scratch buffer), zeroed where the launch passes none.
    fn global_param(
        &mut self,
        name: &str,
        d: DType,
        shape: Vec<usize>,
        fresh: bool,
        span: Span,
    ) -> Buf {
        let v = self.new_var(name, Type::global_ptr(d));
        self.params.push(Param {
            name: name.to_string(),
            kind: ParamKind::Pointer(d),
            var: Some(v),
        });
        if fresh {
            self.fresh.push((name.to_string(), shape.iter().product()));
        }
        let b = Buf {
            name: name.to_string(),
            base: self.var_expr(v, span),
            dtype: d,
            shape,
            space: AddrSpace::Global,
            scalar: false,
            private: false,
        };
        self.env.insert(name.to_string(), Val::Buf(b.clone()));
        b
    }

    /// The `(shape, dtype)` arguments of `T.Tensor`, `T.empty`,
    /// `T.alloc_shared` …: a compile-time shape first, then a dtype
    /// (positional or `dtype=`; `default` where none is given, else an error).
    fn shape_and_dtype(
        &self,
        c: &ast::ExprCall,
        what: &str,
        default: Option<DType>,
        span: Span,
    ) -> DResult<(Vec<usize>, DType)> {
        let shape_e = c
            .args
            .first()
            .ok_or_else(|| Diagnostic::new(span, format!("{what} needs a shape")))?;
        let shape = self.static_shape(shape_e)?;
        let dtype_e = py::call::arg(c, "dtype", 1);
        let d = match (dtype_e, default) {
            (Some(e), _) => self.dtype_arg(e)?,
            (None, Some(d)) => d,
            (None, None) => return err(span, format!("{what} needs a dtype")),
        };
        Ok((shape, d))
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
                let (shape, d) = self.shape_and_dtype(c, "T.Tensor", Some(DType::F32), span)?;
                Ok((Some(shape), d))
            }
            _ => match self.py_value(ann).ok().and_then(|c| c.as_dtype()) {
                Some(d) => Ok((None, d)),
                None => bad(),
            },
        }
    }

    /// The compile-time names the elaborator sees.
    fn py_env(&self) -> HashMap<String, Const> {
        self.env
            .iter()
            .filter_map(|(k, v)| match v {
                Val::Py(c) => Some((k.clone(), c.clone())),
                _ => None,
            })
            .collect()
    }

    /// An error of [`consts::eval`] on `e`, at `e` unless it names its own place.
    fn located(&self, e: &ast::Expr, d: Diagnostic) -> Diagnostic {
        match consts::is_located(&d) {
            true => d,
            false => Diagnostic {
                span: self.span(e),
                ..d
            },
        }
    }

    /// The compile-time value of `e` where it has one (`Ok(None)` where
    /// not); an error only where host code cannot run as written.
    fn py_value_if_known(&self, e: &ast::Expr) -> DResult<Option<Const>> {
        match consts::eval(self.m, &self.py_env(), e) {
            Ok(c) => Ok(Some(c)),
            Err(d) if consts::is_located(&d) => Err(d),
            Err(_) => Ok(None),
        }
    }

    /// Why the name `n`, which has no value in the kernel, has none: it is
    /// imported from a module ksem cannot find, bound to a value read from
    /// one, bound only by the `__main__` block, defined nowhere, or bound by
    /// host code ksem cannot evaluate.
    pub(super) fn unknown_name(&self, n: &ast::ExprName) -> Diagnostic {
        use super::scope::{assigned_value, binding, names_read, Binding};
        let name = n.id.as_str();
        let span = self.span(n);
        let body = &self.m.src.body;
        let library = |path: &str| {
            ["tilelang", "tvm"]
                .iter()
                .any(|p| path == *p || path.starts_with(&format!("{p}.")))
        };
        let foreign = |x: &str| {
            self.m
                .imports
                .get(x)
                .filter(|path| !self.env.contains_key(x) && !library(path))
                .map(|path| {
                    path.rsplit_once('.')
                        .map_or(path.as_str(), |(m, _)| m)
                        .to_string()
                })
        };
        if let Some(path) = self.m.imports.get(name).filter(|p| library(p)) {
            return Diagnostic::new(
                span,
                format!("`{name}` (`{path}`) is a part of TileLang ksem does not support"),
            );
        }
        let help = "ksem reads a module of the project where Python would find it (beside the kernel file or in a directory above it, or on $KSEM_PYTHONPATH): put it there, define the value here, or make it a parameter of the kernel";
        if let Some(module) = foreign(name) {
            return Diagnostic::new(
                span,
                format!("`{name}` is imported from `{module}`, a module ksem cannot find"),
            )
            .with_help(help);
        }
        match binding(body, n.range.start(), name) {
            Binding::Nowhere => Diagnostic::new(
                span,
                format!("`{name}` is not defined: Python raises NameError here"),
            ),
            Binding::ScriptOnly => Diagnostic::new(
                span,
                format!("`{name}` is bound only by the `if __name__ == \"__main__\":` block, which ksem does not run"),
            )
            .with_help("it is a global only when the file runs as a script; make it a parameter of the kernel or a module constant"),
            Binding::Found => {
                let via = assigned_value(body, n.range.start(), name).and_then(|v| {
                    names_read(v)
                        .into_iter()
                        .find_map(|x| Some((x.id.to_string(), foreign(x.id.as_str())?)))
                });
                match via {
                    Some((x, module)) => Diagnostic::new(
                        span,
                        format!("`{name}` has no value at compile time: it is computed from `{x}`, imported from `{module}`, a module ksem cannot find"),
                    )
                    .with_help(help),
                    None => Diagnostic::new(
                        span,
                        format!("`{name}` has no value ksem knows here: it is bound in this file, but not (before this point) to a value ksem can evaluate"),
                    ),
                }
            }
        }
    }

    /// Why `e`, which must be known at compile time, is not: host code that
    /// fails as written (a division by zero, a device ksem's target does not
    /// have), a name that is None, a name defined nowhere (Python's
    /// NameError), else `msg` at `e`.
    pub(super) fn not_known(&self, e: &ast::Expr, msg: &str) -> Diagnostic {
        if let Err(d) = self.py_value_if_known(e) {
            return d;
        }
        use super::scope::{binding, names_read, Binding};
        for n in names_read(e) {
            let name = n.id.as_str();
            if let Some(Val::Py(Const::None)) = self.env.get(name) {
                return Diagnostic::new(
                    self.span(n),
                    format!("`{name}` is None here, which is not a number"),
                )
                .with_help(format!("give `{name}` a value (a kernel parameter: \"factory_args\": {{\"{name}\": …}} in the launch)"));
            }
            if self.env.contains_key(name) {
                continue;
            }
            match binding(&self.m.src.body, n.range.start(), name) {
                Binding::Found => {}
                Binding::Nowhere => {
                    return Diagnostic::new(
                        self.span(n),
                        format!("`{name}` is not defined: Python raises NameError here"),
                    )
                }
                Binding::ScriptOnly => {
                    return Diagnostic::new(
                        self.span(n),
                        format!("`{name}` is bound only by the `if __name__ == \"__main__\":` block, which ksem does not run"),
                    )
                    .with_help("it is a global only when the file runs as a script; make it a parameter of the kernel or a module constant")
                }
            }
        }
        Diagnostic::new(self.span(e), msg)
    }

    /// A compile-time value of `e`, with `e`'s span on the error.
    fn py_value(&self, e: &ast::Expr) -> DResult<Const> {
        consts::eval(self.m, &self.py_env(), e).map_err(|d| self.located(e, d))
    }

    /// The value of `e` with the scalar arguments taking the launch's values.
    fn py_value_at_launch(&self, e: &ast::Expr) -> DResult<Const> {
        let mut consts = self.py_env();
        consts.extend(self.launch_scalars.clone());
        consts::eval(self.m, &consts, e).map_err(|d| self.located(e, d))
    }

    /// A shape: a tuple (or one value) of compile-time non-negative ints.
    fn static_shape(&self, e: &ast::Expr) -> DResult<Vec<usize>> {
        let span = self.span(e);
        let c = self.py_value(e).map_err(|_| {
            Diagnostic::new(span, "a buffer's shape must be known at compile time")
                .with_help("use constants or the kernel factory's arguments")
        })?;
        let items = match c {
            Const::Tuple(v) | Const::List(v) => v,
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
}

/// The launch's buffer for tensor parameter `name` of dtype `d`: its
/// element count and shape. Refused where the launch passes no buffer of
/// (real) numbers, or one of another dtype.
fn tensor_arg<'l>(
    arg: Option<&'l ArgSpec>,
    name: &str,
    d: DType,
    span: Span,
) -> DResult<(usize, &'l Option<Vec<usize>>)> {
    let Some(ArgSpec::Buffer {
        dtype,
        bits,
        shape,
        complex: false,
        ..
    }) = arg
    else {
        return err(
            span,
            format!("the launch must pass a buffer of numbers for `{name}`"),
        );
    };
    let what = format!("`{name}` is a {} tensor", types::dtype_name(d));
    same_dtype(&what, d, *dtype, span)?;
    Ok((bits.len(), shape))
}

/// Refuses a launch argument of dtype `got` for a parameter declared `want`
/// (`what` says which: "`A` is a float16 tensor").
fn same_dtype(what: &str, want: DType, got: DType, span: Span) -> DResult<()> {
    if want == got {
        return Ok(());
    }
    err(
        span,
        format!("{what} but the launch passes {}", types::dtype_name(got)),
    )
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
pub(super) fn tensor_call(ann: &ast::Expr) -> Option<ast::Expr> {
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

/// The extent a copy-like operation runs over, and both regions with it:
/// the dimensions of extent > 1 of each side, in order, must agree; a side
/// in element form (`A[i, j]`) takes the other side's.
fn paired_extent(
    what: &str,
    src: Region,
    dst: Region,
    span: Span,
) -> DResult<(Vec<usize>, Region, Region)> {
    let squeeze = |r: &Region| -> Vec<usize> {
        r.extents
            .iter()
            .flatten()
            .copied()
            .filter(|&e| e != 1)
            .collect()
    };
    let open = |r: &Region| r.extents.iter().all(Option::is_none);
    let (se, de) = (squeeze(&src), squeeze(&dst));
    let shape = match (open(&src), open(&dst)) {
        (true, true) => {
            return err(
                span,
                format!("{what} needs an extent: give a buffer or a slice on one side"),
            )
        }
        (true, false) => de,
        (false, true) => se,
        (false, false) if se == de => se,
        _ => {
            return err(
                span,
                format!("{what} of a {se:?} region into a {de:?} region"),
            )
        }
    };
    Ok((
        shape.clone(),
        fill_open(src, &shape, span)?,
        fill_open(dst, &shape, span)?,
    ))
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
        // any other integer value (a `T.alloc_var`'s load, a product of two
        // runtime values) is one opaque term, equal to another where both
        // are the same expression: the two bounds of a slice are evaluated
        // together, so equal expressions have equal values (atomics, which
        // change memory as they are read, excepted)
        _ if dtype_of(e).is_int() && !has_atomic(e) => Some(Linear {
            constant: 0,
            terms: vec![(crate::ir::canon::canonical_expr(e).kind, 1)],
        }),
        _ => None,
    }
}

/// Whether `e` holds an atomic read-modify-write.
fn has_atomic(e: &Expr) -> bool {
    let mut a = false;
    e.for_each(&mut |x| a |= matches!(x.kind, ExprKind::Atomic { .. }));
    a
}
