//! Elaboration of a CUDA Python kernel into a SIMT program of the IR.
//!
//! Every thread runs the kernel's scalar code. Values are typed by the
//! seed's rules (`types.rs`); a variable's type is fixed where it is
//! defined: a redefinition in the kernel's entry block with another type
//! makes a new variable, one inside a loop or a branch converts the value to
//! the type the variable already has (the seed: "inside a loop, the variable
//! type remains unchanged even at redefinition"). Device functions are
//! inlined at each call. Short-circuit `and`/`or`, conditional expressions
//! and chained comparisons become `if` statements so that the operand that
//! Python does not evaluate is not evaluated (it may index out of bounds).

use super::types::Named;
use super::{types, Global, Module, SigType};
use crate::dtype::DType;
use crate::frontend::py::op_text;
use crate::frontend::py::{self, dotted};
use crate::ir::build::*;
use crate::ir::*;
use crate::launch::{ArgSpec, Launch};
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Constant};
use std::collections::HashMap;

const DIALECT: &str = "CUDA Python";

/// Whether `name` is read in the shape of a `cuda.shared.array` /
/// `cuda.local.array` call of `body` (its first argument or `shape=`).
fn sizes_an_array(body: &[ast::Stmt], name: &str) -> bool {
    let mut found = false;
    walk_stmts(body, &mut |e| {
        let ast::Expr::Call(c) = e else { return };
        let callee = dotted(&c.func).unwrap_or_default();
        if !(callee.ends_with("shared.array") || callee.ends_with("local.array")) {
            return;
        }
        let shape = c.args.first().into_iter().chain(
            c.keywords
                .iter()
                .filter(|k| k.arg.as_deref() == Some("shape"))
                .map(|k| &k.value),
        );
        for s in shape {
            walk_expr(s, &mut |x| {
                if matches!(x, ast::Expr::Name(n) if n.id.as_str() == name) {
                    found = true;
                }
            });
        }
    });
    found
}

/// Calls `f` on every expression of `body`'s statements (nested ones too).
fn walk_stmts(body: &[ast::Stmt], f: &mut dyn FnMut(&ast::Expr)) {
    for s in body {
        match s {
            ast::Stmt::Assign(a) => walk_expr(&a.value, f),
            ast::Stmt::AugAssign(a) => walk_expr(&a.value, f),
            ast::Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    walk_expr(v, f)
                }
            }
            ast::Stmt::Expr(e) => walk_expr(&e.value, f),
            ast::Stmt::Return(r) => {
                if let Some(v) = &r.value {
                    walk_expr(v, f)
                }
            }
            ast::Stmt::If(i) => {
                walk_expr(&i.test, f);
                walk_stmts(&i.body, f);
                walk_stmts(&i.orelse, f);
            }
            ast::Stmt::For(l) => {
                walk_expr(&l.iter, f);
                walk_stmts(&l.body, f);
                walk_stmts(&l.orelse, f);
            }
            ast::Stmt::While(w) => {
                walk_expr(&w.test, f);
                walk_stmts(&w.body, f);
                walk_stmts(&w.orelse, f);
            }
            ast::Stmt::With(w) => walk_stmts(&w.body, f),
            _ => {}
        }
    }
}

/// Calls `f` on `e` and every expression inside it.
fn walk_expr(e: &ast::Expr, f: &mut dyn FnMut(&ast::Expr)) {
    f(e);
    match e {
        ast::Expr::Call(c) => {
            walk_expr(&c.func, f);
            c.args.iter().for_each(|a| walk_expr(a, f));
            c.keywords.iter().for_each(|k| walk_expr(&k.value, f));
        }
        ast::Expr::BinOp(b) => {
            walk_expr(&b.left, f);
            walk_expr(&b.right, f);
        }
        ast::Expr::UnaryOp(u) => walk_expr(&u.operand, f),
        ast::Expr::BoolOp(b) => b.values.iter().for_each(|v| walk_expr(v, f)),
        ast::Expr::Compare(c) => {
            walk_expr(&c.left, f);
            c.comparators.iter().for_each(|v| walk_expr(v, f));
        }
        ast::Expr::IfExp(i) => {
            walk_expr(&i.test, f);
            walk_expr(&i.body, f);
            walk_expr(&i.orelse, f);
        }
        ast::Expr::Tuple(t) => t.elts.iter().for_each(|v| walk_expr(v, f)),
        ast::Expr::List(t) => t.elts.iter().for_each(|v| walk_expr(v, f)),
        ast::Expr::Subscript(s) => {
            walk_expr(&s.value, f);
            walk_expr(&s.slice, f);
        }
        ast::Expr::Attribute(a) => walk_expr(&a.value, f),
        _ => {}
    }
}

/// How many statements of `body` (nested blocks included) assign `name`.
fn assignment_count(body: &[ast::Stmt], name: &str) -> usize {
    body.iter()
        .map(|s| match s {
            ast::Stmt::For(f) => {
                usize::from(binds_name(&f.target, name))
                    + assignment_count(&f.body, name)
                    + assignment_count(&f.orelse, name)
            }
            ast::Stmt::While(w) => {
                assignment_count(&w.body, name) + assignment_count(&w.orelse, name)
            }
            ast::Stmt::If(i) => assignment_count(&i.body, name) + assignment_count(&i.orelse, name),
            ast::Stmt::With(w) => {
                usize::from(w.items.iter().any(|it| {
                    it.optional_vars
                        .as_deref()
                        .is_some_and(|v| binds_name(v, name))
                })) + assignment_count(&w.body, name)
            }
            other => usize::from(assigns_name(std::slice::from_ref(other), name)),
        })
        .sum()
}

/// Whether assignment target `t` binds `name`.
fn binds_name(t: &ast::Expr, name: &str) -> bool {
    match t {
        ast::Expr::Name(n) => n.id.as_str() == name,
        ast::Expr::Tuple(t) => t.elts.iter().any(|e| binds_name(e, name)),
        ast::Expr::List(t) => t.elts.iter().any(|e| binds_name(e, name)),
        ast::Expr::Starred(s) => binds_name(&s.value, name),
        _ => false,
    }
}

/// Whether a loop or branch of `body` (at any depth) assigns `name`.
fn rebinds_in_nested_block(body: &[ast::Stmt], name: &str) -> bool {
    body.iter().any(|s| match s {
        ast::Stmt::For(f) => assigns_name(&f.body, name) || assigns_name(&f.orelse, name),
        ast::Stmt::While(w) => assigns_name(&w.body, name) || assigns_name(&w.orelse, name),
        ast::Stmt::If(i) => assigns_name(&i.body, name) || assigns_name(&i.orelse, name),
        ast::Stmt::With(w) => rebinds_in_nested_block(&w.body, name),
        _ => false,
    })
}

/// Whether any statement of `body` (nested blocks included) assigns `name`
/// (an assignment, augmented assignment, `for` target or `with … as`).
fn assigns_name(body: &[ast::Stmt], name: &str) -> bool {
    let binds = binds_name;
    body.iter().any(|s| match s {
        ast::Stmt::Assign(a) => a.targets.iter().any(|t| binds(t, name)),
        ast::Stmt::AugAssign(a) => binds(&a.target, name),
        ast::Stmt::AnnAssign(a) => binds(&a.target, name),
        ast::Stmt::For(f) => {
            binds(&f.target, name) || assigns_name(&f.body, name) || assigns_name(&f.orelse, name)
        }
        ast::Stmt::While(w) => assigns_name(&w.body, name) || assigns_name(&w.orelse, name),
        ast::Stmt::If(i) => assigns_name(&i.body, name) || assigns_name(&i.orelse, name),
        ast::Stmt::With(w) => {
            w.items
                .iter()
                .any(|it| it.optional_vars.as_deref().is_some_and(|v| binds(v, name)))
                || assigns_name(&w.body, name)
        }
        _ => false,
    })
}

use types::INT_DIV;

mod intrinsics;

/// An array: a pointer to element 0 and a static row-major shape.
#[derive(Clone, Debug)]
struct ArrayVal {
    base: Expr,
    dtype: DType,
    shape: Vec<usize>,
}

/// What an expression of the kernel denotes at elaboration time.
#[derive(Clone, Debug)]
enum Val {
    /// A 0-d number.
    Num(Expr),
    Array(ArrayVal),
    Tuple(Vec<Val>),
    /// A module or a dotted path into one (`numba.cuda.atomic`, `math`).
    Path(String),
    /// A type object (`int16`, `np.float32`).
    Type(DType),
    /// A `@cuda.jit` function.
    Func(String),
    /// A builtin function (`range`, `abs`, `min`, …).
    Builtin(&'static str),
    None,
}

/// The inlining state of a device function being elaborated.
struct Inline {
    /// The result variable (created at the first `return`).
    ret: Option<VarId>,
    /// The result type from a signature string.
    sig_ret: Option<DType>,
    /// Set when the function has returned (checked after inner loops).
    done: VarId,
}

/// One function being elaborated: the kernel or an inlined device function.
struct Frame {
    name: String,
    env: HashMap<String, Val>,
    /// Nesting of loops and branches in this function (0: its entry block).
    depth: usize,
    /// Loops of this function enclosing the current statement.
    loops: usize,
    inline: Option<Inline>,
}

/// The elaborator of one kernel.
pub struct Elab<'m> {
    m: &'m Module,
    vars: Vec<(String, Type)>,
    arrays: Vec<ArrayDecl>,
    frames: Vec<Frame>,
    /// The statement lists being built; the last is the current one.
    blocks: Vec<Block>,
}

fn err<T>(span: Span, msg: impl Into<String>) -> DResult<T> {
    Err(Diagnostic::new(span, msg))
}

/// The path of a type object, if `path` names one (`numba.int16`, `numpy.float32`).
fn type_path(path: &str) -> Option<DType> {
    let (prefix, last) = path.rsplit_once('.')?;
    let known = matches!(
        prefix,
        "numba" | "numpy" | "numba.types" | "numba.core.types" | "numba.cuda"
    );
    known.then(|| types::dtype_named(last)).flatten()
}

impl<'m> Elab<'m> {
    /// An elaborator for kernels of module `m`.
    pub fn new(m: &'m Module) -> Self {
        Elab {
            m,
            vars: Vec::new(),
            arrays: Vec::new(),
            frames: Vec::new(),
            blocks: Vec::new(),
        }
    }

    fn span(&self, node: &impl ast::Ranged) -> Span {
        self.m.src.span(node)
    }

    fn frame(&mut self) -> &mut Frame {
        self.frames
            .last_mut()
            .expect("a function is being elaborated")
    }

    fn emit(&mut self, s: Stmt) {
        self.blocks.last_mut().expect("a block is open").push(s);
    }

    fn new_var(&mut self, name: &str, ty: Type) -> VarId {
        self.vars.push((name.to_string(), ty));
        self.vars.len() - 1
    }

    /// Stores `value` into the element at `ptr` of a `d` array (the seed:
    /// "the value is coerced if necessary").
    fn store(&mut self, ptr: Expr, value: Expr, d: DType, span: Span) {
        let value = convert(value, d);
        self.emit(Stmt::Store {
            ptr,
            value,
            mask: None,
            span,
        });
    }

    fn var_expr(&self, v: VarId, span: Span) -> Expr {
        mk(ExprKind::Var(v), self.vars[v].1.clone(), span)
    }

    /// `e` held in a fresh variable unless it is already a variable or a constant
    /// (so that an operand used twice is evaluated once).
    fn temp(&mut self, e: Expr) -> Expr {
        if matches!(e.kind, ExprKind::Var(_) | ExprKind::Const(_)) {
            return e;
        }
        let span = e.span;
        let v = self.new_var("_t", e.ty.clone());
        self.emit(Stmt::Let(v, e));
        self.var_expr(v, span)
    }

    /// Where the current block stands (for [`Elab::keep_order`]).
    fn mark(&self) -> usize {
        self.blocks.last().map_or(0, |b| b.len())
    }

    /// `e`, an operand elaborated before the statements emitted since
    /// `mark` (a later operand's atomic or inlined device function): Python
    /// evaluates operands left to right, so an earlier one that reads
    /// memory is held in a variable before those statements.
    fn keep_order(&mut self, e: Expr, mark: usize) -> Expr {
        if self.mark() <= mark || !e.reads_memory() {
            return e;
        }
        let span = e.span;
        let v = self.new_var("_t", e.ty.clone());
        if let Some(b) = self.blocks.last_mut() {
            b.insert(mark, Stmt::Let(v, e));
        }
        self.var_expr(v, span)
    }

    /// Elaborates the statements of `body` into a new block.
    fn block_of(&mut self, body: &[ast::Stmt]) -> DResult<Block> {
        self.blocks.push(Vec::new());
        let r = self.stmts(body);
        let b = self.blocks.pop().expect("pushed above");
        r.map(|()| b)
    }

    /// Elaborates the kernel `name` for `launch`.
    pub fn kernel(mut self, name: &str, launch: &Launch) -> DResult<Kernel> {
        let f = &self.m.funcs[name];
        let fspan = f.span;
        if let Some((ret, _)) = &f.sig {
            if *ret != SigType::Void {
                return err(fspan, "a kernel's signature must return void");
            }
        }
        let mut params = Vec::new();
        let mut env = HashMap::new();
        let names = self.param_names(&f.def)?;
        if let Some((_, sig)) = &f.sig {
            if sig.len() != names.len() {
                return err(
                    fspan,
                    format!(
                        "the signature has {} parameter types but `{name}` has {} parameters",
                        sig.len(),
                        names.len()
                    ),
                );
            }
        }
        for (i, (pname, pspan)) in names.iter().enumerate() {
            let sig = f.sig.as_ref().map(|(_, s)| s[i]);
            match launch.arg(pname) {
                Some(ArgSpec::Buffer { dtype, bits, shape }) => {
                    let shape = shape.clone().unwrap_or_else(|| vec![bits.len()]);
                    match sig {
                        Some(SigType::Array(d, nd)) if d != *dtype || nd != shape.len() => {
                            return err(*pspan, format!(
                                "the launch passes `{pname}` as a {}-d {} array but the signature says {nd}-d {}",
                                shape.len(),
                                Named(*dtype),
                                Named(d)
                            ));
                        }
                        Some(SigType::Scalar(d)) => {
                            return err(*pspan, format!("the launch passes `{pname}` as an array but the signature says {}", Named(d)));
                        }
                        _ => {}
                    }
                    let var = self.new_var(pname, Type::global_ptr(*dtype));
                    let base = self.var_expr(var, *pspan);
                    env.insert(
                        pname.clone(),
                        Val::Array(ArrayVal {
                            base,
                            dtype: *dtype,
                            shape,
                        }),
                    );
                    params.push(Param {
                        name: pname.clone(),
                        kind: ParamKind::Pointer(*dtype),
                        var: Some(var),
                    });
                }
                Some(ArgSpec::Scalar { dtype, .. }) => {
                    match sig {
                        Some(SigType::Scalar(d)) if d != *dtype => {
                            return err(*pspan, format!(
                                "the launch passes `{pname}` as {} but the signature says {}",
                                Named(*dtype),
                                Named(d)
                            ));
                        }
                        Some(SigType::Array(d, nd)) => {
                            return err(*pspan, format!("the launch passes `{pname}` as a scalar but the signature says a {nd}-d {} array", Named(d)));
                        }
                        _ => {}
                    }
                    let var = self.new_var(pname, Type::scalar(*dtype));
                    env.insert(pname.clone(), Val::Num(self.var_expr(var, *pspan)));
                    params.push(Param {
                        name: pname.clone(),
                        kind: ParamKind::Scalar(*dtype),
                        var: Some(var),
                    });
                }
                Some(ArgSpec::Constexpr(_)) => {
                    return Err(Diagnostic::new(*pspan, format!(
                        "CUDA Python has no compile-time parameters, but the launch passes `{pname}` as a constexpr"
                    ))
                    .with_help(format!(
                        "pass a runtime scalar: \"{pname}\": {{\"dtype\": \"int64\", \"value\": …}}"
                    )))
                }
                None => {
                    return Err(Diagnostic::new(
                        *pspan,
                        format!("the launch spec has no argument for parameter `{pname}`"),
                    )
                    .with_help(format!("add \"{pname}\" to the launch's \"args\"")))
                }
            }
        }
        for (n, _) in &launch.args {
            if !names.iter().any(|(p, _)| p == n) {
                return err(
                    fspan,
                    format!(
                        "the launch spec passes `{n}`, which kernel `{name}` has no parameter for"
                    ),
                );
            }
        }
        self.frames.push(Frame {
            name: name.to_string(),
            env,
            depth: 0,
            loops: 0,
            inline: None,
        });
        let def = self.m.funcs[name].def.clone();
        let body = self.block_of(&def.body)?;
        let (grid, block) = crate::frontend::geometry(launch, None, None)?;
        Ok(Kernel {
            name: name.to_string(),
            model: Model::Simt,
            grid,
            block,
            params,
            fresh: vec![],
            arrays: self.arrays,
            vars: self.vars,
            body,
            then: vec![],
        })
    }

    /// The plain positional parameters of a function; other forms are refused.
    fn param_names(&self, def: &ast::StmtFunctionDef) -> DResult<Vec<(String, Span)>> {
        let a = &def.args;
        if let Some(v) = a.vararg.as_deref().or(a.kwarg.as_deref()) {
            return py::unsupported(
                self.span(v),
                "`*args`/`**kwargs`",
                DIALECT,
                "list every parameter by name",
            );
        }
        let mut out = Vec::new();
        for p in a.posonlyargs.iter().chain(&a.args).chain(&a.kwonlyargs) {
            if p.default.is_some() {
                return py::unsupported(
                    self.span(&p.def),
                    "a parameter default",
                    DIALECT,
                    "pass every argument at the call",
                );
            }
            out.push((p.def.arg.to_string(), self.span(&p.def)));
        }
        Ok(out)
    }

    // ---- statements ----------------------------------------------------------

    fn stmts(&mut self, body: &[ast::Stmt]) -> DResult<()> {
        for s in body {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &ast::Stmt) -> DResult<()> {
        let span = self.span(s);
        use ast::Stmt as S;
        match s {
            S::Pass(_) => Ok(()),
            S::Expr(e) => {
                if matches!(&*e.value, ast::Expr::Constant(c) if matches!(c.value, Constant::Str(_)))
                {
                    return Ok(()); // a docstring
                }
                self.expr(&e.value)?;
                Ok(())
            }
            S::Assign(a) => {
                let v = self.expr(&a.value)?;
                // `N = 100`, the only assignment of N, in the function's
                // entry block, N sizing an array: N is that constant (numba
                // folds it, so `cuda.shared.array(N, int32)` compiles);
                // elsewhere a variable, as before
                if let ([ast::Expr::Name(n)], Val::Num(e)) = (a.targets.as_slice(), &v) {
                    let name = n.id.as_str();
                    if matches!(e.kind, ExprKind::Const(_))
                        && self.frame().depth == 0
                        && !self.frame().env.contains_key(name)
                        && self.assignments_in_function(name) == 1
                        && self.sizes_an_array_here(name)
                    {
                        self.frame().env.insert(name.to_string(), v);
                        return Ok(());
                    }
                }
                let v = self.materialize(v);
                for t in &a.targets {
                    self.assign(t, v.clone())?;
                }
                Ok(())
            }
            S::AugAssign(a) => self.aug_assign(a, span),
            S::If(i) => {
                let cond = self.cond(&i.test)?;
                self.frame().depth += 1;
                let then_body = self.block_of(&i.body);
                let else_body = then_body.and_then(|t| Ok((t, self.block_of(&i.orelse)?)));
                self.frame().depth -= 1;
                let (then_body, else_body) = else_body?;
                self.emit(Stmt::If {
                    cond,
                    then_body,
                    else_body,
                });
                Ok(())
            }
            S::For(f) => self.for_stmt(f, span),
            S::While(w) => self.while_stmt(w, span),
            S::Break(_) => {
                if self.frames.last().map_or(0, |f| f.loops) == 0 {
                    return err(span, "`break` outside a loop");
                }
                self.emit(Stmt::Break);
                Ok(())
            }
            S::Continue(_) => {
                if self.frames.last().map_or(0, |f| f.loops) == 0 {
                    return err(span, "`continue` outside a loop");
                }
                self.emit(Stmt::Continue);
                Ok(())
            }
            S::Return(r) => self.return_stmt(r.value.as_deref(), span),
            S::AnnAssign(_) => py::unsupported(
                span,
                "an annotated assignment",
                DIALECT,
                "assign without an annotation; force a type with a type object: x = int16(0)",
            ),
            S::Try(_) | S::TryStar(_) | S::Raise(_) | S::Assert(_) => py::unsupported(
                span,
                "exception handling (`try`, `raise`, `assert`)",
                DIALECT,
                "the no-Python mode has no exceptions: test the condition with `if` and return early",
            ),
            S::With(_) | S::AsyncWith(_) => py::unsupported(
                span,
                "a `with` statement",
                DIALECT,
                "write the statements without `with`",
            ),
            S::ClassDef(_) => py::unsupported(
                span,
                "a class definition",
                DIALECT,
                "the no-Python mode has no objects: use scalars and arrays",
            ),
            S::FunctionDef(_) | S::AsyncFunctionDef(_) => py::unsupported(
                span,
                "a nested function",
                DIALECT,
                "define a device function at module level with @cuda.jit(device=True)",
            ),
            S::Global(_) | S::Nonlocal(_) => py::unsupported(
                span,
                "`global`/`nonlocal`",
                DIALECT,
                "pass the value as a parameter; module-level constants can be read directly",
            ),
            S::Import(_) | S::ImportFrom(_) => py::unsupported(
                span,
                "an import inside a kernel",
                DIALECT,
                "import at module level",
            ),
            S::Delete(_) => py::unsupported(span, "`del`", DIALECT, "leave the variable alone"),
            _ => py::unsupported(span, "this statement", DIALECT, "use assignments, if, for over range, while, break, continue and return"),
        }
    }

    /// `value` with numbers of a tuple held in fresh variables (a tuple bound to
    /// a name keeps the values it had when it was made).
    fn materialize(&mut self, v: Val) -> Val {
        match v {
            Val::Tuple(items) => {
                Val::Tuple(items.into_iter().map(|i| self.materialize(i)).collect())
            }
            Val::Num(e) => Val::Num(self.temp(e)),
            other => other,
        }
    }

    /// Assigns `v` to an assignment target.
    fn assign(&mut self, target: &ast::Expr, v: Val) -> DResult<()> {
        let span = self.span(target);
        match target {
            ast::Expr::Name(n) => self.assign_name(n.id.as_str(), v, span),
            ast::Expr::Tuple(t) => {
                let items = match v {
                    Val::Tuple(items) => items,
                    Val::Array(_) => {
                        return py::unsupported(
                            span,
                            "unpacking an array",
                            DIALECT,
                            "arrays cannot be unpacked: read each element with a[i]",
                        )
                    }
                    _ => return err(span, "cannot unpack a non-tuple value"),
                };
                if items.len() != t.elts.len() {
                    return err(
                        span,
                        format!(
                            "cannot unpack {} values into {} targets",
                            items.len(),
                            t.elts.len()
                        ),
                    );
                }
                for (e, v) in t.elts.iter().zip(items) {
                    self.assign(e, v)?;
                }
                Ok(())
            }
            ast::Expr::Subscript(s) => {
                let arr = self.array_of(&s.value)?;
                let ptr = self.elem_ptr(&arr, &s.slice, span)?;
                let value = self.num(v, span)?;
                self.store(ptr, value, arr.dtype, span);
                Ok(())
            }
            ast::Expr::Attribute(a) => {
                if let Ok(Val::Array(_)) = self.expr(&a.value) {
                    return err(span, format!("array attribute `{}` is read-only", a.attr));
                }
                py::unsupported(
                    span,
                    "assigning to an attribute",
                    DIALECT,
                    "assign to a variable",
                )
            }
            ast::Expr::Starred(_) => py::unsupported(
                span,
                "starred assignment",
                DIALECT,
                "unpack into one name per value",
            ),
            _ => err(span, "cannot assign to this expression"),
        }
    }

    /// Whether `name` sizes a shared or local array of the current function.
    fn sizes_an_array_here(&self, name: &str) -> bool {
        let fname = &self.frames.last().expect("a frame").name;
        self.m
            .funcs
            .get(fname)
            .is_some_and(|f| sizes_an_array(&f.def.body, name))
    }

    /// How many statements of the current function assign `name`.
    fn assignments_in_function(&self, name: &str) -> usize {
        let fname = &self.frames.last().expect("a frame").name;
        self.m
            .funcs
            .get(fname)
            .map_or(usize::MAX, |f| assignment_count(&f.def.body, name))
    }

    /// Binds `name` to `v` by the seed's typing rule.
    fn assign_name(&mut self, name: &str, v: Val, span: Span) -> DResult<()> {
        match v {
            Val::Num(e) => {
                let id = self.slot_for(name, dtype_of(&e), span)?;
                let d = self.vars[id].1.dtype();
                self.emit(Stmt::Let(id, convert(e, d)));
                Ok(())
            }
            Val::None => err(span, "`None` cannot be assigned in the no-Python mode"),
            Val::Tuple(new) => {
                let depth = self.frame().depth;
                match self.frame().env.get(name).cloned() {
                    Some(Val::Num(_)) if depth > 0 => {
                        err(span, format!("`{name}` is a number before this loop or branch; it cannot become another kind of value there"))
                    }
                    // rebinding inside a loop or branch writes the tuple's
                    // own variables (as numba's tuple variable is written),
                    // so that the new value holds only where the branch runs
                    Some(Val::Tuple(old)) if depth > 0 => {
                        let new = self.own(Val::Tuple(new), true);
                        self.write_slots(name, &old, &new, span)
                    }
                    _ => {
                        // a tuple bound to a name owns its numbers' variables;
                        // its constants stay constants (a shape) unless a
                        // loop or branch of the function rebinds the name
                        let fname = self.frame().name.clone();
                        let rebound = self
                            .m
                            .funcs
                            .get(&fname)
                            .is_some_and(|f| rebinds_in_nested_block(&f.def.body, name));
                        let v = self.own(Val::Tuple(new), !rebound);
                        self.frame().env.insert(name.to_string(), v);
                        Ok(())
                    }
                }
            }
            other => {
                let depth = self.frame().depth;
                if depth > 0 && matches!(self.frame().env.get(name), Some(Val::Num(_))) {
                    return err(span, format!("`{name}` is a number before this loop or branch; it cannot become another kind of value there"));
                }
                // a new shared or local array takes the name it is bound to
                if let Val::Array(ArrayVal { base, .. }) = &other {
                    if let ExprKind::ArrayBase(id) = base.kind {
                        let a = &mut self.arrays[id];
                        if a.name.starts_with(a.space.name())
                            && a.name[a.space.name().len()..].parse::<usize>().is_ok()
                        {
                            a.name = name.to_string();
                        }
                    }
                }
                self.frame().env.insert(name.to_string(), other);
                Ok(())
            }
        }
    }

    /// `v` with each number held in a fresh variable of its own (a copy even
    /// of a variable: a tuple's element is not the variable it was made
    /// from); with `keep_consts`, constants stay constants (shapes such as
    /// `(4, 4)`).
    fn own(&mut self, v: Val, keep_consts: bool) -> Val {
        match v {
            Val::Tuple(items) => Val::Tuple(
                items
                    .into_iter()
                    .map(|i| self.own(i, keep_consts))
                    .collect(),
            ),
            Val::Num(e) if !(keep_consts && matches!(e.kind, ExprKind::Const(_))) => {
                let span = e.span;
                let id = self.new_var("_t", e.ty.clone());
                self.emit(Stmt::Let(id, e));
                Val::Num(self.var_expr(id, span))
            }
            other => other,
        }
    }

    /// Writes the numbers of tuple `new` into the variables of tuple `old`
    /// (bound to `name` before the loop or branch), each converted to its
    /// variable's type; both must have the same shape.
    fn write_slots(&mut self, name: &str, old: &[Val], new: &Val, span: Span) -> DResult<()> {
        let mismatch = || {
            err(
                span,
                format!("`{name}` is rebound inside a loop or branch to a tuple of another shape or kind; a tuple variable keeps its type"),
            )
        };
        let Val::Tuple(new) = new else {
            return mismatch();
        };
        if old.len() != new.len() {
            return mismatch();
        }
        for (o, n) in old.iter().zip(new) {
            match (o, n) {
                (
                    Val::Num(Expr {
                        kind: ExprKind::Var(id),
                        ty,
                        ..
                    }),
                    Val::Num(e),
                ) => {
                    let d = ty.dtype();
                    self.emit(Stmt::Let(*id, convert(e.clone(), d)));
                }
                (Val::Tuple(o), n @ Val::Tuple(_)) => self.write_slots(name, o, n, span)?,
                // a constant element stays what it is
                (Val::Num(o), Val::Num(n)) if o.kind == n.kind && o.ty == n.ty => {}
                (Val::Num(_), Val::Num(_)) => {
                    return err(
                        span,
                        format!("`{name}` holds a constant before this loop or branch and another value inside it; make the tuple from variables before the branch"),
                    )
                }
                _ => return mismatch(),
            }
        }
        Ok(())
    }

    /// The variable that an assignment of a `d` value to `name` writes: the
    /// existing one if it has type `d` or the assignment is inside a loop or
    /// branch (the value is then converted to its type), else a new one.
    fn slot_for(&mut self, name: &str, d: DType, span: Span) -> DResult<VarId> {
        let depth = self.frame().depth;
        match self.frame().env.get(name) {
            Some(Val::Num(Expr {
                kind: ExprKind::Var(id),
                ty,
                ..
            })) if ty.dtype() == d || depth > 0 => return Ok(*id),
            Some(Val::Num(_)) | None => {}
            Some(_) if depth > 0 => {
                return err(span, format!(
                    "`{name}` is not a number before this loop or branch; a variable keeps its kind inside loops and branches"
                ))
            }
            Some(_) => {}
        }
        let id = self.new_var(name, Type::scalar(d));
        let var = self.var_expr(id, span);
        self.frame().env.insert(name.to_string(), Val::Num(var));
        Ok(id)
    }

    fn aug_assign(&mut self, a: &ast::StmtAugAssign, span: Span) -> DResult<()> {
        match &*a.target {
            ast::Expr::Name(n) => {
                let cur = self.lookup(n.id.as_str(), span)?;
                let cur = self.num(cur, span)?;
                let rhs = self.expr(&a.value)?;
                let rhs = self.num(rhs, span)?;
                let r = self.arith(a.op, cur, rhs, span)?;
                self.assign_name(n.id.as_str(), Val::Num(r), span)
            }
            ast::Expr::Subscript(s) => {
                let arr = self.array_of(&s.value)?;
                let ptr = self.elem_ptr(&arr, &s.slice, span)?;
                let ptr = self.hold_indices(ptr);
                let cur = load(ptr.clone(), arr.dtype, span);
                let rhs = self.expr(&a.value)?;
                let rhs = self.num(rhs, span)?;
                let r = self.arith(a.op, cur, rhs, span)?;
                self.store(ptr, r, arr.dtype, span);
                Ok(())
            }
            _ => err(span, "cannot assign to this expression"),
        }
    }

    /// An element pointer whose indices are held in variables, so that it can
    /// be used twice (load, then store) with its indices evaluated once.
    fn hold_indices(&mut self, ptr: Expr) -> Expr {
        let Expr { kind, ty, span } = ptr;
        match kind {
            ExprKind::ElemPtr {
                base,
                indices,
                dims,
                neg,
                offset,
            } => {
                let indices = indices.into_iter().map(|i| self.temp(i)).collect();
                mk(
                    ExprKind::ElemPtr {
                        base,
                        indices,
                        dims,
                        neg,
                        offset,
                    },
                    ty,
                    span,
                )
            }
            kind => mk(kind, ty, span),
        }
    }

    fn for_stmt(&mut self, f: &ast::StmtFor, span: Span) -> DResult<()> {
        if !f.orelse.is_empty() {
            return py::unsupported(
                span,
                "`for … else`",
                DIALECT,
                "set a flag before `break` and test it after the loop",
            );
        }
        let range_args = match &*f.iter {
            ast::Expr::Call(c) if c.keywords.is_empty() => match self.expr(&c.func)? {
                Val::Builtin("range") => &c.args,
                _ => return self.not_range(&f.iter),
            },
            _ => return self.not_range(&f.iter),
        };
        let ast::Expr::Name(target) = &*f.target else {
            return py::unsupported(
                self.span(&*f.target),
                "this loop target",
                DIALECT,
                "loop over one name: for i in range(n)",
            );
        };
        let mut vals = Vec::new();
        for a in range_args {
            let v = self.expr(a)?;
            let e = self.num(v, self.span(a))?;
            if !dtype_of(&e).is_int() && dtype_of(&e) != DType::Bool {
                return err(
                    self.span(a),
                    format!("range() takes integers, not {}", Named(dtype_of(&e))),
                );
            }
            vals.push(e);
        }
        let d = vals
            .iter()
            .map(dtype_of)
            .reduce(types::promote)
            .ok_or_else(|| Diagnostic::new(span, "range expected at least 1 argument, got 0"))?;
        let d = if d == DType::Bool { DType::I64 } else { d };
        let (start, end, step) = match vals.len() {
            1 => (int_const(d, 0, span), vals.remove(0), int_const(d, 1, span)),
            2 => {
                let s = vals.remove(0);
                (s, vals.remove(0), int_const(d, 1, span))
            }
            3 => {
                let s = vals.remove(0);
                let e = vals.remove(0);
                (s, e, vals.remove(0))
            }
            n => return err(span, format!("range expected at most 3 arguments, got {n}")),
        };
        if let ExprKind::Const(0) = step.kind {
            return err(span, "range() arg 3 must not be zero");
        }
        let (start, end, step) = (convert(start, d), convert(end, d), convert(step, d));
        let (start, end, step) = (self.temp(start), self.temp(end), self.temp(step));
        // The loop variable follows the assignment rule of the enclosing block.
        let user = self.slot_for(target.id.as_str(), d, span)?;
        let iv = self.new_var("_i", Type::scalar(d));
        let body = self.loop_body(&f.body, |me| {
            let e = me.var_expr(iv, span);
            let d = me.vars[user].1.dtype();
            me.emit(Stmt::Let(user, convert(e, d)));
        })?;
        self.emit(Stmt::For {
            var: iv,
            start,
            end,
            step,
            body,
            span,
            parallel: None,
        });
        self.after_loop();
        Ok(())
    }

    fn not_range<T>(&self, iter: &ast::Expr) -> DResult<T> {
        py::unsupported(
            self.span(iter),
            "a for loop over anything but range()",
            DIALECT,
            "for loops only iterate over range(...) or xrange(...): for i in range(a.shape[0]): x = a[i]",
        )
    }

    /// Elaborates a loop body with `prologue` at its start.
    fn loop_body(
        &mut self,
        body: &[ast::Stmt],
        prologue: impl FnOnce(&mut Self),
    ) -> DResult<Block> {
        self.frame().depth += 1;
        self.frame().loops += 1;
        self.blocks.push(Vec::new());
        prologue(self);
        let r = self.stmts(body);
        let b = self.blocks.pop().expect("pushed above");
        self.frame().depth -= 1;
        self.frame().loops -= 1;
        r.map(|()| b)
    }

    /// After a loop inside an inlined device function: a `return` in it
    /// left only that loop, so leave the function's wrapper too.
    fn after_loop(&mut self) {
        if let Some(inl) = &self.frames.last().expect("a frame").inline {
            let cond = self.var_expr(inl.done, Span::default());
            self.emit(Stmt::If {
                cond,
                then_body: vec![Stmt::Break],
                else_body: vec![],
            });
        }
    }

    fn while_stmt(&mut self, w: &ast::StmtWhile, span: Span) -> DResult<()> {
        if !w.orelse.is_empty() {
            return py::unsupported(
                span,
                "`while … else`",
                DIALECT,
                "set a flag before `break` and test it after the loop",
            );
        }
        // The condition may need statements (short-circuit operators): then it
        // is evaluated at the top of an endless loop that it leaves.
        self.blocks.push(Vec::new());
        let cond = self.cond(&w.test);
        let pre = self.blocks.pop().expect("pushed above");
        let cond = cond?;
        if pre.is_empty() {
            let body = self.loop_body(&w.body, |_| {})?;
            self.emit(Stmt::While { cond, body, span });
        } else {
            let body = self.loop_body(&w.body, |me| {
                for s in pre {
                    me.emit(s);
                }
                let stop = unary(UnOp::LogicalNot, cond, span);
                me.emit(Stmt::If {
                    cond: stop,
                    then_body: vec![Stmt::Break],
                    else_body: vec![],
                });
            })?;
            let t = konst(DType::Bool, 1, span);
            self.emit(Stmt::While {
                cond: t,
                body,
                span,
            });
        }
        self.after_loop();
        Ok(())
    }

    fn return_stmt(&mut self, value: Option<&ast::Expr>, span: Span) -> DResult<()> {
        let v = match value {
            Some(e) => Some(self.expr(e)?),
            None => None,
        };
        let frame = self.frames.last().expect("a frame");
        let Some(inl) = &frame.inline else {
            if let Some(v) = v {
                if !matches!(v, Val::None) {
                    return err(
                        span,
                        "a kernel cannot return a value; store results into an array argument",
                    );
                }
            }
            self.emit(Stmt::Return);
            return Ok(());
        };
        let (done, ret, sig_ret) = (inl.done, inl.ret, inl.sig_ret);
        match v {
            None | Some(Val::None) => {}
            Some(v) => {
                let e = self.num(v, span)?;
                let id = match ret {
                    Some(id) => id,
                    None => {
                        let d = sig_ret.unwrap_or(dtype_of(&e));
                        let id = self.new_var(&format!("{}.ret", frame.name), Type::scalar(d));
                        if let Some(inl) = &mut self.frame().inline {
                            inl.ret = Some(id);
                        }
                        id
                    }
                };
                let d = self.vars[id].1.dtype();
                self.emit(Stmt::Let(id, convert(e, d)));
            }
        }
        self.emit(Stmt::Let(done, konst(DType::Bool, 1, span)));
        self.emit(Stmt::Break);
        Ok(())
    }

    // ---- expressions -----------------------------------------------------------

    /// A number from a value, or an error naming what it was.
    fn num(&self, v: Val, span: Span) -> DResult<Expr> {
        match v {
            Val::Num(e) => Ok(e),
            Val::Array(_) => err(span, "expected a number, found an array"),
            Val::Tuple(_) => err(span, "expected a number, found a tuple"),
            Val::Type(d) => err(
                span,
                format!("expected a number, found the type {}", Named(d)),
            ),
            Val::None => err(span, "expected a number, found None"),
            Val::Path(p) => err(span, format!("expected a number, found `{p}`")),
            Val::Func(f) => err(span, format!("expected a number, found the function `{f}`")),
            Val::Builtin(b) => err(span, format!("expected a number, found the builtin `{b}`")),
        }
    }

    /// The truth value of a condition as a bool.
    fn cond(&mut self, e: &ast::Expr) -> DResult<Expr> {
        let span = self.span(e);
        let v = self.expr(e)?;
        let v = self.num(v, span)?;
        Ok(self.truth(v))
    }

    fn truth(&self, e: Expr) -> Expr {
        let d = dtype_of(&e);
        if d == DType::Bool {
            return e;
        }
        let span = e.span;
        let zero = konst(d, 0, span);
        bin(BinOp::Ne, e, zero, span)
    }

    fn expr(&mut self, e: &ast::Expr) -> DResult<Val> {
        let span = self.span(e);
        use ast::Expr as E;
        match e {
            E::Constant(c) => self.constant(&c.value, span),
            E::Name(n) => self.lookup(n.id.as_str(), span),
            E::Attribute(a) => {
                let base = self.expr(&a.value)?;
                self.attribute(base, a.attr.as_str(), span)
            }
            E::Subscript(s) => {
                let base = self.expr(&s.value)?;
                match base {
                    Val::Array(arr) => {
                        let ptr = self.elem_ptr(&arr, &s.slice, span)?;
                        Ok(Val::Num(load(ptr, arr.dtype, span)))
                    }
                    Val::Tuple(items) => {
                        let i = self.const_int(&s.slice)?;
                        let n = items.len() as i128;
                        let j = if i < 0 { i + n } else { i };
                        if !(0..n).contains(&j) {
                            return err(
                                span,
                                format!("tuple index {i} out of range for a tuple of {n}"),
                            );
                        }
                        Ok(items[j as usize].clone())
                    }
                    _ => err(span, "only arrays and tuples can be indexed"),
                }
            }
            E::BinOp(b) => {
                let l = self.expr(&b.left)?;
                let l = self.num(l, span)?;
                let mark = self.mark();
                let r = self.expr(&b.right)?;
                let r = self.num(r, span)?;
                let l = self.keep_order(l, mark);
                Ok(Val::Num(self.arith(b.op, l, r, span)?))
            }
            E::UnaryOp(u) => {
                let v = self.expr(&u.operand)?;
                let v = self.num(v, span)?;
                Ok(Val::Num(self.unary_op(u.op, v, span)?))
            }
            E::BoolOp(b) => self.bool_op(b, span),
            E::Compare(c) => self.compare(c, span),
            E::IfExp(i) => self.if_exp(i, span),
            E::Call(c) => self.call(c, span),
            E::Tuple(t) => {
                let mut items = Vec::new();
                for x in &t.elts {
                    items.push(self.expr(x)?);
                }
                Ok(Val::Tuple(items))
            }
            E::List(_) | E::ListComp(_) => py::unsupported(
                span,
                "a list",
                DIALECT,
                "use a local array: cuda.local.array(n, float32)",
            ),
            E::Dict(_) | E::DictComp(_) | E::Set(_) | E::SetComp(_) => py::unsupported(
                span,
                "dicts and sets",
                DIALECT,
                "the no-Python mode has no objects: use arrays",
            ),
            E::Lambda(_) => py::unsupported(
                span,
                "a lambda",
                DIALECT,
                "define a device function with @cuda.jit(device=True)",
            ),
            E::GeneratorExp(_) | E::Yield(_) | E::YieldFrom(_) | E::Await(_) => {
                py::unsupported(span, "generators", DIALECT, "write a for loop over range()")
            }
            E::JoinedStr(_) | E::FormattedValue(_) => py::unsupported(
                span,
                "a string",
                DIALECT,
                "print numbers with print(\"label\", x)",
            ),
            E::Slice(_) => py::unsupported(
                span,
                "slicing",
                DIALECT,
                "slicing is not supported: index each element with a[i]",
            ),
            E::NamedExpr(_) => {
                py::unsupported(span, "`:=`", DIALECT, "assign in a statement of its own")
            }
            E::Starred(_) => py::unsupported(span, "`*` unpacking", DIALECT, "pass each value"),
        }
    }

    fn constant(&self, c: &Constant, span: Span) -> DResult<Val> {
        Ok(Val::Num(match c {
            Constant::Bool(b) => konst(DType::Bool, *b as u64, span),
            Constant::Int(i) => match i64::try_from(i) {
                Ok(v) => int_const(DType::I64, v as i128, span),
                Err(_) => match u64::try_from(i) {
                    Ok(v) => konst(DType::U64, v, span),
                    Err(_) => return err(span, format!("integer literal {i} does not fit in 64 bits")),
                },
            },
            Constant::Float(f) => float_const(DType::F64, *f, span),
            Constant::None => return Ok(Val::None),
            Constant::Complex { .. } => {
                return py::unsupported(span, "a complex number", DIALECT, "ksem does not model complex numbers yet: use two float arrays for the real and imaginary parts")
            }
            Constant::Str(_) | Constant::Bytes(_) => {
                return py::unsupported(span, "a string", DIALECT, "strings may only appear in print(\"label\", x)")
            }
            Constant::Tuple(items) => {
                let mut out = Vec::new();
                for x in items {
                    out.push(self.constant(x, span)?);
                }
                return Ok(Val::Tuple(out));
            }
            Constant::Ellipsis => return py::unsupported(span, "`...`", DIALECT, "index each dimension"),
        }))
    }

    fn lookup(&self, name: &str, span: Span) -> DResult<Val> {
        if let Some(v) = self.frames.last().and_then(|f| f.env.get(name)) {
            return Ok(v.clone());
        }
        if let Some(g) = self.m.globals.get(name) {
            return Ok(match g {
                Global::Int(i) => {
                    let d = if i64::try_from(*i).is_ok() {
                        DType::I64
                    } else {
                        DType::U64
                    };
                    Val::Num(int_const(d, *i, span))
                }
                Global::Float(f) => Val::Num(float_const(DType::F64, *f, span)),
                Global::Bool(b) => Val::Num(konst(DType::Bool, *b as u64, span)),
                Global::Type(d) => Val::Type(*d),
                Global::Path(p) => self.path_val(p),
            });
        }
        if self.m.funcs.contains_key(name) {
            return Ok(Val::Func(name.to_string()));
        }
        Ok(Val::Builtin(match name {
            "range" | "xrange" => "range",
            "abs" => "abs",
            "min" => "min",
            "max" => "max",
            "int" => "int",
            "float" => "float",
            "bool" => "bool",
            "len" => "len",
            "print" => "print",
            "round" => "round",
            "divmod" | "pow" | "sum" | "list" | "tuple" | "enumerate" | "zip" | "str"
            | "complex" => {
                return py::unsupported(
                    span,
                    &format!("the builtin `{name}`"),
                    DIALECT,
                    "use arithmetic operators, math functions and for loops over range()",
                )
            }
            _ => return err(span, format!("name `{name}` is not defined")),
        }))
    }

    fn path_val(&self, p: &str) -> Val {
        let p = super::canon(p);
        match type_path(&p) {
            Some(d) => Val::Type(d),
            None => Val::Path(p),
        }
    }

    fn attribute(&mut self, base: Val, attr: &str, span: Span) -> DResult<Val> {
        match base {
            Val::Path(p) => {
                let full = format!("{p}.{attr}");
                if let Some(v) = self.intrinsic_value(&full, span)? {
                    return Ok(v);
                }
                Ok(self.path_val(&full))
            }
            Val::Array(a) => {
                let i64c = |v: usize| Val::Num(int_const(DType::I64, v as i128, span));
                Ok(match attr {
                    "shape" => Val::Tuple(a.shape.iter().map(|&d| i64c(d)).collect()),
                    "strides" => {
                        let item = a.dtype.storage_bits() as usize / 8;
                        let mut st = vec![item; a.shape.len()];
                        for i in (0..a.shape.len().saturating_sub(1)).rev() {
                            st[i] = st[i + 1] * a.shape[i + 1];
                        }
                        Val::Tuple(st.into_iter().map(i64c).collect())
                    }
                    "size" => i64c(a.shape.iter().product()),
                    "ndim" => i64c(a.shape.len()),
                    "dtype" => Val::Type(a.dtype),
                    _ => return err(span, format!("arrays have no attribute `{attr}`; valid ones are shape, strides, size and ndim")),
                })
            }
            Val::Num(_) => err(span, format!("numbers have no attribute `{attr}`")),
            _ => err(span, format!("no attribute `{attr}` here")),
        }
    }

    /// Values such as `cuda.threadIdx.x` (int32, as numba-cuda types them)
    /// and the float64 constants of `math`.
    fn intrinsic_value(&self, full: &str, span: Span) -> DResult<Option<Val>> {
        let math = match full {
            "math.pi" => Some(std::f64::consts::PI),
            "math.e" => Some(std::f64::consts::E),
            "math.tau" => Some(std::f64::consts::TAU),
            "math.inf" => Some(f64::INFINITY),
            "math.nan" => Some(f64::NAN),
            "numpy.nan" | "numpy.NaN" | "numpy.NAN" => Some(f64::NAN),
            "numpy.inf" | "numpy.Inf" | "numpy.PINF" => Some(f64::INFINITY),
            "numpy.NINF" => Some(f64::NEG_INFINITY),
            "numpy.pi" => Some(std::f64::consts::PI),
            "numpy.e" => Some(std::f64::consts::E),
            _ => None,
        };
        if let Some(v) = math {
            return Ok(Some(Val::Num(float_const(DType::F64, v, span))));
        }
        let Some(rest) = full.strip_prefix("numba.cuda.") else {
            return Ok(None);
        };
        if let Some(v) = self.lane_value(rest, span) {
            return Ok(Some(v));
        }
        let Some((what, dim)) = rest.split_once('.') else {
            return Ok(None);
        };
        let ids = ["threadIdx", "blockIdx", "blockDim", "gridDim"];
        let d = match dim {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ if ids.contains(&what) => {
                return err(
                    span,
                    format!("cuda.{what} has no attribute `{dim}`; use .x, .y or .z"),
                )
            }
            _ => return Ok(None),
        };
        let kind = match what {
            "threadIdx" => ExprKind::ThreadId(d),
            "blockIdx" => ExprKind::BlockId(d),
            "blockDim" => ExprKind::BlockDim(d),
            "gridDim" => ExprKind::GridDim(d),
            _ => return Ok(None),
        };
        Ok(Some(Val::Num(mk(kind, Type::scalar(DType::I32), span))))
    }

    /// The array an expression denotes.
    fn array_of(&mut self, e: &ast::Expr) -> DResult<ArrayVal> {
        let span = self.span(e);
        match self.expr(e)? {
            Val::Array(a) => Ok(a),
            _ => err(span, "only arrays can be indexed"),
        }
    }

    /// The pointer to the element of `arr` that `index` selects.
    fn elem_ptr(&mut self, arr: &ArrayVal, index: &ast::Expr, span: Span) -> DResult<Expr> {
        let idx: Vec<&ast::Expr> = match index {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            other => vec![other],
        };
        let mut indices = Vec::new();
        for i in &idx {
            let ispan = self.span(*i);
            if matches!(i, ast::Expr::Slice(_)) {
                return py::unsupported(
                    ispan,
                    "slicing",
                    DIALECT,
                    "slicing is not supported: index each element with a[i]",
                );
            }
            let v = self.expr(i)?;
            let v = match v {
                Val::Tuple(items) if idx.len() == 1 => {
                    for it in items {
                        let e = self.num(it, ispan)?;
                        indices.push(self.index_value(e, ispan)?);
                    }
                    continue;
                }
                v => self.num(v, ispan)?,
            };
            indices.push(self.index_value(v, ispan)?);
        }
        if indices.len() != arr.shape.len() {
            return err(span, format!(
                "a {}-d array needs {} indices, got {} (the no-Python mode indexes every dimension)",
                arr.shape.len(),
                arr.shape.len(),
                indices.len()
            ));
        }
        let ty = arr.base.ty.clone();
        Ok(mk(
            ExprKind::ElemPtr {
                base: Box::new(arr.base.clone()),
                indices,
                dims: arr.shape.clone(),
                neg: NegIndex::Wrap,
                offset: None,
            },
            ty,
            span,
        ))
    }

    fn index_value(&self, e: Expr, span: Span) -> DResult<Expr> {
        let d = dtype_of(&e);
        if !(d.is_int() || d == DType::Bool) {
            return err(
                span,
                format!("array indices must be integers, not {}", Named(d)),
            );
        }
        Ok(convert(e, DType::I64))
    }

    fn const_int(&mut self, e: &ast::Expr) -> DResult<i128> {
        let span = self.span(e);
        let v = self.expr(e)?;
        let x = self.num(v, span)?;
        match fold_int(&x) {
            Some(v) => Ok(v),
            None => err(span, "expected a constant integer"),
        }
    }

    /// `a op b` by the seed's coercion rules.
    fn arith(&mut self, op: ast::Operator, a: Expr, b: Expr, span: Span) -> DResult<Expr> {
        use ast::Operator as O;
        let (da, db) = (dtype_of(&a), dtype_of(&b));
        let c = types::promote(da, db);
        Ok(match op {
            O::Add | O::Sub | O::Mult => {
                let bop = match op {
                    O::Add => BinOp::Add,
                    O::Sub => BinOp::Sub,
                    _ => BinOp::Mul,
                };
                bin(bop, convert(a, c), convert(b, c), span)
            }
            O::Div => {
                let f = types::truediv_type(da, db);
                bin(BinOp::FDiv, convert(a, f), convert(b, f), span)
            }
            O::FloorDiv => {
                let r = types::floordiv_result(c);
                if c.is_float() {
                    let q = self.float_floordiv(convert(a, c), convert(b, c), span);
                    convert(q, r)
                } else {
                    bin(BinOp::IDiv(INT_DIV), convert(a, r), convert(b, r), span)
                }
            }
            O::Mod => {
                if c.is_float() {
                    self.float_mod(convert(a, c), convert(b, c), span)
                } else {
                    bin(BinOp::IRem(INT_DIV), convert(a, c), convert(b, c), span)
                }
            }
            O::Pow => self.power(a, b, span)?,
            O::BitAnd | O::BitOr | O::BitXor | O::LShift | O::RShift => {
                for (d, which) in [(da, "left"), (db, "right")] {
                    if d.is_float() {
                        return err(
                            span,
                            format!(
                                "`{}` needs integer operands, but the {which} one is {}",
                                op_text(op),
                                Named(d)
                            ),
                        );
                    }
                }
                let keep_bool = c == DType::I64 && da == DType::Bool && db == DType::Bool;
                let c = if keep_bool && matches!(op, O::BitAnd | O::BitOr | O::BitXor) {
                    DType::Bool
                } else {
                    c
                };
                let bop = match op {
                    O::BitAnd => BinOp::And,
                    O::BitOr => BinOp::Or,
                    O::BitXor => BinOp::Xor,
                    O::LShift => BinOp::Shl(ShiftRange::Ub),
                    _ if c.is_signed_int() => BinOp::Shr(ShrKind::Arith, ShiftRange::Ub),
                    _ => BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
                };
                bin(bop, convert(a, c), convert(b, c), span)
            }
            O::MatMult => {
                return py::unsupported(span, "`@`", DIALECT, "write the products in a loop")
            }
        })
    }

    /// Python's float floor division (CPython `float_floor_div`, which
    /// numba's `real_divmod` follows): `(a - fmod(a, b)) / b`, corrected
    /// toward -inf and rounded to the nearest integral value.
    fn float_floordiv(&mut self, a: Expr, b: Expr, span: Span) -> Expr {
        let d = dtype_of(&a);
        let (a, b) = (self.temp(a), self.temp(b));
        let m = self.temp(bin(BinOp::FRem, a.clone(), b.clone(), span));
        let zero = float_const(d, 0.0, span);
        let one = float_const(d, 1.0, span);
        let div = bin(
            BinOp::FDiv,
            bin(BinOp::Sub, a, m.clone(), span),
            b.clone(),
            span,
        );
        let div = self.temp(div);
        let fix = bin(
            BinOp::LogicalAnd,
            bin(BinOp::Ne, m.clone(), zero.clone(), span),
            bin(
                BinOp::Ne,
                bin(BinOp::Lt, b, zero.clone(), span),
                bin(BinOp::Lt, m, zero, span),
                span,
            ),
            span,
        );
        let div = select(
            fix,
            bin(BinOp::Sub, div.clone(), one.clone(), span),
            div,
            span,
        );
        let div = self.temp(div);
        let fl = self.temp(unary(UnOp::Math(MathFn::Floor), div.clone(), span));
        let half = float_const(d, 0.5, span);
        let up = bin(
            BinOp::Gt,
            bin(BinOp::Sub, div, fl.clone(), span),
            half,
            span,
        );
        select(up, bin(BinOp::Add, fl.clone(), one, span), fl, span)
    }

    /// Python's float modulo (CPython `float_rem`): `fmod(a, b)`, plus `b`
    /// when the signs differ; a zero result takes `b`'s sign.
    fn float_mod(&mut self, a: Expr, b: Expr, span: Span) -> Expr {
        let d = dtype_of(&a);
        let (a, b) = (self.temp(a), self.temp(b));
        let m = self.temp(bin(BinOp::FRem, a, b.clone(), span));
        let zero = float_const(d, 0.0, span);
        let differ = bin(
            BinOp::Ne,
            bin(BinOp::Lt, b.clone(), zero.clone(), span),
            bin(BinOp::Lt, m.clone(), zero.clone(), span),
            span,
        );
        let nonzero = select(
            differ,
            bin(BinOp::Add, m.clone(), b.clone(), span),
            m.clone(),
            span,
        );
        let signed_zero = bin(BinOp::CopySign, zero.clone(), b, span);
        select(bin(BinOp::Ne, m, zero, span), nonzero, signed_zero, span)
    }

    /// `a ** b` (the seed is silent; numba-cuda, measured): a float base
    /// with an integer exponent keeps the base's type, two floats promote,
    /// and `pow` computes it (inexact); two integers give int64 (uint64 for
    /// two unsigned) by repeated multiplication, wrapping, where the exponent
    /// is a constant; a negative one gives 0 except for the bases 1 and -1.
    fn power(&mut self, a: Expr, b: Expr, span: Span) -> DResult<Expr> {
        let (da, db) = (dtype_of(&a), dtype_of(&b));
        if da.is_float() || db.is_float() {
            let c = if da.is_float() && !db.is_float() {
                da
            } else {
                types::promote(da, db)
            };
            return Ok(bin(BinOp::Pow, convert(a, c), convert(b, c), span));
        }
        let c = if da.is_unsigned_int() && db.is_unsigned_int() {
            DType::U64
        } else {
            DType::I64
        };
        let Some(n) = fold_int(&b) else {
            return Ok(self.runtime_power(convert(a, c), convert(b, DType::I64), span));
        };
        let base = self.temp(convert(a, c));
        if n < 0 {
            // 1 ** -n = 1, (-1) ** -n = ±1, anything else 0
            let one = int_const(c, 1, span);
            let m1 = int_const(c, -1, span);
            let odd = n % 2 != 0;
            let at_m1 = if odd { m1.clone() } else { one.clone() };
            let is1 = bin(BinOp::Eq, base.clone(), one.clone(), span);
            let ism1 = bin(BinOp::Eq, base, m1, span);
            let r = select(ism1, at_m1, int_const(c, 0, span), span);
            return Ok(select(is1, one, r, span));
        }
        let mut base = base;
        let mut acc = int_const(c, 1, span);
        let mut n = n as u128;
        while n > 0 {
            if n & 1 == 1 {
                acc = self.temp(bin(BinOp::Mul, acc, base.clone(), span));
            }
            n >>= 1;
            if n > 0 {
                base = self.temp(bin(BinOp::Mul, base.clone(), base, span));
            }
        }
        Ok(acc)
    }

    /// An integer power with a runtime exponent, by squaring (the results
    /// of `power` for constant exponents).
    fn runtime_power(&mut self, a: Expr, e: Expr, span: Span) -> Expr {
        let c = dtype_of(&a);
        let i64c = |v: i128| int_const(DType::I64, v, span);
        let cc = |v: i128| int_const(c, v, span);
        let r = self.new_var("_pow", Type::scalar(c));
        let b = self.new_var("_base", Type::scalar(c));
        let x = self.new_var("_exp", Type::scalar(DType::I64));
        let (rv, bv, xv) = (
            self.var_expr(r, span),
            self.var_expr(b, span),
            self.var_expr(x, span),
        );
        self.emit(Stmt::Let(b, a));
        self.emit(Stmt::Let(x, e));
        self.emit(Stmt::Let(r, cc(1)));
        let odd = bin(
            BinOp::Ne,
            bin(BinOp::And, xv.clone(), i64c(1), span),
            i64c(0),
            span,
        );
        let neg = select(
            bin(BinOp::Eq, bv.clone(), cc(1), span),
            cc(1),
            select(
                bin(BinOp::Eq, bv.clone(), cc(-1), span),
                select(odd.clone(), cc(-1), cc(1), span),
                cc(0),
                span,
            ),
            span,
        );
        let square = vec![
            Stmt::If {
                cond: odd,
                then_body: vec![Stmt::Let(r, bin(BinOp::Mul, rv.clone(), bv.clone(), span))],
                else_body: vec![],
            },
            Stmt::Let(b, bin(BinOp::Mul, bv.clone(), bv.clone(), span)),
            Stmt::Let(
                x,
                bin(
                    BinOp::Shr(ShrKind::Arith, ShiftRange::Ub),
                    xv.clone(),
                    i64c(1),
                    span,
                ),
            ),
        ];
        self.emit(Stmt::If {
            cond: bin(BinOp::Lt, xv.clone(), i64c(0), span),
            then_body: vec![Stmt::Let(r, neg)],
            else_body: vec![Stmt::While {
                cond: bin(BinOp::Gt, xv, i64c(0), span),
                body: square,
                span,
            }],
        });
        rv
    }

    /// Unary operators. The seed gives no rule; numba-cuda (measured)
    /// computes `-x` and `~x` of an integer in its own width and widens the
    /// result to 64 bits of the same signedness (`-int32(MIN)` is int64
    /// -2147483648, `-uint32(1)` is uint64 0xffffffff); `+x` widens.
    fn unary_op(&mut self, op: ast::UnaryOp, v: Expr, span: Span) -> DResult<Expr> {
        let d = dtype_of(&v);
        let v = if d == DType::Bool && op != ast::UnaryOp::Not {
            convert(v, DType::I64)
        } else {
            v
        };
        let widen = |e: Expr| {
            let w = types::int_unary_result(dtype_of(&e));
            convert(e, w)
        };
        Ok(match op {
            ast::UnaryOp::UAdd if dtype_of(&v).is_int() => widen(v),
            ast::UnaryOp::UAdd => v,
            ast::UnaryOp::USub if dtype_of(&v).is_int() => widen(unary(UnOp::Neg, v, span)),
            ast::UnaryOp::USub => unary(UnOp::Neg, v, span),
            ast::UnaryOp::Not => {
                let t = self.truth(v);
                unary(UnOp::LogicalNot, t, span)
            }
            ast::UnaryOp::Invert => {
                if d.is_float() {
                    return err(
                        span,
                        format!("`~` needs an integer operand, not {}", Named(d)),
                    );
                }
                widen(unary(UnOp::Not, v, span))
            }
        })
    }

    /// `a and b`, `a or b`: the value Python gives, with each further operand
    /// evaluated only when Python evaluates it.
    fn bool_op(&mut self, b: &ast::ExprBoolOp, span: Span) -> DResult<Val> {
        let is_and = matches!(b.op, ast::BoolOp::And);
        let first = self.expr(&b.values[0])?;
        let mut vals = vec![self.num(first, span)?];
        let mut pres = vec![Vec::new()];
        for x in &b.values[1..] {
            self.blocks.push(Vec::new());
            let v = self.expr(x).and_then(|v| self.num(v, span));
            pres.push(self.blocks.pop().expect("pushed above"));
            vals.push(v?);
        }
        let d = if vals.iter().all(|e| dtype_of(e) == DType::Bool) {
            DType::Bool
        } else {
            vals.iter()
                .map(dtype_of)
                .reduce(types::promote)
                .expect("two or more")
        };
        let r = self.new_var("_boolop", Type::scalar(d));
        let go_on = |me: &Self| {
            let t = me.truth(me.var_expr(r, span));
            if is_and {
                t
            } else {
                unary(UnOp::LogicalNot, t, span)
            }
        };
        // r = v0; if go_on(r) { pre1; r = v1; if go_on(r) { … } }
        let mut inner: Block = Vec::new();
        let n = vals.len();
        for (i, (pre, v)) in pres.into_iter().zip(vals).enumerate().rev() {
            let mut body = pre;
            body.push(Stmt::Let(r, convert(v, d)));
            if i + 1 < n {
                body.push(Stmt::If {
                    cond: go_on(self),
                    then_body: std::mem::take(&mut inner),
                    else_body: vec![],
                });
            }
            inner = body;
        }
        for s in inner {
            self.emit(s);
        }
        Ok(Val::Num(self.var_expr(r, span)))
    }

    /// `a < b <= c …`: each comparison in the operands' common type; later
    /// operands are evaluated only while the earlier comparisons hold.
    fn compare(&mut self, c: &ast::ExprCompare, span: Span) -> DResult<Val> {
        let left = self.expr(&c.left)?;
        let left = self.num(left, span)?;
        if c.ops.len() == 1 {
            let r = self.expr(&c.comparators[0])?;
            let r = self.num(r, span)?;
            return Ok(Val::Num(self.cmp(c.ops[0], left, r, span)?));
        }
        let left = self.temp(left);
        let res = self.new_var("_cmp", Type::scalar(DType::Bool));
        self.chain(left, &c.ops, &c.comparators, res, span)?;
        Ok(Val::Num(self.var_expr(res, span)))
    }

    /// `res = left ops[0] rhs[0]`, then the rest of the chain if it holds.
    fn chain(
        &mut self,
        left: Expr,
        ops: &[ast::CmpOp],
        rhs: &[ast::Expr],
        res: VarId,
        span: Span,
    ) -> DResult<()> {
        let r = self.expr(&rhs[0])?;
        let r = self.num(r, span)?;
        let r = self.temp(r);
        let t = self.cmp(ops[0], left, r.clone(), span)?;
        self.emit(Stmt::Let(res, t));
        if ops.len() > 1 {
            self.blocks.push(Vec::new());
            let rest = self.chain(r, &ops[1..], &rhs[1..], res, span);
            let inner = self.blocks.pop().expect("pushed above");
            rest?;
            let cond = self.var_expr(res, span);
            self.emit(Stmt::If {
                cond,
                then_body: inner,
                else_body: vec![],
            });
        }
        Ok(())
    }

    fn cmp(&mut self, op: ast::CmpOp, a: Expr, b: Expr, span: Span) -> DResult<Expr> {
        use ast::CmpOp as C;
        let c = types::compare_type(dtype_of(&a), dtype_of(&b));
        let bop = match op {
            C::Eq | C::Is => BinOp::Eq,
            C::NotEq | C::IsNot => BinOp::Ne,
            C::Lt => BinOp::Lt,
            C::LtE => BinOp::Le,
            C::Gt => BinOp::Gt,
            C::GtE => BinOp::Ge,
            C::In | C::NotIn => {
                return py::unsupported(span, "`in`", DIALECT, "compare with == in a loop")
            }
        };
        Ok(bin(bop, convert(a, c), convert(b, c), span))
    }

    fn if_exp(&mut self, i: &ast::ExprIfExp, span: Span) -> DResult<Val> {
        let cond = self.cond(&i.test)?;
        self.blocks.push(vec![]);
        let a = self.expr(&i.body).and_then(|v| self.num(v, span));
        let pre_a = self.blocks.pop().expect("pushed");
        let a = a?;
        self.blocks.push(vec![]);
        let b = self.expr(&i.orelse).and_then(|v| self.num(v, span));
        let pre_b = self.blocks.pop().expect("pushed");
        let b = b?;
        let d = types::compare_type(dtype_of(&a), dtype_of(&b));
        let r = self.new_var("_ifexp", Type::scalar(d));
        let mut then_body = pre_a;
        then_body.push(Stmt::Let(r, convert(a, d)));
        let mut else_body = pre_b;
        else_body.push(Stmt::Let(r, convert(b, d)));
        self.emit(Stmt::If {
            cond,
            then_body,
            else_body,
        });
        Ok(Val::Num(self.var_expr(r, span)))
    }

    // ---- calls -----------------------------------------------------------------

    fn call(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        // `x.bit_count()` of an integer: its set bits, in its type (numba's
        // int.bit_count overload is llvm.ctpop, as cuda.popc)
        if let ast::Expr::Attribute(a) = &*c.func {
            if a.attr.as_str() == "bit_count" && c.args.is_empty() && c.keywords.is_empty() {
                if let Val::Num(x) = self.expr(&a.value)? {
                    return Ok(Val::Num(self.bit_intrinsic("popc", x, span)?));
                }
            }
        }
        let callee = self.expr(&c.func)?;
        let name = dotted(&c.func).unwrap_or_default();
        match callee {
            Val::Type(d) => {
                let [x] = c.args.as_slice() else {
                    return err(
                        span,
                        format!("a type conversion takes one argument: {name}(x)"),
                    );
                };
                let v = self.expr(x)?;
                let v = self.num(v, span)?;
                Ok(Val::Num(convert(v, d)))
            }
            Val::Builtin(b) => self.builtin(b, c, span),
            Val::Func(f) => {
                let mut args: Vec<Val> = Vec::new();
                for a in &c.args {
                    let mark = self.mark();
                    let v = self.expr(a)?;
                    args = args
                        .into_iter()
                        .map(|x| match x {
                            Val::Num(e) => Val::Num(self.keep_order(e, mark)),
                            other => other,
                        })
                        .collect();
                    args.push(v);
                }
                if !c.keywords.is_empty() {
                    return py::unsupported(
                        span,
                        "keyword arguments to a device function",
                        DIALECT,
                        "pass the arguments by position",
                    );
                }
                self.inline(&f, args, span)
            }
            Val::Path(p) => self.intrinsic_call(&p, c, span),
            _ => err(span, format!("`{name}` is not callable")),
        }
    }

    /// The positional arguments of a call as numbers.
    fn num_args(
        &mut self,
        c: &ast::ExprCall,
        n: usize,
        what: &str,
        span: Span,
    ) -> DResult<Vec<Expr>> {
        if c.args.len() != n || !c.keywords.is_empty() {
            return err(span, format!("{what} takes {n} positional argument(s)"));
        }
        let mut out: Vec<Expr> = Vec::new();
        for a in &c.args {
            let mark = self.mark();
            let v = self.expr(a)?;
            out = out.into_iter().map(|e| self.keep_order(e, mark)).collect();
            out.push(self.num(v, self.span(a))?);
        }
        Ok(out)
    }

    fn builtin(&mut self, b: &str, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        match b {
            "range" => py::unsupported(
                span,
                "range() outside a for loop",
                DIALECT,
                "use range() only as `for i in range(...)`",
            ),
            "int" | "float" | "bool" => {
                let [x] = self.num_args(c, 1, b, span)?.try_into().expect("one");
                Ok(Val::Num(match b {
                    "int" => convert(x, DType::I64),
                    "float" => convert(x, DType::F64),
                    _ => self.truth(x),
                }))
            }
            "abs" => {
                let [x] = self.num_args(c, 1, "abs", span)?.try_into().expect("one");
                let x = if dtype_of(&x) == DType::Bool {
                    convert(x, DType::I64)
                } else {
                    x
                };
                Ok(Val::Num(unary(UnOp::Math(MathFn::Abs), x, span)))
            }
            "min" | "max" => {
                if c.args.len() < 2 || !c.keywords.is_empty() {
                    return err(span, format!("{b}() takes two or more numbers"));
                }
                let mut acc: Option<Expr> = None;
                for a in &c.args {
                    let v = self.expr(a)?;
                    let v = self.num(v, self.span(a))?;
                    let v = self.temp(v);
                    acc = Some(match acc {
                        None => v,
                        Some(cur) => {
                            // numba-cuda (measured): PTX min/max for floats, a NaN
                            // operand ignored, min(-0, +0) = -0, max = +0
                            let d = types::promote(dtype_of(&cur), dtype_of(&v));
                            let (cur, v) = (convert(cur, d), convert(v, d));
                            let op = if b == "min" {
                                BinOp::Min(NanMode::Ignore)
                            } else {
                                BinOp::Max(NanMode::Ignore)
                            };
                            let m = bin(op, cur, v, span);
                            self.temp(m)
                        }
                    });
                }
                Ok(Val::Num(acc.expect("two or more")))
            }
            "len" => {
                let [x] = c.args.as_slice() else {
                    return err(span, "len() takes one argument");
                };
                match self.expr(x)? {
                    Val::Array(a) => Ok(Val::Num(int_const(DType::I64, a.shape[0] as i128, span))),
                    Val::Tuple(t) => Ok(Val::Num(int_const(DType::I64, t.len() as i128, span))),
                    _ => err(span, "len() takes an array or a tuple"),
                }
            }
            "print" => {
                let mut prefix = String::new();
                let mut args = Vec::new();
                for a in &c.args {
                    match a {
                        ast::Expr::Constant(k) if matches!(k.value, Constant::Str(_)) => {
                            if let Constant::Str(s) = &k.value {
                                if !args.is_empty() {
                                    return py::unsupported(
                                        self.span(a),
                                        "a string after a number in print()",
                                        DIALECT,
                                        "put the strings first: print(\"label\", x, y)",
                                    );
                                }
                                prefix.push_str(s);
                                prefix.push(' ');
                            }
                        }
                        _ => {
                            let v = self.expr(a)?;
                            args.push(self.num(v, self.span(a))?);
                        }
                    }
                }
                self.emit(Stmt::Print {
                    prefix: prefix.trim_end().to_string(),
                    args,
                    span,
                });
                Ok(Val::None)
            }
            "round" => self.round_builtin(c, span),
            _ => unreachable!("lookup only makes known builtins"),
        }
    }

    fn intrinsic_call(&mut self, path: &str, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        if let Some(f) = path.strip_prefix("math.") {
            return self.math_call(f, c, span);
        }
        let Some(f) = path.strip_prefix("numba.cuda.") else {
            if path.starts_with("numpy.") {
                return py::unsupported(
                    span,
                    &format!("`{path}`"),
                    DIALECT,
                    "use the math module (math.sqrt, math.exp, …) or a type object (np.float32(x))",
                );
            }
            return err(span, format!("`{path}` is not a CUDA Python function"));
        };
        match f {
            "grid" | "gridsize" => {
                let n = match c.args.as_slice() {
                    [a] => self.const_int(a)?,
                    _ => return err(span, format!("cuda.{f}(ndim) takes one constant")),
                };
                if !(1..=3).contains(&n) {
                    return err(span, format!("cuda.{f}(ndim): ndim must be 1, 2 or 3, got {n}"));
                }
                let mut items = Vec::new();
                for d in 0..n as u8 {
                    let i64e = |k: ExprKind| convert(mk(k, Type::scalar(DType::I32), span), DType::I64);
                    let e = if f == "grid" {
                        let prod = bin(BinOp::Mul, i64e(ExprKind::BlockId(d)), i64e(ExprKind::BlockDim(d)), span);
                        bin(BinOp::Add, i64e(ExprKind::ThreadId(d)), prod, span)
                    } else {
                        bin(BinOp::Mul, i64e(ExprKind::BlockDim(d)), i64e(ExprKind::GridDim(d)), span)
                    };
                    items.push(Val::Num(e));
                }
                Ok(if n == 1 { items.remove(0) } else { Val::Tuple(items) })
            }
            "syncthreads" => {
                if !c.args.is_empty() {
                    return err(span, "cuda.syncthreads() takes no arguments");
                }
                self.emit(Stmt::Barrier { span });
                Ok(Val::None)
            }
            "shared.array" | "local.array" => self.alloc(f, c, span),
            _ if f.starts_with("atomic.") => self.atomic(&f["atomic.".len()..], c, span),
            _ => match self.more_intrinsics(f, c, span)? {
                Some(v) => Ok(v),
                None => py::unsupported(span, &format!("cuda.{f}"), DIALECT, "the supported intrinsics are threadIdx, blockIdx, blockDim, gridDim, laneid, warpsize, grid, gridsize, syncthreads, syncthreads_count/and/or, threadfence*, shared.array, local.array, atomic.*, popc, clz, ffs, brev, fma and cbrt"),
            },
        }
    }

    /// `cuda.shared.array(shape, dtype)` / `cuda.local.array(shape, dtype)`.
    fn alloc(&mut self, f: &str, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let space = if f.starts_with("shared") {
            AddrSpace::Shared
        } else {
            AddrSpace::Local
        };
        let mut shape_e = c.args.first();
        let mut dtype_e = c.args.get(1);
        for k in &c.keywords {
            match k.arg.as_deref() {
                Some("shape") => shape_e = Some(&k.value),
                Some("dtype") => dtype_e = Some(&k.value),
                _ => {
                    return err(
                        span,
                        format!(
                            "cuda.{f}(shape, dtype) has no keyword `{}`",
                            k.arg.as_deref().unwrap_or("**")
                        ),
                    )
                }
            }
        }
        let (Some(shape_e), Some(dtype_e)) = (shape_e, dtype_e) else {
            return err(
                span,
                format!("cuda.{f}(shape, dtype) needs a shape and a dtype"),
            );
        };
        if space == AddrSpace::Shared && self.frames.last().is_some_and(|fr| fr.depth > 0) {
            return Err(Diagnostic::new(
                span,
                "cuda.shared.array must be declared in the entry block of the kernel",
            )
            .with_help("declare it at the top of the function, outside if/for/while"));
        }
        let sspan = self.span(shape_e);
        let shape: Vec<usize> = match self.expr(shape_e)? {
            Val::Num(e) => vec![self.static_dim(&e, sspan)?],
            Val::Tuple(items) => {
                let mut s = Vec::new();
                for it in items {
                    let e = self.num(it, sspan)?;
                    s.push(self.static_dim(&e, sspan)?);
                }
                s
            }
            _ => {
                return err(
                    sspan,
                    "the shape must be a constant integer or a tuple of them",
                )
            }
        };
        let d =
            match self.expr(dtype_e)? {
                Val::Type(d) => d,
                _ => return err(
                    self.span(dtype_e),
                    "the dtype must be a type object such as float32 (from numba import float32)",
                ),
            };
        // checked: a mutated shape such as (2**40, 2**40) must not overflow
        let n = shape
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .unwrap_or(usize::MAX);
        if n > (1 << 20) {
            return err(
                sspan,
                format!("{n} elements is too large for a {} array", space.name()),
            );
        }
        self.arrays.push(ArrayDecl {
            name: format!("{}{}", space.name(), self.arrays.len()),
            dtype: d,
            space,
            shape: shape.clone(),
            span,
        });
        let id = self.arrays.len() - 1;
        let base = mk(
            ExprKind::ArrayBase(id),
            Type {
                elem: Elem::Ptr(d, space),
                shape: vec![],
            },
            span,
        );
        Ok(Val::Array(ArrayVal {
            base,
            dtype: d,
            shape,
        }))
    }

    fn static_dim(&self, e: &Expr, span: Span) -> DResult<usize> {
        match fold_int(e) {
            Some(v) => usize::try_from(v).map_err(|_| Diagnostic::new(span, format!("an array dimension must be ≥ 0, got {v}"))),
            None => err(span, "an array shape must be a compile-time constant (a literal or a module-level constant)"),
        }
    }

    /// `cuda.atomic.OP(ary, idx, val)` (and `compare_and_swap(ary, old, val)`,
    /// `cas(ary, idx, old, val)`): the old value.
    fn atomic(&mut self, name: &str, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let op = match name {
            "add" => AtomicOp::Add,
            "sub" => AtomicOp::Sub,
            "max" => AtomicOp::Max,
            "min" => AtomicOp::Min,
            "nanmax" => AtomicOp::NanMax,
            "nanmin" => AtomicOp::NanMin,
            "exch" => AtomicOp::Exch,
            "compare_and_swap" | "cas" => AtomicOp::Cas,
            "and_" => AtomicOp::And,
            "or_" => AtomicOp::Or,
            "xor" => AtomicOp::Xor,
            "inc" => AtomicOp::Inc,
            "dec" => AtomicOp::Dec,
            _ => return py::unsupported(span, &format!("cuda.atomic.{name}"), DIALECT, "use add, sub, max, min, nanmax, nanmin, exch, compare_and_swap, cas, and_, or_, xor, inc or dec"),
        };
        let want = match name {
            "compare_and_swap" => 3,
            "cas" => 4,
            _ => 3,
        };
        if c.args.len() != want || !c.keywords.is_empty() {
            return err(
                span,
                format!("cuda.atomic.{name} takes {want} positional arguments"),
            );
        }
        let arr = self.array_of(&c.args[0])?;
        let ptr = if name == "compare_and_swap" {
            let zeros: Vec<Expr> = arr
                .shape
                .iter()
                .map(|_| int_const(DType::I64, 0, span))
                .collect();
            mk(
                ExprKind::ElemPtr {
                    base: Box::new(arr.base.clone()),
                    indices: zeros,
                    dims: arr.shape.clone(),
                    neg: NegIndex::Wrap,
                    offset: None,
                },
                arr.base.ty.clone(),
                span,
            )
        } else {
            self.elem_ptr(&arr, &c.args[1], span)?
        };
        let d = arr.dtype;
        let float_ok = matches!(
            op,
            // the float atomics numba-cuda accepts (measured)
            AtomicOp::Add
                | AtomicOp::Sub
                | AtomicOp::Max
                | AtomicOp::Min
                | AtomicOp::NanMax
                | AtomicOp::NanMin
        );
        if d.is_float() && (!float_ok || !matches!(d, DType::F32 | DType::F64)) {
            return err(
                span,
                format!("cuda.atomic.{name} is not defined on {} arrays", Named(d)),
            );
        }
        if !d.is_float() && !matches!(d, DType::I32 | DType::I64 | DType::U32 | DType::U64) {
            return err(span, format!("cuda.atomic.{name} needs an int32, int64, uint32, uint64, float32 or float64 array, not {}", Named(d)));
        }
        if matches!(op, AtomicOp::Inc | AtomicOp::Dec) && !matches!(d, DType::U32 | DType::U64) {
            return err(
                span,
                format!(
                    "cuda.atomic.{name} needs a uint32 or uint64 array, not {}",
                    Named(d)
                ),
            );
        }
        let mut rest = Vec::new();
        for a in &c.args[if name == "compare_and_swap" { 1 } else { 2 }..] {
            let v = self.expr(a)?;
            let e = self.num(v, self.span(a))?;
            rest.push(convert(e, d));
        }
        let (cmp, val) = if op == AtomicOp::Cas {
            let val = rest.pop().expect("two");
            (Some(Box::new(rest.pop().expect("two"))), val)
        } else {
            (None, rest.pop().expect("one"))
        };
        let e = mk(
            ExprKind::Atomic {
                op,
                ptr: Box::new(ptr),
                val: Box::new(val),
                cmp,
                mask: None,
            },
            Type::scalar(d),
            span,
        );
        // An atomic happens where it is written, once.
        let v = self.new_var("_atomic", Type::scalar(d));
        self.emit(Stmt::Let(v, e));
        Ok(Val::Num(self.var_expr(v, span)))
    }

    /// The functions of `math` (CUDA-C semantics; approximate ones are inexact).
    fn math_call(&mut self, f: &str, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let unary_fn = match f {
            "acos" => Some(MathFn::Acos),
            "asin" => Some(MathFn::Asin),
            "atan" | "arctan" => Some(MathFn::Atan),
            "acosh" => Some(MathFn::Acosh),
            "asinh" => Some(MathFn::Asinh),
            "atanh" => Some(MathFn::Atanh),
            "cos" => Some(MathFn::Cos),
            "sin" => Some(MathFn::Sin),
            "tan" => Some(MathFn::Tan),
            "cosh" => Some(MathFn::Cosh),
            "sinh" => Some(MathFn::Sinh),
            "tanh" => Some(MathFn::Tanh),
            "exp" => Some(MathFn::Exp),
            "expm1" => Some(MathFn::Expm1),
            "log" => Some(MathFn::Log),
            "log10" => Some(MathFn::Log10),
            "log1p" => Some(MathFn::Log1p),
            "log2" => Some(MathFn::Log2),
            "sqrt" => Some(MathFn::Sqrt),
            "erf" => Some(MathFn::Erf),
            "fabs" => Some(MathFn::Abs),
            "exp2" => Some(MathFn::Exp2),
            _ => None,
        };
        let fl = types::math_type;
        if let Some(m) = unary_fn {
            if f == "log" && c.args.len() == 2 {
                return py::unsupported(
                    span,
                    "math.log with a base",
                    DIALECT,
                    "divide: math.log(x) / math.log(base)",
                );
            }
            let [x] = self
                .num_args(c, 1, &format!("math.{f}"), span)?
                .try_into()
                .expect("one");
            let d = fl(dtype_of(&x));
            return Ok(Val::Num(unary(UnOp::Math(m), convert(x, d), span)));
        }
        match f {
            "floor" | "ceil" => {
                // numba-cuda keeps the float type (an int argument: float64)
                let [x] = self.num_args(c, 1, &format!("math.{f}"), span)?.try_into().expect("one");
                let d = fl(dtype_of(&x));
                let m = if f == "floor" { MathFn::Floor } else { MathFn::Ceil };
                Ok(Val::Num(unary(UnOp::Math(m), convert(x, d), span)))
            }
            "trunc" => {
                // numba-cuda keeps the float type, as for floor and ceil
                let [x] = self.num_args(c, 1, "math.trunc", span)?.try_into().expect("one");
                let d = fl(dtype_of(&x));
                let x = self.temp(convert(x, d));
                let neg = bin(BinOp::Lt, x.clone(), float_const(d, 0.0, span), span);
                let up = unary(UnOp::Math(MathFn::Ceil), x.clone(), span);
                let down = unary(UnOp::Math(MathFn::Floor), x, span);
                Ok(Val::Num(select(neg, up, down, span)))
            }
            "radians" | "degrees" => {
                // numba-cuda: the factor as a constant of x's float type, times x
                let [x] = self.num_args(c, 1, &format!("math.{f}"), span)?.try_into().expect("one");
                let d = fl(dtype_of(&x));
                let factor = if f == "radians" {
                    std::f64::consts::PI / 180.0
                } else {
                    180.0 / std::f64::consts::PI
                };
                Ok(Val::Num(bin(BinOp::Mul, float_const(d, factor, span), convert(x, d), span)))
            }
            "pow" | "atan2" | "copysign" | "fmod" => {
                let [x, y] = self.num_args(c, 2, &format!("math.{f}"), span)?.try_into().expect("two");
                let (dx, dy) = (dtype_of(&x), dtype_of(&y));
                let d = if dx == DType::F32 && dy == DType::F32 { DType::F32 } else { DType::F64 };
                let op = match f {
                    "pow" => BinOp::Pow,
                    "atan2" => BinOp::Atan2,
                    "copysign" => BinOp::CopySign,
                    _ => BinOp::FRem,
                };
                Ok(Val::Num(bin(op, convert(x, d), convert(y, d), span)))
            }
            "isnan" | "isinf" | "isfinite" => {
                let [x] = self.num_args(c, 1, &format!("math.{f}"), span)?.try_into().expect("one");
                let d = dtype_of(&x);
                if !d.is_float() {
                    return Ok(Val::Num(konst(DType::Bool, (f == "isfinite") as u64, span)));
                }
                let x = self.temp(x);
                let r = match f {
                    "isnan" => bin(BinOp::Ne, x.clone(), x, span),
                    _ => {
                        let inf = float_const(d, f64::INFINITY, span);
                        let a = unary(UnOp::Math(MathFn::Abs), x.clone(), span);
                        if f == "isinf" {
                            bin(BinOp::Eq, a, inf, span)
                        } else {
                            bin(BinOp::Lt, a, inf, span)
                        }
                    }
                };
                Ok(Val::Num(r))
            }
            _ => py::unsupported(span, &format!("math.{f}"), DIALECT, "the supported math functions are acos asin atan arctan acosh asinh atanh cos sin tan cosh sinh tanh atan2 exp exp2 expm1 fabs log log10 log1p log2 sqrt pow ceil floor trunc radians degrees copysign fmod isnan isinf isfinite"),
        }
    }

    /// Inlines device function `name` with `args`: its body runs inside a
    /// one-iteration loop that `return` leaves.
    fn inline(&mut self, name: &str, args: Vec<Val>, span: Span) -> DResult<Val> {
        let f = &self.m.funcs[name];
        if !f.device {
            return err(span, format!("`{name}` is a kernel; only device functions (device=True) can be called from a kernel"));
        }
        if self.frames.iter().any(|fr| fr.name == name) || self.frames.len() > 32 {
            return py::unsupported(span, "recursion", DIALECT, "write the recursion as a loop");
        }
        let def = f.def.clone();
        let sig = f.sig.clone();
        let names = self.param_names(&def)?;
        if names.len() != args.len() {
            return err(
                span,
                format!(
                    "`{name}` takes {} arguments, {} given",
                    names.len(),
                    args.len()
                ),
            );
        }
        let mut env = HashMap::new();
        for (i, ((pname, pspan), a)) in names.iter().zip(args).enumerate() {
            let st = sig.as_ref().map(|(_, s)| s[i]);
            match a {
                Val::Num(e) => {
                    let e = match st {
                        Some(SigType::Scalar(d)) => convert(e, d),
                        Some(SigType::Array(..)) => return err(span, format!("`{pname}` of `{name}` is an array in the signature, but a number is passed")),
                        _ => e,
                    };
                    // a constant argument stays a constant where the function
                    // never assigns the parameter and it sizes an array (numba
                    // types it as a literal: `cuda.shared.array(n, …)` with n
                    // passed in)
                    if matches!(e.kind, ExprKind::Const(_))
                        && !assigns_name(&def.body, pname)
                        && sizes_an_array(&def.body, pname)
                    {
                        env.insert(pname.clone(), Val::Num(e));
                        continue;
                    }
                    let v = self.new_var(pname, e.ty.clone());
                    self.emit(Stmt::Let(v, e));
                    env.insert(pname.clone(), Val::Num(self.var_expr(v, *pspan)));
                }
                Val::Array(arr) => {
                    if let Some(SigType::Array(d, nd)) = st {
                        if d != arr.dtype || nd != arr.shape.len() {
                            return err(span, format!("`{pname}` of `{name}` is a {nd}-d {} array in the signature, but a {}-d {} array is passed", Named(d), arr.shape.len(), Named(arr.dtype)));
                        }
                    }
                    env.insert(pname.clone(), Val::Array(arr));
                }
                other => {
                    env.insert(pname.clone(), other);
                }
            }
        }
        let sig_ret = match sig.as_ref().map(|(r, _)| *r) {
            Some(SigType::Scalar(d)) => Some(d),
            Some(SigType::Array(..)) => {
                return err(span, "a device function cannot return an array")
            }
            _ => None,
        };
        let done = self.new_var(&format!("{name}.done"), Type::scalar(DType::Bool));
        self.emit(Stmt::Let(done, konst(DType::Bool, 0, span)));
        self.frames.push(Frame {
            name: name.to_string(),
            env,
            depth: 0,
            loops: 0,
            inline: Some(Inline {
                ret: None,
                sig_ret,
                done,
            }),
        });
        let body = self.block_of(&def.body);
        let frame = self.frames.pop().expect("pushed above");
        let body = body?;
        let once = self.new_var("_once", Type::scalar(DType::I32));
        self.emit(Stmt::For {
            var: once,
            start: int_const(DType::I32, 0, span),
            end: int_const(DType::I32, 1, span),
            step: int_const(DType::I32, 1, span),
            body,
            span,
            parallel: None,
        });
        let inl = frame.inline.expect("an inlined frame");
        Ok(match inl.ret {
            Some(r) => Val::Num(self.var_expr(r, span)),
            None => Val::None,
        })
    }
}
