//! Elaboration of a Hidet script kernel into a SIMT program of the IR.
//!
//! Hidet script is Python that Hidet's transpiler runs: Python values
//! (literals, module constants, arithmetic on them) are computed with
//! Python's rules while transpiling, and become Hidet constants where they
//! meet a Hidet expression (an `int` becomes an `int32` constant, a `float`
//! a `float32` one). Hidet expressions are typed by Hidet's promotion table
//! (`types::promote`); that type is what a variable defined by the
//! expression gets. The value is computed as the C code that Hidet
//! generates computes it (`types::c_arith`), with the one cast Hidet's code
//! generator adds: `+ - * /` whose Hidet type is an integer narrower than
//! 32 bits are cast to it. Integer `/` and `//` both truncate (C's `/`),
//! `%` is C's remainder; dividing by zero, `MIN / -1`, shifting by the
//! width or more, and float → int conversions out of range are UB, as in C.
//! `threadIdx`/`blockIdx`/`blockDim`/`gridDim` components are C's `unsigned
//! int` values of Hidet type `int32`. A `cpu_kernel` runs as one thread.
//!
//! Where Hidet's own constant folder computes a result differently from
//! the C it generates (typed constants folded with Python's floor
//! division, for instance), ksem computes what the generated code computes
//! and `docs/divergences.md` says so.

use super::layout::Layout;
use super::mapping::{TaskMap, TermArith};
use super::ops::{self, fits, C_DIV};
use super::types::{self, Elt, Named};
use super::{Func, Module};
use crate::complex::Cx;
use crate::dtype::DType;
use crate::frontend::py::inline::{self, Frames};
use crate::frontend::py::simt::{self, Blocks};
use crate::frontend::py::value::PyValue;
use crate::frontend::py::walk::{self, Walk};
use crate::frontend::py::{self, dotted, Binary};
use crate::ir::build::*;
use crate::ir::*;
use crate::launch::{ArgSpec, ConstArg, Launch};
use crate::span::{err, DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Constant};
use std::collections::HashMap;

mod address;
mod calls;
mod compound;
mod expr;
mod host;
mod memory;
mod stmt;

use host::*;

const DIALECT: &str = "Hidet script";

/// The output that holds what a host function returns.
const RETURN: &str = "return";

/// The kinds of script function (`attrs.func_kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FuncKind {
    CudaKernel,
    CpuKernel,
}

/// A tensor: where element 0 is, its element type and its layout.
#[derive(Clone, Debug)]
struct Tensor {
    base: Expr,
    elt: Elt,
    layout: Layout,
    /// Indices already given (`a[i]` of a 2-d tensor), held in variables.
    prefix: Vec<Expr>,
}

/// What indexing gives.
enum Indexed {
    /// A pointer to (the first number of) the element, and its type.
    Elem(Expr, Elt),
    /// A tensor of the remaining dimensions.
    Sub(Tensor),
}

/// A type written in the kernel (annotations, casts, declarations).
#[derive(Clone, Debug)]
enum HType {
    Scalar(DType),
    /// A complex or vector type.
    Compound(Elt),
    Tensor(Elt, Layout),
    Pointer(Elt),
    /// `void_p` or `~void`: a pointer that moves by bytes.
    VoidPtr,
    Void,
}

/// What an expression of the kernel denotes at elaboration time.
#[derive(Clone, Debug)]
enum Val {
    /// Python values, computed while transpiling.
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
    /// A Hidet scalar: `e` is typed with the C type it computes in, `hty`
    /// is Hidet's type of it while transpiling (what a variable it defines
    /// gets), `pty` its type once Hidet's passes have cast the operands of
    /// every operation (`ops::Scalar`).
    Num {
        e: Expr,
        hty: DType,
        pty: DType,
    },
    Tensor(Tensor),
    /// A complex number (parts of one float dtype).
    Cx(Cx),
    /// A vector of lanes (all of one dtype).
    Lanes(Vec<Expr>, Elt),
    /// A pointer to an element (global memory, or an element of a
    /// shared or local tensor); the IR pointer addresses its first number.
    /// `named`: held in a variable or bound to a name (only such a pointer
    /// can be indexed; Hidet refuses to index a pointer expression).
    Ptr(Expr, Elt, bool),
    /// A void pointer (`void_p`, `~void`): the IR pointer addresses the
    /// memory it points into, typed by that memory's numbers, and moves by
    /// bytes (`BinOp::PtrAddBytes`). It is dereferenced only after a cast
    /// to a typed pointer (`cast(p, ~f32)`).
    VoidPtr(Expr),
    /// A scalar declared without a value: a one-element local array, so
    /// that reading it before any write is reported.
    Cell(ArrayId, DType),
    /// A variable holding a global pointer to numbers of the dtype whose
    /// address the function takes (`~p`): a one-element local array of
    /// the pointer's `uint64` representation (`Elt::Ptr`).
    PtrCell(ArrayId, DType),
    Type(HType),
    Layout(Layout),
    /// A declaration made by `tensor(…)`, `shared_tensor(…)`, `register_tensor(…)`.
    Decl(Elt, Layout, AddrSpace),
    /// A name from a module (`hidet.lang.cuda.threadIdx`, `hidet.lang.attrs`).
    Path(String),
    /// A `@hidet.script` function.
    Func(String),
    /// A task mapping (`spatial(…)`, `repeat(…)`, `auto_map(…)`, compositions).
    TaskMap(TaskMap),
    /// A method of a value (`mapping.on`, `mapping.spatial`, …).
    Method(Box<Val>, String),
    List(Vec<Val>),
    None,
}

impl Val {
    /// A Hidet scalar whose type is `hty` both while transpiling and after.
    fn num(e: Expr, hty: DType) -> Val {
        Val::Num { e, hty, pty: hty }
    }

    /// The value of an `ops` result.
    fn from_scalar(s: ops::Scalar) -> Val {
        Val::Num {
            e: s.e,
            hty: s.hty,
            pty: s.pty,
        }
    }
}

/// The names of one function being elaborated.
pub struct Names {
    /// Lexical scopes, innermost last.
    scopes: Vec<HashMap<String, Val>>,
    /// Names whose address the function takes (`~x`): their scalar
    /// variables live in memory (`address`).
    addressed: std::collections::HashSet<String>,
}

/// One function being elaborated: the kernel or an inlined helper, whose
/// result type is its annotation's (`None`: void).
type Frame = inline::Frame<Names, Option<DType>>;

/// The elaborator of one kernel.
pub struct Elab<'m> {
    m: &'m Module,
    kind: FuncKind,
    vars: Vec<(String, Type)>,
    arrays: Vec<ArrayDecl>,
    frames: Vec<Frame>,
    blocks: Vec<Block>,
    grid: Option<([u32; 3], Span)>,
    block: Option<([u32; 3], Span)>,
    /// The launch's values of the scalar parameters (bits), for what must
    /// be known while transpiling: launch dimensions, tensor pointer shapes.
    known: HashMap<VarId, u64>,
    /// The `return` output of a host function and its dtype.
    ret_out: Option<(VarId, DType)>,
}

/// The last component of a dotted path.
fn last(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

/// The kind a function declares with `attrs.func_kind = '…'` (or implies
/// with `attrs.cuda.grid_dim`), read from its body's top-level statements.
fn declared_kind(m: &Module, f: &Func) -> Option<(String, Span)> {
    let mut launch_attrs = false;
    for s in &f.def.body {
        if let ast::Stmt::Assign(a) = s {
            if let [t] = a.targets.as_slice() {
                let Some(path) = dotted(t) else { continue };
                let full = m.resolve(&path);
                if full.ends_with("attrs.func_kind") {
                    if let ast::Expr::Constant(c) = &*a.value {
                        if let Constant::Str(k) = &c.value {
                            return Some((k.clone(), m.src.span(s)));
                        }
                    }
                }
                if full.ends_with("attrs.cuda.grid_dim") || full.ends_with("attrs.cuda.block_dim") {
                    launch_attrs = true;
                }
            }
        }
    }
    launch_attrs.then(|| ("cuda_kernel".to_string(), f.span))
}

/// Whether `f` is a kernel (`cuda_kernel`, `cpu_kernel`, or `public`: a
/// host function, which runs on the CPU like a `cpu_kernel`).
pub fn is_kernel(m: &Module, f: &Func) -> bool {
    matches!(
        declared_kind(m, f).as_ref().map(|(k, _)| k.as_str()),
        Some("cuda_kernel" | "cpu_kernel" | "public")
    )
}

simt::impl_blocks!(Elab<'_>);
inline::impl_frames!(Elab<'_>, Names, Option<DType>);

impl<'m> Elab<'m> {
    /// An elaborator for kernels of module `m`.
    pub fn new(m: &'m Module) -> Self {
        Elab {
            m,
            kind: FuncKind::CudaKernel,
            vars: Vec::new(),
            arrays: Vec::new(),
            frames: Vec::new(),
            blocks: Vec::new(),
            grid: None,
            block: None,
            known: HashMap::new(),
            ret_out: None,
        }
    }

    fn span(&self, node: &impl ast::Ranged) -> Span {
        self.m.src.span(node)
    }

    /// `v`, an operand elaborated before the statements emitted since
    /// `mark` (a later operand's atomic or inlined helper): operands are
    /// evaluated left to right, so an earlier one that reads memory is
    /// held in a variable before those statements.
    fn keep_order(&mut self, v: Val, mark: usize, span: Span) -> Val {
        if self.mark() <= mark {
            return v;
        }
        let (e, hty, pty) = match v {
            Val::Num { e, hty, pty } => (e, hty, pty),
            Val::Cell(id, d) => {
                let p = self.cell_ptr(id, d, span);
                (load(p, d, span), d, d)
            }
            other => return other,
        };
        if !e.reads_memory() {
            return Val::Num { e, hty, pty };
        }
        let t = self.new_var("_t", e.ty.clone());
        if let Some(b) = self.blocks.last_mut() {
            b.insert(mark, Stmt::Let(t, e));
        }
        Val::Num {
            e: self.var_expr(t, span),
            hty,
            pty,
        }
    }

    /// Elaborates `body` in a new scope into a new block.
    fn block_of(&mut self, body: &[ast::Stmt]) -> DResult<Block> {
        self.frame().scopes.push(HashMap::new());
        let (r, b) = self.collect(|me| me.stmts(body));
        self.frame().scopes.pop();
        r.map(|()| b)
    }

    fn define(&mut self, name: &str, v: Val) {
        if name == "_" {
            return;
        }
        self.frame()
            .scopes
            .last_mut()
            .expect("a scope")
            .insert(name.to_string(), v);
    }

    fn lookup_local(&self, name: &str) -> Option<Val> {
        let f = self.frames.last()?;
        f.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    // ---- the kernel ------------------------------------------------------------

    /// Elaborates kernel `name` for `launch`.
    pub fn kernel(mut self, name: &str, launch: &Launch) -> DResult<Kernel> {
        let f = &self.m.funcs[name];
        let fspan = f.span;
        self.kind = match declared_kind(self.m, f) {
            Some((k, _)) if k == "cuda_kernel" => FuncKind::CudaKernel,
            Some((k, _)) if k == "cpu_kernel" || k == "public" => FuncKind::CpuKernel,
            Some((k, s)) => {
                return Err(Diagnostic::new(
                    s,
                    format!("`{name}` is a `{k}` function, not a kernel"),
                )
                .with_help("launch a function with attrs.func_kind = 'cuda_kernel', 'cpu_kernel' or 'public'"))
            }
            None => {
                return Err(Diagnostic::new(
                    fspan,
                    format!("`{name}` declares no attrs.func_kind, so Hidet makes it a device function (cuda_internal), not a kernel"),
                )
                .with_help("add attrs.func_kind = 'cuda_kernel' (with attrs.cuda.grid_dim and block_dim) or 'cpu_kernel'"))
            }
        };

        let def = f.def.clone();
        let mut params = Vec::new();
        let mut env = HashMap::new();
        let names = self.param_list(&def)?;
        for (pname, pspan, ann) in &names {
            let ty = self.annotation_type(ann)?;
            let (val, param) = self.kernel_param(pname, *pspan, ty, launch)?;
            env.insert(pname.clone(), val);
            params.push(param);
        }
        let mut fresh = vec![];
        if let Some(r) = &def.returns {
            match self.annotation_type(r)? {
                HType::Void => {}
                HType::Scalar(d) if self.kind == FuncKind::CpuKernel => {
                    // the value a host function returns is reported as the
                    // one-element output `return`
                    self.supported_dtype(d, self.span(&**r))?;
                    let v = self.new_var(RETURN, Type::global_ptr(d));
                    params.push(Param {
                        name: RETURN.to_string(),
                        kind: ParamKind::Pointer(d),
                        var: Some(v),
                    });
                    fresh.push((RETURN.to_string(), 1));
                    self.ret_out = Some((v, d));
                }
                _ => return err(self.span(&**r), "a CUDA kernel returns nothing (void)"),
            }
        }
        for (n, _) in &launch.args {
            if !names.iter().any(|(p, _, _)| p == n) {
                return err(
                    fspan,
                    format!(
                        "the launch spec passes `{n}`, which kernel `{name}` has no parameter for"
                    ),
                );
            }
        }
        let names = Names {
            scopes: vec![env],
            addressed: address::addressed_names(&def.body),
        };
        self.frames.push(Frame::kernel(name, names));
        self.blocks.push(Vec::new());
        self.stmts(&def.body)?;
        let body = self.blocks.pop().expect("pushed above");
        let (grid, block) = match self.kind {
            FuncKind::CpuKernel => {
                let one = Some(([1, 1, 1], fspan));
                crate::frontend::geometry(launch, one, one)?
            }
            _ => {
                // what the kernel leaves out, the launch gives
                if (self.grid.is_none() && launch.grid.is_none())
                    || (self.block.is_none() && launch.block.is_none())
                {
                    return Err(Diagnostic::new(
                        fspan,
                        "a CUDA kernel expects both attrs.cuda.grid_dim and attrs.cuda.block_dim",
                    )
                    .with_help("set attrs.cuda.grid_dim = … and attrs.cuda.block_dim = … in the kernel body, or give \"grid\" and \"block\" in the launch"));
                }
                crate::frontend::geometry(launch, self.grid, self.block)?
            }
        };
        let threads: u64 = block.iter().map(|&b| b as u64).product();
        if threads == 0 || threads > 1024 {
            return err(
                self.block.map_or(fspan, |b| b.1),
                format!("a block of {threads} threads: CUDA allows 1 to 1024"),
            );
        }
        if grid.contains(&0) {
            return err(self.grid.map_or(fspan, |g| g.1), "a grid with no blocks");
        }
        let (arrays, vars) = (self.arrays, self.vars);
        Ok(Kernel::simt(
            name,
            (grid, block),
            params,
            fresh,
            arrays,
            vars,
            body,
        ))
    }

    /// The parameters of a function with their annotations; other forms are refused.
    fn param_list(&self, def: &ast::StmtFunctionDef) -> DResult<Vec<(String, Span, ast::Expr)>> {
        let a = &def.args;
        if let Some(v) = a.vararg.as_deref() {
            return err(
                self.span(v),
                "Hidet program does not support \"*args\" arguments.",
            );
        }
        if let Some(v) = a.kwarg.as_deref() {
            return err(
                self.span(v),
                "Hidet program does not support keyword arguments.",
            );
        }
        if let Some(v) = a.kwonlyargs.first() {
            return err(
                self.span(&v.def),
                "Hidet program does not support \"*kwargs\" arguments.",
            );
        }
        let mut out = Vec::new();
        for p in a.posonlyargs.iter().chain(&a.args) {
            if let Some(d) = &p.default {
                return err(self.span(&**d), "Hidet does not support default argument.");
            }
            let Some(ann) = &p.def.annotation else {
                return Err(Diagnostic::new(
                    self.span(&p.def),
                    "Hidet expects type annotation for each function argument.",
                )
                .with_help(format!(
                    "annotate it: {}: i32, {}: f32[4, 8] or {}: ~f32",
                    p.def.arg, p.def.arg, p.def.arg
                )));
            };
            out.push((p.def.arg.to_string(), self.span(&p.def), (**ann).clone()));
        }
        Ok(out)
    }

    /// A kernel parameter of type `ty` bound to the launch's argument.
    fn kernel_param(
        &mut self,
        pname: &str,
        pspan: Span,
        ty: HType,
        launch: &Launch,
    ) -> DResult<(Val, Param)> {
        let arg = launch.arg(pname).ok_or_else(|| {
            Diagnostic::new(
                pspan,
                format!("the launch spec has no argument for parameter `{pname}`"),
            )
            .with_help(format!("add \"{pname}\" to the launch's \"args\""))
        })?;
        match (ty, arg) {
            (HType::Tensor(elt, layout), ArgSpec::Buffer { dtype, bits, .. }) => {
                let d = elt.comp();
                self.check_buffer(pname, pspan, d, *dtype)?;
                // a complex or vector element takes `width` numbers of the buffer
                let size = layout.size() as usize * elt.width() as usize;
                if bits.len() != size {
                    return Err(Diagnostic::new(
                        pspan,
                        format!(
                            "`{pname}` is a tensor of shape {:?} ({size} elements of storage) but the launch passes {} elements",
                            layout.shape(),
                            bits.len()
                        ),
                    )
                    .with_help(format!("pass a buffer of {size} elements")));
                }
                let var = self.new_var(pname, Type::global_ptr(d));
                let base = self.var_expr(var, pspan);
                Ok((
                    Val::Tensor(Tensor {
                        prefix: vec![],
                        base,
                        elt,
                        layout,
                    }),
                    Param {
                        name: pname.to_string(),
                        kind: ParamKind::Pointer(d),
                        var: Some(var),
                    },
                ))
            }
            (HType::Pointer(Elt::Ptr(_)), _) => Err(Diagnostic::new(
                pspan,
                format!("`{pname}` is a pointer to pointers, which a launch cannot pass (Hidet's host call cannot either)"),
            )
            .with_help("pass the buffer (~f32) and take the address of a pointer variable in the kernel")),
            (HType::Pointer(elt), ArgSpec::Buffer { dtype, .. }) => {
                let d = elt.comp();
                self.check_buffer(pname, pspan, d, *dtype)?;
                let var = self.new_var(pname, Type::global_ptr(d));
                Ok((
                    Val::Ptr(self.var_expr(var, pspan), elt, true),
                    Param {
                        name: pname.to_string(),
                        kind: ParamKind::Pointer(d),
                        var: Some(var),
                    },
                ))
            }
            (HType::VoidPtr, ArgSpec::Buffer { dtype, .. }) => {
                // a void pointer parameter takes a buffer of any number type
                self.supported_dtype(*dtype, pspan)?;
                let var = self.new_var(pname, Type::global_ptr(*dtype));
                Ok((
                    Val::VoidPtr(self.var_expr(var, pspan)),
                    Param {
                        name: pname.to_string(),
                        kind: ParamKind::Pointer(*dtype),
                        var: Some(var),
                    },
                ))
            }
            (HType::Scalar(d), ArgSpec::Scalar { dtype, .. }) => {
                if *dtype != d {
                    return Err(Diagnostic::new(
                        pspan,
                        format!(
                            "`{pname}` is declared {} but the launch passes {}",
                            Named(d),
                            Named(*dtype)
                        ),
                    )
                    .with_help(format!(
                        "pass \"{pname}\": {{\"dtype\": \"{}\", \"value\": …}}",
                        d.json_name()
                    )));
                }
                self.supported_dtype(d, pspan)?;
                let var = self.new_var(pname, Type::scalar(d));
                if let ArgSpec::Scalar { bits, .. } = arg {
                    self.known.insert(var, *bits);
                }
                Ok((
                    Val::num(self.var_expr(var, pspan), d),
                    Param {
                        name: pname.to_string(),
                        kind: ParamKind::Scalar(d),
                        var: Some(var),
                    },
                ))
            }
            (HType::Scalar(d), ArgSpec::Constexpr(c)) => {
                // a Python number passed by the host: converted to the
                // parameter's type, it is a constant of the kernel
                self.supported_dtype(d, pspan)?;
                let v = match c {
                    ConstArg::Int(i) => Val::Int(*i),
                    ConstArg::Float(f) => Val::Float(*f),
                    ConstArg::Bool(b) => Val::Bool(*b),
                    _ => {
                        return err(
                            pspan,
                            format!("`{pname}` needs a number, the launch passes {c:?}"),
                        )
                    }
                };
                if let (Val::Int(i), true) = (&v, d.is_int() && d != DType::Bool) {
                    if !fits(*i, d) {
                        return err(
                            pspan,
                            format!("{i} does not fit `{pname}`'s type {}", Named(d)),
                        );
                    }
                }
                let e = self.host_to_expr(v, pspan)?;
                Ok((
                    Val::num(convert(e.0, d), d),
                    Param {
                        name: pname.to_string(),
                        kind: ParamKind::Constexpr,
                        var: None,
                    },
                ))
            }
            (HType::Void, _) => err(pspan, "a parameter cannot be void"),
            (HType::Compound(elt), _) => Err(Diagnostic::new(
                pspan,
                format!("`{pname}` is a {elt} value, which a launch cannot pass"),
            )
            .with_help(format!(
                "pass a pointer to its numbers instead: {pname}: ~{elt} takes a {} buffer",
                elt.comp().json_name()
            ))),
            (ty, ArgSpec::Buffer { .. }) => err(
                pspan,
                format!(
                    "`{pname}` is declared {} but the launch passes a buffer",
                    htype_text(&ty)
                ),
            ),
            (ty, _) => err(
                pspan,
                format!(
                    "`{pname}` is declared {} but the launch passes a scalar",
                    htype_text(&ty)
                ),
            ),
        }
    }

    fn check_buffer(&self, pname: &str, pspan: Span, want: DType, got: DType) -> DResult<()> {
        self.supported_dtype(want, pspan)?;
        if want != got {
            return Err(Diagnostic::new(
                pspan,
                format!(
                    "`{pname}` holds {} but the launch passes a {} buffer",
                    Named(want),
                    got.json_name()
                ),
            )
            .with_help(format!(
                "give the buffer \"dtype\": \"{}\"",
                want.json_name()
            )));
        }
        Ok(())
    }

    /// Refuses the scalar types ksem does not run for Hidet yet.
    fn supported_dtype(&self, d: DType, span: Span) -> DResult<()> {
        if d.is_fp8() {
            return Err(Diagnostic::new(
                span,
                format!("{} is not supported yet in Hidet kernels", Named(d)),
            )
            .with_help("ksem runs Hidet's bool, integer, f16, bf16, f32 and f64 types"));
        }
        Ok(())
    }

    // ---- types -----------------------------------------------------------------

    /// The type an annotation expression denotes.
    fn annotation_type(&mut self, e: &ast::Expr) -> DResult<HType> {
        let span = self.span(e);
        match self.expr(e)? {
            Val::Type(t) => Ok(t),
            Val::Path(p) if p == "builtins.int" => Ok(HType::Scalar(DType::I32)),
            Val::Path(p) if p == "builtins.float" => Ok(HType::Scalar(DType::F32)),
            Val::Path(p) if p == "builtins.bool" => Ok(HType::Scalar(DType::Bool)),
            Val::None => Ok(HType::Void),
            _ => err(span, "expected a type (i32, f32[4, 8], ~f32, …)"),
        }
    }

    /// The Hidet type a dotted name stands for, if it names one.
    fn type_of_path(&self, path: &str, span: Span) -> DResult<Option<HType>> {
        if !(path.starts_with("hidet.") || path == "void") {
            return Ok(None);
        }
        let name = last(path);
        if let Some(d) = types::scalar_named(name) {
            return Ok(Some(HType::Scalar(d)));
        }
        if name == "void" {
            return Ok(Some(HType::Void));
        }
        if name == "void_p" {
            return Ok(Some(HType::VoidPtr));
        }
        if let Some(elt) = Elt::compound_named(name) {
            self.vector_compiles(elt, span)?;
            return Ok(Some(HType::Compound(elt)));
        }
        if types::UNSUPPORTED_SCALARS.contains(&name) {
            return Err(Diagnostic::new(
                span,
                format!("the type {name} is not supported yet in Hidet kernels"),
            )
            .with_help("ksem runs Hidet's bool, integer, f16, bf16, f32 and f64 types"));
        }
        Ok(None)
    }
}

/// The Python number a value is, if it is one.
fn lit_of(v: &Val) -> Option<ops::Lit> {
    match v {
        Val::Int(i) => Some(ops::Lit::Int(*i)),
        Val::Float(f) => Some(ops::Lit::Float(*f)),
        Val::Bool(b) => Some(ops::Lit::Bool(*b)),
        _ => None,
    }
}

/// Whether a loop body has a `break` or `continue` of its own.
fn body_has_jump(body: &[ast::Stmt]) -> bool {
    body.iter().any(|s| match s {
        ast::Stmt::Break(_) | ast::Stmt::Continue(_) => true,
        ast::Stmt::If(i) => body_has_jump(&i.body) || body_has_jump(&i.orelse),
        _ => false,
    })
}

/// `e` with every variable of `known` replaced by its value.
fn substitute(e: &mut Expr, known: &HashMap<VarId, u64>) {
    match &mut e.kind {
        ExprKind::Var(v) => {
            if let Some(&b) = known.get(v) {
                e.kind = ExprKind::Const(b);
            }
        }
        ExprKind::Cast(a, _) | ExprKind::Unary(_, a) => substitute(a, known),
        ExprKind::Binary(_, a, b) => {
            substitute(a, known);
            substitute(b, known);
        }
        ExprKind::Select(c, a, b) => {
            substitute(c, known);
            substitute(a, known);
            substitute(b, known);
        }
        _ => {}
    }
}

/// The items of a tuple or list expression.
fn elts(e: &ast::Expr) -> &[ast::Expr] {
    match e {
        ast::Expr::Tuple(t) => &t.elts,
        ast::Expr::List(t) => &t.elts,
        _ => &[],
    }
}

/// A type as the kernel writes it.
fn htype_text(t: &HType) -> String {
    match t {
        HType::Scalar(d) => Named(*d).to_string(),
        HType::Compound(e) => e.to_string(),
        HType::Tensor(d, l) => format!("{d}{:?}", l.shape()),
        HType::Pointer(d) => format!("~{d}"),
        HType::VoidPtr => "void_p".into(),
        HType::Void => "void".into(),
    }
}
