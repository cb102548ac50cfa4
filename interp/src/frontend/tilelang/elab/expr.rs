//! Expressions: values, Python constants meeting runtime values, buffer
//! elements and regions, operators with TVM's typing, calls of `T.*`,
//! helpers and host functions.

use super::*;
use crate::frontend::py::value::{compare, ops};

/// A Python float where its context is float64 (a store into a float64
/// buffer or variable, `T.float64(x)`, an operand beside a float64 value):
/// TVM makes it a float64 constant of the float's own value, not a float32
/// literal widened (measured: `tools/probes/tilelang/py_float64.py`).
/// `T.Cast("float64", x)` is not such a context: it casts a float32 literal.
pub(super) fn exact_float64(v: &Val, d: DType, span: Span) -> Option<Expr> {
    match v {
        Val::Py(Const::Num(PyNum::Float(f))) if d == DType::F64 => {
            Some(float_const(DType::F64, *f, span))
        }
        _ => None,
    }
}

impl<'m> Elab<'m> {
    /// `v` as a runtime value in a context of dtype `d`: a Python float
    /// exactly where `d` is float64 ([`exact_float64`]), else as [`Elab::num`].
    pub(super) fn num_in(&self, v: Val, d: DType, span: Span) -> DResult<Expr> {
        match exact_float64(&v, d, span) {
            Some(e) => Ok(e),
            None => self.num(v, span),
        }
    }

    /// A 0-d runtime value of `v` (Python numbers take their literal dtype).
    pub(super) fn num(&self, v: Val, span: Span) -> DResult<Expr> {
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
    pub(super) fn literal(&self, c: &Const, span: Span) -> DResult<Expr> {
        Ok(match c {
            Const::Num(PyNum::Int(i)) if i64::try_from(*i).is_ok() => {
                int_const(types::int_literal_dtype(*i), *i, span)
            }
            Const::Num(PyNum::Bool(b)) => konst(DType::Bool, *b as u64, span),
            Const::Num(PyNum::Float(f)) => float_const(DType::F32, *f, span),
            other => {
                return err(
                    span,
                    format!("{other:?} is not a number TileLang can compute with"),
                )
            }
        })
    }

    pub(super) fn cond(&mut self, e: &ast::Expr) -> DResult<Expr> {
        let span = self.span(e);
        let v = self.expr(e)?;
        let n = self.num(v, span)?;
        self.truth(n, span)
    }

    pub(super) fn truth(&self, e: Expr, span: Span) -> DResult<Expr> {
        let d = dtype_of(&e);
        Ok(if d == DType::Bool {
            e
        } else {
            bin(BinOp::Ne, e, konst(d, 0, span), span)
        })
    }

    pub(super) fn expr(&mut self, e: &ast::Expr) -> DResult<Val> {
        let span = self.span(e);
        match e {
            ast::Expr::Constant(c) => Ok(Val::Py(match &c.value {
                Constant::Int(i) => Const::Num(PyNum::Int(
                    i128::try_from(i)
                        .map_err(|_| Diagnostic::new(span, "integer literal too large"))?,
                )),
                Constant::Float(f) => Const::Num(PyNum::Float(*f)),
                Constant::Bool(b) => Const::Num(PyNum::Bool(*b)),
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
                    "True" | "False" => {
                        Ok(Val::Py(Const::Num(PyNum::Bool(n.id.as_str() == "True"))))
                    }
                    "range" => Ok(Val::Path("range".into())),
                    _ => Err(self.unknown_name(n)),
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
                self.bin_val(Binary {
                    op: b.op,
                    l,
                    r,
                    span,
                })
            }
            ast::Expr::UnaryOp(u) => {
                let v = self.expr(&u.operand)?;
                self.un_val(u.op, v, span)
            }
            ast::Expr::BoolOp(b) => self.bool_op(b, span),
            ast::Expr::Compare(c) => self.compare_expr(c, span),
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
            _ => py::exprs::refuse(e, span, DIALECT, refused_help),
        }
    }

    /// `c ? body : orelse` evaluating only the branch taken (TVM's `if_then_else`).
    pub(super) fn lazy_select(
        &mut self,
        c: Expr,
        body: &ast::Expr,
        orelse: &ast::Expr,
        span: Span,
    ) -> DResult<Val> {
        self.select_with(
            c,
            &mut |me, then| me.expr(if then { body } else { orelse }),
            span,
        )
    }

    /// `c ? a : b` where `branch(true)` elaborates `a` and `branch(false)`
    /// `b`, each in its own block: an `if` setting a `_sel` variable.
    pub(super) fn select_with(
        &mut self,
        c: Expr,
        branch: &mut dyn FnMut(&mut Self, bool) -> DResult<Val>,
        span: Span,
    ) -> DResult<Val> {
        self.blocks.push(Vec::new());
        let a = branch(self, true).and_then(|v| self.num(v, span));
        let pre_a = self.blocks.pop().expect("pushed");
        self.blocks.push(Vec::new());
        let b = branch(self, false).and_then(|v| self.num(v, span));
        let pre_b = self.blocks.pop().expect("pushed");
        let (a, b) = (a?, b?);
        let (d, a, b) = select_join(a, b, span)?;
        let r = self.new_var("_sel", Type::scalar(d));
        let mut then_body = pre_a;
        then_body.push(Stmt::Let(r, a));
        let mut else_body = pre_b;
        else_body.push(Stmt::Let(r, b));
        self.emit(Stmt::If {
            cond: c,
            then_body,
            else_body,
        });
        Ok(Val::Num(self.var_expr(r, span)))
    }

    pub(super) fn attribute(&mut self, a: &ast::ExprAttribute) -> DResult<Val> {
        if a.attr.as_str() == "bits" && matches!(&*a.value, ast::Expr::Call(_)) {
            // `DataType(dtype).bits`: host Python on a constant
            if let Ok(c) = self.py_value(&ast::Expr::Attribute(a.clone())) {
                return Ok(Val::Py(c));
            }
        }
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
                b.shape
                    .iter()
                    .map(|&n| Const::Num(PyNum::Int(n as i128)))
                    .collect(),
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

    pub(super) fn subscript(&mut self, s: &ast::ExprSubscript, span: Span) -> DResult<Val> {
        let base = self.expr(&s.value)?;
        match base {
            // Python's indexing (`py::value`)
            Val::Py(t @ (Const::Tuple(_) | Const::List(_))) => {
                let i = self
                    .py_value(&s.slice)
                    .ok()
                    .filter(|c| c.as_int().is_some())
                    .ok_or_else(|| {
                        Diagnostic::new(span, "a constant tuple takes a constant index")
                    })?;
                ops::index(&t, &i)
                    .map(Val::Py)
                    .map_err(|e| Diagnostic::new(span, format!("Python raises {e} here")))
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

    pub(super) fn buffer_of(&mut self, e: &ast::Expr) -> DResult<Buf> {
        let span = self.span(e);
        match self.expr(e)? {
            Val::Buf(b) => Ok(b),
            _ => err(span, "this is not a buffer"),
        }
    }

    /// The index expressions of a subscript (`a[i]`, `a[i, j]`).
    pub(super) fn indices(&mut self, slice: &ast::Expr) -> DResult<Vec<Val>> {
        let items: Vec<&ast::Expr> = match slice {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            one => vec![one],
        };
        items.into_iter().map(|x| self.expr(x)).collect()
    }

    /// Pointer to element `idx` of `b`; a constant negative index counts
    /// from the end (the seed: `A[-1]` is the last element).
    pub(super) fn elem_ptr(
        &self,
        b: &Buf,
        idx: Vec<impl Into<IndexArg>>,
        span: Span,
    ) -> DResult<Expr> {
        check_rank(b, idx.len(), "is indexed with", span)?;
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
                return err_help(span, format!("[Tilelang Semantic Check] Local buffer `{}` is indexed by a T.Parallel loop variable. Local buffers are thread-private and do not participate in parallel layout inference", b.name), "use T.serial/T.unroll for per-thread local indexing, or T.alloc_fragment when the indexed dimension should be distributed across threads");
            }
            out.push(convert(e, DType::I64));
        }
        Ok(mk(
            ExprKind::ElemPtr {
                base: Box::new(b.base.clone()),
                indices: out,
                dims: b.shape.clone(),
                neg: NegIndex::Ub,
                offset: None,
            },
            b.base.ty.clone(),
            span,
        ))
    }

    /// A region `a[s0:e0, i, …]` for `T.copy`/`T.fill`: slices need a
    /// compile-time extent (their bounds may be runtime values that differ by
    /// a constant).
    pub(super) fn region(&mut self, b: &Buf, slice: &ast::Expr) -> DResult<Region> {
        let items: Vec<&ast::Expr> = match slice {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            one => vec![one],
        };
        check_rank(b, items.len(), "the region names", self.span(slice))?;
        let mut parts = Vec::new();
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
                        None => Val::Py(Const::Num(PyNum::Int(0))),
                    };
                    let hi = match &s.upper {
                        Some(u) => self.expr(u)?,
                        None => Val::Py(Const::Num(PyNum::Int(dim as i128))),
                    };
                    parts.push((lo, Some(hi), span));
                }
                other => parts.push((self.expr(other)?, None, span)),
            }
        }
        self.region_of(b, parts)
    }

    /// The region of `b` with, per dimension, an index (`(i, None, span)`)
    /// or a slice `lo:hi` (`(lo, Some(hi), span)`) whose extent `hi - lo`
    /// must be a compile-time constant (its bounds may be runtime values
    /// that differ by a constant).
    pub(super) fn region_of(
        &mut self,
        b: &Buf,
        parts: Vec<(Val, Option<Val>, Span)>,
    ) -> DResult<Region> {
        let mut starts = Vec::new();
        let mut extents = Vec::new();
        for (lo, hi, span) in parts {
            match hi {
                Some(hi) => {
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
                None => {
                    let e = self.num(lo, span)?;
                    starts.push(convert(e, DType::I64));
                    extents.push(None);
                }
            }
        }
        if starts.len() != b.shape.len() {
            return err(
                Span::default(),
                format!(
                    "buffer `{}` has {} dimension(s) but the region names {}",
                    b.name,
                    b.shape.len(),
                    starts.len()
                ),
            );
        }
        Ok(Region {
            buf: b.clone(),
            starts,
            extents,
        })
    }

    /// `l op r` for a Python arithmetic or bitwise operator: Python's own
    /// arithmetic where both are compile-time numbers, else TVM's typing.
    pub(super) fn bin_val(&mut self, x: Binary<Val>) -> DResult<Val> {
        let Binary { op, l, r, span } = x;
        if let (Val::Py(a), Val::Py(b)) = (&l, &r) {
            if let Some(c) = consts::binop(op, a, b) {
                return Ok(Val::Py(c));
            }
        }
        use ast::Operator as O;
        if op == O::Pow {
            return self.power(l, r, span);
        }
        // a Python float beside a float64 value is a float64 constant
        let (a, b) = match (&l, &r) {
            (Val::Py(_), Val::Num(y)) if dtype_of(y) == DType::F64 => {
                (self.num_in(l, DType::F64, span)?, self.num(r, span)?)
            }
            (Val::Num(x), Val::Py(_)) if dtype_of(x) == DType::F64 => {
                (self.num(l, span)?, self.num_in(r, DType::F64, span)?)
            }
            _ => (self.num(l, span)?, self.num(r, span)?),
        };
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
                return err_help(span, "TVM supports multiple types of integer divisions, please call div, indexdiv/indexmod, floordiv/floormod or truncdiv/truncmod directly to avoid ambiguity in the code", "use `//` (floor), T.truncdiv or T.ceildiv");
            }
            O::Div => BinOp::FDiv,
            O::FloorDiv | O::Mod if !int => {
                return err_help(
                    span,
                    format!(
                        "`{}` on {}: TileLang floors only integers",
                        op_text(op),
                        types::dtype_name(d)
                    ),
                    "use T.floor(a / b) for floats",
                );
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
    pub(super) fn power(&mut self, l: Val, r: Val, span: Span) -> DResult<Val> {
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

    /// `op v` for a Python unary operator.
    pub(super) fn un_val(&mut self, op: ast::UnaryOp, v: Val, span: Span) -> DResult<Val> {
        if let Val::Py(c) = &v {
            // Python's own unary operators (`py::value`)
            if let Ok(Some(r)) = ops::unary(op, c) {
                return Ok(Val::Py(r));
            }
        }
        let e = self.num(v, span)?;
        let d = dtype_of(&e);
        Ok(Val::Num(match op {
            ast::UnaryOp::UAdd => e,
            ast::UnaryOp::USub if d.is_unsigned_int() => {
                return err_help(span, "unary minus of an unsigned integer: TileLang refuses it (cannot make uint from negative value -1)", "compute in a signed dtype");
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
    pub(super) fn bool_op(&mut self, b: &ast::ExprBoolOp, span: Span) -> DResult<Val> {
        let is_and = matches!(b.op, ast::BoolOp::And);
        let values = &b.values;
        self.bool_with(is_and, values.len(), &mut |me, k| me.expr(&values[k]), span)
    }

    /// `v0 and v1 and …` (`or`) of `n` values, `value(k)` elaborating the
    /// k-th where it is needed: a `_boolop` variable set by nested `if`s.
    pub(super) fn bool_with(
        &mut self,
        is_and: bool,
        n: usize,
        value: &mut dyn FnMut(&mut Self, usize) -> DResult<Val>,
        span: Span,
    ) -> DResult<Val> {
        let r = self.new_var("_boolop", Type::scalar(DType::Bool));
        let mut operand = |me: &mut Self, k: usize| {
            let v = value(me, k)?;
            let e = me.num(v, span)?;
            me.truth(e, span)
        };
        let go_on = |_: &Self, v: Expr| simt::undecided(is_and, v, span);
        self.short_circuit(r, n, &mut operand, &go_on, span)?;
        Ok(Val::Num(self.var_expr(r, span)))
    }

    pub(super) fn compare_expr(&mut self, c: &ast::ExprCompare, span: Span) -> DResult<Val> {
        if c.ops.len() != 1 {
            return py::unsupported(
                span,
                "a chained comparison",
                DIALECT,
                "combine comparisons with `and`",
            );
        }
        let op = match (py::value_cmp(c.ops[0]), c.ops[0]) {
            (Some(op), _) => op,
            (None, ast::CmpOp::In | ast::CmpOp::NotIn) => {
                return py::unsupported(
                    span,
                    "membership testing (`in`)",
                    DIALECT,
                    "compare with `==` explicitly",
                )
            }
            (None, _) => {
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
                    return Ok(Val::Py(Const::Num(PyNum::Bool(same == is))));
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
        self.cmp_val(op, l, r, span)
    }

    /// `l op r` for a comparison `op` (`BinOp::Eq` … `BinOp::Ge`): Python's
    /// where both are compile-time numbers (or strings), else in the
    /// promoted dtype.
    pub(super) fn cmp_val(&mut self, op: BinOp, l: Val, r: Val, span: Span) -> DResult<Val> {
        if let (Val::Py(a), Val::Py(b)) = (&l, &r) {
            // Python's comparison of the host values (`py::value`):
            // numbers exactly, strings, tuples, dtypes, dtype names, None
            let py_op = match op {
                BinOp::Eq => ast::CmpOp::Eq,
                BinOp::Ne => ast::CmpOp::NotEq,
                BinOp::Lt => ast::CmpOp::Lt,
                BinOp::Le => ast::CmpOp::LtE,
                BinOp::Gt => ast::CmpOp::Gt,
                _ => ast::CmpOp::GtE,
            };
            match compare::compare(py_op, a, b) {
                Ok(Some(v)) => return Ok(Val::Py(Const::bool(v))),
                Err(e) => return err(span, format!("Python raises {e} here")),
                Ok(None) => {}
            }
        }
        let (a, b) = (self.num(l, span)?, self.num(r, span)?);
        let d = types::promote(dtype_of(&a), dtype_of(&b))
            .ok_or_else(|| Diagnostic::new(span, "the operands have no common dtype"))?;
        Ok(Val::Num(bin(op, convert(a, d), convert(b, d), span)))
    }

    pub(super) fn call(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Val> {
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
                if let Some(e) = exact_float64(&v, d, span) {
                    return Ok(Val::Num(e));
                }
                Ok(Val::Num(self.cast(v, d, span)?))
            }
            Val::Helper(h) => self.inline(Call::new(&h, c, span)),
            Val::Foreign(i, h) => self.inline_foreign(i, Call::new(&h, c, span)),
            Val::Path(p) if p.starts_with("T.") => self.lang_call(Call::new(&p[2..], c, span)),
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
                        // Python's conversion of a host value (`py::value`)
                        let r = v.ok().and_then(|c| ops::builtin(&name, &[c]));
                        match r {
                            Some(Ok(c)) => Ok(Val::Py(c)),
                            Some(Err(e)) => err(span, format!("Python raises {e} here")),
                            None => err_help(
                                span,
                                format!("{name}() of a runtime value").as_str(),
                                "use .astype(…) or T.Cast(…)",
                            ),
                        }
                    }
                    // a host function on compile-time values (`tilelang.cdiv`, `math.ceil`)
                    _ => match self.py_value_if_known(&ast::Expr::Call(c.clone()))? {
                        Some(v) => Ok(Val::Py(v)),
                        // a function imported from a module ksem cannot find
                        None if matches!(&*c.func, ast::Expr::Name(n) if self.m.imports.contains_key(n.id.as_str())) =>
                        {
                            let ast::Expr::Name(n) = &*c.func else {
                                unreachable!("matched above")
                            };
                            Err(self.unknown_name(n))
                        }
                        None => err(
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

    pub(super) fn ints(&mut self, vals: Vec<Val>, what: &str, span: Span) -> DResult<(Expr, Expr)> {
        let [a, b]: [Val; 2] = vals
            .try_into()
            .map_err(|_| Diagnostic::new(span, format!("{what} takes two arguments")))?;
        let (a, b) = (self.num(a, span)?, self.num(b, span)?);
        let d = types::promote(dtype_of(&a), dtype_of(&b))
            .filter(|d| d.is_int())
            .ok_or_else(|| Diagnostic::new(span, format!("{what} needs integers")))?;
        Ok((convert(a, d), convert(b, d)))
    }

    /// The T.* functions of values (`T.min`, `T.max`, `T.abs`, `T.clamp`,
    /// `T.floordiv` … `T.ceildiv`, the math functions) applied to `vals`,
    /// whose number [`value_call_arity`] gives.
    pub(super) fn call_val(&mut self, f: &str, vals: Vec<Val>, span: Span) -> DResult<Val> {
        let n = value_call_arity(f).unwrap_or(0);
        py::arity::expect_args(span, &format!("T.{f}"), n, vals.len())?;
        if let Some(m) = math_fn(f) {
            let [v]: [Val; 1] = vals.try_into().expect("one");
            let e = self.num(v, span)?;
            if !dtype_of(&e).is_float() {
                return err_help(
                    span,
                    format!(
                        "T.{f} needs a float, not {}",
                        types::dtype_name(dtype_of(&e))
                    ),
                    "convert with .astype(\"float32\")",
                );
            }
            return Ok(Val::Num(unary(UnOp::Math(m), e, span)));
        }
        match f {
            "floordiv" | "floormod" | "truncdiv" | "truncmod" | "ceildiv" => {
                if let (Val::Py(a), Val::Py(b)) = (&vals[0], &vals[1]) {
                    if let (Some(x), Some(y), "ceildiv") = (a.as_int(), b.as_int(), f) {
                        if let Some(q) = consts::ceil_div(x, y) {
                            return Ok(Val::Py(Const::Num(PyNum::Int(q))));
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
                        let one = convert(up, d);
                        bin(BinOp::Add, q, one, span)
                    }
                }))
            }
            "min" | "max" => {
                let [a, b]: [Val; 2] = vals.try_into().expect("two");
                let (a, b) = (self.num(a, span)?, self.num(b, span)?);
                let d = types::promote(dtype_of(&a), dtype_of(&b))
                    .ok_or_else(|| Diagnostic::new(span, "no common dtype"))?;
                let (a, b) = (convert(a, d), convert(b, d));
                Ok(Val::Num(min_max(f == "min", a, b, span)))
            }
            "abs" => {
                let [v]: [Val; 1] = vals.try_into().expect("one");
                let e = self.num(v, span)?;
                Ok(Val::Num(abs_of(e, span)))
            }
            "clamp" => {
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
            other => err(span, format!("T.{other} is not a function of values")),
        }
    }

    /// `T.something(…)` in an expression.
    pub(super) fn lang_call(&mut self, call: Call) -> DResult<Val> {
        let (f, c, span) = (call.name, call.expr, call.span);
        if let Some(n) = value_call_arity(f) {
            let args = call.exactly(f, n)?;
            let vals = args.iter().map(|a| self.expr(a)).collect::<DResult<_>>()?;
            return self.call_val(f, vals, span);
        }
        match f {
            "if_then_else" => {
                if c.args.len() != 3 {
                    return err(span, "T.if_then_else takes (cond, then, else)");
                }
                let cond = self.cond(&c.args[0])?;
                self.lazy_select(cond, &c.args[1], &c.args[2], span)
            }
            "reinterpret" => {
                // T.reinterpret(value, dtype): the same bits as another
                // dtype of the same width (TVM refuses other widths)
                if c.args.len() != 2 || !c.keywords.is_empty() {
                    return err(span, "T.reinterpret takes (value, dtype)");
                }
                let d = self.dtype_arg(&c.args[1])?;
                let v = self.expr(&c.args[0])?;
                let x = self.num(v, span)?;
                let from = dtype_of(&x);
                if from.bits() != d.bits() || from == DType::Bool || d == DType::Bool {
                    return err(
                        span,
                        format!(
                            "T.reinterpret from {} to {}: the widths differ",
                            types::dtype_name(from),
                            types::dtype_name(d)
                        ),
                    );
                }
                Ok(Val::Num(mk(
                    ExprKind::Cast(Box::new(x), CastKind::Bitcast),
                    Type::scalar(d),
                    span,
                )))
            }
            "Cast" | "cast" => {
                // TVM's T.Cast(dtype, value) but T.cast(value, dtype)
                // (tilelang/language/tir/ir.py; its rounding hints are not
                // taken)
                let (d_at, v_at) = if f == "Cast" { (0, 1) } else { (1, 0) };
                if c.args.len() != 2 || !c.keywords.is_empty() {
                    let form = if f == "Cast" {
                        "(dtype, value)"
                    } else {
                        "(value, dtype)"
                    };
                    return err(span, format!("T.{f} takes {form}"));
                }
                let d = self.dtype_arg(&c.args[d_at])?;
                let v = self.expr(&c.args[v_at])?;
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
            "ieee_add" | "ieee_sub" | "ieee_mul" | "ieee_fdiv" | "ieee_fsqrt" | "ieee_frcp"
            | "ieee_fmaf" | "ieee_frsqrt" => self.ieee(f, c, span),
            "get_thread_binding" | "thread_binding" => self.thread_binding(call),
            "alloc_shared" | "alloc_fragment" | "alloc_local" => {
                if f == "alloc_fragment" {
                    self.block_level_op("T.alloc_fragment", span)?;
                }
                let (shape, d) = self.shape_and_dtype(c, &format!("T.{f}"), None, span)?;
                let space = if f == "alloc_shared" {
                    AddrSpace::Shared
                } else {
                    AddrSpace::Local
                };
                Ok(Val::Buf(self.alloc(f, d, shape, space, false, span)))
            }
            "alloc_global" => {
                let (shape, d) =
                    self.shape_and_dtype(c, "T.alloc_global", Some(DType::F32), span)?;
                // global memory every block sees: made zeroed, reported as an output
                let made = self
                    .params
                    .iter()
                    .filter(|p| p.name.starts_with("alloc_global"))
                    .count();
                Ok(Val::Buf(self.global_param(
                    &format!("alloc_global{made}"),
                    d,
                    shape,
                    true,
                    span,
                )))
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
                let dtype_e = py::call::arg(c, "dtype", 0)
                    .ok_or_else(|| Diagnostic::new(span, "T.alloc_var needs a dtype"))?;
                let d = self.dtype_arg(dtype_e)?;
                let init = py::call::arg(c, "init", 1);
                let init = init.map(|i| self.expr(i)).transpose()?;
                Ok(Val::Buf(self.alloc_var(d, init, span)?))
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
            // Blackwell-only: tensor memory and the tcgen05 MMA that reads it
            f if f == "alloc_tmem" || f.starts_with("tcgen05") => err(
                span,
                format!(
                    "T.{f} needs Blackwell (sm_100) tensor memory, hardware ksem does not model"
                ),
            ),
            "reshape" => self.reshape(c, span),
            "view" => self.view(c, span),
            "Tensor" | "Buffer" => self.tensor_view(f, c, span),
            other => err(span, format!("T.{other} is not supported by ksem yet")),
        }
    }

    /// `T.alloc_var(d, init=v)`: a one-element local buffer whose name
    /// alone means its element, set to `init` where one is given.
    pub(super) fn alloc_var(&mut self, d: DType, init: Option<Val>, span: Span) -> DResult<Buf> {
        let b = self.alloc("alloc_var", d, vec![1], AddrSpace::Local, true, span);
        if let Some(v) = init {
            let e = self.num(v, span)?;
            let p = self.elem_ptr(&b, vec![konst(DType::I64, 0, span)], span)?;
            self.store(p, e, d, span);
        }
        Ok(b)
    }

    /// `T.ieee_add(x, y, rounding_mode="rn")` and its siblings: IEEE
    /// operations in x's dtype (float32 or float64) with the rounding mode
    /// `"rn"`, `"rz"`, `"ru"` or `"rd"`, exact (CUDA's `__fadd_rz` …).
    pub(super) fn ieee(&mut self, f: &str, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let arity = ieee_arity(f);
        if f == "ieee_frsqrt" {
            // TileLang's T.ieee_frsqrt(x) has no rounding mode: it is
            // CUDA's __frsqrt_rn (codegen_cuda.cc CUDAIEEEMath)
            if c.args.len() != 1 || !c.keywords.is_empty() {
                return err_help(
                    span,
                    "T.ieee_frsqrt takes one operand and no rounding mode",
                    "it always rounds to nearest even (\"rn\")",
                );
            }
        }
        if c.args.len() < arity || c.args.len() > arity + 1 {
            return err(
                span,
                format!("T.{f} takes {arity} operand(s) and a rounding mode"),
            );
        }
        let mode_e = py::call::arg(c, "rounding_mode", arity);
        let mode = match mode_e {
            None => Rounding::NearestEven,
            Some(e) => match self.py_value(e) {
                Ok(Const::Str(m)) => rounding_mode(&m, self.span(e))?,
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
        self.ieee_val(f, vals, mode, span)
    }

    /// `T.ieee_*` of the operands `vals` with rounding `mode`.
    pub(super) fn ieee_val(
        &mut self,
        f: &str,
        vals: Vec<Val>,
        mode: Rounding,
        span: Span,
    ) -> DResult<Val> {
        if vals.is_empty() || vals.len() != ieee_arity(f) {
            return err(span, format!("T.{f} takes {} operand(s)", ieee_arity(f)));
        }
        let mut it = vals.into_iter();
        let x = self.num(it.next().expect("one operand"), span)?;
        let d = dtype_of(&x);
        if f == "ieee_frsqrt" && d == DType::F64 {
            // measured in TileLang's CUDA code generator (CUDAIEEEMath)
            return err(span, "IEEE frsqrt is not supported for float64 in CUDA").map_err(|e| {
                e.with_help("use T.ieee_fsqrt followed by T.ieee_frcp (two roundings)")
            });
        }
        if !matches!(d, DType::F32 | DType::F64) {
            return err_help(
                span,
                format!(
                    "T.{f} computes in float32 or float64, not {}",
                    types::dtype_name(d)
                ),
                "convert the operand with .astype(\"float32\")",
            );
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
            "ieee_frsqrt" => unary(UnOp::Ieee(IeeeUnary::Rsqrt, mode), x, span),
            _ => {
                let ty = x.ty.clone();
                mk(
                    ExprKind::Fma(
                        Box::new(x),
                        Box::new(rest[0].clone()),
                        Box::new(rest[1].clone()),
                        mode,
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
    pub(super) fn cast(&self, v: Val, d: DType, span: Span) -> DResult<Expr> {
        if let (Val::Py(Const::Num(PyNum::Int(n))), true) = (&v, d.is_unsigned_int()) {
            if *n < 0 {
                return err(span, format!("cannot make uint from negative value {n}")).map_err(
                    |e| e.with_help("cast a signed value, or use a non-negative constant"),
                );
            }
        }
        // measured: "Literal value 1984 exceeds maximum of uint8"
        if let (Val::Py(Const::Num(PyNum::Int(n))), true) = (&v, d.is_int() && d != DType::Bool) {
            let (lo, hi) = d.int_range();
            if *n > hi || *n < lo {
                return err_help(
                    span,
                    format!(
                        "Literal value {n} exceeds the range of {}",
                        types::dtype_name(d)
                    ),
                    "wrap it in Python first, or cast a runtime value",
                );
            }
        }
        Ok(convert(self.num(v, span)?, d))
    }

    /// Inlines a call of a module-level helper: binds its parameters and
    /// elaborates its body; a `return` must be its last statement.
    pub(super) fn inline(&mut self, call: Call) -> DResult<Val> {
        let name = call.name;
        let f = self.m.helpers[name].clone();
        let args = self.helper_args(&f, call)?;
        let saved = self.env.clone();
        let r = self.helper_call(name, &f, args);
        self.env = saved;
        r
    }

    /// Inlines a call of helper `name` of imported module `i`: the
    /// arguments are the caller's, the body sees its own module's names,
    /// and everything in it is reported at this call (an error says which
    /// helper of which file it came from).
    pub(super) fn inline_foreign(&mut self, i: usize, call: Call) -> DResult<Val> {
        let span = call.span;
        // a helper the imported module imported itself: follow it home
        let (mut home, mut name) = (&self.m.imported[i], call.name.to_string());
        while let Some((j, n)) = home.foreign.get(&name) {
            (home, name) = (&home.imported[*j], n.clone());
        }
        let Some(f) = home.helpers.get(&name).cloned() else {
            return err(
                span,
                format!("`{name}` is not a function of {}", home.src.file),
            );
        };
        let args = self.helper_args(&f, call.named(&name))?;
        let (saved_m, saved_env, saved_site) = (self.m, self.env.clone(), self.call_site);
        self.m = home;
        self.env = module_env(home, home.globals.clone());
        self.call_site = Some(saved_site.unwrap_or(span));
        let r = self.helper_call(&name, &f, args);
        (self.m, self.env, self.call_site) = (saved_m, saved_env, saved_site);
        r.map_err(|mut d| {
            let within = format!("in `{name}` of {}", home.src.file);
            d.help = Some(match d.help {
                Some(h) if h.contains(&home.src.file) => h,
                Some(h) => format!("{h} ({within})"),
                None => within,
            });
            d
        })
    }

    /// The values of a helper call's arguments, in the order of `f`'s
    /// parameters (defaults filled in), evaluated where the call is.
    fn helper_args(&mut self, f: &ast::StmtFunctionDef, call: Call) -> DResult<Vec<(String, Val)>> {
        let (name, span) = (call.name, call.span);
        if self.inlining.iter().any(|n| n == name) {
            return py::unsupported(span, "recursion", DIALECT, "write the recursion as a loop");
        }
        if f.args.vararg.is_some() || f.args.kwarg.is_some() {
            return py::unsupported(
                span,
                "`*args` / `**kwargs`",
                DIALECT,
                "use explicit parameters",
            );
        }
        let params = py::params(&f.args);
        let takes = (0, params.len());
        py::arity::check_args(span, &format!("`{name}`"), takes, call.args().len())?;
        let mut bound: Vec<Option<Val>> = vec![None; params.len()];
        for (k, a) in call.args().iter().enumerate() {
            bound[k] = Some(self.expr(a)?);
        }
        for kw in call.keywords() {
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
            args.push((p.def.arg.to_string(), v));
        }
        Ok(args)
    }

    /// Runs helper `f`'s body with its parameters bound to `args` (the
    /// caller restores the names it sees).
    fn helper_call(
        &mut self,
        name: &str,
        f: &ast::StmtFunctionDef,
        args: Vec<(String, Val)>,
    ) -> DResult<Val> {
        for (p, a) in args {
            self.env.insert(p, a);
        }
        self.inlining.push(name.to_string());
        let r = self.helper_body(&f.body);
        self.inlining.pop();
        r
    }

    pub(super) fn helper_body(&mut self, body: &[ast::Stmt]) -> DResult<Val> {
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

/// The math function `T.name` computes (`T.exp`, `T.sqrt`, …).
fn math_fn(name: &str) -> Option<MathFn> {
    const MATH: [MathFn; 15] = {
        use MathFn::*;
        [
            Exp, Exp2, Log, Log2, Log10, Sqrt, Rsqrt, Sin, Cos, Tan, Tanh, Sigmoid, Erf, Floor,
            Ceil,
        ]
    };
    MathFn::named(name).filter(|m| MATH.contains(m))
}

/// The number of values `T.f` takes where it is a function of values
/// ([`Elab::call_val`]); `None` for the other T.* calls.
fn value_call_arity(f: &str) -> Option<usize> {
    if math_fn(f).is_some() {
        return Some(1);
    }
    match f {
        "floordiv" | "floormod" | "truncdiv" | "truncmod" | "ceildiv" | "min" | "max" => Some(2),
        "abs" => Some(1),
        "clamp" => Some(3),
        _ => None,
    }
}

/// The number of operands of `T.ieee_*` (before the rounding mode).
pub(super) fn ieee_arity(f: &str) -> usize {
    match f {
        "ieee_fsqrt" | "ieee_frcp" | "ieee_frsqrt" => 1,
        "ieee_fmaf" => 3,
        _ => 2,
    }
}

/// A rounding mode's name: `"rn"`, `"rz"`, `"ru"`, `"rd"`.
pub(super) fn rounding_mode(m: &str, span: Span) -> DResult<Rounding> {
    Ok(match m {
        "rn" => Rounding::NearestEven,
        "rz" => Rounding::TowardZero,
        "ru" => Rounding::Up,
        "rd" => Rounding::Down,
        other => {
            return err_help(
                span,
                format!("unknown rounding mode {other:?}"),
                "use \"rn\", \"rz\", \"ru\" or \"rd\"",
            )
        }
    })
}

/// The dtype both branches of `T.if_then_else` meet in, and the branches
/// converted to it.
pub(super) fn select_join(a: Expr, b: Expr, span: Span) -> DResult<(DType, Expr, Expr)> {
    let d = types::promote(dtype_of(&a), dtype_of(&b))
        .ok_or_else(|| Diagnostic::new(span, "the two branches have no common dtype"))?;
    Ok((d, convert(a, d), convert(b, d)))
}

/// Refuses indexing buffer `b` with `n` indices (`what`: how the message
/// names them) unless `n` is its rank.
pub(super) fn check_rank(b: &Buf, n: usize, what: &str, span: Span) -> DResult<()> {
    if n != b.shape.len() {
        return err(
            span,
            format!(
                "buffer `{}` has {} dimension(s) but {what} {n}",
                b.name,
                b.shape.len(),
            ),
        );
    }
    Ok(())
}

/// TileLang's alternative to an expression form it refuses.
fn refused_help(form: Option<py::exprs::Form>) -> &'static str {
    use py::exprs::Form as F;
    match form {
        Some(F::Lambda) => "define a named function",
        Some(F::ListComp | F::SetComp | F::DictComp | F::GeneratorExp) => "use an explicit loop",
        Some(F::Walrus) => "assign on a line of its own",
        Some(F::Starred) => "use explicit arguments",
        _ => "see the TileLang seed's table of supported syntax",
    }
}
