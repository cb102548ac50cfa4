//! Expressions of generated Triton kernels. Divisors, shift amounts and
//! floats reaching an integer type go through the shared guard passes
//! (`fuzz/passes/`), built with [`Guards`] over the front end's values.

use super::{dtype_of, sp, Gen};
use crate::fuzz::passes::{fcvt, int_divz, shift, GuardBuilder, Known};
use crate::fuzz::safe;
use ksem_interp::dtype::DType;
use ksem_interp::frontend::triton::builtins::Args;
use ksem_interp::frontend::triton::elab::Elab;
use ksem_interp::frontend::triton::promote::{self, Operand, PyNum};
use ksem_interp::frontend::triton::value::Value;
use ksem_interp::ir::{BinOp, IntDiv, ShiftRange};
use ksem_interp::span::{DResult, Diagnostic};
use rustpython_parser::ast::{CmpOp, Operator, UnaryOp};

/// How a value takes part in Triton's promotion.
fn operand(v: &Value) -> Operand {
    match v {
        Value::Num(n) => Operand::Scalar(*n),
        _ => Operand::Tensor(dtype_of(v)),
    }
}

fn is_lit(v: &Value) -> bool {
    matches!(v, Value::Num(_))
}

/// The guard passes' builder over the Triton front end's values: literals
/// are Python numbers (float literals float32 constants), bitwise
/// operators and `tl.maximum`/`tl.minimum` (which give the other operand
/// for a NaN) as the front end elaborates them.
struct Guards<'e, 'm>(&'e mut Elab<'m>);

impl GuardBuilder for Guards<'_, '_> {
    type Val = Value;
    type Err = Diagnostic;

    fn dtype(&self, v: &Value) -> DType {
        dtype_of(v)
    }
    fn known(&self, v: &Value) -> Option<Known> {
        match v {
            Value::Num(PyNum::Int(i)) => Some(Known::Int(*i)),
            Value::Num(PyNum::Bool(b)) => Some(Known::Int(*b as i128)),
            Value::Num(PyNum::Float(f)) => Some(Known::Float(*f)),
            _ => None,
        }
    }
    fn int(&mut self, _d: DType, v: i128) -> DResult<Value> {
        Ok(super::int(v))
    }
    fn float(&mut self, _d: DType, v: f64) -> DResult<Value> {
        Ok(Value::Num(PyNum::Float(v)))
    }
    fn float_const_dtype(&self) -> DType {
        // tl.minimum/tl.maximum make a literal bound a float32 tile
        DType::F32
    }
    fn bit_and(&mut self, a: Value, b: Value) -> DResult<Value> {
        self.0.binop(Operator::BitAnd, a, b, sp())
    }
    fn bit_or(&mut self, a: Value, b: Value) -> DResult<Value> {
        self.0.binop(Operator::BitOr, a, b, sp())
    }
    fn clamp(&mut self, x: Value, lo: f64, hi: f64) -> DResult<Value> {
        let (lo, hi) = (Value::Num(PyNum::Float(lo)), Value::Num(PyNum::Float(hi)));
        let c = self.0.call_builtin("maximum", vec![x, lo], sp())?;
        self.0.call_builtin("minimum", vec![c, hi], sp())
    }
}

impl Gen<'_> {
    /// `v` converted to dtype `t`; a float going to an integer is first
    /// clamped into the conversion's defined range (`passes::fcvt`).
    pub(super) fn convert(&mut self, el: &mut Elab, v: Value, t: DType) -> DResult<Value> {
        if is_lit(&v) || dtype_of(&v) == t {
            return Ok(v);
        }
        let v = fcvt::guard(&mut Guards(el), v, t, None)?;
        self.to(el, v, t)
    }

    fn leaf(&mut self, el: &mut Elab) -> DResult<Value> {
        if self.rng.chance(0.2) {
            let d = self.arith_dtype();
            self.features.insert("literal");
            let n = match safe::literal(&mut self.rng, d) {
                // `x * -1.0` is a sign flip in real Triton (divergence 13)
                PyNum::Float(f) if f == -1.0 && self.cfg.avoid_divergences() => PyNum::Float(-2.25),
                // LLVM folds `x + NaN` to the constant's bits (divergence 22)
                PyNum::Float(f) if f.is_nan() && self.cfg.avoid_divergences() => PyNum::Float(0.1),
                // Triton makes a -0.0 constant +0.0 (divergence 23)
                PyNum::Float(f) if f == 0.0 && self.cfg.avoid_divergences() => PyNum::Float(0.0),
                n => n,
            };
            return Ok(Value::Num(n));
        }
        let i = self.rng.below(self.vars.len());
        super::read(el, &self.vars[i].clone())
    }

    pub(super) fn expr(&mut self, el: &mut Elab, depth: usize) -> DResult<Value> {
        if depth == 0 {
            return self.leaf(el);
        }
        let r = self.rng.below(100);
        match r {
            0..=29 => {
                let a = self.expr(el, depth - 1)?;
                let b = self.operand_for(el, &a, depth - 1)?;
                let op = *self
                    .rng
                    .pick(&[Operator::Add, Operator::Sub, Operator::Mult]);
                self.binary_arith(el, a, b, op)
            }
            30..=39 => {
                let a = self.expr(el, depth - 1)?;
                let b = self.operand_for(el, &a, depth - 1)?;
                self.div_mod(el, a, b)
            }
            40..=47 => {
                let a = self.expr(el, depth - 1)?;
                let b = self.operand_for(el, &a, depth - 1)?;
                self.bitwise(el, a, b)
            }
            48..=55 => {
                let a = self.expr(el, depth - 1)?;
                let b = self.operand_for(el, &a, depth - 1)?;
                self.compare(el, a, b)
            }
            56..=63 => self.where_expr(el, depth - 1),
            64..=69 => {
                let a = self.expr(el, depth - 1)?;
                let b = self.operand_for(el, &a, depth - 1)?;
                self.min_max(el, a, b)
            }
            70..=79 if self.cfg.casts => {
                let a = self.expr(el, depth - 1)?;
                self.cast(el, a)
            }
            80..=85 => {
                let a = self.expr(el, depth - 1)?;
                self.unary(el, a)
            }
            86..=89 if self.cfg.math => {
                let a = self.expr(el, depth - 1)?;
                self.math(el, a)
            }
            90..=93 => self.fma_expr(el, depth - 1),
            _ => self.leaf(el),
        }
    }

    /// A second operand: never two literals.
    fn operand_for(&mut self, el: &mut Elab, a: &Value, depth: usize) -> DResult<Value> {
        for _ in 0..4 {
            let b = self.expr(el, depth)?;
            if !is_lit(a) || !is_lit(&b) {
                return Ok(b);
            }
        }
        let i = self.rng.below(self.vars.len());
        super::read(el, &self.vars[i].clone())
    }

    /// Makes the operands promote: a literal out of range or negative for
    /// an unsigned type becomes 1; tensors of mixed signedness for `/ // %`
    /// get `b` converted to `a`'s dtype. Gives the operands and the
    /// computation dtype.
    fn fit_literals(
        &mut self,
        el: &mut Elab,
        a: Value,
        b: Value,
        div: bool,
    ) -> DResult<(Value, Value, DType)> {
        let result =
            |a: &Value, b: &Value| promote::computation_type(operand(a), operand(b), div).ok();
        if let Some(d) = result(&a, &b) {
            return Ok((a, b, d));
        }
        let fix = |v: Value| {
            if is_lit(&v) {
                super::int(1)
            } else {
                v
            }
        };
        let (a, b) = (fix(a), fix(b));
        if let Some(d) = result(&a, &b) {
            return Ok((a, b, d));
        }
        let b2 = self.convert(el, b, dtype_of(&a))?;
        if let Some(d) = result(&a, &b2) {
            return Ok((a, b2, d));
        }
        // a bool tile with a signed integer in `/ // %` (int1 counts as
        // unsigned): both in int32
        let a2 = self.convert(el, a, DType::I32)?;
        let b3 = self.convert(el, b2, DType::I32)?;
        let d = result(&a2, &b3).unwrap_or(DType::I32);
        Ok((a2, b3, d))
    }

    pub(super) fn binary_arith(
        &mut self,
        el: &mut Elab,
        a: Value,
        b: Value,
        op: Operator,
    ) -> DResult<Value> {
        let (a, b, _) = self.fit_literals(el, a, b, false)?;
        el.binop(op, a, b, sp())
    }

    fn div_mod(&mut self, el: &mut Elab, a: Value, b: Value) -> DResult<Value> {
        let op = *self
            .rng
            .pick(&[Operator::FloorDiv, Operator::Mod, Operator::Div]);
        let (a, b, d) = self.fit_literals(el, a, b, true)?;
        if self.cfg.avoid_divergences() {
            // float `/` is approximate in real Triton except in float64
            // (divergence 4), float `%` is not C's fmod (divergence 6)
            let exact_div = d == DType::F64 && op != Operator::Mod;
            if d.is_float() && !exact_div {
                return el.binop(Operator::Mult, a, b, sp());
            }
        }
        let op = if self.cfg.avoid_divergences() && !d.is_float() && op == Operator::Div {
            Operator::FloorDiv
        } else {
            op
        };
        if d.is_float() || op == Operator::Div {
            self.features
                .insert(if op == Operator::Mod { "fmod" } else { "fdiv" });
            let op = if op == Operator::FloorDiv {
                Operator::Div
            } else {
                op
            };
            return el.binop(op, a, b, sp());
        }
        self.features
            .insert(if op == Operator::Mod { "mod" } else { "div" });
        // bool // bool: divide in int32 (the guarded divisor would promote anyway)
        let (a, b, d) = if d == DType::Bool {
            let a = self.convert(el, a, DType::I32)?;
            (a, self.convert(el, b, DType::I32)?, DType::I32)
        } else {
            (a, b, d)
        };
        // the divisor in the computation type, so its guard sees the value divided by
        let b = if !is_lit(&b) && dtype_of(&b) != d {
            self.convert(el, b, d)?
        } else {
            b
        };
        let div = if op == Operator::Mod {
            BinOp::IRem(IntDiv::TRUNC)
        } else {
            BinOp::IDiv(IntDiv::TRUNC)
        };
        let b = int_divz::guard(&mut Guards(el), div, d, b)?;
        el.binop(op, a, b, sp())
    }

    /// An integer operand for a bitwise operator: a float literal becomes 1,
    /// a float tile is converted to int32.
    fn int_only(&mut self, el: &mut Elab, v: Value) -> DResult<Value> {
        match &v {
            Value::Num(PyNum::Float(_)) => Ok(super::int(1)),
            Value::Tensor(_) if dtype_of(&v).is_float() => self.convert(el, v, DType::I32),
            _ => Ok(v),
        }
    }

    fn bitwise(&mut self, el: &mut Elab, a: Value, b: Value) -> DResult<Value> {
        let (a, b) = (self.int_only(el, a)?, self.int_only(el, b)?);
        let (a, b, d) = self.fit_literals(el, a, b, false)?;
        if d == DType::Bool || self.rng.chance(0.5) {
            self.features.insert("bitwise");
            let op = *self
                .rng
                .pick(&[Operator::BitAnd, Operator::BitOr, Operator::BitXor]);
            return el.binop(op, a, b, sp());
        }
        self.features.insert("shift");
        let op = *self.rng.pick(&[Operator::LShift, Operator::RShift]);
        // a literal amount does not take part in promotion: the shift happens
        // in a's type (int32 for bool), whatever literal chose `d` above
        let d = match (&a, &b) {
            (Value::Tensor(_), Value::Num(_)) if dtype_of(&a) == DType::Bool => DType::I32,
            (Value::Tensor(_), Value::Num(_)) => dtype_of(&a),
            _ => d,
        };
        let b = if !is_lit(&b) && (dtype_of(&b) == DType::Bool || dtype_of(&b).is_float()) {
            self.convert(el, b, d)?
        } else {
            b
        };
        let shift = BinOp::Shl(ShiftRange::Ub);
        let amount = shift::guard(&mut Guards(el), shift, d, b, None)?;
        el.binop(op, a, amount, sp())
    }

    fn compare(&mut self, el: &mut Elab, a: Value, b: Value) -> DResult<Value> {
        self.features.insert("cmp");
        let (a, b, _) = self.fit_literals(el, a, b, false)?;
        let (a, b) = if self.cfg.avoid_divergences() {
            // real Triton compares a literal as a tile of its natural dtype
            // (divergence 7): compare tiles
            (self.tensorize(el, a)?, self.tensorize(el, b)?)
        } else {
            (a, b)
        };
        let op = *self.rng.pick(&safe::COMPARISONS);
        el.compare(op, a, b, sp())
    }

    fn where_expr(&mut self, el: &mut Elab, depth: usize) -> DResult<Value> {
        self.features.insert("where");
        let a = self.expr(el, depth)?;
        let b = self.operand_for(el, &a, depth)?;
        let c = self.expr(el, depth)?;
        let c = self.tensorize(el, c)?;
        let cond = if dtype_of(&c) == DType::Bool {
            c
        } else {
            let c = self.convert(el, c, DType::I32)?;
            el.compare(CmpOp::NotEq, c, super::int(0), sp())?
        };
        let (a, b, _) = self.fit_literals(el, a, b, false)?;
        el.call_builtin("where", vec![cond, a, b], sp())
    }

    fn min_max(&mut self, el: &mut Elab, a: Value, b: Value) -> DResult<Value> {
        self.features.insert("minmax");
        let (a, b, _) = self.fit_literals(el, a, b, false)?;
        let f = *self.rng.pick(&["minimum", "maximum"]);
        el.call_builtin(f, vec![a, b], sp())
    }

    fn cast(&mut self, el: &mut Elab, a: Value) -> DResult<Value> {
        let a = self.tensorize(el, a)?;
        let ad = dtype_of(&a);
        if self.rng.chance(0.2) && ad != DType::Bool {
            // bitcast to another dtype of the same width
            let same: Vec<DType> = self
                .cfg
                .dtypes
                .iter()
                .copied()
                .filter(|d| d.bits() == ad.bits() && *d != ad)
                .filter(|d| !(self.cfg.avoid_divergences() && *d == DType::BF16))
                .collect();
            if !same.is_empty() {
                self.features.insert("bitcast");
                let t = *self.rng.pick(&same);
                return el.call_builtin(
                    "to",
                    Args {
                        pos: vec![a, Value::DType(t)],
                        kw: vec![("bitcast".into(), Value::Num(PyNum::Bool(true)))],
                    },
                    sp(),
                );
            }
        }
        self.features.insert("cast");
        if self.fp8() && ad.is_float() && self.rng.chance(0.15) {
            self.features.insert("fp8");
            let t = *self.rng.pick(&[DType::F8E4Nv, DType::F8E5]);
            let back = *self.rng.pick(&[DType::F16, DType::F32]);
            let n = self.to(el, a, t)?;
            return self.to(el, n, back);
        }
        let t = self.arith_dtype();
        if ad.is_float() && t.is_float() && t.bits() < ad.bits() && self.rng.chance(0.3) {
            self.features.insert("rtz");
            return el.call_builtin(
                "to",
                Args {
                    pos: vec![a, Value::DType(t)],
                    kw: vec![("fp_downcast_rounding".into(), Value::Str("rtz".into()))],
                },
                sp(),
            );
        }
        self.convert(el, a, t)
    }

    fn unary(&mut self, el: &mut Elab, a: Value) -> DResult<Value> {
        let a = self.tensorize(el, a)?;
        let d = dtype_of(&a);
        // ptxas miscompiles a narrow negation widened afterwards (divergence 24)
        let narrow = matches!(d, DType::I8 | DType::I16);
        match self.rng.below(3) {
            0 if d != DType::Bool && !(narrow && self.cfg.avoid_divergences()) => {
                el.unaryop(UnaryOp::USub, a, sp())
            }
            1 if d.is_int() => el.unaryop(UnaryOp::Invert, a, sp()),
            _ if !d.is_unsigned_int() => el.call_builtin("abs", vec![a], sp()),
            _ => Ok(a),
        }
    }

    fn math(&mut self, el: &mut Elab, a: Value) -> DResult<Value> {
        let a = self.tensorize(el, a)?;
        // float32: Triton's math takes float32 or float64 only, and float64
        // results of the GPU's functions would differ from the interpreter's
        // in ulps
        let a = self.convert(el, a, DType::F32)?;
        if self.cfg.avoid_divergences() {
            // real Triton's math is approximate (divergences 5, 12), its
            // floor/ceil flush subnormal inputs (divergence 21)
            return Ok(a);
        }
        let f = {
            *self
                .rng
                .pick(&["exp", "log", "sin", "cos", "sqrt", "floor", "ceil", "exp2"])
        };
        self.features.insert("math");
        el.call_builtin(f, vec![a], sp())
    }

    fn fma_expr(&mut self, el: &mut Elab, depth: usize) -> DResult<Value> {
        self.features.insert("fma");
        let d = *self.rng.pick(&[DType::F32, DType::F64, DType::F16]);
        let mut ops = Vec::new();
        for _ in 0..3 {
            let e = self.expr(el, depth)?;
            let e = self.tensorize(el, e)?;
            ops.push(self.convert(el, e, d)?);
        }
        el.call_builtin("fma", ops, sp())
    }
}
