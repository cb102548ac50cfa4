//! Complex numbers in CUDA Python: complex64/complex128 arrays and
//! scalars, locals, `+ - * /` (numba-cuda's routines as NVVM compiles them:
//! `crate::complex` with [`CxRules::Numba`]), unary `-`/`+`, `abs`,
//! `**` (`cmath.rs`), `==`/`!=`, `.real`, `.imag`, `.conjugate()`,
//! `complex(a, b)` (also `complex(*t)` of a tuple),
//! `numpy.complex64(x)`/`complex128(x)`, and the `.real`/`.imag` views of a
//! complex array (numba's `values.real`, which atomics take).
//!
//! A complex value is its two parts, each an expression of the part dtype
//! (float32 for complex64, float64 for complex128); a complex array's
//! element is two consecutive numbers of its buffer, real then imaginary
//! (numpy's layout), addressed as a trailing dimension of 2.

use super::*;
use crate::complex::{self, Cx, CxBuilder, CxRules};

/// The part dtype of a complex type path (`numpy.complex64`, `numba.complex128`).
pub(super) fn complex_path(path: &str) -> Option<DType> {
    let (prefix, last) = path.rsplit_once('.')?;
    let known = matches!(
        prefix,
        "numba" | "numpy" | "numba.types" | "numba.core.types" | "numba.cuda"
    );
    known.then(|| types::complex_named(last)).flatten()
}

/// The part dtype of the complex result of mixing a complex operand of
/// part dtype `c` with a value of dtype `other` (`other_complex`: also
/// complex). The seed: "coerced to the most generic type of the two", so
/// the result is one of the operands' types: the complex one beats a real
/// (as a float beats an int, whatever its width: complex64 + float64 is
/// complex64), the wider of two complex ones wins. numba-cuda itself
/// widens (complex64 + float64 is complex128): docs/divergences.md N14.
pub(super) fn promote_complex(c: DType, other: DType, other_complex: bool) -> DType {
    if other_complex && other.bits() > c.bits() {
        other
    } else {
        c
    }
}

impl Elab<'_> {
    /// Complex value `z` held in two fresh variables named after `name`
    /// (a parameter of an inlined device function): its parts read them.
    pub(super) fn hold_complex(&mut self, name: &str, z: Cx, span: Span) -> Val {
        let re = self.new_var(&format!("{name}.real"), z.re.ty.clone());
        let im = self.new_var(&format!("{name}.imag"), z.im.ty.clone());
        self.emit(Stmt::Let(re, z.re));
        self.emit(Stmt::Let(im, z.im));
        Val::Complex(Cx {
            re: self.var_expr(re, span),
            im: self.var_expr(im, span),
        })
    }

    /// Runs a complex operation's builder with numba's rules and emits its
    /// statements.
    pub(super) fn with_cx(&mut self, span: Span, f: impl FnOnce(&mut CxBuilder) -> Cx) -> Cx {
        let (r, out) = crate::complex::build(&mut self.vars, span, CxRules::Numba, f);
        for s in out {
            self.emit(s);
        }
        r
    }

    /// `v` as a complex of part dtype `d`: a real number is `(x, +0)`.
    pub(super) fn as_complex(&self, v: Val, d: DType, span: Span) -> DResult<Cx> {
        match v {
            Val::Complex(c) => Ok(Cx {
                re: convert(c.re, d),
                im: convert(c.im, d),
            }),
            other => {
                let x = self.num(other, span)?;
                Ok(Cx {
                    re: convert(x, d),
                    im: float_const(d, 0.0, span),
                })
            }
        }
    }

    /// The part dtype that an operation of `a` and `b`, one of them complex,
    /// computes in.
    fn cx_type(&self, a: &Val, b: &Val, span: Span) -> DResult<DType> {
        let info = |v: &Val| -> DResult<(DType, bool)> {
            match v {
                Val::Complex(c) => Ok((dtype_of(&c.re), true)),
                Val::Num(e) => Ok((dtype_of(e), false)),
                other => Err(self.num(other.clone(), span).expect_err("not a number")),
            }
        };
        let (da, ca) = info(a)?;
        let (db, cb) = info(b)?;
        Ok(match (ca, cb) {
            (true, _) => promote_complex(da, db, cb),
            (false, _) => promote_complex(db, da, ca),
        })
    }

    /// `a op b` where an operand is complex: `+ - * /` and `**`
    /// (numba-cuda's `cpow_internal`, `cmath.rs`, whatever the exponent);
    /// the others are refused.
    pub(super) fn complex_arith(&mut self, x: Binary<Val>) -> DResult<Val> {
        use ast::Operator as O;
        let Binary { op, l, r, span } = x;
        let (x, y) = self.complex_operands(l, r, span)?;
        Ok(Val::Complex(match op {
            O::Add => complex::add(x, y, span),
            O::Sub => complex::sub(x, y, span),
            O::Mult => self.with_cx(span, |k| k.mul(x, y)),
            O::Div => self.with_cx(span, |k| k.div(x, y)),
            O::Pow => self.complex_pow(x, y, span),
            _ => {
                return py::unsupported(
                    span,
                    &format!("`{}` on complex numbers", op_text(op)),
                    DIALECT,
                    "complex numbers support + - * / ** (and abs, ==, !=)",
                )
            }
        }))
    }

    /// Both parts held in variables (an operand used several times is
    /// evaluated once).
    pub(super) fn hold(&mut self, c: Cx) -> Cx {
        Cx {
            re: self.temp(c.re),
            im: self.temp(c.im),
        }
    }

    /// `a == b`, `a != b` with a complex operand: both parts equal (either
    /// part differs, a NaN part unequal), as numba compares (measured);
    /// `<` and the others are refused, as numba refuses them.
    pub(super) fn complex_cmp(&mut self, x: Binary<Val, ast::CmpOp>) -> DResult<Expr> {
        let Binary { op, l, r, span } = x;
        let ne = match op {
            ast::CmpOp::Eq | ast::CmpOp::Is => false,
            ast::CmpOp::NotEq | ast::CmpOp::IsNot => true,
            _ => return err(span, "complex numbers are only compared with == and !="),
        };
        let (x, y) = self.complex_operands(l, r, span)?;
        Ok(complex::equal(x, y, ne, span))
    }

    /// The operands of a complex operation, both as complex numbers of
    /// their common type ([`Elab::cx_type`]), each held in variables.
    fn complex_operands(&mut self, l: Val, r: Val, span: Span) -> DResult<(Cx, Cx)> {
        let d = self.cx_type(&l, &r, span)?;
        let x = self.as_complex(l, d, span)?;
        let y = self.as_complex(r, d, span)?;
        Ok((self.hold(x), self.hold(y)))
    }

    /// `abs(z)`: numba's `math.hypot(z.real, z.imag)`, here as `m *
    /// sqrt(1 + (n / m)^2)` with `m`, `n` the larger and smaller magnitude
    /// (within an ulp of libdevice's hypot, which the suite's tolerance
    /// allows); `inf` where a part is infinite (even with a NaN part), NaN
    /// where a part is NaN, 0 for 0.
    pub(super) fn complex_abs(&mut self, z: Cx, span: Span) -> Expr {
        let d = dtype_of(&z.re);
        let fabs = |e: Expr| unary(UnOp::Math(MathFn::Abs), e, span);
        let x = self.temp(fabs(z.re));
        let y = self.temp(fabs(z.im));
        let m = self.temp(select(
            bin(BinOp::Ge, x.clone(), y.clone(), span),
            x.clone(),
            y.clone(),
            span,
        ));
        let n = self.temp(select(
            bin(BinOp::Ge, x.clone(), y.clone(), span),
            y.clone(),
            x.clone(),
            span,
        ));
        let inf = float_const(d, f64::INFINITY, span);
        let zero = float_const(d, 0.0, span);
        let one = float_const(d, 1.0, span);
        let q = bin(BinOp::FDiv, n, m.clone(), span);
        let q = self.temp(q);
        let root = unary(
            UnOp::Math(MathFn::SqrtRn),
            bin(BinOp::Add, one, bin(BinOp::Mul, q.clone(), q, span), span),
            span,
        );
        let general = bin(BinOp::Mul, m.clone(), root, span);
        let any_inf = bin(
            BinOp::LogicalOr,
            bin(BinOp::Eq, x.clone(), inf.clone(), span),
            bin(BinOp::Eq, y.clone(), inf.clone(), span),
            span,
        );
        let any_nan = bin(
            BinOp::LogicalOr,
            bin(BinOp::Ne, x.clone(), x, span),
            bin(BinOp::Ne, y.clone(), y, span),
            span,
        );
        let nan = float_const(d, f64::NAN, span);
        let m_zero = bin(BinOp::Eq, m, zero.clone(), span);
        select(
            any_inf,
            inf,
            select(any_nan, nan, select(m_zero, zero, general, span), span),
            span,
        )
    }

    /// `.real`, `.imag` and `.conjugate` of a number: a complex's parts; a
    /// real number's `.real` is itself and `.imag` a zero of its type (as
    /// numba types them).
    pub(super) fn number_attribute(&mut self, v: Val, attr: &str, span: Span) -> DResult<Val> {
        match (v, attr) {
            (Val::Complex(c), "real") => Ok(Val::Num(c.re)),
            (Val::Complex(c), "imag") => Ok(Val::Num(c.im)),
            (Val::Num(e), "real") => Ok(Val::Num(e)),
            (Val::Num(e), "imag") => {
                let d = dtype_of(&e);
                Ok(Val::Num(if d.is_float() {
                    float_const(d, 0.0, span)
                } else {
                    int_const(d, 0, span)
                }))
            }
            (_, attr) => err(
                span,
                format!("numbers have no attribute `{attr}`; complex numbers have real, imag and conjugate()"),
            ),
        }
    }

    /// `z.conjugate()`: the imaginary part negated (a real number is itself).
    pub(super) fn conjugate(&mut self, v: Val, span: Span) -> DResult<Val> {
        match v {
            Val::Complex(c) => Ok(Val::Complex(Cx {
                re: c.re,
                im: unary(UnOp::Neg, c.im, span),
            })),
            Val::Num(e) => Ok(Val::Num(e)),
            other => self.num(other, span).map(Val::Num),
        }
    }

    /// `complex(re[, im])` (complex128 parts, numba's `complex` builtin)
    /// and `numpy.complex64(x)`/`complex128(x)` (of part dtype `d`): each
    /// part converted; a complex argument keeps its parts.
    pub(super) fn make_complex(
        &mut self,
        d: Option<DType>,
        c: &ast::ExprCall,
        span: Span,
    ) -> DResult<Val> {
        py::arity::positional(c, "complex()", (1, 2), span)?;
        let mut vals = Vec::new();
        for a in &c.args {
            let mark = self.mark();
            // `complex(*t)`: the items of a tuple (`complex(*cmath.polar(z))`)
            let (a, starred) = match a {
                ast::Expr::Starred(s) => (&*s.value, true),
                a => (a, false),
            };
            let v = self.expr(a)?;
            vals = vals
                .into_iter()
                .map(|x| self.keep_order_val(x, mark))
                .collect();
            match v {
                Val::Tuple(items) if starred => vals.extend(items),
                _ if starred => return err(span, "complex(*t) takes a tuple"),
                v => vals.push(v),
            }
        }
        py::arity::check_args(span, "complex()", (1, 2), vals.len())?;
        let d = d.unwrap_or(DType::F64);
        if vals.len() == 2 && vals.iter().any(|v| matches!(v, Val::Complex(_))) {
            return py::unsupported(
                span,
                "complex(a, b) of a complex number",
                DIALECT,
                "pass the real and imaginary parts as real numbers",
            );
        }
        let mut it = vals.into_iter();
        let first = it.next().expect("one or two");
        let z = self.as_complex(first, d, span)?;
        Ok(Val::Complex(match it.next() {
            None => z,
            Some(im) => {
                let im = self.num(im, span)?;
                Cx {
                    re: z.re,
                    im: convert(im, d),
                }
            }
        }))
    }

    /// The pointers to the real and imaginary parts of the element of
    /// complex array `arr` that index `at` selects.
    pub(super) fn complex_ptrs(&mut self, arr: &ArrayVal, at: Index) -> DResult<(Expr, Expr)> {
        let re = self.elem_ptr(arr, at)?;
        let re = self.hold_indices(re);
        let im = part_ptr(&re, 1);
        Ok((re, im))
    }

    /// Loads the complex element at `(re, im)` pointers.
    pub(super) fn load_complex(&self, ptrs: (Expr, Expr), d: DType, span: Span) -> Val {
        Val::Complex(Cx {
            re: load(ptrs.0, d, span),
            im: load(ptrs.1, d, span),
        })
    }

    /// Stores `v` into the complex element at `ptrs` (a real value's
    /// imaginary part is +0).
    pub(super) fn store_complex(
        &mut self,
        ptrs: (Expr, Expr),
        v: Val,
        d: DType,
        span: Span,
    ) -> DResult<()> {
        let z = self.as_complex(v, d, span)?;
        let z = self.hold(z);
        self.store(ptrs.0, z.re, d, span);
        self.store(ptrs.1, z.im, d, span);
        Ok(())
    }
}

/// The pointer `ptr` (to part 0 of a complex element) moved to part `k`:
/// its last index replaced.
pub(super) fn part_ptr(ptr: &Expr, k: i128) -> Expr {
    let mut p = ptr.clone();
    if let ExprKind::ElemPtr {
        indices, offset, ..
    } = &mut p.kind
    {
        if let Some(last) = indices.last_mut() {
            *last = int_const(DType::I64, k, ptr.span);
        }
        // a slice's pointer (`slices.rs`): its offset counts part 0 too
        if let Some(o) = offset {
            let by = int_const(DType::I64, k, ptr.span);
            **o = bin(BinOp::Add, (**o).clone(), by, ptr.span);
        }
    }
    p
}
