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
use super::{types, Global, Module, Object, SigType};
use crate::dtype::DType;
use crate::frontend::py::call::Call;
use crate::frontend::py::inline::{self, Frames};
use crate::frontend::py::num::PyNum;
use crate::frontend::py::op_text;
use crate::frontend::py::simt::{self, Blocks};
use crate::frontend::py::value::PyValue;
use crate::frontend::py::walk::{self, Walk};
use crate::frontend::py::{self, dotted, Binary};
use crate::ir::build::*;
use crate::ir::*;
use crate::launch::{ArgSpec, Launch};
use crate::span::{err, DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Constant};
use std::collections::{HashMap, HashSet};

const DIALECT: &str = "CUDA Python";

use types::{nsw_op, INT_DIV};

mod arraycopy;
mod calls;
mod cg;
mod closures;
mod cmath;
mod complex;
mod constmem;
mod dynshared;
mod enums;
pub mod exceptions;
mod expr;
mod intrinsics;
mod iter;
mod mathfns;
mod methods;
mod minmax;
mod names;
mod optional;
mod records;
mod recursion;
mod slices;
mod stmt;
mod time;
mod ufuncs;
mod vectors;

use names::*;
use records::{ByteArray, FieldAt, RecordVal};
use slices::Index;

/// An array: a pointer to element 0 and a static row-major shape.
#[derive(Clone, Debug)]
struct ArrayVal {
    base: Expr,
    /// The element dtype (of a complex array: its parts' dtype).
    dtype: DType,
    shape: Vec<usize>,
    /// How the elements lie in the buffer.
    pairs: Pairs,
    /// A slice of another array (`slices.rs`): where its elements lie;
    /// `None`: row-major from `base`.
    view: Option<Box<slices::View>>,
}

/// Whether an array's buffer holds two numbers per element (a complex
/// array, or the `.real`/`.imag` view of one): a trailing dimension of 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pairs {
    /// One number per element.
    No,
    /// Complex elements: real part, then imaginary part.
    Complex,
    /// The view of one part (0: `.real`, 1: `.imag`) of a complex array.
    Part(i128),
}

/// What an expression of the kernel denotes at elaboration time.
#[derive(Clone, Debug)]
enum Val {
    /// A 0-d number.
    Num(Expr),
    /// A complex number: its two parts, of one float dtype.
    Complex(crate::complex::Cx),
    Array(ArrayVal),
    /// One record of a structured dtype (`records.rs`).
    Record(RecordVal),
    /// An array whose elements lie in a record buffer: a record array or
    /// a subarray field (`records.rs`).
    Bytes(ByteArray),
    Tuple(Vec<Val>),
    /// A CUDA vector (`cuda.float32x4(…)`, `vectors.rs`): its components.
    Vector(Vec<Expr>),
    /// A module or a dotted path into one (`numba.cuda.atomic`, `math`).
    Path(String),
    /// A type object (`int16`, `np.float32`).
    Type(DType),
    /// numba's `Optional` of a number: what a device function returning
    /// None on some paths and a number on others returns (`optional.rs`):
    /// the bool "is None" and the number (undefined where it is None).
    Optional(Expr, Box<Val>),
    /// A record dtype (`ksem.record(…)` at module level): the dtype of a
    /// shared or local array of records (`records.rs`).
    RecordType(std::sync::Arc<crate::launch::RecordLayout>),
    /// A `@cuda.jit` function.
    Func(String),
    /// A nested function (`closures.rs`).
    Closure(std::rc::Rc<closures::Closure>),
    /// A builtin function (`range`, `abs`, `min`, …).
    Builtin(&'static str),
    /// A module-level class of constants (an enum): `Color.red`, `Color["red"]`.
    Class(String),
    /// A member of such a class (`Color.red`): its class and its value
    /// (`enums.rs`).
    Member(String, Box<Val>),
    /// A constant string (`"XYZ"`) or bytes (`b"XYZ"`): numba's
    /// `Literal[str]`/`bytes`, which a kernel can store into an
    /// `S<n>`/`U<n>` element (`records.rs`).
    Str(std::rc::Rc<records::TextConst>),
    /// A datetime64/timedelta64 value (`time.rs`).
    Time(time::TimeVal),
    /// An array of datetime64/timedelta64 elements (`time.rs`).
    TimeArray(time::TimeArray),
    None,
}

/// What a device function being inlined keeps of its results besides
/// the scalar result variable ([`inline::Inline`]).
pub struct Results {
    /// The result type from a signature string.
    sig_ret: Option<DType>,
    /// The complex result's part variables (created at the first `return`
    /// of a complex value).
    cret: Option<(VarId, VarId)>,
    /// A tuple result: its numbers' variables (made at the first `return`
    /// of a tuple, written by every later one).
    tret: Option<Val>,
    /// A record result: the variable of its uint8 pointer (made at the
    /// first `return` of a record) and its dtype.
    rret: Option<(VarId, std::sync::Arc<crate::launch::RecordLayout>)>,
    /// Whether a `return` gives None (`return`, `return None`), and the
    /// variable that says at run time which kind of `return` ran
    /// (`optional.rs`).
    none_ret: bool,
    is_none: VarId,
}

/// The names of one function being elaborated.
pub struct Names {
    env: HashMap<String, Val>,
    /// Nesting of loops and branches in this function (0: its entry block).
    depth: usize,
    /// The function's parameters its body never assigns: numba's IR keeps
    /// them as its arguments, whose types make `len(t)` of a tuple and
    /// `a.ndim` of an array constants (`Elab::prunable`).
    args: HashSet<String>,
}

/// One function being elaborated: the kernel or an inlined device function.
type Frame = inline::Frame<Names, Results>;

/// The elaborator of one kernel.
pub struct Elab<'m> {
    m: &'m Module,
    vars: Vec<(String, Type)>,
    arrays: Vec<ArrayDecl>,
    frames: Vec<Frame>,
    /// The statement lists being built; the last is the current one.
    blocks: Vec<Block>,
    /// Statements that run before the kernel's body (complex scalar
    /// parameters read into their variables).
    entry: Block,
    /// Bytes of dynamic shared memory the launch gives each block.
    shared_bytes: u64,
    /// The dynamic shared array (`cuda.shared.array(0, dtype)`), once one
    /// is declared: every such declaration is this array.
    dynamic: Option<(ArrayId, DType)>,
    /// The launch's constant arrays (`constmem.rs`).
    constants: Vec<(String, ArgSpec)>,
    /// Constant arrays the kernel has read, and their parameters.
    const_vals: HashMap<String, Val>,
    const_params: Vec<Param>,
    /// The kernel was compiled with `debug=True` (`exceptions.rs`).
    debug: bool,
    /// The launch's grid (blocks along x, y, z).
    grid: [u32; 3],
    /// The variable of the raise buffer, once a `raise` needs it.
    raise_param: Option<VarId>,
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

simt::impl_blocks!(Elab<'_>);
inline::impl_frames!(Elab<'_>, Names, Results);

impl<'m> Elab<'m> {
    /// An elaborator for kernels of module `m`.
    pub fn new(m: &'m Module) -> Self {
        Elab {
            m,
            vars: Vec::new(),
            arrays: Vec::new(),
            frames: Vec::new(),
            blocks: Vec::new(),
            entry: Vec::new(),
            shared_bytes: 0,
            dynamic: None,
            constants: Vec::new(),
            const_vals: HashMap::new(),
            const_params: Vec::new(),
            debug: false,
            grid: [1, 1, 1],
            raise_param: None,
        }
    }

    fn span(&self, node: &impl ast::Ranged) -> Span {
        self.m.src.span(node)
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
        let (r, b) = self.collect(|me| me.stmts(body));
        r.map(|()| b)
    }

    /// Elaborates the kernel `name` for `launch`.
    pub fn kernel(mut self, name: &str, launch: &Launch) -> DResult<Kernel> {
        self.shared_bytes = launch.shared_bytes;
        self.constants = launch.constants.clone();
        let f = &self.m.funcs[name];
        let fspan = f.span;
        self.debug = f.debug;
        self.grid = crate::frontend::geometry(launch, None, None)?.0;
        if let Some((ret, _)) = &f.sig {
            if *ret != SigType::Void {
                return err(fspan, "a kernel's signature must return void");
            }
        }
        let mut params = Vec::new();
        let mut env = HashMap::new();
        let names = self.param_names(&f.def)?;
        if let Some((_, sig)) = &f.sig {
            let n = names.len();
            py::arity::count(fspan, sig.len(), (n, n), |s| {
                format!("the signature has {s} parameter types but `{name}` has {n} parameters")
            })?;
        }
        for (i, (pname, pspan)) in names.iter().enumerate() {
            let sig = f.sig.as_ref().map(|(_, s)| s[i]);
            match launch.arg(pname) {
                Some(ArgSpec::Buffer {
                    dtype,
                    bits,
                    shape,
                    complex,
                    record,
                    text,
                    time,
                    ..
                }) => {
                    if let Some(t) = time {
                        self.time_param(pname, *pspan, *t, shape.clone(), bits.len(), sig.is_some(), &mut env, &mut params)?;
                        continue;
                    }
                    if let Some(kind) = text {
                        // an `S<n>`/`U<n>` array: its bytes, as records are
                        let var = self.new_var(pname, Type::global_ptr(DType::U8));
                        let base = self.var_expr(var, *pspan);
                        let shape = shape.clone().unwrap_or_else(|| vec![bits.len() / kind.size()]);
                        if sig.is_some() {
                            return err(*pspan, format!("the launch passes `{pname}` as text, which a signature string cannot describe"));
                        }
                        env.insert(pname.clone(), records::text_array_val(base, shape, kind.clone()));
                        params.push(Param {
                            name: pname.clone(),
                            kind: ParamKind::Pointer(DType::U8),
                            var: Some(var),
                        });
                        continue;
                    }
                    if let Some(layout) = record {
                        let var = self.new_var(pname, Type::global_ptr(DType::U8));
                        let base = self.var_expr(var, *pspan);
                        let shape = shape.clone().unwrap_or_else(|| vec![bits.len() / layout.itemsize]);
                        if sig.is_some() {
                            return err(*pspan, format!("the launch passes `{pname}` as records, which a signature string cannot describe"));
                        }
                        env.insert(pname.clone(), self.record_param_val(base, shape, layout.clone()));
                        params.push(Param {
                            name: pname.clone(),
                            kind: ParamKind::Pointer(DType::U8),
                            var: Some(var),
                        });
                        continue;
                    }
                    if *complex {
                        self.complex_param(pname, *pspan, *dtype, bits.len(), shape, sig, &mut env, &mut params)?;
                        continue;
                    }
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
                            pairs: Pairs::No,
                            view: None,
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
        let def = self.m.funcs[name].def.clone();
        let args = names::unassigned_params(&def);
        self.frames.push(Frame::kernel(
            name,
            Names {
                env,
                depth: 0,
                args,
            },
        ));
        let body = self.block_of(&def.body)?;
        let mut entry = std::mem::take(&mut self.entry);
        entry.extend(body);
        let body = entry;
        params.append(&mut self.const_params);
        let mut fresh = vec![];
        if let Some(v) = self.raise_param {
            params.push(Param {
                name: exceptions::RAISE_BUFFER.to_string(),
                kind: ParamKind::Pointer(DType::I64),
                var: Some(v),
            });
            fresh.push((
                exceptions::RAISE_BUFFER.to_string(),
                exceptions::RAISE_FIELDS,
            ));
        }
        let geometry = crate::frontend::geometry(launch, None, None)?;
        let (arrays, vars) = (self.arrays, self.vars);
        Ok(Kernel::simt(
            name, geometry, params, fresh, arrays, vars, body,
        ))
    }

    /// A complex buffer parameter: a complex array, or (0-d) a complex
    /// scalar, read into two variables at entry.
    #[allow(clippy::too_many_arguments)]
    fn complex_param(
        &mut self,
        pname: &str,
        pspan: Span,
        dtype: DType,
        numbers: usize,
        shape: &Option<Vec<usize>>,
        sig: Option<SigType>,
        env: &mut HashMap<String, Val>,
        params: &mut Vec<Param>,
    ) -> DResult<()> {
        let shape = shape.clone().unwrap_or_else(|| vec![numbers / 2]);
        let ok = match sig {
            None => true,
            Some(SigType::ComplexArray(d, nd)) => d == dtype && nd == shape.len(),
            Some(SigType::Complex(d)) => d == dtype && shape.is_empty(),
            Some(_) => false,
        };
        let what = if shape.is_empty() { "scalar" } else { "array" };
        if !ok {
            return err(
                pspan,
                format!("the launch passes `{pname}` as a complex{} {what}, which its signature does not say", dtype.bits() * 2),
            );
        }
        let var = self.new_var(pname, Type::global_ptr(dtype));
        params.push(Param {
            name: pname.to_string(),
            kind: ParamKind::Pointer(dtype),
            var: Some(var),
        });
        let base = self.var_expr(var, pspan);
        let arr = ArrayVal {
            base,
            dtype,
            shape: shape.clone(),
            pairs: Pairs::Complex,
            view: None,
        };
        if !shape.is_empty() {
            env.insert(pname.to_string(), Val::Array(arr));
            return Ok(());
        }
        let zero = int_const(DType::I64, 0, pspan);
        let part = |k: i128| {
            mk(
                ExprKind::ElemPtr {
                    base: Box::new(arr.base.clone()),
                    indices: vec![zero.clone(), int_const(DType::I64, k, pspan)],
                    dims: vec![1, 2],
                    neg: NegIndex::Wrap,
                    offset: None,
                },
                arr.base.ty.clone(),
                pspan,
            )
        };
        let re = self.new_var(&format!("{pname}.real"), Type::scalar(dtype));
        let im = self.new_var(&format!("{pname}.imag"), Type::scalar(dtype));
        self.entry.extend([
            Stmt::Let(re, load(part(0), dtype, pspan)),
            Stmt::Let(im, load(part(1), dtype, pspan)),
        ]);
        env.insert(
            pname.to_string(),
            Val::Complex(crate::complex::Cx {
                re: self.var_expr(re, pspan),
                im: self.var_expr(im, pspan),
            }),
        );
        Ok(())
    }

    /// The plain positional parameters of a function; other forms are refused.
    fn param_names(&self, def: &ast::StmtFunctionDef) -> DResult<Vec<(String, Span)>> {
        let help = "list every parameter by name";
        let mut out = Vec::new();
        for p in py::plain_params(&def.args, |v| self.span(v), DIALECT, help)? {
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
}
