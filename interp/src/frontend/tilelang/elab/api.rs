//! The elaborator's programmatic entry points: what a TileLang construct
//! elaborates to, for a caller that holds values instead of syntax (the
//! fuzzer builds kernels with them, and its printer checks with them that a
//! text elaborates to a node). Each entry point is the rule the syntax
//! path itself calls, so the two cannot differ.
//!
//! The surface is small: a [`Value`] is opaque apart from its constructors
//! and what it holds, a [`Buffer`] tells its name, dtype, shape and
//! space, a [`BufRegion`] is made from buffers and values only.

use super::*;

/// A value during elaboration: a runtime number (an IR expression), a
/// Python value known at compile time, or a buffer.
#[derive(Clone, Debug)]
pub struct Value(pub(super) Val);

impl Value {
    /// A Python int.
    pub fn int(i: i128) -> Value {
        Value(Val::Py(Const::Num(PyNum::Int(i))))
    }

    /// A Python float.
    pub fn float(f: f64) -> Value {
        Value(Val::Py(Const::Num(PyNum::Float(f))))
    }

    /// A Python bool.
    pub fn boolean(b: bool) -> Value {
        Value(Val::Py(Const::Num(PyNum::Bool(b))))
    }

    /// A Python string (a rounding mode, a dtype name).
    pub fn string(s: &str) -> Value {
        Value(Val::Py(Const::Str(s.to_string())))
    }

    /// A dtype object (`T.float16`).
    pub fn of_dtype(d: DType) -> Value {
        Value(Val::Py(Const::Type(d)))
    }

    /// A 0-d runtime value.
    pub fn runtime(e: Expr) -> Value {
        Value(Val::Num(e))
    }

    /// The expression of a runtime value.
    pub fn expr(&self) -> Option<&Expr> {
        match &self.0 {
            Val::Num(e) => Some(e),
            _ => None,
        }
    }

    /// The Python value of a compile-time value.
    pub fn constant(&self) -> Option<&Const> {
        match &self.0 {
            Val::Py(c) => Some(c),
            _ => None,
        }
    }

    /// The buffer a value names.
    pub fn buffer(&self) -> Option<Buffer> {
        match &self.0 {
            Val::Buf(b) => Some(Buffer(b.clone())),
            _ => None,
        }
    }

    /// The dtype the value computes in: a runtime value's, a Python
    /// number's literal dtype, a `T.alloc_var`'s element dtype; `None` for
    /// other values.
    pub fn num_dtype(&self) -> Option<DType> {
        match &self.0 {
            Val::Num(e) => Some(dtype_of(e)),
            Val::Buf(b) if b.scalar => Some(b.dtype),
            Val::Py(Const::Num(PyNum::Int(i))) => Some(types::int_literal_dtype(*i)),
            Val::Py(Const::Num(PyNum::Float(_))) => Some(DType::F32),
            Val::Py(Const::Num(PyNum::Bool(_))) => Some(DType::Bool),
            _ => None,
        }
    }
}

impl From<&Buffer> for Value {
    fn from(b: &Buffer) -> Value {
        Value(Val::Buf(b.0.clone()))
    }
}

/// A buffer: a tensor parameter or an allocation of the kernel.
#[derive(Clone, Debug)]
pub struct Buffer(pub(super) Buf);

impl Buffer {
    /// Its name (a parameter's; `alloc_shared0` … for allocations).
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// The dtype of its elements.
    pub fn dtype(&self) -> DType {
        self.0.dtype
    }

    /// Its shape.
    pub fn shape(&self) -> &[usize] {
        &self.0.shape
    }

    /// Where it lives.
    pub fn space(&self) -> AddrSpace {
        self.0.space
    }

    /// Whether it is a `T.alloc_var` (its name alone means its element).
    pub fn is_var(&self) -> bool {
        self.0.scalar
    }
}

/// Part of a buffer, an operand of `T.copy`.
#[derive(Clone, Debug)]
pub struct BufRegion(pub(super) Region);

impl BufRegion {
    /// The whole buffer.
    pub fn whole(b: &Buffer) -> BufRegion {
        BufRegion(Region::whole(b.0.clone(), Span::default()))
    }
}

/// One dimension of a region: an index or a slice `lo:hi`.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // a few per region, built once
pub enum Part {
    Index(Value),
    Slice(Value, Value),
}

/// The kinds of TileLang loops. Only `T.Parallel` differs in meaning
/// (its iterations are independent); the others are one sequential loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopKind {
    /// `range(…)`.
    Range,
    /// `T.serial(…)`.
    Serial,
    /// `T.unroll(…)`.
    Unroll,
    /// `T.Pipelined(…)`.
    Pipelined,
    /// `T.Parallel(…)`.
    Parallel,
    /// `T.grid(…)`.
    Grid,
}

impl Region {
    /// The whole of `b`.
    pub(super) fn whole(b: Buf, span: Span) -> Region {
        Region {
            starts: vec![konst(DType::I64, 0, span); b.shape.len()],
            extents: b.shape.iter().map(|&n| Some(n)).collect(),
            buf: b,
        }
    }
}

impl<'m> Elab<'m> {
    /// An elaborator for a kernel of `m` that sees its module constants.
    pub fn for_module(m: &'m Module) -> Self {
        Elab::new(m, m.globals.clone())
    }

    /// What `name` denotes here (`None`: unbound).
    pub fn lookup(&self, name: &str) -> Option<Value> {
        self.env.get(name).cloned().map(Value)
    }

    /// A tensor parameter `name: T.Tensor(shape, d)`, bound to its name.
    pub fn buffer_param(&mut self, name: &str, d: DType, shape: Vec<usize>, span: Span) -> Buffer {
        Buffer(self.global_param(name, d, shape, false, span))
    }

    /// `with T.Kernel(grid…, threads=threads) as names:`; the statements
    /// that follow are the kernel's body.
    pub fn kernel_launch(
        &mut self,
        grid: &[i128],
        threads: &[i128],
        names: &[&str],
        span: Span,
    ) -> DResult<()> {
        let sizes: Vec<(Option<i128>, Span)> = grid.iter().map(|&g| (Some(g), span)).collect();
        let t = match threads {
            [] => None,
            [one] => Some((Const::Num(PyNum::Int(*one)), span)),
            many => Some((
                Const::Tuple(many.iter().map(|&n| Const::Num(PyNum::Int(n))).collect()),
                span,
            )),
        };
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        self.bind_launch(&sizes, t, &names, span)
    }

    /// The kernel `name` for `launch`, once its body has been elaborated.
    pub fn finish_kernel(self, name: &str, launch: &Launch, span: Span) -> DResult<Kernel> {
        self.finish_at(name, span, launch)
    }

    /// `l op r` for a Python arithmetic or bitwise operator.
    pub fn binop(&mut self, op: ast::Operator, l: Value, r: Value, span: Span) -> DResult<Value> {
        self.bin_val(Binary {
            op,
            l: l.0,
            r: r.0,
            span,
        })
        .map(Value)
    }

    /// `op v` for a Python unary operator.
    pub fn unop(&mut self, op: ast::UnaryOp, v: Value, span: Span) -> DResult<Value> {
        self.un_val(op, v.0, span).map(Value)
    }

    /// `l op r` for a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`).
    pub fn compare(&mut self, op: ast::CmpOp, l: Value, r: Value, span: Span) -> DResult<Value> {
        let Some(op) = crate::frontend::py::value_cmp(op) else {
            return err(span, format!("{op:?} is not a comparison of numbers"));
        };
        self.cmp_val(op, l.0, r.0, span).map(Value)
    }

    /// `T.f(args…)` for the T.* functions of values: `min`, `max`, `abs`,
    /// `clamp`, `floordiv`, `floormod`, `truncdiv`, `truncmod`, `ceildiv`,
    /// the math functions, `Cast` (a dtype value first) and `ieee_*` (a
    /// rounding-mode string after the operands, `"rn"` where left out).
    pub fn call_fn(&mut self, f: &str, args: Vec<Value>, span: Span) -> DResult<Value> {
        let mut vals: Vec<Val> = args.into_iter().map(|v| v.0).collect();
        match f {
            "Cast" | "cast" => {
                let [a, b]: [Val; 2] = vals
                    .try_into()
                    .map_err(|_| Diagnostic::new(span, "T.Cast takes (dtype, value)"))?;
                // T.Cast(dtype, value), T.cast(value, dtype)
                let (d, v) = if f == "Cast" { (a, b) } else { (b, a) };
                let d = match d {
                    Val::Py(c) => c.as_dtype(),
                    _ => None,
                }
                .ok_or_else(|| Diagnostic::new(span, "T.Cast needs a dtype"))?;
                Ok(Value(Val::Num(self.cast(v, d, span)?)))
            }
            _ if f.starts_with("ieee_") => {
                if f == "ieee_frsqrt" && vals.len() > 1 {
                    return err(span, "T.ieee_frsqrt takes one operand and no rounding mode");
                }
                let mode = if vals.len() > expr::ieee_arity(f) {
                    match vals.pop() {
                        Some(Val::Py(Const::Str(m))) => expr::rounding_mode(&m, span)?,
                        _ => return err(span, "the rounding mode is a string"),
                    }
                } else {
                    Rounding::NearestEven
                };
                self.ieee_val(f, vals, mode, span).map(Value)
            }
            _ => self.call_val(f, vals, span).map(Value),
        }
    }

    /// `T.if_then_else(cond, a, b)`: `branch(true)` builds `a` and
    /// `branch(false)` `b`, each evaluated only where taken.
    pub fn if_then_else(
        &mut self,
        cond: Value,
        mut branch: impl FnMut(&mut Self, bool) -> DResult<Value>,
        span: Span,
    ) -> DResult<Value> {
        let c = self.condition(cond, span)?;
        self.select_with(c, &mut |me, t| branch(me, t).map(|v| v.0), span)
            .map(Value)
    }

    /// `v0 and v1 and …` (`or` where `!and`) of `n` values, `value(k)`
    /// building the k-th where it is needed.
    pub fn bool_values(
        &mut self,
        and: bool,
        n: usize,
        mut value: impl FnMut(&mut Self, usize) -> DResult<Value>,
        span: Span,
    ) -> DResult<Value> {
        self.bool_with(and, n, &mut |me, k| value(me, k).map(|v| v.0), span)
            .map(Value)
    }

    /// The bool condition `if v:` tests.
    pub fn condition(&self, v: Value, span: Span) -> DResult<Expr> {
        self.truth(self.num(v.0, span)?, span)
    }

    /// The runtime value of `v` (a Python number as its literal).
    pub fn number(&self, v: Value, span: Span) -> DResult<Expr> {
        self.num(v.0, span)
    }

    /// The dtype the two branches of `T.if_then_else` meet in, and the
    /// branches converted to it.
    pub fn branch_join(a: Expr, b: Expr, span: Span) -> DResult<(DType, Expr, Expr)> {
        select_join(a, b, span)
    }

    /// The value an element of dtype `d` receives when `v` is stored into it.
    pub fn stored(&self, v: Value, d: DType, span: Span) -> DResult<Expr> {
        Ok(convert(self.num(v.0, span)?, d))
    }

    /// `b[idx…]` as a value.
    pub fn load(&self, b: &Buffer, idx: Vec<Value>, span: Span) -> DResult<Value> {
        let idx: Vec<Val> = idx.into_iter().map(|v| v.0).collect();
        let p = self.elem_ptr(&b.0, idx, span)?;
        Ok(Value(Val::Num(load(p, b.0.dtype, span))))
    }

    /// `b[idx…] = v`.
    pub fn store_element(
        &mut self,
        b: &Buffer,
        idx: Vec<Value>,
        v: Value,
        span: Span,
    ) -> DResult<()> {
        let idx: Vec<Val> = idx.into_iter().map(|v| v.0).collect();
        self.store_val(&b.0, idx, v.0, span)
    }

    /// `name = v`.
    pub fn assign_name(&mut self, name: &str, v: Value, span: Span) -> DResult<()> {
        self.assign_name_val(name, v.0, span)
    }

    /// `T.alloc_shared(shape, d)`, `T.alloc_fragment(…)` or
    /// `T.alloc_local(…)` (`f` names which).
    pub fn allocate(
        &mut self,
        f: &str,
        d: DType,
        shape: Vec<usize>,
        span: Span,
    ) -> DResult<Buffer> {
        let space = match f {
            "alloc_shared" => AddrSpace::Shared,
            "alloc_fragment" | "alloc_local" => AddrSpace::Local,
            other => return err(span, format!("T.{other} is not an allocation")),
        };
        Ok(Buffer(self.alloc(f, d, shape, space, false, span)))
    }

    /// `T.alloc_var(d, init=…)`.
    pub fn allocate_var(&mut self, d: DType, init: Option<Value>, span: Span) -> DResult<Buffer> {
        self.alloc_var(d, init.map(|v| v.0), span).map(Buffer)
    }

    /// `for names in kind(…)` over `ranges` (start, end, step; one per
    /// name, outermost first), `body` building the body. (Names the body
    /// rebinds are not made runtime variables first, as the syntax path
    /// does for names bound to Python numbers: rebind only runtime values.)
    pub fn for_loop(
        &mut self,
        kind: LoopKind,
        names: &[&str],
        ranges: Vec<(Value, Value, Value)>,
        body: impl FnOnce(&mut Self) -> DResult<()>,
        span: Span,
    ) -> DResult<()> {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let ranges = ranges
            .into_iter()
            .map(|(a, b, c)| (a.0, b.0, c.0))
            .collect();
        let mut body = Some(body);
        self.for_with(
            kind,
            &names,
            ranges,
            &[],
            &mut |me| match body.take() {
                Some(b) => b(me),
                None => Ok(()),
            },
            span,
        )
    }

    /// `if cond:` … `else:` …, `body(true)` building the first branch and
    /// `body(false)` the second (only the one taken where `cond` is a
    /// Python value).
    pub fn if_stmt(
        &mut self,
        cond: Value,
        mut body: impl FnMut(&mut Self, bool) -> DResult<()>,
        span: Span,
    ) -> DResult<()> {
        self.if_with(cond.0, &[], &mut |me, t| body(me, t), span)
    }

    /// The region `b[parts…]` (indices and slices).
    pub fn region_parts(&mut self, b: &Buffer, parts: Vec<Part>, span: Span) -> DResult<BufRegion> {
        let parts = parts
            .into_iter()
            .map(|p| match p {
                Part::Index(i) => (i.0, None, span),
                Part::Slice(lo, hi) => (lo.0, Some(hi.0), span),
            })
            .collect();
        self.region_of(&b.0, parts).map(BufRegion)
    }

    /// The region that starts at `b[idx…]`, its extent the other side's
    /// (`T.copy(A[i, j], S)`).
    pub fn region_at(&mut self, b: &Buffer, idx: Vec<Value>, span: Span) -> DResult<BufRegion> {
        let idx = idx.into_iter().map(|v| v.0).collect();
        self.element_region(b.0.clone(), idx, span).map(BufRegion)
    }

    /// `T.copy(src, dst)`.
    pub fn copy_regions(&mut self, src: BufRegion, dst: BufRegion, span: Span) -> DResult<()> {
        self.copy(src.0, dst.0, span)
    }

    /// `T.reduce_sum(src, dst, dim=dim, clear=clear)` and the other
    /// `T.reduce_*` (`f` names which).
    pub fn reduce_buffers(
        &mut self,
        f: &str,
        src: &Buffer,
        dst: &Buffer,
        dim: i128,
        clear: bool,
        span: Span,
    ) -> DResult<()> {
        let rank = src.0.shape.len() as i128;
        let dim = if dim < 0 { dim + rank } else { dim };
        if !(0..rank).contains(&dim) {
            return err(
                span,
                format!("dim {dim} is out of range for a {rank}-dimensional buffer"),
            );
        }
        if !matches!(
            f,
            "reduce_sum" | "reduce_max" | "reduce_min" | "reduce_abssum" | "reduce_absmax"
        ) {
            return err(span, format!("T.{f} is not a reduction"));
        }
        self.reduce_with(f, &src.0, &dst.0, dim as usize, clear, span)
    }

    /// `T.atomic_add(b[idx…], v)` (also `atomic_max`, `atomic_min`: `f`).
    pub fn atomic_update(
        &mut self,
        f: &str,
        b: &Buffer,
        idx: Vec<Value>,
        v: Value,
        span: Span,
    ) -> DResult<()> {
        if !matches!(f, "atomic_add" | "atomic_max" | "atomic_min") {
            return err(span, format!("T.{f} is not an atomic update"));
        }
        let idx = idx.into_iter().map(|v| v.0).collect();
        self.atomic_elem(atomic_op(f), &b.0, idx, v.0, span)
    }

    /// The name of variable `v` (the front end's temporaries start with `_`).
    pub fn var_name(&self, v: VarId) -> Option<&str> {
        self.vars.get(v).map(|x| x.0.as_str())
    }

    /// How many statements the current block holds (see [`Elab::take_since`]).
    pub fn mark(&self) -> usize {
        self.blocks.last().map_or(0, Vec::len)
    }

    /// The statements emitted into the current block since `mark`, taken out.
    pub fn take_since(&mut self, mark: usize) -> Vec<Stmt> {
        match self.blocks.last_mut() {
            Some(b) if mark <= b.len() => b.split_off(mark),
            _ => Vec::new(),
        }
    }
}

/// The atomic operation of `T.atomic_add` / `atomic_max` / `atomic_min`.
pub(super) fn atomic_op(f: &str) -> AtomicOp {
    match f {
        "atomic_add" => AtomicOp::Add,
        "atomic_max" => AtomicOp::Max,
        _ => AtomicOp::Min,
    }
}
