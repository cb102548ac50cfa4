//! Expressions and statements of generated TileLang kernels, each node
//! built by the front end. Divisors, shift amounts and floats becoming
//! integers go through the shared guard passes (`fuzz/passes/`), built
//! with [`Guards`] over the front end's values.

use super::{read, sp, Gen};
use crate::fuzz::passes::{fcvt, int_divz, shift, GuardBuilder, Known};
use crate::fuzz::safe;
use ksem_interp::dtype::DType;
use ksem_interp::frontend::py::num::PyNum;
use ksem_interp::frontend::tilelang::types::promote;
use ksem_interp::frontend::tilelang::{Elab, Value};
use ksem_interp::ir::{BinOp, ExprKind, IntDiv, ShiftRange};
use ksem_interp::span::{DResult, Diagnostic};
use rustpython_parser::ast::{CmpOp, Operator};

/// Whether a value is made of constants only (Python folds it, or TVM
/// would: no variable, load or block index in it).
pub(super) fn is_const(v: &Value) -> bool {
    if v.constant().is_some() {
        return true;
    }
    let Some(e) = v.expr() else { return false };
    let mut reads = false;
    e.for_each(&mut |x| {
        reads = reads
            || matches!(
                x.kind,
                ExprKind::Var(_)
                    | ExprKind::Load { .. }
                    | ExprKind::BlockId(_)
                    | ExprKind::Atomic { .. }
            );
    });
    !reads
}

/// Whether `v` has a constant part that folds to an infinity or NaN, which
/// has no TileLang literal (`1 << 20` converted to float16, a float16
/// product of constants past 65504).
fn non_finite_constant(v: &Value) -> bool {
    let Some(e) = v.expr() else { return false };
    let mut found = false;
    e.for_each(&mut |x| {
        let d = x.ty.dtype();
        found = found
            || d.is_float()
                && ksem_interp::ir::build::fold(x)
                    .is_some_and(|b| !ksem_interp::float::to_f64(d, b).is_finite());
    });
    found
}

/// The dtype a value computes in.
fn dt(v: &Value) -> DType {
    v.num_dtype().unwrap_or(DType::I32)
}

/// Whether `v` reads a value the front end computed with statements (a
/// `_sel` or `_boolop` variable): the printer writes such a value where it
/// is read, so it must be read once.
fn is_lazy(el: &Elab, v: &Value) -> bool {
    let Some(e) = v.expr() else { return false };
    let mut lazy = false;
    e.for_each(&mut |x| {
        if let ExprKind::Var(id) = x.kind {
            lazy = lazy || el.var_name(id).is_some_and(|n| n.starts_with('_'));
        }
    });
    lazy
}

/// The guard passes' builder over the TileLang front end's values:
/// Python numbers as constants (floats float32), bitwise operators, and
/// `T.min(T.max(x, lo), hi)` (a NaN gives the bound: IR `Max`/`Min` of
/// `NanMode::Ignore`).
struct Guards<'g, 'e, 'm> {
    g: &'g mut Gen,
    el: &'e mut Elab<'m>,
}

impl GuardBuilder for Guards<'_, '_, '_> {
    type Val = Value;
    type Err = Diagnostic;

    fn dtype(&self, v: &Value) -> DType {
        dt(v)
    }
    fn known(&self, v: &Value) -> Option<Known> {
        match v.constant()?.number()? {
            PyNum::Float(f) => Some(Known::Float(f)),
            n => n.as_int().map(Known::Int),
        }
    }
    fn int(&mut self, _d: DType, v: i128) -> DResult<Value> {
        Ok(Value::int(v))
    }
    fn float(&mut self, _d: DType, v: f64) -> DResult<Value> {
        Ok(Value::float(v))
    }
    fn float_const_dtype(&self) -> DType {
        DType::F32
    }
    fn bit_and(&mut self, a: Value, b: Value) -> DResult<Value> {
        self.el.binop(Operator::BitAnd, a, b, sp())
    }
    fn bit_or(&mut self, a: Value, b: Value) -> DResult<Value> {
        self.el.binop(Operator::BitOr, a, b, sp())
    }
    fn clamp(&mut self, x: Value, lo: f64, hi: f64) -> DResult<Value> {
        let (lo, hi) = (Value::float(lo), Value::float(hi));
        self.g.clamp(self.el, x, lo, hi)
    }
}

impl Gen {
    /// `v` made safe to read more than once: a value computed with
    /// statements is bound to a fresh name, or, where no statement may be
    /// emitted (a lazily evaluated operand), replaced by a leaf.
    fn settle(&mut self, el: &mut Elab, v: Value) -> DResult<Value> {
        if !is_lazy(el, &v) {
            return Ok(v);
        }
        if self.lazy > 0 {
            let mut x = self.leaf(el)?;
            while is_lazy(el, &x) {
                x = Value::int(1);
            }
            return Ok(x);
        }
        let n = self.fresh();
        el.assign_name(&n, v, sp())?;
        read(el, &n)
    }

    /// A leaf: a variable, a small Python constant (int literals are int32)
    /// or a module constant made of Python arithmetic.
    fn leaf(&mut self, el: &mut Elab) -> DResult<Value> {
        if self.rng.chance(0.8) && !self.vars.is_empty() {
            let n = self.rng.pick(&self.vars).clone();
            return read(el, &n);
        }
        if self.rng.chance(0.6) {
            if self.rng.chance(0.2) && self.knobs.python_constants {
                self.features.insert("python-constants");
                let k = self.rng.pick(&self.consts).clone();
                return read(el, &k);
            }
            Ok(Value::int(self.rng.below(31) as i128 - 15))
        } else {
            Ok(Value::float((self.rng.below(401) as f64 - 200.0) / 16.0))
        }
    }

    /// `x` converted to `to`: floats clamped first where `to` is an integer.
    pub(super) fn convert_to(&mut self, el: &mut Elab, x: Value, to: DType) -> DResult<Value> {
        if dt(&x) == to {
            return Ok(x);
        }
        // TileLang refuses a constant outside an integer dtype (measured:
        // "cannot make uint from negative value", "Literal value 1984
        // exceeds maximum of uint8"): constants are clamped into range first
        let x = if to.is_int() && is_const(&x) && !dt(&x).is_float() {
            let (lo, hi) = to.int_range();
            let (lo, hi) = (lo.max(-1000), hi.min(1000));
            self.clamp(el, x, Value::int(lo), Value::int(hi))?
        } else {
            x
        };
        // against real TileLang, within ±1000: its C target prints float
        // constants with 7 digits (divergence T5), so an exact bound such
        // as 2147483520.0 would print as a value out of range
        let limit = self.peer.then_some(1000.0);
        let x = fcvt::guard(&mut Guards { g: self, el }, x, to, limit)?;
        let r = el.call_fn("Cast", vec![Value::of_dtype(to), x.clone()], sp())?;
        if non_finite_constant(&r) {
            // a constant past float16's range: clamped into it first
            let (lo, hi) = (Value::float(-65504.0), Value::float(65504.0));
            let x = self.clamp(el, x, lo, hi)?;
            return el.call_fn("Cast", vec![Value::of_dtype(to), x], sp());
        }
        Ok(r)
    }

    /// `T.min(T.max(x, lo), hi)`.
    fn clamp(&mut self, el: &mut Elab, x: Value, lo: Value, hi: Value) -> DResult<Value> {
        let x = self.settle(el, x)?;
        let m = el.call_fn("max", vec![x, lo], sp())?;
        el.call_fn("min", vec![m, hi], sp())
    }

    /// An integer expression (floats converted to int32 after clamping).
    fn int_expr(&mut self, el: &mut Elab, depth: usize) -> DResult<Value> {
        let x = self.expr(el, depth)?;
        if dt(&x).is_float() {
            self.convert_to(el, x, DType::I32)
        } else {
            Ok(x)
        }
    }

    /// A divisor of `op` computing in `d` (`passes::int_divz`); for
    /// `T.ceildiv`, `positive`, one in 1..=13 (`x & 15` first: real
    /// TileLang's ceildiv differs for negative divisors, divergence T1).
    fn divisor(
        &mut self,
        el: &mut Elab,
        op: BinOp,
        d: DType,
        depth: usize,
        positive: bool,
    ) -> DResult<Value> {
        let x = self.int_expr(el, depth)?;
        let x = self.convert_to(el, x, d)?;
        let x = if positive {
            el.binop(Operator::BitAnd, x, Value::int(15), sp())?
        } else {
            x
        };
        int_divz::guard(&mut Guards { g: self, el }, op, d, x)
    }

    pub(super) fn expr(&mut self, el: &mut Elab, depth: usize) -> DResult<Value> {
        if depth == 0 || self.rng.chance(0.25) {
            return self.leaf(el);
        }
        let k = self.knobs;
        match self.rng.below(10) {
            0..=2 => self.arith(el, depth),
            3 => {
                let a = self.expr(el, depth - 1)?;
                let b = self.expr(el, depth - 1)?;
                let Some(d) = promote(dt(&a), dt(&b)).filter(|d| d.is_float() && k.division) else {
                    return self.bin(el, a, Operator::Add, b);
                };
                if (self.peer || d == DType::F64) && is_const(&b) {
                    // a folded constant divisor (divergence T5; a float64
                    // constant has no TileLang literal)
                    return Ok(a);
                }
                // a float divisor away from 0 (the C target has no float
                // T.abs: measured "Unresolved call tirx.fabs")
                self.features.insert("float-div");
                let b = self.convert_to(el, b, d)?;
                let b = self.settle(el, b)?;
                let sq = el.binop(Operator::Mult, b.clone(), b, sp())?;
                let q = el.binop(Operator::Add, sq, Value::float(1.0), sp())?;
                el.binop(Operator::Div, a, q, sp())
            }
            4 | 5 if k.division => {
                let a = self.int_expr(el, depth - 1)?;
                // the divisor's dtype (its value is made below)
                let ints: Vec<DType> = self
                    .dtypes()
                    .iter()
                    .copied()
                    .filter(|d| d.is_int())
                    .collect();
                let bd = *self.rng.pick(&ints);
                let d = promote(dt(&a), bd).unwrap_or(DType::I32);
                let form = *self.rng.pick(&[
                    "//", "%", "floordiv", "floormod", "truncdiv", "truncmod", "ceildiv",
                ]);
                self.features.insert(match form {
                    "//" | "%" | "floordiv" | "floormod" => "floordiv/mod",
                    "truncdiv" | "truncmod" => "truncdiv/mod",
                    _ => "ceildiv",
                });
                let op = match form {
                    "//" | "floordiv" => BinOp::IDiv(IntDiv::FLOOR),
                    "%" | "floormod" => BinOp::IRem(IntDiv::FLOOR),
                    "truncmod" => BinOp::IRem(IntDiv::TRUNC),
                    _ => BinOp::IDiv(IntDiv::TRUNC),
                };
                let q = self.divisor(el, op, d, depth - 1, form == "ceildiv")?;
                let a = self.convert_to(el, a, d)?;
                match form {
                    "//" => el.binop(Operator::FloorDiv, a, q, sp()),
                    "%" => el.binop(Operator::Mod, a, q, sp()),
                    f => el.call_fn(f, vec![a, q], sp()),
                }
            }
            6 if k.bitwise => {
                let a = self.int_expr(el, depth - 1)?;
                let b = self.int_expr(el, depth - 1)?;
                let op = *self.rng.pick(&[
                    Operator::BitAnd,
                    Operator::BitOr,
                    Operator::BitXor,
                    Operator::LShift,
                    Operator::RShift,
                ]);
                self.features.insert("bitwise");
                let b = if matches!(op, Operator::LShift | Operator::RShift) {
                    let d = promote(dt(&a), dt(&b)).unwrap_or(DType::I32);
                    // against real TileLang, amounts up to 7: its C target
                    // computes narrow integers in C's `int` (divergence T7)
                    let cap = self.peer.then_some(7);
                    let shl = BinOp::Shl(ShiftRange::Ub);
                    shift::guard(&mut Guards { g: self, el }, shl, d, b, cap)?
                } else {
                    b
                };
                self.bin(el, a, op, b)
            }
            7 => {
                let x = self.expr(el, depth - 1)?;
                let to = *self.rng.pick(self.dtypes());
                self.features.insert("convert");
                self.convert_to(el, x, to)
            }
            8 => {
                let a = self.expr(el, depth - 1)?;
                let b = self.expr(el, depth - 1)?;
                let f = *self.rng.pick(&["min", "max"]);
                self.features.insert("minmax");
                let a = self.settle(el, a)?;
                let b = self.settle(el, b)?;
                el.call_fn(f, vec![a, b], sp())
            }
            // a construct the knobs leave out
            4..=6 => self.arith(el, depth),
            // not inside a lazily evaluated operand: a value there is read
            // once, and a clamp or T.min would read it twice
            _ if self.lazy > 0 => self.leaf(el),
            _ if !k.ifexp => self.arith(el, depth),
            _ => {
                let c = self.cond(el, depth - 1)?;
                self.features.insert("if_then_else");
                // both branches converted to one dtype (TVM's if_then_else
                // wants equal dtypes)
                let d = *self.rng.pick(self.dtypes());
                self.lazy += 1;
                let r = el.if_then_else(
                    c,
                    |el, _| {
                        let x = self.expr(el, depth - 1)?;
                        self.convert_to(el, x, d)
                    },
                    sp(),
                );
                self.lazy -= 1;
                // bound at once where it may be, so that no statement comes
                // between the value's computation and its (printed) read
                if self.lazy == 0 {
                    let n = self.fresh();
                    el.assign_name(&n, r?, sp())?;
                    return read(el, &n);
                }
                r
            }
        }
    }

    /// `a + b`, `a - b`, `a * b`, or a `T.ieee_*` operation with a
    /// rounding mode.
    fn arith(&mut self, el: &mut Elab, depth: usize) -> DResult<Value> {
        let a = self.expr(el, depth - 1)?;
        let b = self.expr(el, depth - 1)?;
        let d = promote(dt(&a), dt(&b)).unwrap_or(DType::F32);
        let folded = is_const(&a) && is_const(&b);
        if !self.peer
            && !folded
            && matches!(d, DType::F32 | DType::F64)
            && self.rng.chance(0.3)
            && self.knobs.ieee
        {
            // IEEE operations with a rounding mode (the C target
            // cannot compile them: refusals against real TileLang)
            self.features.insert("ieee");
            let mut f = *self.rng.pick(&[
                "ieee_add",
                "ieee_sub",
                "ieee_mul",
                "ieee_fmaf",
                "ieee_frsqrt",
            ]);
            if f == "ieee_frsqrt" && is_const(&a) {
                // a folded 1/sqrt may be a NaN, which has no literal
                // (T.ieee_fmaf is never folded: a or b is not constant)
                f = "ieee_add";
            }
            let mode = *self.rng.pick(&["rn", "rz", "ru", "rd"]);
            let a = self.convert_to(el, a, d)?;
            let b = self.convert_to(el, b, d)?;
            return match f {
                // float32 only, round to nearest only (no mode argument)
                "ieee_frsqrt" => {
                    let a = self.convert_to(el, a, DType::F32)?;
                    el.call_fn(f, vec![a], sp())
                }
                "ieee_fmaf" => {
                    let c = self.expr(el, depth - 1)?;
                    let c = self.convert_to(el, c, d)?;
                    el.call_fn(f, vec![a, b, c, Value::string(mode)], sp())
                }
                _ => el.call_fn(f, vec![a, b, Value::string(mode)], sp()),
            };
        }
        let op = *self
            .rng
            .pick(&[Operator::Add, Operator::Sub, Operator::Mult]);
        self.features.insert("arith");
        self.bin(el, a, op, b)
    }

    /// `a op b`.
    fn bin(&mut self, el: &mut Elab, a: Value, op: Operator, b: Value) -> DResult<Value> {
        let r = el.binop(op, a.clone(), b.clone(), sp())?;
        if non_finite_constant(&r) {
            // a folded infinity has no TileLang literal
            return Ok(if non_finite_constant(&a) { b } else { a });
        }
        let float = dt(&r).is_float();
        if (self.peer && float || dt(&r) == DType::F64) && is_const(&a) && is_const(&b) {
            // Python or TVM would fold it into a constant that real
            // TileLang's C target prints with 7 digits (divergence T5); a
            // folded float64 constant has no TileLang literal (float
            // literals are float32)
            return Ok(a);
        }
        // unsigned minus a larger value wraps (defined); keep it
        Ok(r)
    }

    /// A runtime condition: a comparison, sometimes joined with `and`/`or`.
    fn cond(&mut self, el: &mut Elab, depth: usize) -> DResult<Value> {
        let a = self.expr(el, depth)?;
        let b = self.expr(el, depth)?;
        let op = *self.rng.pick(&safe::COMPARISONS);
        if self.rng.chance(0.25) && self.knobs.boolops {
            self.features.insert("and/or");
            let and = self.rng.chance(0.5);
            return el.bool_values(
                and,
                2,
                |el, k| {
                    if k == 0 {
                        el.compare(op, a.clone(), b.clone(), sp())
                    } else {
                        self.lazy += 1;
                        let d = self.expr(el, depth);
                        self.lazy -= 1;
                        el.compare(CmpOp::Gt, d?, Value::int(0), sp())
                    }
                },
                sp(),
            );
        }
        el.compare(op, a, b, sp())
    }

    /// A fresh name bound once (TileLang refuses rebinding in a loop).
    pub(super) fn assign(&mut self, el: &mut Elab) -> DResult<()> {
        let e = self.expr(el, 3)?;
        let n = self.fresh();
        el.assign_name(&n, e, sp())?;
        self.vars.push(n);
        Ok(())
    }

    /// `if`/`else` binding a fresh name on both sides (not read later; the
    /// branch's reads and arithmetic still run).
    pub(super) fn branch(&mut self, el: &mut Elab) -> DResult<()> {
        self.features.insert("if");
        let c = self.cond(el, 2)?;
        el.if_stmt(
            c,
            |el, _| {
                let e = self.expr(el, 2)?;
                let n = self.fresh();
                el.assign_name(&n, e, sp())
            },
            sp(),
        )
    }

    /// `T.atomic_add(hist[x & 3], 1)`: integer totals do not depend on the
    /// order of the updates.
    pub(super) fn atomic(&mut self, el: &mut Elab) -> DResult<()> {
        self.features.insert("atomic");
        self.atomics += 1;
        let e = self.int_expr(el, 2)?;
        let e = self.convert_to(el, e, DType::I32)?;
        let at = el.binop(Operator::BitAnd, e, Value::int(3), sp())?;
        let Some(h) = self.hist.clone() else {
            return super::bug("an atomic update without a histogram");
        };
        el.atomic_update("atomic_add", &h, vec![at], Value::int(1), sp())
    }

    /// `acc += int` on the block's `T.alloc_var` (not in `T.Parallel`).
    pub(super) fn accumulate(&mut self, el: &mut Elab) -> DResult<()> {
        let e = self.int_expr(el, 2)?;
        let e = self.convert_to(el, e, DType::I32)?;
        let cur = read(el, "acc")?;
        let sum = el.binop(Operator::Add, cur, e, sp())?;
        el.assign_name("acc", sum, sp())
    }
}
