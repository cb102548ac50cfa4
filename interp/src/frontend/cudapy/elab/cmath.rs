//! numba-cuda 0.30.4's complex math in CUDA Python, built from existing IR
//! operations (so the CUDA lowering needs nothing of its own):
//!
//! - the `cmath` functions: numba's routines (`cpython/cmathimpl.py`:
//!   CPython's and numpy's algorithms in Python, compiled through NVVM with
//!   libdevice for the real functions they call);
//! - the complex loops of the numpy ufuncs that numba-cuda's CUDA ufunc
//!   table has (`ufuncs.py`, `np/npyfuncs.py`): most are the `cmath`
//!   routine of the same name; `np.sinh`/`cosh`/`tanh` are the plain
//!   formulas without special cases, `np.arccosh` is
//!   `log(z + sqrt(z + 1) * sqrt(z - 1))`, `np.log2`/`log10` scale `log`
//!   by a constant of the part type; comparisons are numpy's lexicographic
//!   order, `maximum`/`fmax`/… pick by it;
//! - complex `**` and `pow()`: numba-cuda's `cpow_internal` (CPython's
//!   `_Py_c_pow`: `|a|**b.real`, the angle, then `len * (cos + i sin)`).
//!
//! Each routine follows numba's algorithm with numba's typing of it: a
//! Python float constant is float64 and widens the float32 it meets, so
//! parts of the complex64 routines compute in float64 as numba's do
//! (complex64 `sqrt` entirely, `acos`/`asin`/`acosh`/`asinh` from their
//! square roots on, `atanh`, `tanh`'s general case, `log10`'s division),
//! and `complex(a, b)` is complex64 only of two float32s. Branches become
//! selects: every operation here is total (no UB), so computing each
//! branch and picking one gives the branch's value.
//!
//! Exactness: the real functions these call (`sin`, `exp`, `hypot`,
//! `atan2`, …) are approximate on the GPU, so every result computed
//! through one is inexact (compared within the ULP bound), as real math
//! is. NVVM contracts a product and a sum of one dtype into a fused
//! multiply-add, which matters where they cancel (numpy's `tanh` loses 8
//! bits at `-3.5 + 1j`); ksem contracts as measured: `x*y - z*w` is
//! `fma(x, y, -(z*w))` and `x*y + z*w` is `fma(z, w, x*y)` (numba's complex
//! `*`), `x*y + c` is `fma(x, y, c)`. `isnan`/`isinf`/`isfinite`, the
//! comparison, logical and
//! min/max ufuncs are exact; so are the special cases that involve no
//! approximate function (`sqrt(±0 + 0j)`, `exp(nan + 0j)`, …).

use super::*;
use crate::complex::{self, Cx};
use std::f64::consts::{FRAC_PI_2, LN_2, SQRT_2};

/// The `cmath` functions of one complex argument that give a complex.
const UNARY: &[&str] = &[
    "exp", "log", "log10", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
    "tanh", "asinh", "acosh", "atanh",
];

/// float32's largest finite number and smallest normal one (numba's
/// `FLT_MAX`/`FLT_MIN`, which its thresholds use for both widths).
const FLT_MAX: f64 = f32::MAX as f64;
const FLT_MIN: f64 = f32::MIN_POSITIVE as f64;

/// The wider of two float dtypes (float64 beats float32).
fn wider(a: DType, b: DType) -> DType {
    if a == DType::F64 || b == DType::F64 {
        DType::F64
    } else {
        DType::F32
    }
}

/// Builds one routine: expressions typed as numba types them, values used
/// twice held in variables of the elaboration.
struct Fb<'e, 'm> {
    el: &'e mut Elab<'m>,
    s: Span,
}

impl Fb<'_, '_> {
    fn hold(&mut self, e: Expr) -> Expr {
        self.el.temp(e)
    }

    fn hold_cx(&mut self, z: Cx) -> Cx {
        Cx {
            re: self.hold(z.re),
            im: self.hold(z.im),
        }
    }

    /// A Python float constant (float64).
    fn py(&self, v: f64) -> Expr {
        float_const(DType::F64, v, self.s)
    }

    /// A constant of dtype `d`.
    fn lit(&self, d: DType, v: f64) -> Expr {
        float_const(d, v, self.s)
    }

    /// `a op b` in the wider of the operands' dtypes.
    fn op(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        let d = wider(dtype_of(&a), dtype_of(&b));
        bin(op, convert(a, d), convert(b, d), self.s)
    }

    fn add(&self, a: Expr, b: Expr) -> Expr {
        self.op(BinOp::Add, a, b)
    }

    fn sub(&self, a: Expr, b: Expr) -> Expr {
        self.op(BinOp::Sub, a, b)
    }

    fn mul(&self, a: Expr, b: Expr) -> Expr {
        self.op(BinOp::Mul, a, b)
    }

    fn div(&self, a: Expr, b: Expr) -> Expr {
        self.op(BinOp::FDiv, a, b)
    }

    /// `x*y + c` as NVVM contracts it: rounded once (a fused multiply-add)
    /// where the product is already in the sum's dtype, else two roundings.
    fn madd(&self, x: Expr, y: Expr, c: Expr) -> Expr {
        let p = wider(dtype_of(&x), dtype_of(&y));
        let d = wider(p, dtype_of(&c));
        if p != d {
            return self.add(self.mul(x, y), c);
        }
        let (x, y, c) = (convert(x, d), convert(y, d), convert(c, d));
        let k = ExprKind::Fma(
            Box::new(x),
            Box::new(y),
            Box::new(c),
            crate::float::Rounding::NearestEven,
        );
        mk(k, Type::scalar(d), self.s)
    }

    /// `x*y - z*w` as NVVM contracts it (measured on numba's complex `*`):
    /// the first product fused, `fma(x, y, -(z*w))`.
    fn pp_sub(&self, x: Expr, y: Expr, z: Expr, w: Expr) -> Expr {
        let zw = self.mul(z, w);
        self.madd(x, y, self.neg_exact(zw))
    }

    /// `x*y + z*w` as NVVM contracts it: the second product fused,
    /// `fma(z, w, x*y)`.
    fn pp_add(&self, x: Expr, y: Expr, z: Expr, w: Expr) -> Expr {
        let xy = self.mul(x, y);
        self.madd(z, w, xy)
    }

    /// `-x` as LLVM's `fneg` (a sign flip), which a contracted
    /// subtraction negates its addend with.
    fn neg_exact(&self, a: Expr) -> Expr {
        unary(UnOp::Neg, a, self.s)
    }

    fn f(&self, f: MathFn, a: Expr) -> Expr {
        unary(UnOp::Math(f), a, self.s)
    }

    /// numba's `-x`: `-0.0 - x` (its `negate_real`), so a NaN comes out
    /// as the subtraction's NaN (float32's positive default NaN), not with
    /// its sign flipped (measured: `-z` of a NaN part is 0x7fffffff).
    fn neg(&self, a: Expr) -> Expr {
        let zero = self.lit(dtype_of(&a), -0.0);
        bin(BinOp::Sub, zero, a, self.s)
    }

    fn abs(&self, a: Expr) -> Expr {
        self.f(MathFn::Abs, a)
    }

    fn and(&self, a: Expr, b: Expr) -> Expr {
        bin(BinOp::LogicalAnd, a, b, self.s)
    }

    fn or(&self, a: Expr, b: Expr) -> Expr {
        bin(BinOp::LogicalOr, a, b, self.s)
    }

    fn not(&self, a: Expr) -> Expr {
        unary(UnOp::LogicalNot, a, self.s)
    }

    /// `c ? a : b` in the wider dtype of `a` and `b`.
    fn sel(&self, c: &Expr, a: Expr, b: Expr) -> Expr {
        let d = wider(dtype_of(&a), dtype_of(&b));
        select(c.clone(), convert(a, d), convert(b, d), self.s)
    }

    /// `x == 0` (a Python `0.0`).
    fn is_zero(&self, x: &Expr) -> Expr {
        self.op(BinOp::Eq, x.clone(), self.py(0.0))
    }

    fn isnan(&self, x: &Expr) -> Expr {
        bin(BinOp::Ne, x.clone(), x.clone(), self.s)
    }

    fn isinf(&self, x: &Expr) -> Expr {
        let inf = self.lit(dtype_of(x), f64::INFINITY);
        bin(BinOp::Eq, self.abs(x.clone()), inf, self.s)
    }

    fn isfinite(&self, x: &Expr) -> Expr {
        let inf = self.lit(dtype_of(x), f64::INFINITY);
        bin(BinOp::Lt, self.abs(x.clone()), inf, self.s)
    }

    /// numba's `complex(a, b)`: complex64 of two float32s, else complex128.
    fn cx(&self, re: Expr, im: Expr) -> Cx {
        let d = wider(dtype_of(&re), dtype_of(&im));
        Cx {
            re: convert(re, d),
            im: convert(im, d),
        }
    }

    /// `z` with parts of dtype `d`.
    fn fit(&self, z: Cx, d: DType) -> Cx {
        Cx {
            re: convert(z.re, d),
            im: convert(z.im, d),
        }
    }

    /// `c ? a : b` of two complex values (in the wider part dtype).
    fn csel(&self, c: &Expr, a: Cx, b: Cx) -> Cx {
        Cx {
            re: self.sel(c, a.re, b.re),
            im: self.sel(c, a.im, b.im),
        }
    }

    /// The value of the first arm whose condition holds, else `last`.
    fn cases(&self, arms: Vec<(Expr, Cx)>, last: Cx) -> Cx {
        arms.into_iter()
            .rev()
            .fold(last, |acc, (c, z)| self.csel(&c, z, acc))
    }

    /// `a * b` by numba's rules (`crate::complex`), in the wider part dtype.
    fn cmul(&mut self, a: Cx, b: Cx) -> Cx {
        let d = wider(dtype_of(&a.re), dtype_of(&b.re));
        let (a, b) = (self.fit(a, d), self.fit(b, d));
        self.el.with_cx(self.s, |k| k.mul(a, b))
    }

    /// `a / b` by numba's rules (a zero divisor ends the thread).
    fn cdiv(&mut self, a: Cx, b: Cx) -> Cx {
        let d = wider(dtype_of(&a.re), dtype_of(&b.re));
        let (a, b) = (self.fit(a, d), self.fit(b, d));
        self.el.with_cx(self.s, |k| k.div(a, b))
    }

    /// `-z`: both parts negated as numba negates.
    fn cneg(&self, z: Cx) -> Cx {
        Cx {
            re: self.neg(z.re),
            im: self.neg(z.im),
        }
    }

    /// `z * i` swapped into place: `complex(-z.imag, z.real)`.
    fn times_i(&self, z: &Cx) -> Cx {
        self.cx(self.neg(z.im.clone()), z.re.clone())
    }

    /// `log(hypot(x / 2, y / 2)) + log(4)`: `log|z|` without overflow.
    fn log_half_hypot(&self, x: &Expr, y: &Expr) -> Expr {
        let hx = self.mul(x.clone(), self.py(0.5));
        let hy = self.mul(y.clone(), self.py(0.5));
        let h = bin(BinOp::Hypot, hx, hy, self.s);
        self.add(self.f(MathFn::Log, h), self.py(2.0 * LN_2))
    }

    /// Whether a part of `z` exceeds `FLT_MAX / 4` (CPython's large-argument
    /// branch of the inverse functions).
    fn large(&self, z: &Cx) -> Expr {
        let t = self.lit(DType::F32, FLT_MAX / 4.0);
        let a = self.op(BinOp::Gt, self.abs(z.re.clone()), t.clone());
        let b = self.op(BinOp::Gt, self.abs(z.im.clone()), t);
        self.or(a, b)
    }

    // ---- cmath ----

    fn exp(&mut self, z: Cx) -> Cx {
        let z = self.hold_cx(z);
        let (x, y) = (z.re, z.im);
        let d = dtype_of(&x);
        let c = self.hold(self.f(MathFn::Cos, y.clone()));
        let s = self.hold(self.f(MathFn::Sin, y.clone()));
        let r = self.hold(self.f(MathFn::Exp, x.clone()));
        let xf = self.hold(self.isfinite(&x));
        let yf = self.hold(self.isfinite(&y));
        let nan = self.lit(d, f64::NAN);
        let finite = self.cx(self.mul(r.clone(), c.clone()), self.mul(r, s.clone()));
        // x = +inf, y finite: cos y and sin y times x where nonzero
        let times_x = |me: &Self, v: Expr| {
            let nz = me.not(me.is_zero(&v));
            me.sel(&nz, me.mul(v.clone(), x.clone()), v)
        };
        let plus_inf = self.cx(times_x(self, c), times_x(self, s));
        let plus_inf = self.csel(&yf, plus_inf, self.cx(x.clone(), nan.clone()));
        let y_nonzero = self.not(self.is_zero(&y));
        let x_nan = self.cx(x.clone(), self.sel(&y_nonzero, x.clone(), y.clone()));
        let zero = self.lit(d, 0.0);
        let minus_inf = self.csel(&yf, finite.clone(), self.cx(zero.clone(), zero));
        let pos = self.op(BinOp::Gt, x.clone(), self.py(0.0));
        self.cases(
            vec![
                (self.and(xf.clone(), yf), finite),
                (xf, self.cx(nan.clone(), nan)),
                (self.isnan(&x), x_nan),
                (pos, plus_inf),
            ],
            minus_inf,
        )
    }

    fn log(&mut self, z: Cx) -> Cx {
        let z = self.hold_cx(z);
        let h = bin(BinOp::Hypot, z.re.clone(), z.im.clone(), self.s);
        let a = self.f(MathFn::Log, h);
        let b = bin(BinOp::Atan2, z.im, z.re, self.s);
        self.cx(a, b)
    }

    /// `log(z)` with each part divided by `ln 10` (a Python float).
    fn log10(&mut self, z: Cx) -> Cx {
        let l = self.log(z);
        let ln10 = self.py(std::f64::consts::LN_10);
        self.cx(self.div(l.re, ln10.clone()), self.div(l.im, ln10))
    }

    /// numpy's `npy_csqrt` as numba writes it, in float64 (numba's scaling
    /// `a *= 0.25` widens its variables), the result in `z`'s part dtype.
    fn sqrt(&mut self, z: Cx) -> Cx {
        let d = dtype_of(&z.re);
        // numba's THRES: MAX / (1 + sqrt 2), float32 arithmetic for float32
        let thres = if d == DType::F32 {
            (f32::MAX / (1.0 + SQRT_2) as f32) as f64
        } else {
            f64::MAX / (1.0 + SQRT_2)
        };
        let a = self.hold(convert(z.re, DType::F64));
        let b = self.hold(convert(z.im, DType::F64));
        let b_edge = self.cx(self.abs(b.clone()), b.clone());
        let both_zero = self.and(self.is_zero(&a), self.is_zero(&b));
        let b_minus_b = self.sub(b.clone(), b.clone());
        let a_inf = self.csel(
            &self.op(BinOp::Lt, a.clone(), self.py(0.0)),
            self.cx(
                self.abs(b_minus_b.clone()),
                bin(BinOp::CopySign, a.clone(), b.clone(), self.s),
            ),
            self.cx(
                a.clone(),
                bin(BinOp::CopySign, b_minus_b, b.clone(), self.s),
            ),
        );
        let t = self.py(thres);
        let scale = self.or(
            self.op(BinOp::Ge, self.abs(a.clone()), t.clone()),
            self.op(BinOp::Ge, self.abs(b.clone()), t),
        );
        let scale = self.hold(scale);
        let a1 = self.sel(&scale, self.mul(a.clone(), self.py(0.25)), a.clone());
        let b1 = self.sel(&scale, self.mul(b.clone(), self.py(0.25)), b.clone());
        let (a1, b1) = (self.hold(a1), self.hold(b1));
        let h = self.hold(bin(BinOp::Hypot, a1.clone(), b1.clone(), self.s));
        let pos = self.hold(self.op(BinOp::Ge, a1.clone(), self.py(0.0)));
        let ma = self.sel(&pos, a1.clone(), self.neg(a1));
        let t = self.f(MathFn::Sqrt, self.mul(self.add(ma, h), self.py(0.5)));
        let t = self.hold(t);
        let two_t = self.mul(self.py(2.0), t.clone());
        let real = self.sel(
            &pos,
            t.clone(),
            self.div(self.abs(b1.clone()), two_t.clone()),
        );
        let imag = self.sel(
            &pos,
            self.div(b1.clone(), two_t),
            bin(BinOp::CopySign, t, b1, self.s),
        );
        let real = self.sel(&scale, self.mul(real.clone(), self.py(2.0)), real);
        let r = self.cases(
            vec![
                (both_zero, b_edge.clone()),
                (self.isinf(&b), b_edge),
                (self.isnan(&a), self.cx(a.clone(), a.clone())),
                (self.isinf(&a), a_inf),
            ],
            self.cx(real, imag),
        );
        self.fit(r, d)
    }

    fn cosh(&mut self, z: Cx) -> Cx {
        let z = self.hold_cx(z);
        let (x, y) = (z.re, z.im);
        let c = self.hold(self.f(MathFn::Cos, y.clone()));
        let s = self.hold(self.f(MathFn::Sin, y.clone()));
        let plain = self.hold(self.or(self.isnan(&y), self.is_zero(&y)));
        let re = self.sel(
            &plain,
            self.abs(x.clone()),
            bin(BinOp::CopySign, x.clone(), c.clone(), self.s),
        );
        let im = self.sel(
            &plain,
            y.clone(),
            bin(BinOp::CopySign, x.clone(), s.clone(), self.s),
        );
        let neg_x = self.op(BinOp::Lt, x.clone(), self.py(0.0));
        let im = self.hold(im);
        let im = self.sel(&neg_x, self.neg(im.clone()), im);
        let general = self.cx(
            self.mul(c, self.f(MathFn::Cosh, x.clone())),
            self.mul(s, self.f(MathFn::Sinh, x.clone())),
        );
        self.csel(&self.isinf(&x), self.cx(re, im), general)
    }

    fn sinh(&mut self, z: Cx) -> Cx {
        let z = self.hold_cx(z);
        let (x, y) = (z.re, z.im);
        let c = self.hold(self.f(MathFn::Cos, y.clone()));
        let s = self.hold(self.f(MathFn::Sin, y.clone()));
        let c_nz = self.not(self.is_zero(&c));
        let s_nz = self.not(self.is_zero(&s));
        let inf = self.cx(
            self.sel(&c_nz, self.mul(c.clone(), x.clone()), c.clone()),
            self.sel(&s_nz, self.mul(s.clone(), self.abs(x.clone())), s.clone()),
        );
        let inf = self.csel(&self.isnan(&y), self.cx(x.clone(), y.clone()), inf);
        let general = self.cx(
            self.mul(c, self.f(MathFn::Sinh, x.clone())),
            self.mul(s, self.f(MathFn::Cosh, x.clone())),
        );
        self.csel(&self.isinf(&x), inf, general)
    }

    /// CPython's `c_tanh`, as numba writes it (its general case in float64).
    fn tanh(&mut self, z: Cx) -> Cx {
        let z = self.hold_cx(z);
        let (x, y) = (z.re, z.im);
        let sin2y = self.f(MathFn::Sin, self.mul(self.py(2.0), y.clone()));
        let inf_im = self.sel(
            &self.isinf(&y),
            self.py(0.0),
            bin(BinOp::CopySign, self.py(0.0), sin2y, self.s),
        );
        let inf = self.cx(self.op(BinOp::CopySign, self.py(1.0), x.clone()), inf_im);
        let tx = self.hold(self.f(MathFn::Tanh, x.clone()));
        let ty = self.hold(self.f(MathFn::Tan, y.clone()));
        let cx = self.hold(self.div(self.py(1.0), self.f(MathFn::Cosh, x.clone())));
        let txty = self.hold(self.mul(tx.clone(), ty.clone()));
        let denom = self.madd(txty.clone(), txty, self.py(1.0));
        let denom = self.hold(denom);
        let tyty1 = self.madd(ty.clone(), ty.clone(), self.py(1.0));
        let re = self.div(self.mul(tx, tyty1), denom.clone());
        let im = self.mul(self.mul(self.div(ty, denom), cx.clone()), cx);
        self.csel(&self.isinf(&x), inf, self.cx(re, im))
    }

    /// `-i f(i z)` for `f` one of `sinh`, `tanh`, `asinh`: `(r.imag, -r.real)`.
    fn rotated(&mut self, z: Cx, f: fn(&mut Self, Cx) -> Cx) -> Cx {
        let z = self.hold_cx(z);
        let r = f(self, self.times_i(&z));
        let r = self.hold_cx(r);
        self.cx(r.im, self.neg(r.re))
    }

    fn acos(&mut self, z: Cx) -> Cx {
        let z = self.hold_cx(z);
        let (x, y) = (z.re.clone(), z.im.clone());
        let large = self.cx(
            bin(BinOp::Atan2, self.abs(y.clone()), x.clone(), self.s),
            self.op(
                BinOp::CopySign,
                self.log_half_hypot(&x, &y),
                self.neg(y.clone()),
            ),
        );
        let s1 = self.sqrt(self.cx(self.sub(self.py(1.0), x.clone()), self.neg(y.clone())));
        let s1 = self.hold_cx(s1);
        let s2 = self.sqrt(self.cx(self.add(self.py(1.0), x.clone()), y.clone()));
        let s2 = self.hold_cx(s2);
        let re = self.mul(
            self.py(2.0),
            bin(BinOp::Atan2, s1.re.clone(), s2.re.clone(), self.s),
        );
        let im = self.pp_sub(s2.re, s1.im, s2.im, s1.re);
        let small = self.cx(re, self.f(MathFn::Asinh, im));
        self.csel(&self.large(&z), large, small)
    }

    fn acosh(&mut self, z: Cx) -> Cx {
        let z = self.hold_cx(z);
        let (x, y) = (z.re.clone(), z.im.clone());
        let large = self.cx(
            self.log_half_hypot(&x, &y),
            bin(BinOp::Atan2, y.clone(), x.clone(), self.s),
        );
        let s1 = self.sqrt(self.cx(self.sub(x.clone(), self.py(1.0)), y.clone()));
        let s1 = self.hold_cx(s1);
        let s2 = self.sqrt(self.cx(self.add(x, self.py(1.0)), y));
        let s2 = self.hold_cx(s2);
        let re = self.pp_add(s1.re, s2.re.clone(), s1.im.clone(), s2.im);
        let im = self.mul(self.py(2.0), bin(BinOp::Atan2, s1.im, s2.re, self.s));
        let small = self.cx(self.f(MathFn::Asinh, re), im);
        self.csel(&self.large(&z), large, small)
    }

    fn asinh(&mut self, z: Cx) -> Cx {
        let z = self.hold_cx(z);
        let (x, y) = (z.re.clone(), z.im.clone());
        let large = self.cx(
            self.op(BinOp::CopySign, self.log_half_hypot(&x, &y), x.clone()),
            bin(BinOp::Atan2, y.clone(), self.abs(x.clone()), self.s),
        );
        let s1 = self.sqrt(self.cx(self.add(self.py(1.0), y.clone()), self.neg(x.clone())));
        let s1 = self.hold_cx(s1);
        let s2 = self.sqrt(self.cx(self.sub(self.py(1.0), y.clone()), x));
        let s2 = self.hold_cx(s2);
        let re = self.pp_sub(s1.re.clone(), s2.im.clone(), s2.re.clone(), s1.im.clone());
        let im = self.pp_sub(s1.re, s2.re, s1.im, s2.im);
        let small = self.cx(self.f(MathFn::Asinh, re), self.op(BinOp::Atan2, y, im));
        self.csel(&self.large(&z), large, small)
    }

    fn atan(&mut self, z: Cx) -> Cx {
        let z = self.hold_cx(z);
        let r = self.atanh(self.times_i(&z));
        let r = self.hold_cx(r);
        // numba's oddity: inf + nan i keeps the real part's sign
        let odd = self.and(self.isinf(&z.re), self.isnan(&z.im));
        let flipped = self.cx(r.im.clone(), self.neg(r.re.clone()));
        self.csel(&odd, self.cx(r.im, r.re), flipped)
    }

    /// CPython's `c_atanh`, as numba writes it (in float64).
    fn atanh(&mut self, z: Cx) -> Cx {
        let z0 = self.hold_cx(z);
        let negate = self.hold(self.op(BinOp::Lt, z0.re.clone(), self.py(0.0)));
        let z = self.csel(&negate, self.cneg(z0.clone()), z0);
        let z = self.hold_cx(z);
        let (x, y) = (z.re, z.im);
        let ay = self.hold(self.abs(y.clone()));
        let tl = self.py((FLT_MAX / 4.0).sqrt());
        let ts = self.py(FLT_MIN.sqrt());
        let far = self.or(
            self.isnan(&x),
            self.or(
                self.op(BinOp::Gt, x.clone(), tl.clone()),
                self.op(BinOp::Gt, ay.clone(), tl),
            ),
        );
        // far from the origin (or a NaN real part)
        let h = self.hold(bin(
            BinOp::Hypot,
            self.mul(x.clone(), self.py(0.5)),
            self.mul(y.clone(), self.py(0.5)),
            self.s,
        ));
        let quot = self.div(self.div(self.div(x.clone(), self.py(4.0)), h.clone()), h);
        let re1 = self.sel(
            &self.isinf(&y),
            self.op(BinOp::CopySign, self.py(0.0), x.clone()),
            self.sel(&self.isinf(&x), self.py(0.0), quot),
        );
        let im1 = self.neg(self.op(BinOp::CopySign, self.py(FRAC_PI_2), self.neg(y.clone())));
        // at 1 +- tiny i
        let near_one = self.and(
            self.op(BinOp::Eq, x.clone(), self.py(1.0)),
            self.op(BinOp::Lt, ay.clone(), ts),
        );
        let ay_zero = self.hold(self.is_zero(&ay));
        let hyp = self.op(BinOp::Hypot, ay.clone(), self.py(2.0));
        let ratio = self.div(self.f(MathFn::Sqrt, ay.clone()), self.f(MathFn::Sqrt, hyp));
        let re2 = self.sel(
            &ay_zero,
            self.py(f64::INFINITY),
            self.neg(self.f(MathFn::Log, ratio)),
        );
        let half_angle = self.div(
            self.op(BinOp::Atan2, self.py(2.0), self.neg(ay.clone())),
            self.py(2.0),
        );
        let im2 = self.sel(
            &ay_zero,
            y.clone(),
            self.op(BinOp::CopySign, half_angle, y.clone()),
        );
        // the general case
        let sqay = self.hold(self.mul(ay.clone(), ay));
        let zr1 = self.hold(self.sub(self.py(1.0), x.clone()));
        let den = self.madd(zr1.clone(), zr1.clone(), sqay.clone());
        let re3 = self.mul(
            self.f(
                MathFn::Log1p,
                self.div(self.mul(self.py(4.0), x.clone()), den),
            ),
            self.py(0.25),
        );
        let b = self.madd(zr1, self.add(self.py(1.0), x), self.neg_exact(sqay));
        let a = self.mul(self.py(-2.0), y.clone());
        let im3 = self.neg(self.mul(self.op(BinOp::Atan2, a, b), self.py(0.5)));
        let r = self.cases(
            vec![(far, self.cx(re1, im1)), (near_one, self.cx(re2, im2))],
            self.cx(re3, im3),
        );
        let im = self.sel(&self.isnan(&y), self.py(f64::NAN), r.im);
        let r = self.hold_cx(self.cx(r.re, im));
        self.csel(&negate, self.cneg(r.clone()), r)
    }

    /// `cmath.log(z, base)`: `log(z) / log(base)` (numba's complex division:
    /// a base of 1 divides by zero and ends the thread).
    fn log_base(&mut self, z: Cx, base: Cx) -> Cx {
        let a = self.log(z);
        let a = self.hold_cx(a);
        let b = self.log(base);
        self.cdiv(a, b)
    }

    /// `cmath.rect(r, phi)`.
    fn rect(&mut self, r: Expr, phi: Expr) -> Cx {
        let d = wider(dtype_of(&r), dtype_of(&phi));
        let r = self.hold(convert(r, d));
        let phi = self.hold(convert(phi, d));
        let r_inf = self.hold(self.isinf(&r));
        let part = |me: &mut Self, f: MathFn| {
            let v = me.hold(me.f(f, phi.clone()));
            let zero_by_inf = me.and(me.is_zero(&v), r_inf.clone());
            me.sel(
                &zero_by_inf,
                me.div(v.clone(), r.clone()),
                me.mul(v, r.clone()),
            )
        };
        let re = part(self, MathFn::Cos);
        let im = part(self, MathFn::Sin);
        let odd_phi = self.hold(self.not(self.isfinite(&phi)));
        let zero = self.lit(d, 0.0);
        self.cases(
            vec![
                (
                    self.and(odd_phi.clone(), self.is_zero(&r)),
                    self.cx(self.abs(r.clone()), zero),
                ),
                (self.and(odd_phi, r_inf), self.cx(r, phi)),
            ],
            self.cx(re, im),
        )
    }

    /// `a ** b`: numba-cuda's `cpow_internal` (CPython's `_Py_c_pow`).
    fn pow(&mut self, a: Cx, b: Cx) -> Cx {
        let d = dtype_of(&a.re);
        let a = self.hold_cx(a);
        let b = self.hold_cx(b);
        let zero = self.lit(d, 0.0);
        let one = self.lit(d, 1.0);
        let b_zero = self.and(self.is_zero(&b.re), self.is_zero(&b.im));
        let a_zero = self.and(self.is_zero(&a.re), self.is_zero(&b.re));
        let vabs = self.hold(bin(BinOp::Hypot, a.re.clone(), a.im.clone(), self.s));
        let len = bin(BinOp::Pow, vabs.clone(), b.re.clone(), self.s);
        let at = self.hold(bin(BinOp::Atan2, a.im, a.re, self.s));
        let phase = bin(BinOp::Mul, at.clone(), b.re, self.s);
        let b_im = self.hold(self.not(self.is_zero(&b.im)));
        let shrink = self.f(MathFn::Exp, bin(BinOp::Mul, at, b.im.clone(), self.s));
        let len = self.sel(&b_im, self.div(len.clone(), shrink), len);
        let turn = self.madd(b.im, self.f(MathFn::Log, vabs), phase.clone());
        let phase = self.sel(&b_im, turn, phase);
        let phase = self.hold(phase);
        // len * (complex(cos) + sin * 1j), each a complex operation
        let sin_i = self.cmul(
            self.cx(self.f(MathFn::Sin, phase.clone()), zero.clone()),
            self.cx(zero.clone(), one.clone()),
        );
        let rot = complex::add(
            self.cx(self.f(MathFn::Cos, phase), zero.clone()),
            sin_i,
            self.s,
        );
        let rot = self.hold_cx(rot);
        let r = self.cmul(self.cx(len, zero.clone()), rot);
        self.cases(
            vec![
                (b_zero, self.cx(one, zero.clone())),
                (a_zero, self.cx(zero.clone(), zero)),
            ],
            r,
        )
    }

    // ---- numpy's own complex loops ----

    fn np_sinh_cosh(&mut self, z: Cx, sinh: bool) -> Cx {
        let z = self.hold_cx(z);
        let (xr, xi) = (z.re, z.im);
        let (f, g) = if sinh {
            (MathFn::Sinh, MathFn::Cosh)
        } else {
            (MathFn::Cosh, MathFn::Sinh)
        };
        let re = self.mul(self.f(MathFn::Cos, xi.clone()), self.f(f, xr.clone()));
        let im = self.mul(self.f(MathFn::Sin, xi), self.f(g, xr));
        self.cx(re, im)
    }

    fn np_tanh(&mut self, z: Cx) -> Cx {
        let z = self.hold_cx(z);
        let d = dtype_of(&z.re);
        let si = self.hold(self.f(MathFn::Sin, z.im.clone()));
        let ci = self.hold(self.f(MathFn::Cos, z.im));
        let shr = self.hold(self.f(MathFn::Sinh, z.re.clone()));
        let chr = self.hold(self.f(MathFn::Cosh, z.re));
        let rs = self.hold(self.mul(ci.clone(), shr.clone()));
        let is = self.hold(self.mul(si.clone(), chr.clone()));
        let rc = self.hold(self.mul(ci, chr));
        let ic = self.hold(self.mul(si, shr));
        let den = self.pp_add(rc.clone(), rc.clone(), ic.clone(), ic.clone());
        let inv = self.hold(self.div(self.lit(d, 1.0), den));
        let numr = self.pp_add(rs.clone(), rc.clone(), is.clone(), ic.clone());
        let numi = self.pp_sub(is, rc, rs, ic);
        self.cx(self.mul(numr, inv.clone()), self.mul(numi, inv))
    }

    /// `log(z + sqrt(z + 1) * sqrt(z - 1))`.
    fn np_arccosh(&mut self, z: Cx) -> Cx {
        let d = dtype_of(&z.re);
        let z = self.hold_cx(z);
        let one = self.cx(self.lit(d, 1.0), self.lit(d, 0.0));
        let p = self.sqrt(complex::add(z.clone(), one.clone(), self.s));
        let p = self.hold_cx(p);
        let m = self.sqrt(complex::sub(z.clone(), one, self.s));
        let m = self.hold_cx(m);
        let prod = self.cmul(p, m);
        let arg = complex::add(z, prod, self.s);
        let arg = self.hold_cx(arg);
        self.log(arg)
    }

    /// `log(z)` times a constant of the part dtype (`np.log2`, `np.log10`).
    fn np_scaled_log(&mut self, z: Cx, k: f64) -> Cx {
        let d = dtype_of(&z.re);
        let l = self.log(z);
        let k = self.lit(d, k);
        self.cx(self.mul(k.clone(), l.re), self.mul(k, l.im))
    }
}

/// The complex loop of a numpy ufunc (numba-cuda's CUDA ufunc table).
#[derive(Clone, Copy)]
pub(super) enum CxUfunc {
    /// A function of one complex number giving a complex (its name).
    Unary(&'static str),
    /// numpy's order of complex numbers: lexicographic, (re, im).
    Cmp(BinOp),
    /// `logical_and`/`or`/`xor` of the truth values (a part nonzero).
    Logical(BinOp),
    LogicalNot,
    /// `maximum`/`minimum` (a NaN operand wins, the first of two) and
    /// `fmax`/`fmin` (a NaN operand loses): (max, propagate NaN).
    MinMax(bool, bool),
}

impl CxUfunc {
    /// The complex loop of `numpy.<name>`, if numba-cuda has one.
    pub(super) fn of(name: &str) -> Option<CxUfunc> {
        use CxUfunc::*;
        Some(match name {
            "sin" | "cos" | "tan" | "arcsin" | "arccos" | "arctan" | "sinh" | "cosh" | "tanh"
            | "arcsinh" | "arccosh" | "arctanh" | "log" | "log2" | "log10" => {
                let n = UFUNC_NAMES.iter().find(|n| **n == name)?;
                Unary(n)
            }
            "equal" => Cmp(BinOp::Eq),
            "not_equal" => Cmp(BinOp::Ne),
            "less" => Cmp(BinOp::Lt),
            "less_equal" => Cmp(BinOp::Le),
            "greater" => Cmp(BinOp::Gt),
            "greater_equal" => Cmp(BinOp::Ge),
            "logical_and" => Logical(BinOp::LogicalAnd),
            "logical_or" => Logical(BinOp::LogicalOr),
            "logical_xor" => Logical(BinOp::Ne),
            "logical_not" => LogicalNot,
            "maximum" => MinMax(true, true),
            "minimum" => MinMax(false, true),
            "fmax" => MinMax(true, false),
            "fmin" => MinMax(false, false),
            _ => return None,
        })
    }

    /// Whether it gives a bool (else a complex).
    pub(super) fn gives_bool(self) -> bool {
        matches!(
            self,
            CxUfunc::Cmp(_) | CxUfunc::Logical(_) | CxUfunc::LogicalNot
        )
    }
}

const UFUNC_NAMES: &[&str] = &[
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "log", "log2", "log10",
];

impl<'m> Elab<'m> {
    fn fb(&mut self, span: Span) -> Fb<'_, 'm> {
        Fb { el: self, s: span }
    }
}

impl Elab<'_> {
    /// `v` as a complex for a `cmath` function: a real number converts
    /// (float32 and the narrow integers to complex64, others to complex128,
    /// numba's safe conversions).
    fn cmath_arg(&self, v: Val, span: Span) -> DResult<Cx> {
        match v {
            Val::Complex(z) => Ok(z),
            other => {
                let x = self.num(other, span)?;
                let d = dtype_of(&x);
                let narrow = d == DType::F32 || (d.is_int() && d.bits() <= 16);
                let pd = if narrow { DType::F32 } else { DType::F64 };
                self.as_complex(Val::Num(x), pd, span)
            }
        }
    }

    /// `cmath.<f>(…)`.
    pub(super) fn cmath_call(&mut self, call: Call) -> DResult<Val> {
        let (f, span) = (call.name, call.span);
        call.no_keywords(&format!("cmath.{f}"))?;
        let mut args: Vec<(Val, Span)> = Vec::new();
        for a in call.args() {
            let mark = self.mark();
            let v = self.expr(a)?;
            args = args
                .into_iter()
                .map(|(x, s)| (self.keep_order_val(x, mark), s))
                .collect();
            args.push((v, self.span(a)));
        }
        let what = format!("cmath.{f}");
        let arity = |n: usize| py::arity::expect_args(span, &what, n, args.len());
        match f {
            "log" if args.len() == 2 => {
                let mut it = args.into_iter();
                let (z, zs) = it.next().expect("two");
                let (b, bs) = it.next().expect("two");
                let z = self.cmath_arg(z, zs)?;
                let b = self.cmath_arg(b, bs)?;
                let d = wider(dtype_of(&z.re), dtype_of(&b.re));
                let mut k = self.fb(span);
                let (z, b) = (k.fit(z, d), k.fit(b, d));
                Ok(Val::Complex(k.log_base(z, b)))
            }
            "rect" => {
                arity(2)?;
                let mut it = args.into_iter();
                let mut real = |me: &mut Self| -> DResult<Expr> {
                    let (v, s) = it.next().expect("two");
                    if matches!(v, Val::Complex(_)) {
                        return err(s, "cmath.rect(r, phi) takes real numbers");
                    }
                    let x = me.num(v, s)?;
                    Ok(convert(x.clone(), types::math_type(dtype_of(&x))))
                };
                let r = real(self)?;
                let phi = real(self)?;
                Ok(Val::Complex(self.fb(span).rect(r, phi)))
            }
            _ => {
                arity(1)?;
                let (v, s) = args.pop().expect("one");
                let z = self.cmath_arg(v, s)?;
                self.cmath_unary(f, z, span)
            }
        }
    }

    /// A `cmath` function of one complex number.
    fn cmath_unary(&mut self, f: &str, z: Cx, span: Span) -> DResult<Val> {
        let d = dtype_of(&z.re);
        let mut k = self.fb(span);
        let z = k.hold_cx(z);
        Ok(match f {
            "isnan" => Val::Num(k.or(k.isnan(&z.re), k.isnan(&z.im))),
            "isinf" => Val::Num(k.or(k.isinf(&z.re), k.isinf(&z.im))),
            "isfinite" => Val::Num(k.and(k.isfinite(&z.re), k.isfinite(&z.im))),
            "phase" => Val::Num(bin(BinOp::Atan2, z.im, z.re, span)),
            "polar" => {
                let r = bin(BinOp::Hypot, z.re.clone(), z.im.clone(), span);
                let p = bin(BinOp::Atan2, z.im, z.re, span);
                Val::Tuple(vec![Val::Num(r), Val::Num(p)])
            }
            _ if UNARY.contains(&f) => {
                let r = k.cmath_fn(f, z);
                Val::Complex(k.fit(r, d))
            }
            _ => {
                return py::unsupported(
                    span,
                    &format!("cmath.{f}"),
                    DIALECT,
                    "the supported cmath functions are exp log log10 sqrt sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh isnan isinf isfinite phase polar rect",
                )
            }
        })
    }

    /// `a ** b` with a complex operand (both already of one part dtype).
    pub(super) fn complex_pow(&mut self, a: Cx, b: Cx, span: Span) -> Cx {
        self.fb(span).pow(a, b)
    }

    /// The complex loop `u` of a ufunc on operands of part dtype `d`
    /// (complex numbers, converted): a complex, or a bool.
    pub(super) fn complex_ufunc_op(&mut self, u: CxUfunc, xs: Vec<Cx>, span: Span) -> Val {
        let d = dtype_of(&xs[0].re);
        let mut k = self.fb(span);
        let mut xs: Vec<Cx> = xs.into_iter().map(|z| k.hold_cx(z)).collect();
        let b = if xs.len() > 1 { xs.pop() } else { None };
        let a = xs.pop().expect("one input or more");
        let two = || b.clone().expect("a binary ufunc");
        let truth = |k: &Fb, z: &Cx| {
            let r = k.not(k.is_zero(&z.re));
            let i = k.not(k.is_zero(&z.im));
            k.or(r, i)
        };
        match u {
            CxUfunc::Unary(name) => {
                let r = match name {
                    "sinh" => k.np_sinh_cosh(a, true),
                    "cosh" => k.np_sinh_cosh(a, false),
                    "tanh" => k.np_tanh(a),
                    "arccosh" => k.np_arccosh(a),
                    "log2" => k.np_scaled_log(a, std::f64::consts::LOG2_E),
                    "log10" => k.np_scaled_log(a, std::f64::consts::LOG10_E),
                    n => {
                        let n = n
                            .strip_prefix("arc")
                            .map_or(n.to_string(), |m| format!("a{m}"));
                        k.cmath_fn(&n, a)
                    }
                };
                Val::Complex(k.fit(r, d))
            }
            CxUfunc::Cmp(op) => Val::Num(k.lex_cmp(op, &a, &two())),
            CxUfunc::Logical(op) => {
                let (x, y) = (truth(&k, &a), truth(&k, &two()));
                Val::Num(bin(op, x, y, span))
            }
            CxUfunc::LogicalNot => Val::Num(k.not(truth(&k, &a))),
            CxUfunc::MinMax(max, propagate) => {
                let b = two();
                let nan = |k: &Fb, z: &Cx| k.or(k.isnan(&z.re), k.isnan(&z.im));
                let (na, nb) = (k.hold(nan(&k, &a)), k.hold(nan(&k, &b)));
                let order = if max { BinOp::Ge } else { BinOp::Le };
                let first = k.lex_cmp(order, &a, &b);
                let by_order = k.csel(&first, a.clone(), b.clone());
                let nan_pick = if propagate {
                    k.csel(&na, a, b)
                } else {
                    k.csel(&nb, a, b)
                };
                let any_nan = k.or(na, nb);
                Val::Complex(k.csel(&any_nan, nan_pick, by_order))
            }
        }
    }
}

impl Fb<'_, '_> {
    /// The complex function `cmath.<f>` (one of [`UNARY`]).
    fn cmath_fn(&mut self, f: &str, z: Cx) -> Cx {
        match f {
            "exp" => self.exp(z),
            "log" => self.log(z),
            "log10" => self.log10(z),
            "sqrt" => self.sqrt(z),
            "cosh" => self.cosh(z),
            "sinh" => self.sinh(z),
            "tanh" => self.tanh(z),
            "cos" => {
                let z = self.hold_cx(z);
                self.cosh(self.times_i(&z))
            }
            "sin" => self.rotated(z, Self::sinh),
            "tan" => self.rotated(z, Self::tanh),
            "asin" => self.rotated(z, Self::asinh),
            "acos" => self.acos(z),
            "atan" => self.atan(z),
            "acosh" => self.acosh(z),
            "asinh" => self.asinh(z),
            _ => self.atanh(z),
        }
    }

    /// numpy's lexicographic comparison of two complex numbers (`<` and the
    /// others: the real parts decide unless equal, then the imaginary ones;
    /// a NaN imaginary part makes a strict real comparison false); `==`
    /// and `!=` part by part.
    fn lex_cmp(&self, op: BinOp, a: &Cx, b: &Cx) -> Expr {
        let s = self.s;
        let (xr, xi, yr, yi) = (&a.re, &a.im, &b.re, &b.im);
        let c = |op: BinOp, x: &Expr, y: &Expr| bin(op, x.clone(), y.clone(), s);
        match op {
            BinOp::Eq => self.and(c(BinOp::Eq, xr, yr), c(BinOp::Eq, xi, yi)),
            BinOp::Ne => self.or(c(BinOp::Ne, xr, yr), c(BinOp::Ne, xi, yi)),
            _ => {
                let strict = match op {
                    BinOp::Ge | BinOp::Gt => BinOp::Gt,
                    _ => BinOp::Lt,
                };
                let ordered = self.and(self.not(self.isnan(xi)), self.not(self.isnan(yi)));
                let first = self.and(c(strict, xr, yr), ordered);
                let second = self.and(c(BinOp::Eq, xr, yr), c(op, xi, yi));
                self.or(first, second)
            }
        }
    }
}
