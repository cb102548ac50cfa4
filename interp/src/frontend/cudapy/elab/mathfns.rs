//! The exact functions of `math` that numba-cuda lowers to libdevice and
//! that ksem builds from existing IR ops (CUDA's `frexp`, `ldexp`, `modf`,
//! `nextafter` and `remainder` are exact: IEEE results, measured equal to
//! the CPU's on 4,096 values each, docs/numba-measured.md):
//!
//! - `frexp(x)`: `(m, e)` with `x = m * 2**e`, `0.5 <= |m| < 1`, `e` int32;
//!   `x` itself and 0 for ±0, ±inf and NaN (measured: numba-cuda's
//!   `frexp(inf)` is `(inf, 0)`, as Python's); subnormals are normalized;
//! - `ldexp(x, n)`: `x * 2**n` rounded once (musl's `scalbn`: at most two
//!   scalings that cannot round, then one multiplication by a power of two);
//! - `modf(x)`: `(x - trunc(x), trunc(x))`, the fraction carrying `x`'s sign
//!   (`modf(-1.0)` is `(-0.0, -1.0)`, `modf(±inf)` is `(±0.0, ±inf)`);
//! - `nextafter(x, y)`: the neighbour of `x` towards `y` (`y` where they are
//!   equal; the smallest subnormal with `y`'s sign from zero);
//! - `remainder(x, y)`: IEEE's `x - n*y`, `n` the integer nearest `x / y`,
//!   ties to even (fdlibm's way: `fmod(x, 2|y|)`, then at most two
//!   subtractions of `|y|`); NaN for an infinite `x` or a zero `y`.
//!
//! Each computes in `d`, float32 or float64.

use super::*;

/// The facts of a float format the functions below need.
struct Fmt {
    /// The unsigned integer of the float's width.
    bits: DType,
    man: u32,
    bias: i128,
    /// The smallest normal number.
    min_normal: f64,
}

fn fmt(d: DType) -> Fmt {
    if d == DType::F32 {
        Fmt {
            bits: DType::U32,
            man: 23,
            bias: 127,
            min_normal: f32::MIN_POSITIVE as f64,
        }
    } else {
        Fmt {
            bits: DType::U64,
            man: 52,
            bias: 1023,
            min_normal: f64::MIN_POSITIVE,
        }
    }
}

fn bitcast(e: Expr, to: DType, span: Span) -> Expr {
    mk(
        ExprKind::Cast(Box::new(e), CastKind::Bitcast),
        Type::scalar(to),
        span,
    )
}

impl Elab<'_> {
    /// `math.frexp(x)` of a float `x` of dtype `d`: `(mantissa, exponent)`.
    pub(super) fn frexp(&mut self, x: Expr, span: Span) -> Val {
        let d = dtype_of(&x);
        let f = fmt(d);
        let fc = |v: f64| float_const(d, v, span);
        let uc = |v: u64| konst(f.bits, v, span);
        let x = self.temp(x);
        let ax = self.temp(unary(UnOp::Math(MathFn::Abs), x.clone(), span));
        // zero, inf and NaN come back as they are, with exponent 0
        let finite_nonzero = bin(
            BinOp::LogicalAnd,
            bin(BinOp::Ne, ax.clone(), fc(0.0), span),
            bin(BinOp::Lt, ax.clone(), fc(f64::INFINITY), span),
            span,
        );
        let finite_nonzero = self.temp(finite_nonzero);
        // a subnormal is scaled by 2**64 (exact) into the normal range
        let sub = self.temp(bin(BinOp::Lt, ax, fc(f.min_normal), span));
        let y = select(
            sub.clone(),
            bin(BinOp::Mul, x.clone(), fc(2f64.powi(64)), span),
            x.clone(),
            span,
        );
        let b = self.temp(bitcast(y, f.bits, span));
        let exp_mask = (1u64 << (d.bits() - 1 - f.man)) - 1;
        let field = bin(
            BinOp::And,
            shr_u(b.clone(), f.man as u64, f.bits, span),
            uc(exp_mask),
            span,
        );
        let field = convert(field, DType::I32);
        let bias = int_const(DType::I32, f.bias - 1, span);
        let scaled = select(
            sub,
            int_const(DType::I32, 64, span),
            int_const(DType::I32, 0, span),
            span,
        );
        let e = bin(BinOp::Sub, bin(BinOp::Sub, field, bias, span), scaled, span);
        let keep = bin(
            BinOp::And,
            b,
            uc(!(exp_mask << f.man) & f.bits.mask()),
            span,
        );
        let half = bin(BinOp::Or, keep, uc(((f.bias - 1) as u64) << f.man), span);
        let m = bitcast(half, d, span);
        let m = select(finite_nonzero.clone(), m, x, span);
        let e = select(finite_nonzero, e, int_const(DType::I32, 0, span), span);
        Val::Tuple(vec![Val::Num(m), Val::Num(e)])
    }

    /// `math.ldexp(x, n)`: `x` (float of dtype `d`) times `2**n` (an integer).
    pub(super) fn ldexp(&mut self, x: Expr, n: Expr, span: Span) -> Expr {
        let d = dtype_of(&x);
        let f = fmt(d);
        let (emax, emin) = (f.bias, 1 - f.bias);
        let ic = |v: i128| int_const(DType::I64, v, span);
        let n = self.temp(convert(n, DType::I64));
        // beyond ±(3 * bias) every x overflows or underflows alike
        let lim = 3 * f.bias;
        let n = select(
            bin(BinOp::Gt, n.clone(), ic(lim), span),
            ic(lim),
            select(bin(BinOp::Lt, n.clone(), ic(-lim), span), ic(-lim), n, span),
            span,
        );
        let mut n = self.temp(n);
        let mut y = self.temp(x);
        // musl's scalbn: two scalings by 2**emax or 2**(emin + man + 1)
        let up = 2f64.powi(emax as i32);
        let down_exp = emin as i32 + f.man as i32 + 1;
        let down = 2f64.powi(down_exp);
        for _ in 0..2 {
            let big = self.temp(bin(BinOp::Gt, n.clone(), ic(emax), span));
            let small = self.temp(bin(BinOp::Lt, n.clone(), ic(emin), span));
            let y2 = select(
                big.clone(),
                bin(BinOp::Mul, y.clone(), float_const(d, up, span), span),
                select(
                    small.clone(),
                    bin(BinOp::Mul, y.clone(), float_const(d, down, span), span),
                    y.clone(),
                    span,
                ),
                span,
            );
            let n2 = select(
                big,
                bin(BinOp::Sub, n.clone(), ic(emax), span),
                select(
                    small,
                    bin(BinOp::Sub, n.clone(), ic(down_exp as i128), span),
                    n.clone(),
                    span,
                ),
                span,
            );
            y = self.temp(y2);
            n = self.temp(n2);
        }
        let n = select(
            bin(BinOp::Gt, n.clone(), ic(emax), span),
            ic(emax),
            select(bin(BinOp::Lt, n.clone(), ic(emin), span), ic(emin), n, span),
            span,
        );
        let field = convert(bin(BinOp::Add, n, ic(f.bias), span), f.bits);
        let shifted = bin(
            BinOp::Shl(ShiftRange::Ub),
            field,
            konst(f.bits, f.man as u64, span),
            span,
        );
        bin(BinOp::Mul, y, bitcast(shifted, d, span), span)
    }

    /// `math.modf(x)`: `(fraction, integral part)`, both of `x`'s dtype.
    pub(super) fn modf(&mut self, x: Expr, span: Span) -> Val {
        let d = dtype_of(&x);
        let x = self.temp(x);
        let zero = float_const(d, 0.0, span);
        let neg = bin(BinOp::Lt, x.clone(), zero.clone(), span);
        let ip = select(
            neg,
            unary(UnOp::Math(MathFn::Ceil), x.clone(), span),
            unary(UnOp::Math(MathFn::Floor), x.clone(), span),
            span,
        );
        let ip = self.temp(ip);
        let inf = is_inf(x.clone(), span);
        let frac = select(
            inf,
            bin(BinOp::CopySign, zero, x.clone(), span),
            bin(
                BinOp::CopySign,
                bin(BinOp::Sub, x.clone(), ip.clone(), span),
                x,
                span,
            ),
            span,
        );
        Val::Tuple(vec![Val::Num(frac), Val::Num(ip)])
    }

    /// `math.nextafter(x, y)` of two floats of one dtype.
    pub(super) fn nextafter(&mut self, x: Expr, y: Expr, span: Span) -> Expr {
        let d = dtype_of(&x);
        let f = fmt(d);
        let (x, y) = (self.temp(x), self.temp(y));
        let zero = float_const(d, 0.0, span);
        let b = self.temp(bitcast(x.clone(), f.bits, span));
        let up = bin(
            BinOp::Eq,
            bin(BinOp::Lt, x.clone(), y.clone(), span),
            bin(BinOp::Gt, x.clone(), zero.clone(), span),
            span,
        );
        let one = konst(f.bits, 1, span);
        let stepped = select(
            up,
            bin(BinOp::Add, b.clone(), one.clone(), span),
            bin(BinOp::Sub, b, one, span),
            span,
        );
        let stepped = bitcast(stepped, d, span);
        let tiny = bin(
            BinOp::CopySign,
            bitcast(konst(f.bits, 1, span), d, span),
            y.clone(),
            span,
        );
        let nan = bin(
            BinOp::LogicalOr,
            bin(BinOp::Ne, x.clone(), x.clone(), span),
            bin(BinOp::Ne, y.clone(), y.clone(), span),
            span,
        );
        let r = select(bin(BinOp::Eq, x.clone(), zero, span), tiny, stepped, span);
        let r = select(
            bin(BinOp::Eq, x.clone(), y.clone(), span),
            y.clone(),
            r,
            span,
        );
        select(nan, bin(BinOp::Add, x, y, span), r, span)
    }

    /// `math.remainder(x, y)` of two floats of one dtype.
    pub(super) fn remainder(&mut self, x: Expr, y: Expr, span: Span) -> Expr {
        let d = dtype_of(&x);
        let f = fmt(d);
        let fc = |v: f64| float_const(d, v, span);
        let max = if d == DType::F32 {
            f32::MAX as f64
        } else {
            f64::MAX
        };
        let (x, y) = (self.temp(x), self.temp(y));
        let p = self.temp(unary(UnOp::Math(MathFn::Abs), y.clone(), span));
        let nan = bin(
            BinOp::LogicalOr,
            bin(
                BinOp::LogicalOr,
                bin(BinOp::Ne, x.clone(), x.clone(), span),
                bin(BinOp::Ne, y.clone(), y.clone(), span),
                span,
            ),
            bin(
                BinOp::LogicalOr,
                bin(BinOp::Eq, p.clone(), fc(0.0), span),
                is_inf(x.clone(), span),
                span,
            ),
            span,
        );
        let nan = self.temp(nan);
        // |x| < 2p: fmod by 2p where 2p does not overflow (exact)
        let safe_p = select(nan.clone(), fc(1.0), p.clone(), span);
        let p = self.temp(safe_p);
        let two_p = bin(BinOp::Add, p.clone(), p.clone(), span);
        let x1 = select(
            bin(BinOp::Le, p.clone(), fc(max / 2.0), span),
            bin(BinOp::FRem, x.clone(), two_p, span),
            x.clone(),
            span,
        );
        let x1 = self.temp(select(nan.clone(), fc(0.0), x1, span));
        let neg = bin(
            BinOp::Lt,
            bin(BinOp::CopySign, fc(1.0), x1.clone(), span),
            fc(0.0),
            span,
        );
        let neg = self.temp(neg);
        let ax = self.temp(unary(UnOp::Math(MathFn::Abs), x1, span));
        // near the subnormals p / 2 would round: compare 2|x| with p
        let small = self.temp(bin(BinOp::Lt, p.clone(), fc(2.0 * f.min_normal), span));
        let half = self.temp(bin(BinOp::Mul, fc(0.5), p.clone(), span));
        let above = |me: &mut Self, a: &Expr, strict: bool| {
            let op = if strict { BinOp::Gt } else { BinOp::Ge };
            let twice = bin(BinOp::Add, a.clone(), a.clone(), span);
            let r = select(
                small.clone(),
                bin(op, twice, p.clone(), span),
                bin(op, a.clone(), half.clone(), span),
                span,
            );
            me.temp(r)
        };
        let t1 = above(self, &ax, true);
        let ax1 = self.temp(select(
            t1.clone(),
            bin(BinOp::Sub, ax.clone(), p.clone(), span),
            ax,
            span,
        ));
        let t2 = above(self, &ax1, false);
        let both = bin(BinOp::LogicalAnd, t1, t2, span);
        let ax2 = self.temp(select(
            both,
            bin(BinOp::Sub, ax1.clone(), p, span),
            ax1,
            span,
        ));
        let r = select(neg, unary(UnOp::Neg, ax2.clone(), span), ax2, span);
        select(nan, fc(f64::NAN), r, span)
    }
}

/// `a >> n` (logical) of an unsigned integer of dtype `u`.
fn shr_u(a: Expr, n: u64, u: DType, span: Span) -> Expr {
    bin(
        BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
        a,
        konst(u, n, span),
        span,
    )
}

/// `|x| == inf` for a float `x`: whether it is infinite.
pub(super) fn is_inf(x: Expr, span: Span) -> Expr {
    let inf = float_const(dtype_of(&x), f64::INFINITY, span);
    bin(
        BinOp::Eq,
        unary(UnOp::Math(MathFn::Abs), x, span),
        inf,
        span,
    )
}
