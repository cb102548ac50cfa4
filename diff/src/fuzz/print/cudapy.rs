//! Prints a SIMT kernel as a numba `@cuda.jit` source file that elaborates
//! back to the same program.
//!
//! The kernel is printed in its canonical form (`ir::canon`), so front-end
//! temporaries are already inlined, and idiomatically:
//! - a conversion is left out where CUDA Python inserts exactly that one
//!   itself (`frontend::cudapy::types` decides: `promote`, `truediv_type`,
//!   `floordiv_result`, …): an operand is printed without its conversion
//!   only where the front end, given the bare operand, rebuilds the node;
//!   every other conversion is a type object call, `int16(x)`;
//! - the `if` that an `a if c else b` elaborates to (a variable `_ifexp`
//!   set last in both branches, read once) is printed where it is read,
//!   and so is the `_boolop` pattern of `a and b` / `a or b`;
//! - an atomic whose old value is unused is a statement
//!   (`cuda.atomic.max(acc, 1, v)`); `cuda.grid(n)` / `cuda.gridsize(n)`,
//!   `cuda.threadIdx.x`, `cuda.shared.array(n, dtype)`,
//!   `cuda.syncthreads()`, `for k in range(…)`, `break`, `continue`.
//!
//! Device functions are not printed (calls are inlined in the IR). What has
//! no CUDA Python form (selects, tiles, other rounding modes, …) is an
//! error, never a panic.

use super::control::{self, Deferring, Own, Statements, StoreParts, Structured};
use super::pattern::{self, Counts, Pending};
use ksem_interp::dtype::DType;
use ksem_interp::frontend::cudapy::types::{self, Named};
use ksem_interp::ir::build::CONVERT;
use ksem_interp::ir::*;
use std::collections::HashMap;

pub use super::control::PResult;

/// The source of a file that defines `k` as a `@cuda.jit` kernel.
pub fn kernel(k: &Kernel) -> PResult<String> {
    print(k, false)
}

/// [`kernel`], with the conversion of a value assigned in a loop or branch
/// written out (`x = int64(…)`) where the front end would insert it, and
/// the branches of an if-expression converted to its type: real
/// numba-cuda unifies a variable's types across assignments instead
/// (docs/divergences.md N5, N12) and types an if-expression with a
/// constant condition by the branch it keeps, so a campaign against it
/// writes them.
pub fn kernel_explicit(k: &Kernel) -> PResult<String> {
    print(k, true)
}

fn print(k: &Kernel, explicit: bool) -> PResult<String> {
    let k = pattern::simt_kernel(k, "CUDA Python")?;
    let mut p = Printer::new(&k)?;
    p.explicit = explicit;
    p.kernel()?;
    Ok(p.src.out)
}

/// The import lines every printed file starts with. `float16` comes from
/// `numba.cuda.types`: numba 0.68 (beside numba-cuda 0.30.4) has no
/// `numba.float16`, and a file importing it from `numba` fails at import
/// (measured: every program of a campaign against numba-cuda on the GPU
/// was an error until this changed).
const HEADER: &str = "from numba import cuda, bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64\nfrom numba.cuda.types import float16\nimport math\n";

/// Names a printed variable must not take (modules, type objects, builtins, keywords).
const RESERVED: &[&str] = &[
    "cuda", "math", "numba", "np", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16",
    "uint32", "uint64", "float16", "float32", "float64", "range", "xrange", "abs", "min", "max",
    "int", "float", "bool", "len", "print", "True", "False", "None", "and", "or", "not", "if",
    "else", "elif", "for", "while", "in", "is", "def", "return", "break", "continue", "pass",
    "lambda", "del", "global", "nonlocal", "import", "from", "as", "with", "try", "except",
    "finally", "raise", "class", "yield", "assert", "async", "await",
];

/// How an operation of two operands is written.
#[derive(Clone, Copy)]
enum Syntax {
    Infix(&'static str),
    Call(&'static str),
}

struct Printer<'k> {
    k: &'k Kernel,
    names: Vec<String>,
    arrays: Vec<String>,
    defs: Vec<usize>,
    uses: Vec<usize>,
    declared: Vec<bool>,
    deferred: pattern::Pending<'k>,
    src: pattern::Source,
    /// Assignments in loops and branches keep their conversions
    /// ([`kernel_explicit`]).
    explicit: bool,
}

impl<'k> Printer<'k> {
    fn new(k: &'k Kernel) -> PResult<Self> {
        let n = k.vars.len();
        let Counts { defs, uses } = Counts::of(k);
        let (names, arrays) = pattern::names(k, RESERVED, false)?;
        Ok(Printer {
            k,
            names,
            arrays,
            defs,
            uses,
            declared: vec![false; n],
            deferred: HashMap::new(),
            src: pattern::Source::default(),
            explicit: false,
        })
    }

    fn name(&self, v: VarId) -> PResult<&str> {
        pattern::name_of(&self.names, v)
    }

    fn var_name(&self, v: VarId) -> &str {
        self.k.vars.get(v).map_or("", |x| x.0.as_str())
    }

    // ---- the kernel ------------------------------------------------------------

    fn kernel(&mut self) -> PResult<()> {
        let k = self.k;
        if !pattern::is_ident(&k.name, RESERVED) {
            return Err(format!("`{}` is not a Python name", k.name));
        }
        let mut params = Vec::new();
        for p in &k.params {
            if matches!(p.kind, ParamKind::Constexpr) {
                return Err(format!(
                    "`{}`: CUDA Python has no constexpr parameters",
                    p.name
                ));
            }
            if let Some(v) = p.var {
                if let Some(d) = self.declared.get_mut(v) {
                    *d = true;
                }
            }
            params.push(p.name.clone());
        }
        self.src.out = format!(
            "{HEADER}\n\n@cuda.jit\ndef {}({}):\n",
            k.name,
            params.join(", ")
        );
        for (id, a) in k.arrays.iter().enumerate() {
            let space = match a.space {
                AddrSpace::Shared => "shared",
                AddrSpace::Local => "local",
                AddrSpace::Global => return Err("a global array cannot be declared".into()),
            };
            let shape = match a.shape.as_slice() {
                [n] => n.to_string(),
                dims => format!(
                    "({})",
                    dims.iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                        + if dims.len() == 1 { "," } else { "" }
                ),
            };
            let line = format!(
                "{} = cuda.{space}.array({shape}, {})",
                self.arrays[id],
                type_name(a.dtype)?
            );
            self.line(&line);
        }
        let before = self.src.out.len();
        self.body(&k.body)?;
        if self.src.out.len() == before && k.arrays.is_empty() {
            self.line("pass");
        }
        pattern::all_read(self.k, &self.deferred)?;
        Ok(())
    }

    // ---- statements ----------------------------------------------------------------

    /// `for u in range(…)`: the loop variable of the IR is hidden; the body
    /// starts by copying it to the user's variable `u`.
    fn for_stmt(&mut self, iv: VarId, range: [&'k Expr; 3], body: &'k [Stmt]) -> PResult<()> {
        let [start, end, step] = range;
        let Some((Stmt::Let(u, first), rest)) = body.split_first() else {
            return Err("a loop whose body does not start with its variable".into());
        };
        let copies = match &first.kind {
            ExprKind::Var(x) => *x == iv,
            ExprKind::Cast(x, CONVERT) => x.kind == ExprKind::Var(iv),
            _ => false,
        };
        if !copies || self.uses.get(iv) != Some(&1) {
            return Err("a loop whose variable is used other than as the user's copy".into());
        }
        let d = self.k.vars.get(iv).map_or(DType::I64, |x| x.1.dtype());
        let is =
            |e: &Expr, v: i128| e.kind == ExprKind::Const(v as u64 & d.mask()) && e.ty.dtype() == d;
        let args = if is(start, 0) && is(step, 1) {
            self.expr(end)?
        } else if is(step, 1) {
            format!("{}, {}", self.expr(start)?, self.expr(end)?)
        } else {
            format!(
                "{}, {}, {}",
                self.expr(start)?,
                self.expr(end)?,
                self.expr(step)?
            )
        };
        let name = self.name(*u)?.to_string();
        if let Some(x) = self.declared.get_mut(*u) {
            *x = true;
        }
        self.line(&format!("for {name} in range({args}):"));
        self.nested(rest)
    }

    fn print_stmt(&mut self, prefix: &str, args: &'k [Expr]) -> PResult<()> {
        let simple = prefix
            .chars()
            .all(|c| c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ');
        if !simple {
            return Err(format!("the print prefix {prefix:?} needs escapes"));
        }
        let mut parts = Vec::new();
        if !prefix.is_empty() {
            parts.push(format!("\"{prefix}\""));
        }
        for a in args {
            parts.push(self.expr(a)?);
        }
        self.line(&format!("print({})", parts.join(", ")));
        Ok(())
    }

    /// `v0, v1 = cuda.grid(2)` (or `cuda.gridsize`) for consecutive `Let`s
    /// of the ids of dimensions 0, 1 (and 2).
    fn grid_tuple(&mut self, b: &'k [Stmt], i: usize) -> PResult<Option<usize>> {
        for (f, is) in [
            ("grid", is_grid as fn(&Expr, u8) -> bool),
            ("gridsize", is_gridsize),
        ] {
            let mut vars = Vec::new();
            for (d, s) in b[i..].iter().take(3).enumerate() {
                match s {
                    Stmt::Let(v, e) if is(e, d as u8) && !vars.contains(v) => vars.push(*v),
                    _ => break,
                }
            }
            if vars.len() >= 2 {
                let mut names = Vec::new();
                for v in &vars {
                    names.push(self.name(*v)?.to_string());
                    if let Some(x) = self.declared.get_mut(*v) {
                        *x = true;
                    }
                }
                let n = vars.len();
                self.line(&format!("{} = cuda.{f}({n})", names.join(", ")));
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    // ---- expressions -------------------------------------------------------------------

    /// `e` where the front end converts the printed value to `d` itself
    /// (stores, atomics' operands, assignments in loops and branches).
    fn operand_as(&mut self, e: &'k Expr, d: DType) -> PResult<String> {
        match strippable(e) {
            Some(x) if x.ty.dtype() != d && e.ty.dtype() == d => self.expr(x),
            _ if e.ty.dtype() == d => self.expr(e),
            _ => Err(format!("a {} value where {} is expected", e.ty, Named(d))),
        }
    }

    fn expr(&mut self, e: &'k Expr) -> PResult<String> {
        if !e.ty.shape.is_empty() {
            return Err(format!("a tile value ({}) has no CUDA Python form", e.ty));
        }
        match &e.kind {
            ExprKind::Const(bits) => const_text(e.ty.dtype(), *bits),
            ExprKind::Var(v) => {
                if let Some(d) = self.deferred.remove(v) {
                    return self.print_deferred(*v, d);
                }
                if e.ty.is_ptr() {
                    return Err("an array used as a value".into());
                }
                Ok(self.name(*v)?.to_string())
            }
            ExprKind::ThreadId(d) => id_text("threadIdx", *d, e),
            ExprKind::BlockId(d) => id_text("blockIdx", *d, e),
            ExprKind::BlockDim(d) => id_text("blockDim", *d, e),
            ExprKind::GridDim(d) => id_text("gridDim", *d, e),
            ExprKind::Cast(x, CONVERT) => self.cast(x, e),
            ExprKind::Unary(op, x) => self.unary(*op, x, e),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e),
            ExprKind::Load {
                ptr,
                mask: None,
                other: None,
            } if ptr.ty.dtype() == e.ty.dtype() => self.place(ptr),
            ExprKind::Atomic {
                op, ptr, val, cmp, ..
            } => self.atomic(*op, ptr, val, cmp.as_deref()),
            _ => Err(format!(
                "`{}` has no CUDA Python form",
                ksem_interp::pretty::expr(self.k, e)
            )),
        }
    }

    fn cast(&mut self, x: &'k Expr, e: &'k Expr) -> PResult<String> {
        let d = e.ty.dtype();
        if let ExprKind::Unary(op @ (UnOp::Neg | UnOp::Not), y) = &x.kind {
            let dy = y.ty.dtype();
            if dy.is_int() && dy != DType::Bool && types::int_unary_result(dy) == d {
                let sym = if *op == UnOp::Neg { "-" } else { "~" };
                return Ok(format!("({sym}{})", self.expr(y)?));
            }
        }
        if x.ty.is_ptr() {
            return Err("a pointer conversion has no CUDA Python form".into());
        }
        Ok(format!("{}({})", type_name(d)?, self.expr(x)?))
    }

    fn unary(&mut self, op: UnOp, x: &'k Expr, e: &'k Expr) -> PResult<String> {
        let d = x.ty.dtype();
        match op {
            UnOp::Neg | UnOp::Not
                if d.is_float() && op == UnOp::Neg
                    || d.is_int() && d != DType::Bool && types::int_unary_result(d) == d =>
            {
                let sym = if op == UnOp::Neg { "-" } else { "~" };
                Ok(format!("({sym}{})", self.expr(x)?))
            }
            UnOp::LogicalNot if d == DType::Bool => Ok(format!("(not {})", self.expr(x)?)),
            UnOp::Math(MathFn::Abs) if !d.is_float() && d != DType::Bool => {
                Ok(format!("abs({})", self.expr(x)?))
            }
            UnOp::Math(f) => {
                let Some(name) = math_name(f) else {
                    return Err(format!(
                        "math function `{}` has no CUDA Python form",
                        f.name()
                    ));
                };
                match &x.kind {
                    ExprKind::Cast(y, CONVERT)
                        if types::math_type(y.ty.dtype()) == d && y.ty.dtype() != d =>
                    {
                        Ok(format!("math.{name}({})", self.expr(y)?))
                    }
                    _ if types::math_type(d) == d && d == e.ty.dtype() => {
                        Ok(format!("math.{name}({})", self.expr(x)?))
                    }
                    _ => Err(format!("math.{name} of {}", Named(d))),
                }
            }
            _ => Err(format!(
                "`{}` has no CUDA Python form",
                ksem_interp::pretty::expr(self.k, e)
            )),
        }
    }

    fn binary(&mut self, op: BinOp, a: &'k Expr, b: &'k Expr, e: &'k Expr) -> PResult<String> {
        if is_grid(e, 0) {
            return Ok("cuda.grid(1)".into());
        }
        if is_gridsize(e, 0) {
            return Ok("cuda.gridsize(1)".into());
        }
        let Some(syntax) = syntax(op) else {
            return Err(format!(
                "`{}` has no CUDA Python form",
                ksem_interp::pretty::expr(self.k, e)
            ));
        };
        let Some((fa, fb)) = pick(a, b, e.ty.dtype(), |x, y| rule(op, x, y)) else {
            return Err(format!(
                "`{}` is typed unlike CUDA Python types it",
                ksem_interp::pretty::expr(self.k, e)
            ));
        };
        let (ta, tb) = (self.expr(fa)?, self.expr(fb)?);
        Ok(match syntax {
            Syntax::Infix(s) => format!("({ta} {s} {tb})"),
            Syntax::Call(f) => format!("{f}({ta}, {tb})"),
        })
    }

    /// `a[i]` / `a[i, j]` for a pointer to an element of an array.
    fn place(&mut self, ptr: &'k Expr) -> PResult<String> {
        let ExprKind::ElemPtr {
            base,
            indices,
            dims,
            neg: NegIndex::Wrap,
            offset: None,
        } = &ptr.kind
        else {
            return Err("only array elements can be read or written".into());
        };
        let name = match &base.kind {
            ExprKind::Var(v) if base.ty.space() == Some(AddrSpace::Global) => {
                self.name(*v)?.to_string()
            }
            ExprKind::ArrayBase(id) => {
                let decl = self.k.arrays.get(*id).ok_or("an undeclared array")?;
                if decl.shape != *dims {
                    return Err(format!("array `{}` indexed with another shape", decl.name));
                }
                self.arrays[*id].clone()
            }
            _ => return Err("an element pointer into something other than an array".into()),
        };
        let mut idx = Vec::new();
        for i in indices {
            let bare = strippable(i).filter(|x| x.ty.dtype().is_int());
            idx.push(match bare {
                Some(x) if i.ty.dtype() == DType::I64 => self.expr(x)?,
                _ if i.ty.dtype() == DType::I64 => self.expr(i)?,
                _ => return Err(format!("an index of type {}", i.ty)),
            });
        }
        Ok(format!("{name}[{}]", idx.join(", ")))
    }

    fn atomic(
        &mut self,
        op: AtomicOp,
        ptr: &'k Expr,
        val: &'k Expr,
        cmp: Option<&'k Expr>,
    ) -> PResult<String> {
        let d = ptr.ty.dtype();
        let place = self.place(ptr)?;
        let (arr, idx) = place
            .split_once('[')
            .map(|(a, i)| (a.to_string(), i.trim_end_matches(']').to_string()))
            .ok_or("an atomic on something other than an array element")?;
        let idx = if idx.contains(',') {
            format!("({idx})")
        } else {
            idx
        };
        let name = match op {
            AtomicOp::And => "and_",
            AtomicOp::Or => "or_",
            op => op.name(),
        };
        let mut args = vec![arr, idx];
        if let Some(c) = cmp {
            args.push(self.operand_as(c, d)?);
        }
        args.push(self.operand_as(val, d)?);
        Ok(format!("cuda.atomic.{name}({})", args.join(", ")))
    }
}

// ---- typing rules (the front end's, from `types`) -------------------------------------

impl<'k> Statements<'k> for Printer<'k> {
    fn let_stmt(&mut self, v: VarId, e: &'k Expr) -> PResult<()> {
        let unused = self.uses.get(v) == Some(&0);
        if unused && matches!(e.kind, ExprKind::Atomic { .. }) && self.var_name(v).starts_with('_')
        {
            let a = self.expr(e)?;
            self.line(&a);
            return Ok(());
        }
        let dv = self.k.vars.get(v).map(|x| x.1.dtype());
        // inside a loop or branch the front end converts to the type the
        // variable already has
        let converts = self.src.depth > 0 && self.declared.get(v) == Some(&true) && !self.explicit;
        let rhs = match (converts, dv) {
            (true, Some(d)) => self.operand_as(e, d)?,
            _ => self.expr(e)?,
        };
        let name = self.name(v)?.to_string();
        if let Some(d) = self.declared.get_mut(v) {
            *d = true;
        }
        self.line(&format!("{name} = {rhs}"));
        Ok(())
    }

    fn store_stmt(&mut self, st: StoreParts<'k>) -> PResult<()> {
        if st.mask.is_some() {
            return Err("a masked store has no CUDA Python form".into());
        }
        let target = self.place(st.ptr)?;
        let value = self.operand_as(st.value, st.ptr.ty.dtype())?;
        self.line(&format!("{target} = {value}"));
        Ok(())
    }

    fn range_loop(&mut self, var: VarId, range: [&'k Expr; 3], body: &'k [Stmt]) -> PResult<()> {
        self.for_stmt(var, range, body)
    }

    fn own_stmt(&mut self, _: &'k Stmt, own: Own<'k>) -> PResult<()> {
        match own {
            Own::Barrier => self.simple("cuda.syncthreads()"),
            Own::Print(prefix, args) => self.print_stmt(prefix, args),
            Own::Gemm => Err("T.gemm is TileLang's; CUDA Python has none".into()),
            Own::ParallelFor => Err("a parallel loop has no CUDA Python form".into()),
        }
    }
}

/// An if-expression's branches print where the front end converts them
/// as the IR does; an operand of `and`/`or` is any expression.
impl<'k> Deferring<'k> for Printer<'k> {
    type At = VarId;
    type Branch = ();
    type Out = String;

    const WHAT: &'static str = "an if-expression";

    fn pending(&mut self) -> (&'k Kernel, (&[usize], &[usize]), &mut Pending<'k>) {
        (self.k, (&self.defs, &self.uses), &mut self.deferred)
    }

    fn branch(&mut self, _: &'k Expr) -> PResult<()> {
        Ok(())
    }

    fn if_exp(
        &mut self,
        r: VarId,
        c: String,
        (a, _): (&'k Expr, ()),
        (b, _): (&'k Expr, ()),
    ) -> PResult<String> {
        if self.explicit {
            // both branches with their conversions: numba prunes a constant
            // condition's other branch before typing, so the expression
            // takes the kept branch's own type
            let (ta, tb) = (self.expr(a)?, self.expr(b)?);
            return Ok(format!("({ta} if {c} else {tb})"));
        }
        let rd = self.k.vars.get(r).map_or(DType::Bool, |x| x.1.dtype());
        let Some((fa, fb)) = pick(a, b, rd, |x, y| {
            let c = types::compare_type(x, y);
            Some((c, c))
        }) else {
            return Err("an if-expression's branches are converted unlike CUDA Python".into());
        };
        let ta = self.expr(fa)?;
        let tb = self.expr(fb)?;
        Ok(format!("({ta} if {c} else {tb})"))
    }

    fn bool_operand(&mut self, e: &'k Expr) -> PResult<String> {
        self.expr(e)
    }

    fn bool_op(&mut self, _: VarId, text: String) -> PResult<String> {
        Ok(text)
    }
}

impl<'k> Structured<'k> for Printer<'k> {
    fn source(&mut self) -> &mut pattern::Source {
        &mut self.src
    }

    /// Prints the statement(s) at `b[i]`; the number consumed.
    fn stmt_at(&mut self, b: &'k [Stmt], i: usize) -> PResult<usize> {
        let claimed = match self.defer_at(b, i) {
            Some(n) => Some(n),
            None => self.grid_tuple(b, i)?,
        };
        match claimed {
            Some(n) => Ok(n),
            None => self.stmt(&b[i]).map(|()| 1),
        }
    }

    /// A condition: a bool expression.
    fn cond_text(&mut self, e: &'k Expr) -> PResult<String> {
        control::bool_condition(e)?;
        self.expr(e)
    }
}

/// How the front end types `a OP b` for operands of dtypes `x`, `y`: the
/// dtype both are converted to and the result's dtype.
fn rule(op: BinOp, x: DType, y: DType) -> Option<(DType, DType)> {
    let c = types::promote(x, y);
    let fl = |x: DType, y: DType| {
        if x == DType::F32 && y == DType::F32 {
            DType::F32
        } else {
            DType::F64
        }
    };
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => Some((c, c)),
        // the front end's `+ - *` of int64 (numba's `nsw`)
        BinOp::NoSignedWrap(_) if c == DType::I64 => Some((c, c)),
        BinOp::FDiv => {
            let f = types::truediv_type(x, y);
            Some((f, f))
        }
        BinOp::IDiv(d) if d == types::INT_DIV && !c.is_float() => {
            let r = types::floordiv_result(c);
            Some((r, r))
        }
        BinOp::IRem(d) if d == types::INT_DIV && !c.is_float() => Some((c, c)),
        BinOp::And | BinOp::Or | BinOp::Xor if !x.is_float() && !y.is_float() => {
            let c = types::compare_type(x, y);
            Some((c, c))
        }
        BinOp::Shl(ShiftRange::Ub) if !x.is_float() && !y.is_float() => Some((c, c)),
        BinOp::Shr(k, ShiftRange::Ub) if !x.is_float() && !y.is_float() => {
            let want = if c.is_signed_int() {
                ShrKind::Arith
            } else {
                ShrKind::Logical
            };
            (k == want).then_some((c, c))
        }
        op if op.is_comparison() => Some((types::compare_type(x, y), DType::Bool)),
        // `min`/`max` is `Min`/`Max` only on two floats (libdevice) or
        // integers; a float with an int is Python's algorithm, a select
        BinOp::Min(NanMode::Ignore) | BinOp::Max(NanMode::Ignore)
            if !c.is_float() || (libdevice_float(x) && libdevice_float(y)) =>
        {
            Some((c, c))
        }
        BinOp::FRem | BinOp::Pow | BinOp::Atan2 | BinOp::Hypot | BinOp::CopySign => {
            let f = fl(x, y);
            Some((f, f))
        }
        _ => None,
    }
}

/// A float that numba-cuda's two-operand `min`/`max` sends to libdevice.
fn libdevice_float(d: DType) -> bool {
    matches!(d, DType::F32 | DType::F64)
}

fn syntax(op: BinOp) -> Option<Syntax> {
    use Syntax::*;
    Some(match op {
        BinOp::NoSignedWrap(a) => return syntax(a.op()),
        BinOp::Add => Infix("+"),
        BinOp::Sub => Infix("-"),
        BinOp::Mul => Infix("*"),
        BinOp::FDiv => Infix("/"),
        BinOp::IDiv(_) => Infix("//"),
        BinOp::IRem(_) => Infix("%"),
        BinOp::And => Infix("&"),
        BinOp::Or => Infix("|"),
        BinOp::Xor => Infix("^"),
        BinOp::Shl(_) => Infix("<<"),
        BinOp::Shr(..) => Infix(">>"),
        BinOp::Eq => Infix("=="),
        BinOp::Ne => Infix("!="),
        BinOp::Lt => Infix("<"),
        BinOp::Le => Infix("<="),
        BinOp::Gt => Infix(">"),
        BinOp::Ge => Infix(">="),
        BinOp::Min(_) => Call("min"),
        BinOp::Max(_) => Call("max"),
        BinOp::FRem => Call("math.fmod"),
        BinOp::Pow => Call("math.pow"),
        BinOp::Atan2 => Call("math.atan2"),
        BinOp::Hypot => Call("math.hypot"),
        BinOp::CopySign => Call("math.copysign"),
        _ => return None,
    })
}

/// The ways an operand may be printed: without its conversion first (when
/// it is one), then as it is.
fn forms(e: &Expr) -> Vec<&Expr> {
    match strippable(e) {
        Some(x) => vec![x, e],
        None => vec![e],
    }
}

/// The operand of a conversion that may be printed without it: not a
/// pointer, and not an integer `-x`/`~x`, which widens itself.
fn strippable(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Cast(x, CONVERT) => {
            let widening = matches!(x.kind, ExprKind::Unary(UnOp::Neg | UnOp::Not, _))
                && !x.ty.dtype().is_float();
            (!widening && !x.ty.is_ptr()).then_some(&**x)
        }
        _ => None,
    }
}

/// Whether the front end, given the printed operand `src`, converts it to
/// `to` and so rebuilds `node`.
fn gives(src: &Expr, to: DType, node: &Expr) -> bool {
    if std::ptr::eq(src, node) {
        return node.ty.dtype() == to;
    }
    src.ty.dtype() != to && node.ty.dtype() == to
}

/// The operands to print for a node of dtype `result` whose operands are
/// `a` and `b`, typed by `rule`: without their conversions where the front
/// end inserts exactly those.
fn pick<'e>(
    a: &'e Expr,
    b: &'e Expr,
    result: DType,
    rule: impl Fn(DType, DType) -> Option<(DType, DType)>,
) -> Option<(&'e Expr, &'e Expr)> {
    for fa in forms(a) {
        for fb in forms(b) {
            let Some((c, r)) = rule(fa.ty.dtype(), fb.ty.dtype()) else {
                continue;
            };
            if r == result && gives(fa, c, a) && gives(fb, c, b) {
                return Some((fa, fb));
            }
        }
    }
    None
}

/// `int64(ID(d))` for a thread/block id or dimension `ID`.
fn is_wide(e: &Expr, want: ExprKind) -> bool {
    match &e.kind {
        ExprKind::Cast(x, CONVERT) => {
            e.ty.dtype() == DType::I64 && x.ty.dtype() == DType::I32 && x.kind == want
        }
        _ => false,
    }
}

/// `cuda.grid`'s component `d`: `threadIdx + blockIdx * blockDim` in int64.
fn is_grid(e: &Expr, d: u8) -> bool {
    let ExprKind::Binary(BinOp::Add, t, m) = &e.kind else {
        return false;
    };
    let ExprKind::Binary(BinOp::Mul, b, n) = &m.kind else {
        return false;
    };
    is_wide(t, ExprKind::ThreadId(d))
        && is_wide(b, ExprKind::BlockId(d))
        && is_wide(n, ExprKind::BlockDim(d))
}

/// `cuda.gridsize`'s component `d`: `blockDim * gridDim` in int64.
fn is_gridsize(e: &Expr, d: u8) -> bool {
    let ExprKind::Binary(BinOp::Mul, b, g) = &e.kind else {
        return false;
    };
    is_wide(b, ExprKind::BlockDim(d)) && is_wide(g, ExprKind::GridDim(d))
}

// ---- leaves -------------------------------------------------------------------------------

fn id_text(what: &str, d: u8, e: &Expr) -> PResult<String> {
    let axis = ["x", "y", "z"]
        .get(d as usize)
        .ok_or("an id of dimension > 2")?;
    if e.ty.dtype() != DType::I32 {
        return Err(format!("cuda.{what} is int32, not {}", e.ty));
    }
    Ok(format!("cuda.{what}.{axis}"))
}

/// The type object that converts to `d`.
fn type_name(d: DType) -> PResult<String> {
    match d {
        DType::Bool => Ok("bool_".into()),
        d if d == DType::BF16 || d.is_fp8() => Err(format!("CUDA Python has no {} type", d.name())),
        d => Ok(Named(d).to_string()),
    }
}

/// The `math` module's name of a function whose float argument keeps its
/// type (float32) or becomes float64.
fn math_name(f: MathFn) -> Option<&'static str> {
    use MathFn::*;
    Some(match f {
        Exp | Log | Log2 | Log10 | Log1p | Expm1 | Sqrt | Sin | Cos | Tan | Asin | Acos | Atan
        | Sinh | Cosh | Tanh | Asinh | Acosh | Atanh | Erf | Floor | Ceil => f.name(),
        Abs => "fabs",
        _ => return None,
    })
}

/// A constant of dtype `d` as CUDA Python writes it (literals are int64,
/// float64 or bool; others convert one).
fn const_text(d: DType, bits: u64) -> PResult<String> {
    let bits = bits & d.mask();
    match d {
        DType::Bool => Ok(if bits != 0 { "True" } else { "False" }.into()),
        DType::I64 => Ok(int_literal(ksem_interp::ops::int_value(d, bits))),
        DType::U64 if bits > i64::MAX as u64 => Ok(bits.to_string()),
        DType::F64 => float_literal(f64::from_bits(bits)),
        d if d.is_float() => {
            let v = ksem_interp::float::to_f64(d, bits);
            let back = ksem_interp::ops::cast(CONVERT, DType::F64, d, v.to_bits());
            if back != Ok(bits) {
                return Err(format!(
                    "the {} constant {bits:#x} has no literal",
                    d.name()
                ));
            }
            Ok(format!("{}({})", type_name(d)?, float_literal(v)?))
        }
        d => Ok(format!(
            "{}({})",
            type_name(d)?,
            int_literal(ksem_interp::ops::int_value(d, bits))
        )),
    }
}

fn int_literal(v: i128) -> String {
    if v == i64::MIN as i128 {
        "(-9223372036854775807 - 1)".into()
    } else if v < 0 {
        format!("(-{})", -v)
    } else {
        v.to_string()
    }
}

fn float_literal(v: f64) -> PResult<String> {
    if v.is_nan() {
        return if v.to_bits() == ksem_interp::ops::fround(DType::F64, f64::NAN) {
            Ok("math.nan".into())
        } else {
            Err(format!("the NaN {:#x} has no literal", v.to_bits()))
        };
    }
    let mag = if v.is_infinite() {
        "math.inf".to_string()
    } else {
        format!("{:?}", v.abs())
    };
    Ok(if v.is_sign_negative() {
        format!("(-{mag})")
    } else {
        mag
    })
}

// ---- names ----------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use ksem_interp::launch::parse_launch;

    const LAUNCH: &str = r#"{"grid": [2], "block": [8],
        "args": {"a": {"buffer": {"dtype": "int16", "len": 16}},
                 "f": {"buffer": {"dtype": "float32", "len": 16}},
                 "acc": {"buffer": {"dtype": "int64", "len": 4}},
                 "out": {"buffer": {"dtype": "float64", "len": 16}}}}"#;

    /// Elaborates `body`, prints it, elaborates the print: the same program.
    fn round_trip(body: &str) -> String {
        let src = format!(
            "from numba import cuda, int16, int32, float32, float64\nimport math\n\n@cuda.jit\ndef k(a, f, acc, out):\n{body}"
        );
        let l = parse_launch(LAUNCH).expect("launch");
        let k = ksem_interp::elaborate_source("k.py", &src, &l, None).expect("elaborates");
        let text = kernel(&k).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let k2 = ksem_interp::elaborate_source("p.py", &text, &l, None)
            .unwrap_or_else(|e| panic!("{}\n{text}", e.render()));
        if let Err(e) = ksem_interp::ir::canon::same_program(&k, &k2) {
            panic!("{e}\n--- source\n{src}\n--- printed\n{text}");
        }
        text
    }

    /// The header imports on the real system where the peer's Python has
    /// numba-cuda (numba's simulator stands in for a GPU; CI runs this with
    /// `$PYTHON` set to its numba-cuda environment); SKIPPED elsewhere.
    #[test]
    fn real_system_imports_the_printed_header() {
        let python = crate::registry::peer_of(ksem_interp::frontend::Dialect::CudaPy).python();
        let run = |code: &str| {
            std::process::Command::new(&python)
                .args(["-c", code])
                .env("NUMBA_ENABLE_CUDASIM", "1")
                .output()
        };
        if !run("import numba.cuda").is_ok_and(|o| o.status.success()) {
            eprintln!("SKIPPED: {python} has no numba-cuda; the header was not imported");
            return;
        }
        let out = run(HEADER).expect("python runs");
        assert!(
            out.status.success(),
            "{HEADER}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    #[test]
    fn idioms_print_back() {
        let t = round_trip(
            "    i = cuda.grid(1)\n    s = cuda.shared.array(8, float32)\n    x = a[i]\n    s[cuda.threadIdx.x] = x * 0.5\n    cuda.syncthreads()\n    y = (x + 3) // 2 if x > -1 else x % 4\n    cuda.atomic.max(acc, 1, y)\n    for k in range(3):\n        if k == 1 and y > 2:\n            break\n        y = y + k\n    out[i] = math.sqrt(f[i]) + s[0] / 3 + (-x) + abs(x)\n",
        );
        for idiom in [
            "cuda.grid(1)",
            "cuda.shared.array(8, float32)",
            "cuda.syncthreads()",
            " if ",
            "cuda.atomic.max(acc, 1, ",
            "for k in range(3):",
            " and ",
            "math.sqrt(f[i])",
        ] {
            assert!(t.contains(idiom), "{idiom} missing from:\n{t}");
        }
        assert!(
            !t.contains("int64("),
            "a conversion CUDA Python inserts itself:\n{t}"
        );
    }

    #[test]
    fn tuples_of_ids_print_back() {
        let t = round_trip(
            "    gx, gy = cuda.grid(2)\n    w, h = cuda.gridsize(2)\n    out[gy * w + gx] = float64(h) + cuda.blockDim.y\n",
        );
        assert!(
            t.contains("gx, gy = cuda.grid(2)") && t.contains("w, h = cuda.gridsize(2)"),
            "{t}"
        );
    }

    #[test]
    fn what_has_no_form_is_an_error() {
        let l = parse_launch(LAUNCH).expect("launch");
        let src = "from numba import cuda\n\n@cuda.jit\ndef k(a, f, acc, out):\n    i = cuda.grid(1)\n    out[i] = f[i] // 2.0\n";
        let mut k = ksem_interp::elaborate_source("k.py", src, &l, None).expect("elaborates");
        assert!(kernel(&k).is_err(), "float floor division selects");
        k.model = Model::Tile;
        assert!(kernel(&k).is_err());
    }
}
