//! Complex statements of the generated kernels: `complex64` /
//! `complex128` variables made with `make_complex` from runtime values,
//! the operators Hidet defines on them (`+ - * /`, unary `-`, `conj`,
//! `==`/`!=`), and their parts read back with `real`/`imag` into scalar
//! variables the rest of the kernel uses. Built as the front end
//! elaborates them (a complex variable is two part variables `c.0`, `c.1`;
//! `*` and `/` are `complex::CxBuilder`'s libgcc routines), so the printed
//! program round-trips.
//!
//! UB- and NaN-free by construction: a divisor's parts are integers in
//! 1..=16, so `/` never divides by zero (real Hidet's NaNs have x86's bits,
//! divergences H4).

use super::nodes::{self, HVal, Op, S};
use super::Gen;
use ksem_interp::complex::{self, Cx, CxBuilder};
use ksem_interp::dtype::DType;
use ksem_interp::ir::build::{dtype_of, mk};
use ksem_interp::ir::*;

/// The name a complex variable's part `k` has in the IR (the front end's
/// `hold_compound`): `c.0` is the real part, `c.1` the imaginary part.
pub fn part_name(name: &str, k: usize) -> String {
    format!("{name}.{k}")
}

impl Gen {
    /// `c = make_complex(x, y)`, `r = c OP c2` (or `-c`, `conj(c)`), then
    /// `v = real(r)` or `imag(r)` (or `v = c == c2` as a bool).
    pub fn complex(&mut self) {
        self.features.insert("complex");
        let d = *self.rng.pick(&[DType::F32, DType::F64]);
        let a = self.make_complex(d, false);
        let which = self.rng.below(7);
        // (complex division is division: a product where the knobs leave it out)
        let which = if which == 3 && !self.knobs.division {
            2
        } else {
            which
        };
        let b = (which < 4 || which == 6).then(|| self.make_complex(d, which == 3));
        if let (6, Some(b)) = (which, &b) {
            self.features.insert("complex-compare");
            let ne = self.rng.chance(0.5);
            let e = complex::equal(a, b.clone(), ne, S);
            let name = self.fresh();
            let v = self.define(&name, HVal::num(e, DType::Bool));
            self.add_live(v);
            return;
        }
        let r = match (which, b) {
            (0, Some(b)) => complex::add(a, b, S),
            (1, Some(b)) => complex::sub(a, b, S),
            (2, Some(b)) => self.with_builder(|k| k.mul(a, b)),
            (3, Some(b)) => self.with_builder(|k| k.div(a, b)),
            (4, _) => complex::neg(a, S),
            _ => Cx {
                re: a.re,
                im: ksem_interp::ir::build::unary(UnOp::Neg, a.im, S),
            },
        };
        let r = self.hold_complex(r);
        let part = if self.rng.chance(0.5) { r.re } else { r.im };
        let name = self.fresh();
        let v = self.define(&name, HVal::num(part, d));
        self.add_live(v);
    }

    /// `c = make_complex(x, y)` with runtime parts of dtype `d` (a
    /// divisor's parts are integers in 1..=16); the held value.
    fn make_complex(&mut self, d: DType, divisor: bool) -> Cx {
        let part = |g: &mut Gen| {
            let x = if divisor {
                let y = g.runtime(1);
                let yi = g.int_of(y);
                nodes::binop(Op::And, &yi, &nodes::int(15))
                    .and_then(|m| nodes::binop(Op::Add, &m, &nodes::int(1)))
                    .unwrap_or_else(|| g.runtime(0))
            } else {
                g.runtime(2)
            };
            let x = g.convert_to(x, d);
            if x.hty == d && dtype_of(&x.e) == d && x.lit.is_none() {
                x
            } else {
                nodes::cast(&x, d)
            }
        };
        let re = part(self);
        let im = part(self);
        self.hold_complex(Cx { re: re.e, im: im.e })
    }

    /// `c` held in a new complex variable (its two part variables).
    fn hold_complex(&mut self, c: Cx) -> Cx {
        let name = self.fresh();
        let hold = |g: &mut Gen, k: usize, e: Expr| {
            let ty = e.ty.clone();
            g.vars.push((part_name(&name, k), ty.clone()));
            let id = g.vars.len() - 1;
            g.emit(Stmt::Let(id, e));
            mk(ExprKind::Var(id), ty, S)
        };
        let re = hold(self, 0, c.re);
        let im = hold(self, 1, c.im);
        Cx { re, im }
    }

    /// Runs a complex `*` or `/` builder, emitting its statements.
    fn with_builder(&mut self, f: impl FnOnce(&mut CxBuilder) -> Cx) -> Cx {
        let vars = &mut self.vars;
        let mut new_var = |n: &str, t: Type| {
            vars.push((n.to_string(), t));
            vars.len() - 1
        };
        let mut k = CxBuilder {
            new_var: &mut new_var,
            out: vec![],
            span: S,
            rules: ksem_interp::complex::CxRules::Gcc,
        };
        let r = f(&mut k);
        let out = std::mem::take(&mut k.out);
        for s in out {
            self.emit(s);
        }
        r
    }
}
