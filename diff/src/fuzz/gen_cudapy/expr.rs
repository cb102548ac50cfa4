//! Random expressions of the generated kernels: the seed's mixed
//! integer/float typing, conversions, bitwise operators and shifts (UB
//! guarded by the shared passes, `fuzz/passes/`), min/max/abs/unary/math,
//! floor division and modulo, true division, conditional expressions and
//! `and`/`or` conditions.

use super::nodes::{self, Arith, Bitwise, S};
use super::Gen;
use crate::fuzz::passes::int_ovf::{self, IntClamp};
use crate::fuzz::passes::{fcvt, int_divz, op_of, shift, GuardBuilder, Known};
use ksem_interp::dtype::DType;
use ksem_interp::frontend::cudapy::types;
use ksem_interp::ir::build::{convert, dtype_of, fold};
use ksem_interp::ir::*;

/// The dtypes values take: every integer, float32 and float64; where
/// `avoid_divergences` (against real numba-cuda) int64 and float64 only,
/// on which numba's 64-bit typing and the seed's "most generic of the two"
/// agree for every operator the generator writes.
pub fn dtypes(avoid_divergences: bool) -> &'static [DType] {
    static ALL: std::sync::OnceLock<Vec<DType>> = std::sync::OnceLock::new();
    if avoid_divergences {
        return &[DType::I64, DType::F64];
    }
    ALL.get_or_init(|| {
        DType::ALL
            .into_iter()
            .filter(|&d| (d.is_int() && d != DType::Bool) || matches!(d, DType::F32 | DType::F64))
            .collect()
    })
}

/// The guard passes' builder over CUDA Python's IR (`nodes`): Python
/// numbers as int64 and float64 constants, `&`/`|` as the front end types
/// them, and `min(max(x, lo), hi)` (a NaN gives the bound: IR `Max`/`Min`
/// of `NanMode::Ignore`, Python's `max`/`min` of a NaN second operand).
struct Guards;

impl GuardBuilder for Guards {
    type Val = Expr;
    type Err = std::convert::Infallible;

    fn dtype(&self, v: &Expr) -> DType {
        dtype_of(v)
    }
    fn known(&self, v: &Expr) -> Option<Known> {
        let d = dtype_of(v);
        let bits = fold(v)?;
        Some(if d.is_float() {
            Known::Float(ksem_interp::float::to_f64(d, bits))
        } else {
            Known::Int(ksem_interp::ops::int_value(d, bits))
        })
    }
    fn int(&mut self, _d: DType, v: i128) -> Result<Expr, Self::Err> {
        Ok(nodes::int(v as i64))
    }
    fn float(&mut self, _d: DType, v: f64) -> Result<Expr, Self::Err> {
        Ok(nodes::float(v))
    }
    fn float_const_dtype(&self) -> DType {
        DType::F64
    }
    fn bit_and(&mut self, a: Expr, b: Expr) -> Result<Expr, Self::Err> {
        Ok(nodes::bitwise(Bitwise::And, a, b))
    }
    fn bit_or(&mut self, a: Expr, b: Expr) -> Result<Expr, Self::Err> {
        Ok(nodes::bitwise(Bitwise::Or, a, b))
    }
    fn clamp(&mut self, x: Expr, lo: f64, hi: f64) -> Result<Expr, Self::Err> {
        Ok(nodes::clamp(x, lo, hi))
    }
}

impl IntClamp for Guards {
    fn int_clamp(&mut self, x: Expr, lo: i128, hi: i128) -> Result<Expr, Self::Err> {
        let m = nodes::min_max(false, x, nodes::int(lo as i64));
        Ok(nodes::min_max(true, m, nodes::int(hi as i64)))
    }
}

/// `a OP b` with its operands guarded as the op declares
/// (`passes::int_ovf`: an int64 `+ - *`, numba's `nsw`, clamped so that it
/// cannot overflow; others as they are).
pub fn no_overflow(op: Arith, a: Expr, b: Expr) -> Expr {
    match op_of(&nodes::arith(op, a.clone(), b.clone())) {
        Some((bop @ BinOp::NoSignedWrap(_), d)) => {
            let Ok(a) = int_ovf::guard(&mut Guards, bop, d, a);
            let Ok(b) = int_ovf::guard(&mut Guards, bop, d, b);
            nodes::arith(op, a, b)
        }
        _ => nodes::arith(op, a, b),
    }
}

/// `x` made safe to convert to `to` (`passes::fcvt`: a float clamped into
/// the conversion's defined range).
pub fn convertible(x: Expr, to: DType) -> Expr {
    let Ok(x) = fcvt::guard(&mut Guards, x, to, None);
    x
}

impl Gen {
    /// A leaf: a live variable or a literal.
    fn leaf(&mut self) -> Expr {
        if self.rng.chance(0.75) && !self.live.is_empty() {
            let v = *self.rng.pick(&self.live);
            return self.var(v);
        }
        if self.rng.chance(0.5) {
            nodes::int(self.rng.below(41) as i64 - 20)
        } else {
            nodes::float((self.rng.below(801) as f64 - 400.0) / 16.0)
        }
    }

    /// An expression of nesting at most `depth`; statements it needs (the
    /// `if` of a conditional expression) go to the current block.
    pub fn expr(&mut self, depth: usize) -> Expr {
        if depth == 0 || self.rng.chance(0.3) {
            return self.leaf();
        }
        let k = self.knobs;
        match self.rng.below(12) {
            5 if k.bitwise => self.bitwise(depth),
            6 if k.conversions => self.conversion(depth),
            7 if k.ifexp => self.if_exp(depth),
            8 => {
                let (a, b) = (self.expr(depth - 1), self.expr(depth - 1));
                self.features.insert("minmax");
                let is_min = self.rng.chance(0.5);
                nodes::min_max(is_min, a, b)
            }
            10 => self.unary(depth),
            9 | 11 if k.math => {
                let x = self.expr(depth - 1);
                self.features.insert("abs");
                nodes::abs(x)
            }
            // 0..=4, and a construct the knobs leave out
            _ => self.arith(depth),
        }
    }

    fn arith(&mut self, depth: usize) -> Expr {
        let (a, b) = (self.expr(depth - 1), self.expr(depth - 1));
        use Arith::*;
        let op = *self.rng.pick(&[Add, Sub, Mul, TrueDiv, Mod, FloorDiv]);
        // without division, its draws become the other operators
        let op = match op {
            TrueDiv if !self.knobs.division => Add,
            FloorDiv if !self.knobs.division => Sub,
            Mod if !self.knobs.division => Mul,
            _ => op,
        };
        let float = types::promote(dtype_of(&a), dtype_of(&b)).is_float();
        match op {
            // Python's float `//` and `%` elaborate to selects, which have
            // no printed form of their own: `+` and `math.fmod` instead
            FloorDiv if float => return nodes::arith(Add, a, b),
            // numba's float remainder is not exact (N6): against it, `-`
            Mod if float && self.avoid_divergences => return nodes::arith(Sub, a, b),
            Mod if float => {
                self.features.insert("fmod");
                return nodes::fmod(a, b);
            }
            TrueDiv => self.features.insert("truediv"),
            Mod | FloorDiv => self.features.insert("floordiv/mod"),
            _ => self.features.insert("arith"),
        };
        // a divisor guarded as the op declares (`passes::int_divz`; CUDA
        // Python defines division by zero and `MIN // -1`: none)
        let b = match op_of(&nodes::arith(op, a.clone(), b.clone())) {
            Some((bop @ (BinOp::IDiv(_) | BinOp::IRem(_)), d)) => {
                let Ok(b) = int_divz::guard(&mut Guards, bop, d, b);
                b
            }
            _ => b,
        };
        no_overflow(op, a, b)
    }

    fn bitwise(&mut self, depth: usize) -> Expr {
        let (a, b) = (self.int_expr(depth - 1), self.int_expr(depth - 1));
        use Bitwise::*;
        let op = *self.rng.pick(&[And, Or, Xor, Shl, Shr]);
        self.features.insert("bitwise");
        // a shift amount guarded as the shift declares (`passes::shift`)
        let b = match op_of(&nodes::bitwise(op, a.clone(), b.clone())) {
            Some((sop @ (BinOp::Shl(_) | BinOp::Shr(..)), d)) => {
                let Ok(b) = shift::guard(&mut Guards, sop, d, b, None);
                b
            }
            _ => b,
        };
        nodes::bitwise(op, a, b)
    }

    /// A conversion by a type object; floats are clamped first.
    fn conversion(&mut self, depth: usize) -> Expr {
        let x = self.expr(depth - 1);
        let to = *self.rng.pick(dtypes(self.avoid_divergences));
        self.features.insert("convert");
        convert(convertible(x, to), to)
    }

    /// `a if c else b`: an `if` setting a fresh `_ifexp` variable.
    fn if_exp(&mut self, depth: usize) -> Expr {
        let c = self.cond(depth - 1);
        let (a, then_pre) = self.within(|g| g.expr(depth - 1));
        let (b, else_pre) = self.within(|g| g.expr(depth - 1));
        self.features.insert("ifexp");
        let d = types::compare_type(dtype_of(&a), dtype_of(&b));
        let r = self.new_var("_ifexp", d);
        let mut then_body = then_pre;
        then_body.push(Stmt::Let(r, convert(a, d)));
        let mut else_body = else_pre;
        else_body.push(Stmt::Let(r, convert(b, d)));
        self.emit(Stmt::If {
            cond: c,
            then_body,
            else_body,
        });
        self.var(r)
    }

    fn unary(&mut self, depth: usize) -> Expr {
        let x = self.expr(depth - 1);
        self.features.insert("unary");
        if !dtype_of(&x).is_float() {
            let op = *self.rng.pick(&[UnOp::Neg, UnOp::Not]);
            return nodes::negate(op, x);
        }
        if self.rng.chance(0.5) && self.knobs.math {
            self.features.insert("math");
            use MathFn::*;
            let f = *self.rng.pick(&[Sqrt, Abs, Floor, Ceil]);
            nodes::math(f, x)
        } else {
            nodes::negate(UnOp::Neg, x)
        }
    }

    /// An integer expression (a float is clamped and converted to int32,
    /// or int64 against real numba-cuda).
    pub fn int_expr(&mut self, depth: usize) -> Expr {
        let x = self.expr(depth);
        let to = if self.avoid_divergences {
            DType::I64
        } else {
            DType::I32
        };
        if dtype_of(&x).is_float() {
            convert(convertible(x, to), to)
        } else {
            x
        }
    }

    /// An expression that a variable of dtype `d` can take inside a loop or
    /// branch, where the value is converted to `d`: no float for an int.
    pub fn expr_for(&mut self, d: DType, depth: usize) -> Expr {
        if d.is_float() {
            self.expr(depth)
        } else {
            self.int_expr(depth)
        }
    }

    /// A condition; with `and`/`or`, the `_boolop` pattern of the front end.
    pub fn cond(&mut self, depth: usize) -> Expr {
        let (a, b) = (self.expr(depth), self.expr(depth));
        use BinOp::*;
        let op = *self.rng.pick(&[Lt, Le, Gt, Ge, Eq, Ne]);
        let c = nodes::compare(op, a, b);
        if !self.rng.chance(0.25) || !self.knobs.boolops {
            return c;
        }
        self.features.insert("and/or");
        let (second, pre) = self.within(|g| {
            let d = g.expr(depth);
            nodes::compare(Gt, d, nodes::int(0))
        });
        let and = self.rng.chance(0.5);
        let r = self.new_var("_boolop", DType::Bool);
        let go_on = if and {
            self.var(r)
        } else {
            ksem_interp::ir::build::unary(UnOp::LogicalNot, self.var(r), S)
        };
        let mut then_body = pre;
        then_body.push(Stmt::Let(r, second));
        self.emit(Stmt::Let(r, c));
        self.emit(Stmt::If {
            cond: go_on,
            then_body,
            else_body: vec![],
        });
        self.var(r)
    }
}
