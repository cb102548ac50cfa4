//! Complex arithmetic, with one rule set per dialect ([`CxRules`]): `+`,
//! `-` and `==` part by part for both; `*` and `/`
//!
//! - [`CxRules::Gcc`], as C computes them for `std::complex<float>` and
//!   `std::complex<double>` (g++ 12 without `-ffast-math`): libgcc's
//!   Annex-G routines `__mulsc3`/`__muldc3` and `__divsc3`/`__divdc3`
//!   (libgcc2.c of GCC 12), which recover the infinities and zeros that the
//!   textbook formulas compute as NaN + iNaN. Measured bit for bit against
//!   real Hidet 0.6.1's `cpu_kernel` build (`tools/probes/hidet/complex2.py`).
//! - [`CxRules::Numba`], as numba-cuda 0.30.4 compiles its own routines: the
//!   textbook product and CPython's `_Py_c_quot` division, with the fused
//!   multiply-adds NVVM contracts them into and no recovery; a zero divisor
//!   raises `ZeroDivisionError`, which ends the thread. Measured bit for bit
//!   on an H200 (`tools/probes/numba/complex_data.py`).
//!
//! Each operation is built from real IR operations (exact IEEE `+ - * /`,
//! conversions, `copysign`, `abs`, comparisons, `if`), so the evaluator and
//! the CUDA lowering compute it the same way with nothing of their own.

use crate::dtype::DType;
use crate::ir::build::*;
use crate::ir::*;
use crate::span::Span;

/// A complex value: its real and imaginary parts, of one float dtype.
#[derive(Clone, Debug, PartialEq)]
pub struct Cx {
    pub re: Expr,
    pub im: Expr,
}

/// Which dialect's complex `*` and `/` a [`CxBuilder`] builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CxRules {
    /// libgcc's Annex-G routines (Hidet's C++ `std::complex`).
    Gcc,
    /// numba-cuda's routines as NVVM compiles them (CUDA Python).
    Numba,
}

/// Emits the statements of one complex operation: fresh variables come
/// from `new_var`, statements go to `out`.
pub struct CxBuilder<'a> {
    pub new_var: &'a mut dyn FnMut(&str, Type) -> VarId,
    pub out: Block,
    pub span: Span,
    /// The dialect's rules for `*` and `/`.
    pub rules: CxRules,
}

/// Runs complex operation `f` under `rules` with its fresh variables
/// appended to `vars` (a front end's variable table): its value and the
/// statements that compute it, for the caller to emit.
pub fn build(
    vars: &mut Vec<(String, Type)>,
    span: Span,
    rules: CxRules,
    f: impl FnOnce(&mut CxBuilder) -> Cx,
) -> (Cx, Block) {
    let mut new_var = |n: &str, t: Type| {
        vars.push((n.to_string(), t));
        vars.len() - 1
    };
    let mut k = CxBuilder {
        new_var: &mut new_var,
        out: vec![],
        span,
        rules,
    };
    let r = f(&mut k);
    (r, std::mem::take(&mut k.out))
}

/// `a + b`, part by part.
pub fn add(a: Cx, b: Cx, span: Span) -> Cx {
    Cx {
        re: bin(BinOp::Add, a.re, b.re, span),
        im: bin(BinOp::Add, a.im, b.im, span),
    }
}

/// `a - b`, part by part.
pub fn sub(a: Cx, b: Cx, span: Span) -> Cx {
    Cx {
        re: bin(BinOp::Sub, a.re, b.re, span),
        im: bin(BinOp::Sub, a.im, b.im, span),
    }
}

/// `-a`: both signs flipped.
pub fn neg(a: Cx, span: Span) -> Cx {
    Cx {
        re: unary(UnOp::Neg, a.re, span),
        im: unary(UnOp::Neg, a.im, span),
    }
}

/// `a == b` (`ne`: `a != b`): both parts equal (either part differs), as
/// floats compare (a NaN part is unequal to everything).
pub fn equal(a: Cx, b: Cx, ne: bool, span: Span) -> Expr {
    if ne {
        let r = bin(BinOp::Ne, a.re, b.re, span);
        let i = bin(BinOp::Ne, a.im, b.im, span);
        bin(BinOp::LogicalOr, r, i, span)
    } else {
        let r = bin(BinOp::Eq, a.re, b.re, span);
        let i = bin(BinOp::Eq, a.im, b.im, span);
        bin(BinOp::LogicalAnd, r, i, span)
    }
}

impl CxBuilder<'_> {
    fn var(&mut self, name: &str, e: Expr) -> Expr {
        let ty = e.ty.clone();
        let v = (self.new_var)(name, ty.clone());
        self.out.push(Stmt::Let(v, e));
        mk(ExprKind::Var(v), ty, self.span)
    }

    fn set(&mut self, var: &Expr, e: Expr) {
        if let ExprKind::Var(v) = var.kind {
            self.out.push(Stmt::Let(v, e));
        }
    }

    /// Runs `body` into a block of its own.
    fn block(&mut self, body: impl FnOnce(&mut Self)) -> Block {
        let outer = std::mem::take(&mut self.out);
        body(self);
        std::mem::replace(&mut self.out, outer)
    }

    fn when(&mut self, cond: Expr, body: impl FnOnce(&mut Self)) {
        let then_body = self.block(body);
        self.out.push(Stmt::If {
            cond,
            then_body,
            else_body: vec![],
        });
    }

    fn when_else(
        &mut self,
        cond: Expr,
        then: impl FnOnce(&mut Self),
        otherwise: impl FnOnce(&mut Self),
    ) {
        let then_body = self.block(then);
        let else_body = self.block(otherwise);
        self.out.push(Stmt::If {
            cond,
            then_body,
            else_body,
        });
    }

    /// `a * b` by the builder's rules.
    pub fn mul(&mut self, x: Cx, y: Cx) -> Cx {
        match self.rules {
            CxRules::Gcc => self.mul_annex_g(x, y),
            CxRules::Numba => self.mul_fused(x, y),
        }
    }

    /// `a / b` by the builder's rules.
    pub fn div(&mut self, x: Cx, y: Cx) -> Cx {
        match self.rules {
            CxRules::Gcc => self.div_annex_g(x, y),
            CxRules::Numba => self.div_py_c_quot(x, y),
        }
    }

    /// numba's `(a + bi)(c + di) = (ac - bd) + (ad + bc)i` as NVVM
    /// contracts it (measured on 14,705 operand pairs of each width, every
    /// one bit for bit): `re = fma(a, c, -(b d))`, `im = fma(b, c, a d)`.
    fn mul_fused(&mut self, x: Cx, y: Cx) -> Cx {
        let s = self.span;
        let a = self.var("_ca", x.re);
        let b = self.var("_cb", x.im);
        let c = self.var("_cc", y.re);
        let d = self.var("_cd", y.im);
        let neg_bd = unary(UnOp::Neg, mul(&b, &d), s);
        let re = self.var("_cre", fma(&a, &c, neg_bd));
        let im = self.var("_cim", fma(&b, &c, mul(&a, &d)));
        Cx { re, im }
    }

    /// numba's division, CPython's `_Py_c_quot` as NVVM contracts it
    /// (measured bit for bit): a zero divisor (both parts zero) raises
    /// `ZeroDivisionError`, which ends the thread (numba-cuda without
    /// `debug=True` returns from the kernel; the outputs keep what they
    /// held); otherwise, dividing through by the larger-magnitude part of
    /// the divisor (`|c| >= |d|`: `r = d / c`, `den = fma(d, r, c)`,
    /// `re = fma(b, r, a) / den`, `im = fma(-a, r, b) / den`; else
    /// `r = c / d`, `den = fma(c, r, d)`, `re = fma(a, r, b) / den`,
    /// `im = fma(b, r, -a) / den`); NaN + NaN i where that part is zero
    /// (a NaN divisor part) or neither comparison holds.
    fn div_py_c_quot(&mut self, x: Cx, y: Cx) -> Cx {
        let s = self.span;
        let d0 = dtype_of(&x.re);
        let a = self.var("_ca", x.re);
        let b = self.var("_cb", x.im);
        let c = self.var("_cc", y.re);
        let d = self.var("_cd", y.im);
        let zero = float_const(d0, 0.0, s);
        let nan = float_const(d0, f64::NAN, s);
        let is_zero = |e: &Expr| bin(BinOp::Eq, e.clone(), zero.clone(), s);
        self.when(and(is_zero(&c), is_zero(&d)), |k| k.out.push(Stmt::Return));
        let re = self.var("_cre", nan.clone());
        let im = self.var("_cim", nan);
        let fdiv = |x: Expr, y: &Expr| bin(BinOp::FDiv, x, y.clone(), s);
        let neg = |e: &Expr| unary(UnOp::Neg, e.clone(), s);
        let c_larger = bin(BinOp::Ge, abs(&c), abs(&d), s);
        let d_larger = bin(BinOp::Ge, abs(&d), abs(&c), s);
        self.when_else(
            c_larger,
            |k| {
                k.when(not(is_zero(&c)), |k| {
                    let r = k.var("_ratio", fdiv(d.clone(), &c));
                    let den = k.var("_denom", fma(&d, &r, c.clone()));
                    k.set(&re, fdiv(fma(&b, &r, a.clone()), &den));
                    k.set(&im, fdiv(fma(&neg(&a), &r, b.clone()), &den));
                });
            },
            |k| {
                k.when(and(d_larger, not(is_zero(&d))), |k| {
                    let r = k.var("_ratio", fdiv(c.clone(), &d));
                    let den = k.var("_denom", fma(&c, &r, d.clone()));
                    k.set(&re, fdiv(fma(&a, &r, b.clone()), &den));
                    k.set(&im, fdiv(fma(&b, &r, neg(&a)), &den));
                });
            },
        );
        Cx { re, im }
    }

    /// `a * b` as `__mulsc3`/`__muldc3`: the textbook products, and where
    /// both parts come out NaN, infinities "boxed" to ±1 and NaNs of the
    /// other factor turned into signed zeros, then recomputed times ∞.
    fn mul_annex_g(&mut self, x: Cx, y: Cx) -> Cx {
        let s = self.span;
        let a = self.var("_ca", x.re);
        let b = self.var("_cb", x.im);
        let c = self.var("_cc", y.re);
        let d = self.var("_cd", y.im);
        let ac = self.var("_ac", bin(BinOp::Mul, a.clone(), c.clone(), s));
        let bd = self.var("_bd", bin(BinOp::Mul, b.clone(), d.clone(), s));
        let ad = self.var("_ad", bin(BinOp::Mul, a.clone(), d.clone(), s));
        let bc = self.var("_bc", bin(BinOp::Mul, b.clone(), c.clone(), s));
        let re = self.var("_cre", bin(BinOp::Sub, ac.clone(), bd.clone(), s));
        let im = self.var("_cim", bin(BinOp::Add, ad.clone(), bc.clone(), s));
        let both_nan = and(isnan(&re), isnan(&im));
        self.when(both_nan, |k| {
            let recalc = k.var("_recalc", konst(DType::Bool, 0, s));
            k.when(or(isinf(&a), isinf(&b)), |k| {
                k.set(&a, boxed(&a));
                k.set(&b, boxed(&b));
                k.set(&c, nan_to_zero(&c));
                k.set(&d, nan_to_zero(&d));
                k.set(&recalc, konst(DType::Bool, 1, s));
            });
            k.when(or(isinf(&c), isinf(&d)), |k| {
                k.set(&c, boxed(&c));
                k.set(&d, boxed(&d));
                k.set(&a, nan_to_zero(&a));
                k.set(&b, nan_to_zero(&b));
                k.set(&recalc, konst(DType::Bool, 1, s));
            });
            let overflowed = or(or(isinf(&ac), isinf(&bd)), or(isinf(&ad), isinf(&bc)));
            let not_recalc = unary(UnOp::LogicalNot, recalc.clone(), s);
            k.when(and(not_recalc, overflowed), |k| {
                for v in [&a, &b, &c, &d] {
                    k.set(v, nan_to_zero(v));
                }
                k.set(&recalc, konst(DType::Bool, 1, s));
            });
            k.when(recalc.clone(), |k| {
                let inf = inf_of(&a);
                let r = bin(BinOp::Sub, mul(&a, &c), mul(&b, &d), s);
                let i = bin(BinOp::Add, mul(&a, &d), mul(&b, &c), s);
                k.set(&re, bin(BinOp::Mul, inf.clone(), r, s));
                k.set(&im, bin(BinOp::Mul, inf, i, s));
            });
        });
        Cx { re, im }
    }

    /// `a / b` as `__divsc3` (float: computed in double with the plain
    /// formula, then rounded to float) or `__divdc3` (double: Smith's
    /// method with libgcc's scaling), then the NaN + iNaN recovery.
    fn div_annex_g(&mut self, x: Cx, y: Cx) -> Cx {
        let s = self.span;
        let d0 = dtype_of(&x.re);
        let a = self.var("_ca", x.re);
        let b = self.var("_cb", x.im);
        let c = self.var("_cc", y.re);
        let d = self.var("_cd", y.im);
        let (re, im) = if d0 == DType::F32 {
            self.div_through_double(&a, &b, &c, &d)
        } else {
            self.div_smith(&a, &b, &c, &d)
        };
        let both_nan = and(isnan(&re), isnan(&im));
        self.when(both_nan, |k| {
            let zero = float_const(d0, 0.0, s);
            let inf = inf_of(&a);
            let divisor_zero = and(
                bin(BinOp::Eq, c.clone(), zero.clone(), s),
                bin(BinOp::Eq, d.clone(), zero.clone(), s),
            );
            let some_number = or(not(isnan(&a)), not(isnan(&b)));
            k.when_else(
                and(divisor_zero, some_number),
                |k| {
                    let signed_inf = bin(BinOp::CopySign, inf.clone(), c.clone(), s);
                    k.set(&re, bin(BinOp::Mul, signed_inf.clone(), a.clone(), s));
                    k.set(&im, bin(BinOp::Mul, signed_inf, b.clone(), s));
                },
                |k| {
                    let inf_by_finite =
                        and(or(isinf(&a), isinf(&b)), and(isfinite(&c), isfinite(&d)));
                    k.when_else(
                        inf_by_finite,
                        |k| {
                            let (a1, b1) = (boxed(&a), boxed(&b));
                            let r = bin(BinOp::Add, mul(&a1, &c), mul(&b1, &d), s);
                            let i = bin(BinOp::Sub, mul(&b1, &c), mul(&a1, &d), s);
                            k.set(&re, bin(BinOp::Mul, inf.clone(), r, s));
                            k.set(&im, bin(BinOp::Mul, inf.clone(), i, s));
                        },
                        |k| {
                            let finite_by_inf =
                                and(or(isinf(&c), isinf(&d)), and(isfinite(&a), isfinite(&b)));
                            k.when(finite_by_inf, |k| {
                                let (c1, d1) = (boxed(&c), boxed(&d));
                                let r = bin(BinOp::Add, mul(&a, &c1), mul(&b, &d1), s);
                                let i = bin(BinOp::Sub, mul(&b, &c1), mul(&a, &d1), s);
                                k.set(&re, bin(BinOp::Mul, zero.clone(), r, s));
                                k.set(&im, bin(BinOp::Mul, zero.clone(), i, s));
                            });
                        },
                    );
                },
            );
        });
        Cx { re, im }
    }

    /// `__divsc3` where the hardware has double: the plain formula in
    /// double, each part rounded once to float.
    fn div_through_double(&mut self, a: &Expr, b: &Expr, c: &Expr, d: &Expr) -> (Expr, Expr) {
        let s = self.span;
        let wide = |e: &Expr| convert(e.clone(), DType::F64);
        let (aa, bb, cc, dd) = (wide(a), wide(b), wide(c), wide(d));
        let denom = self.var("_denom", bin(BinOp::Add, mul(&cc, &cc), mul(&dd, &dd), s));
        let xr = bin(BinOp::Add, mul(&aa, &cc), mul(&bb, &dd), s);
        let yr = bin(BinOp::Sub, mul(&bb, &cc), mul(&aa, &dd), s);
        let re = self.var(
            "_cre",
            convert(bin(BinOp::FDiv, xr, denom.clone(), s), DType::F32),
        );
        let im = self.var("_cim", convert(bin(BinOp::FDiv, yr, denom, s), DType::F32));
        (re, im)
    }

    /// `__divdc3`: scale the operands away from the ends of the exponent
    /// range, divide by Smith's method (reassociated where the ratio is
    /// subnormal). `a`..`d` are variables and are scaled in place.
    fn div_smith(&mut self, a: &Expr, b: &Expr, c: &Expr, d: &Expr) -> (Expr, Expr) {
        let s = self.span;
        let f = |v: f64| float_const(DType::F64, v, s);
        let rbig = f(f64::MAX / 2.0);
        let rmin = f(f64::MIN_POSITIVE);
        let rmin2 = f(f64::EPSILON);
        let rminscal = f(1.0 / f64::EPSILON);
        let rmax2 = f(f64::MAX / 2.0 * f64::EPSILON);
        let re = self.var("_cre", f(0.0));
        let im = self.var("_cim", f(0.0));
        let lt = |x: Expr, y: &Expr| bin(BinOp::Lt, x, y.clone(), s);
        // (p, q): the larger-magnitude part of the divisor is q
        let branch = |k: &mut Self, p: &Expr, q: &Expr, c_smaller: bool| {
            k.when(bin(BinOp::Ge, abs(q), rbig.clone(), s), |k| {
                for v in [a, b, c, d] {
                    k.set(v, bin(BinOp::FDiv, v.clone(), f(2.0), s));
                }
            });
            let tiny_q = lt(abs(q), &rmin2);
            let tiny_num = and(
                or(
                    and(lt(abs(a), &rmin), lt(abs(b), &rmax2)),
                    and(lt(abs(b), &rmin), lt(abs(a), &rmax2)),
                ),
                lt(abs(q), &rmax2),
            );
            k.when(or(tiny_q, tiny_num), |k| {
                for v in [a, b, c, d] {
                    k.set(v, mul(v, &rminscal));
                }
            });
            let ratio = k.var("_ratio", bin(BinOp::FDiv, p.clone(), q.clone(), s));
            let denom = k.var("_denom", bin(BinOp::Add, mul(p, &ratio), q.clone(), s));
            let normal = bin(BinOp::Gt, abs(&ratio), rmin.clone(), s);
            if c_smaller {
                // |c| < |d|: x = (a r + b) / denom, y = (b r - a) / denom
                k.when_else(
                    normal,
                    |k| {
                        let x = bin(BinOp::Add, mul(a, &ratio), b.clone(), s);
                        let y = bin(BinOp::Sub, mul(b, &ratio), a.clone(), s);
                        k.set(&re, bin(BinOp::FDiv, x, denom.clone(), s));
                        k.set(&im, bin(BinOp::FDiv, y, denom.clone(), s));
                    },
                    |k| {
                        let ad = bin(BinOp::FDiv, a.clone(), d.clone(), s);
                        let bd = bin(BinOp::FDiv, b.clone(), d.clone(), s);
                        let x = bin(BinOp::Add, mul(c, &ad), b.clone(), s);
                        let y = bin(BinOp::Sub, mul(c, &bd), a.clone(), s);
                        k.set(&re, bin(BinOp::FDiv, x, denom.clone(), s));
                        k.set(&im, bin(BinOp::FDiv, y, denom.clone(), s));
                    },
                );
            } else {
                // x = (b r + a) / denom, y = (b - a r) / denom
                k.when_else(
                    normal,
                    |k| {
                        let x = bin(BinOp::Add, mul(b, &ratio), a.clone(), s);
                        let y = bin(BinOp::Sub, b.clone(), mul(a, &ratio), s);
                        k.set(&re, bin(BinOp::FDiv, x, denom.clone(), s));
                        k.set(&im, bin(BinOp::FDiv, y, denom.clone(), s));
                    },
                    |k| {
                        let bc = bin(BinOp::FDiv, b.clone(), c.clone(), s);
                        let ac = bin(BinOp::FDiv, a.clone(), c.clone(), s);
                        let x = bin(BinOp::Add, a.clone(), mul(d, &bc), s);
                        let y = bin(BinOp::Sub, b.clone(), mul(d, &ac), s);
                        k.set(&re, bin(BinOp::FDiv, x, denom.clone(), s));
                        k.set(&im, bin(BinOp::FDiv, y, denom.clone(), s));
                    },
                );
            }
        };
        let c_smaller = lt(abs(c), &abs(d));
        self.when_else(
            c_smaller,
            |k| branch(k, c, d, true),
            |k| branch(k, d, c, false),
        );
        (re, im)
    }
}

fn mul(x: &Expr, y: &Expr) -> Expr {
    bin(BinOp::Mul, x.clone(), y.clone(), x.span)
}

/// `x * y + z` rounded once.
fn fma(x: &Expr, y: &Expr, z: Expr) -> Expr {
    let ty = x.ty.clone();
    let s = x.span;
    mk(
        ExprKind::Fma(
            Box::new(x.clone()),
            Box::new(y.clone()),
            Box::new(z),
            crate::float::Rounding::NearestEven,
        ),
        ty,
        s,
    )
}

fn abs(x: &Expr) -> Expr {
    unary(UnOp::Math(MathFn::Abs), x.clone(), x.span)
}

fn and(x: Expr, y: Expr) -> Expr {
    let s = x.span;
    bin(BinOp::LogicalAnd, x, y, s)
}

fn or(x: Expr, y: Expr) -> Expr {
    let s = x.span;
    bin(BinOp::LogicalOr, x, y, s)
}

fn not(x: Expr) -> Expr {
    let s = x.span;
    unary(UnOp::LogicalNot, x, s)
}

fn inf_of(x: &Expr) -> Expr {
    float_const(dtype_of(x), f64::INFINITY, x.span)
}

/// C's `isnan(x)`: `x != x`.
fn isnan(x: &Expr) -> Expr {
    bin(BinOp::Ne, x.clone(), x.clone(), x.span)
}

/// C's `isinf(x)`: `|x| == ∞`.
fn isinf(x: &Expr) -> Expr {
    bin(BinOp::Eq, abs(x), inf_of(x), x.span)
}

/// C's `isfinite(x)`: `|x| < ∞` (false for a NaN).
fn isfinite(x: &Expr) -> Expr {
    bin(BinOp::Lt, abs(x), inf_of(x), x.span)
}

/// `copysign(isinf(x) ? 1 : 0, x)`.
fn boxed(x: &Expr) -> Expr {
    let s = x.span;
    let d = dtype_of(x);
    let one_or_zero = select(isinf(x), float_const(d, 1.0, s), float_const(d, 0.0, s), s);
    bin(BinOp::CopySign, one_or_zero, x.clone(), s)
}

/// `isnan(x) ? copysign(0, x) : x`.
fn nan_to_zero(x: &Expr) -> Expr {
    let s = x.span;
    let zero = bin(
        BinOp::CopySign,
        float_const(dtype_of(x), 0.0, s),
        x.clone(),
        s,
    );
    select(isnan(x), zero, x.clone(), s)
}
