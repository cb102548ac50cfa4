//! numpy ufuncs called in a kernel (numba-cuda 0.30.4's CUDA `ufunc_db`):
//! `np.sin(x)`, `np.hypot(x, y)`, `np.less(a, b)`, … on numbers, and with
//! an `out` array (positional after the inputs, or `out=`) elementwise over
//! it, array inputs of `out`'s shape read at the same index and numbers
//! broadcast (numpy's broadcasting of other shapes is refused).
//!
//! The loop (the dtypes the ufunc computes in) is chosen as numba chooses
//! it (`ufunc_find_matching_loop`): the first of numpy's loops of the
//! ufunc, in numpy's order and without float16 ones, that every input casts
//! to safely (`np.can_cast(…, "safe")`; where the inputs mix integers and
//! floats, any integer casts to any float), and whose result casts to `out`
//! by "same_kind". So `np.sin(int8)` computes in float32, `np.sin(int32)`
//! and `np.hypot(int32, int32)` in float64, `np.hypot(int64, float32)` in
//! float32, `np.less(int64, uint64)` compares exactly (numpy's `qQ` loop)
//! and `np.bitwise_and(int64, uint64)` has no loop (measured: numba-cuda's
//! result types, docs/numba-measured.md). Each loop computes what the
//! `math` function of the same name computes (measured: `np.sin(x)` and
//! `math.sin(x)` agree bit for bit on float32 and float64).

use super::*;

/// What a ufunc computes on operands converted to its loop's dtypes.
#[derive(Clone, Copy)]
enum Op {
    Math(MathFn),
    /// `np.deg2rad` (true) / `np.rad2deg` (false): as `math.radians`.
    Angle(bool),
    Bin(BinOp),
    /// A comparison (exact between int64 and uint64).
    Cmp(BinOp),
    /// `logical_and`/`or`/`xor` of the operands' truth values.
    Logical(BinOp),
    LogicalNot,
    /// `~x` (`not` of a bool).
    Invert,
    /// `fmax`/`fmin` (a NaN operand ignored) and `maximum`/`minimum`
    /// (propagated): (max, mode).
    MinMax(bool, NanMode),
}

const FLOAT1: &[&str] = &["f->f", "d->d"];
const FLOAT2: &[&str] = &["ff->f", "dd->d"];
const CMP: &[&str] = &[
    "??->?", "bb->?", "BB->?", "hh->?", "HH->?", "ii->?", "II->?", "ll->?", "LL->?", "qq->?",
    "QQ->?", "qQ->?", "Qq->?", "ff->?", "dd->?",
];
const LOGIC2: &[&str] = &[
    "??->?", "bb->?", "BB->?", "hh->?", "HH->?", "ii->?", "II->?", "ll->?", "LL->?", "qq->?",
    "QQ->?", "ff->?", "dd->?",
];
const LOGIC1: &[&str] = &[
    "?->?", "b->?", "B->?", "h->?", "H->?", "i->?", "I->?", "l->?", "L->?", "q->?", "Q->?", "f->?",
    "d->?",
];
const BITS2: &[&str] = &[
    "??->?", "bb->b", "BB->B", "hh->h", "HH->H", "ii->i", "II->I", "ll->l", "LL->L", "qq->q",
    "QQ->Q",
];
const BITS1: &[&str] = &[
    "?->?", "b->b", "B->B", "h->h", "H->H", "i->i", "I->I", "l->l", "L->L", "q->q", "Q->Q",
];
const MINMAX: &[&str] = &[
    "??->?", "bb->b", "BB->B", "hh->h", "HH->H", "ii->i", "II->I", "ll->l", "LL->L", "qq->q",
    "QQ->Q", "ff->f", "dd->d",
];

/// The ufunc `numpy.<name>`: its loops (numpy's, those numba-cuda
/// implements for real numbers) and what it computes.
fn ufunc(name: &str) -> Option<(&'static [&'static str], Op)> {
    let math = |m: &str| {
        MathFn::ALL
            .iter()
            .copied()
            .find(|f| f.name() == m)
            .map(|f| (FLOAT1, Op::Math(f)))
    };
    Some(match name {
        "sin" | "cos" | "tan" | "sinh" | "cosh" | "tanh" | "exp" | "exp2" | "expm1" | "log"
        | "log2" | "log10" | "log1p" | "sqrt" | "cbrt" => return math(name),
        "arcsin" | "arccos" | "arctan" | "arcsinh" | "arccosh" | "arctanh" => {
            return math(&format!("a{}", &name[3..]))
        }
        "fabs" => (FLOAT1, Op::Math(MathFn::Abs)),
        "deg2rad" | "radians" => (FLOAT1, Op::Angle(true)),
        "rad2deg" | "degrees" => (FLOAT1, Op::Angle(false)),
        "arctan2" => (FLOAT2, Op::Bin(BinOp::Atan2)),
        "hypot" => (FLOAT2, Op::Bin(BinOp::Hypot)),
        "equal" => (CMP, Op::Cmp(BinOp::Eq)),
        "not_equal" => (CMP, Op::Cmp(BinOp::Ne)),
        "less" => (CMP, Op::Cmp(BinOp::Lt)),
        "less_equal" => (CMP, Op::Cmp(BinOp::Le)),
        "greater" => (CMP, Op::Cmp(BinOp::Gt)),
        "greater_equal" => (CMP, Op::Cmp(BinOp::Ge)),
        "logical_and" => (LOGIC2, Op::Logical(BinOp::LogicalAnd)),
        "logical_or" => (LOGIC2, Op::Logical(BinOp::LogicalOr)),
        "logical_xor" => (LOGIC2, Op::Logical(BinOp::Ne)),
        "logical_not" => (LOGIC1, Op::LogicalNot),
        "bitwise_and" => (BITS2, Op::Bin(BinOp::And)),
        "bitwise_or" => (BITS2, Op::Bin(BinOp::Or)),
        "bitwise_xor" => (BITS2, Op::Bin(BinOp::Xor)),
        "invert" | "bitwise_not" => (BITS1, Op::Invert),
        "fmax" => (MINMAX, Op::MinMax(true, NanMode::Ignore)),
        "fmin" => (MINMAX, Op::MinMax(false, NanMode::Ignore)),
        "maximum" => (MINMAX, Op::MinMax(true, NanMode::Propagate)),
        "minimum" => (MINMAX, Op::MinMax(false, NanMode::Propagate)),
        _ => return None,
    })
}

/// The dtype of a numpy type letter of the loops above.
fn letter(c: char) -> DType {
    match c {
        '?' => DType::Bool,
        'b' => DType::I8,
        'B' => DType::U8,
        'h' => DType::I16,
        'H' => DType::U16,
        'i' => DType::I32,
        'I' => DType::U32,
        'l' | 'q' => DType::I64,
        'L' | 'Q' => DType::U64,
        'f' => DType::F32,
        _ => DType::F64,
    }
}

/// numpy's `can_cast(from, to, "safe")` between the dtypes ksem runs.
pub(super) fn can_cast_safe(from: DType, to: DType) -> bool {
    let bits = |d: DType| d.bits();
    match (from, to) {
        (DType::Bool, _) => true,
        (_, DType::Bool) => false,
        (f, t) if f.is_float() => t.is_float() && bits(t) >= bits(f),
        // integers: to a float whose mantissa holds them (8 and 16 bits to
        // float32, wider to float64), to wider signed, to unsigned of at
        // least their width only when unsigned
        (f, DType::F64) if f.is_int() => true,
        (f, DType::F32) if f.is_int() => bits(f) <= 16,
        (f, t) if t.is_float() => bits(f) <= 8,
        (f, t) if f.is_signed_int() => t.is_signed_int() && bits(t) >= bits(f),
        (f, t) if t.is_signed_int() => bits(t) > bits(f),
        (f, t) => bits(t) >= bits(f),
    }
}

/// numpy's `can_cast(from, to, "same_kind")`: safe, or within the kinds
/// (any integer to a signed integer or a float; a float to a float).
fn can_cast_same_kind(from: DType, to: DType) -> bool {
    let int = |d: DType| d.is_int() && d != DType::Bool;
    can_cast_safe(from, to)
        || (int(from) && (to.is_signed_int() || to.is_float()))
        || (from.is_unsigned_int() && to.is_unsigned_int())
        || (from.is_float() && to.is_float())
}

/// The loop numba picks for inputs `ins` (and output `out`): its input
/// dtypes and its result dtype.
fn pick(loops: &[&str], ins: &[DType], out: Option<DType>) -> Option<(Vec<DType>, DType)> {
    let int = |d: &DType| d.is_int() && *d != DType::Bool;
    let mixed = ins.iter().any(int) && ins.iter().any(|d| d.is_float());
    let cast = |f: DType, t: DType, safe: bool| {
        (mixed && int(&f) && t.is_float())
            || if safe {
                can_cast_safe(f, t)
            } else {
                can_cast_same_kind(f, t)
            }
    };
    loops.iter().find_map(|l| {
        let (i, o) = l.split_once("->")?;
        let li: Vec<DType> = i.chars().map(letter).collect();
        let lo = letter(o.chars().next()?);
        let ok = li.iter().zip(ins).all(|(&t, &f)| cast(f, t, true))
            && out.is_none_or(|d| cast(lo, d, false));
        ok.then_some((li, lo))
    })
}

impl Elab<'_> {
    /// An array input `a` of ufunc `name`: there is an `out` array, both
    /// have static shapes, and they are the same (no broadcasting).
    fn ufunc_array_input(
        &self,
        name: &str,
        a: &ArrayVal,
        out: Option<&ArrayVal>,
        s: Span,
    ) -> DResult<()> {
        let Some(o) = out else {
            return py::unsupported(
                s,
                &format!("np.{name} of an array without an out array"),
                DIALECT,
                "a kernel cannot allocate: pass the result array, np.sin(x, out)",
            );
        };
        self.static_shape(a, &format!("np.{name}"), s)?;
        self.static_shape(o, &format!("np.{name}"), s)?;
        if a.shape != o.shape {
            return py::unsupported(
                s,
                &format!(
                    "broadcasting a {:?} array to the out array's shape {:?}",
                    a.shape, o.shape
                ),
                DIALECT,
                "give the inputs the out array's shape",
            );
        }
        Ok(())
    }

    /// `numpy.<name>(…)` if it is a ufunc ksem knows; `None` otherwise.
    pub(super) fn ufunc_call(&mut self, call: Call) -> DResult<Option<Val>> {
        let (name, span) = (call.name, call.span);
        let Some((loops, op)) = ufunc(name) else {
            return Ok(None);
        };
        let nin = loops[0].split_once("->").map_or(1, |(i, _)| i.len());
        let mut args = Vec::new();
        for a in call.args() {
            let v = self.expr(a)?;
            args.push((v, self.span(a)));
        }
        let mut out = None;
        for k in call.keywords() {
            match k.arg.as_deref() {
                Some("out") => out = Some((self.expr(&k.value)?, self.span(&k.value))),
                other => {
                    return err(
                        span,
                        format!(
                            "np.{name} in a kernel takes no keyword `{}` (only out=)",
                            other.unwrap_or("**")
                        ),
                    )
                }
            }
        }
        if args.len() == nin + 1 && out.is_none() {
            out = args.pop();
        }
        if args.len() != nin {
            return err(
                span,
                format!("np.{name} takes {nin} input(s) and optionally an out array"),
            );
        }
        let out = match out {
            None => None,
            Some((Val::Array(a), _)) => Some(a),
            Some((_, s)) => {
                return err(s, format!("the out argument of np.{name} must be an array"))
            }
        };
        let complex_in = |v: &Val| match v {
            Val::Complex(_) => true,
            Val::Array(a) => a.pairs == Pairs::Complex,
            _ => false,
        };
        if args.iter().any(|(v, _)| complex_in(v)) {
            return self.complex_ufunc(name, args, out, span).map(Some);
        }
        let mut ins = Vec::new();
        for (v, s) in args {
            match v {
                Val::Array(a) => {
                    self.ufunc_array_input(name, &a, out.as_ref(), s)?;
                    ins.push(Val::Array(a));
                }
                v => ins.push(Val::Num(self.num(v, s)?)),
            }
        }
        let dts: Vec<DType> = ins
            .iter()
            .map(|v| match v {
                Val::Array(a) => a.dtype,
                Val::Num(e) => dtype_of(e),
                _ => unreachable!("numbers and arrays only"),
            })
            .collect();
        let Some((lin, lout)) = pick(loops, &dts, out.as_ref().map(|o| o.dtype)) else {
            let names: Vec<String> = dts.iter().map(|d| Named(*d).to_string()).collect();
            let to = out
                .as_ref()
                .map(|o| format!(" into a {} array", Named(o.dtype)))
                .unwrap_or_default();
            return err(
                span,
                format!(
                    "np.{name} has no loop for ({}){to} (numba: no matching ufunc loop)",
                    names.join(", ")
                ),
            );
        };
        let Some(out) = out else {
            let xs: Vec<Expr> = ins
                .into_iter()
                .zip(&lin)
                .map(|(v, &t)| match v {
                    Val::Num(e) => convert(e, t),
                    _ => unreachable!("numbers only without out"),
                })
                .collect();
            return Ok(Some(Val::Num(self.ufunc_op(op, xs, lout, span))));
        };
        self.ufunc_loop(op, &ins, &lin, lout, &out, span)?;
        Ok(Some(Val::Array(out)))
    }

    /// `numpy.<name>(…)` with a complex input: the ufunc's complex loop
    /// (`cmath.rs`), complex64 where every input casts safely to it
    /// (numpy's `F` loop before `D`), else complex128; a complex result
    /// needs a complex `out` array (numba: no loop casts complex to real).
    fn complex_ufunc(
        &mut self,
        name: &str,
        args: Vec<(Val, Span)>,
        out: Option<ArrayVal>,
        span: Span,
    ) -> DResult<Val> {
        let Some(u) = cmath::CxUfunc::of(name) else {
            return err(
                span,
                format!(
                    "np.{name} has no loop for complex numbers (numba: no matching ufunc loop)"
                ),
            );
        };
        let mut ins = Vec::new();
        let mut wide = false;
        for (v, s) in args {
            match v {
                Val::Array(a) => {
                    self.ufunc_array_input(name, &a, out.as_ref(), s)?;
                    wide |= if a.pairs == Pairs::Complex {
                        a.dtype == DType::F64
                    } else {
                        !can_cast_safe(a.dtype, DType::F32)
                    };
                    ins.push(Val::Array(a));
                }
                Val::Complex(z) => {
                    wide |= dtype_of(&z.re) == DType::F64;
                    ins.push(Val::Complex(z));
                }
                v => {
                    let x = self.num(v, s)?;
                    wide |= !can_cast_safe(dtype_of(&x), DType::F32);
                    ins.push(Val::Num(x));
                }
            }
        }
        let d = if wide { DType::F64 } else { DType::F32 };
        let Some(out) = out else {
            let mut xs = Vec::new();
            for v in ins {
                xs.push(self.as_complex(v, d, span)?);
            }
            return Ok(self.complex_ufunc_op(u, xs, span));
        };
        if !u.gives_bool() && out.pairs != Pairs::Complex {
            return err(
                span,
                format!(
                    "np.{name} of complex numbers gives a complex, not {} (numba: no matching ufunc loop)",
                    Named(out.dtype)
                ),
            );
        }
        // numbers are read once, before the loops
        let ins: Vec<Val> = ins
            .into_iter()
            .map(|v| match v {
                Val::Num(e) => Val::Num(self.temp(e)),
                Val::Complex(z) => Val::Complex(self.hold(z)),
                other => other,
            })
            .collect();
        self.each_index(&out.shape, "_ui", span, |me, idx| {
            let mut xs = Vec::new();
            for v in &ins {
                let v = match v {
                    Val::Array(a) if a.pairs == Pairs::Complex => {
                        let p = me.index_ptr(a, idx.clone(), span);
                        let im = complex::part_ptr(&p, 1);
                        me.load_complex((p, im), a.dtype, span)
                    }
                    Val::Array(a) => {
                        Val::Num(load(me.index_ptr(a, idx.clone(), span), a.dtype, span))
                    }
                    other => other.clone(),
                };
                xs.push(me.as_complex(v, d, span)?);
            }
            let r = me.complex_ufunc_op(u, xs, span);
            let p = me.index_ptr(&out, idx, span);
            if out.pairs == Pairs::Complex {
                let im = complex::part_ptr(&p, 1);
                me.store_complex((p, im), r, out.dtype, span)
            } else {
                let x = me.num(r, span)?;
                me.store(p, x, out.dtype, span);
                Ok(())
            }
        })?;
        Ok(Val::Array(out))
    }

    /// Stores the ufunc of `ins` into every element of `out`, one loop per
    /// dimension (numbers are read once, before the loops).
    fn ufunc_loop(
        &mut self,
        op: Op,
        ins: &[Val],
        lin: &[DType],
        lout: DType,
        out: &ArrayVal,
        span: Span,
    ) -> DResult<()> {
        let ins: Vec<Val> = ins
            .iter()
            .map(|v| match v {
                Val::Num(e) => Val::Num(self.temp(e.clone())),
                other => other.clone(),
            })
            .collect();
        self.each_index(&out.shape, "_ui", span, |me, idx| {
            let xs: Vec<Expr> = ins
                .iter()
                .zip(lin)
                .map(|(v, &t)| match v {
                    Val::Array(a) => {
                        let p = me.index_ptr(a, idx.clone(), span);
                        convert(load(p, a.dtype, span), t)
                    }
                    Val::Num(e) => convert(e.clone(), t),
                    _ => unreachable!("numbers and arrays only"),
                })
                .collect();
            let r = me.ufunc_op(op, xs, lout, span);
            let ptr = me.index_ptr(out, idx, span);
            me.store(ptr, r, out.dtype, span);
            Ok(())
        })
    }

    /// Runs `body` (given the index variables, named `var`) inside one
    /// loop per dimension of `shape`.
    pub(super) fn each_index(
        &mut self,
        shape: &[usize],
        var: &str,
        span: Span,
        body: impl FnOnce(&mut Self, Vec<Expr>) -> DResult<()>,
    ) -> DResult<()> {
        let idx: Vec<VarId> = shape
            .iter()
            .map(|_| self.new_var(var, Type::scalar(DType::I64)))
            .collect();
        let exprs = idx.iter().map(|&v| self.var_expr(v, span)).collect();
        self.blocks.push(Vec::new());
        let r = body(self, exprs);
        let mut body = self.blocks.pop().expect("pushed above");
        r?;
        for (k, &v) in idx.iter().enumerate().rev() {
            body = vec![Stmt::For {
                var: v,
                start: int_const(DType::I64, 0, span),
                end: int_const(DType::I64, shape[k] as i128, span),
                step: int_const(DType::I64, 1, span),
                body,
                span,
                parallel: None,
            }];
        }
        for s in body {
            self.emit(s);
        }
        Ok(())
    }

    /// The ufunc's value on operands already in its loop's dtypes.
    fn ufunc_op(&mut self, op: Op, xs: Vec<Expr>, lout: DType, span: Span) -> Expr {
        let mut xs = xs.into_iter();
        let a = xs.next().expect("one input or more");
        let b = xs.next();
        let two = |b: Option<Expr>| b.expect("a binary ufunc");
        match op {
            Op::Math(f) => unary(UnOp::Math(f), a, span),
            Op::Angle(to_radians) => self.angle(a, to_radians, span),
            Op::Bin(o) => bin(o, a, two(b), span),
            Op::Cmp(o) => self.exact_cmp(o, a, two(b), span),
            Op::Logical(o) => {
                let (a, b) = (self.truth(a), self.truth(two(b)));
                bin(o, a, b, span)
            }
            Op::LogicalNot => unary(UnOp::LogicalNot, self.truth(a), span),
            Op::Invert if lout == DType::Bool => unary(UnOp::LogicalNot, a, span),
            Op::Invert => unary(UnOp::Not, a, span),
            Op::MinMax(max, _) if lout == DType::Bool => {
                let o = if max {
                    BinOp::LogicalOr
                } else {
                    BinOp::LogicalAnd
                };
                bin(o, a, two(b), span)
            }
            Op::MinMax(max, mode) => {
                let mode = if lout.is_float() {
                    mode
                } else {
                    NanMode::Ignore
                };
                let o = if max {
                    BinOp::Max(mode)
                } else {
                    BinOp::Min(mode)
                };
                bin(o, a, two(b), span)
            }
        }
    }

    /// `a op b` of two numbers; an int64 and a uint64 compare by value
    /// (numpy's `qQ`/`Qq` loops), not through a common type.
    pub(super) fn exact_cmp(&mut self, op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
        let (da, db) = (dtype_of(&a), dtype_of(&b));
        let signed_unsigned = da.is_signed_int() && db == DType::U64;
        let unsigned_signed = da == DType::U64 && db.is_signed_int();
        if !(signed_unsigned || unsigned_signed) {
            return bin(op, a, b, span);
        }
        let (a, b) = (self.temp(a), self.temp(b));
        // the negative operand is below every unsigned one
        let (neg, below) = if signed_unsigned {
            (a.clone(), matches!(op, BinOp::Lt | BinOp::Le | BinOp::Ne))
        } else {
            (b.clone(), matches!(op, BinOp::Gt | BinOp::Ge | BinOp::Ne))
        };
        let zero = int_const(dtype_of(&neg), 0, span);
        let is_neg = bin(BinOp::Lt, neg, zero, span);
        let unsigned = bin(op, convert(a, DType::U64), convert(b, DType::U64), span);
        select(
            is_neg,
            konst(DType::Bool, below as u64, span),
            unsigned,
            span,
        )
    }
}
