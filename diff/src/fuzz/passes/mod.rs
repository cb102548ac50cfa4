//! The generators' UB guards, one pass per kind of hazard (Cranelift
//! fuzzgen's `int_divz` and `fcvt`): each asks the op's hazard declaration
//! (`ksem_interp::hazard`) whether and what to guard, and builds the guard
//! through [`GuardBuilder`], which each generator implements over its own
//! representation, so the printed program still elaborates back to the
//! same IR.
//!
//! - [`int_divz`]: integer divisors that are never 0 (nor -1 where
//!   `MIN / -1` is UB);
//! - [`shift`]: shift amounts inside the declared range;
//! - [`fcvt`]: floats clamped into the range a float→int conversion is
//!   defined on (NaN included);
//! - [`int_ovf`]: operands of a signed `+ - *` whose overflow is UB
//!   clamped so that it cannot overflow.
//!
//! Every guard reads its operand once (the builder's values need not be
//! `Clone`: a pass cannot repeat one), so no generator needs to bind it to
//! a name and nested guards cannot blow generated code up; each stays
//! correct when the guarded value is later widened or narrowed (it is
//! decided by the low bits, or by a range the conversion keeps).

pub mod fcvt;
pub mod int_divz;
pub mod int_ovf;
pub mod shift;

use ksem_interp::dtype::DType;
use ksem_interp::ir::build::dtype_of;
use ksem_interp::ir::{BinOp, Expr, ExprKind};

/// The binary op a front end made of a construct and the dtype it
/// computes in: the first `Binary` node of `e` under its conversions (a
/// generator builds the operation once unguarded to ask which op's
/// hazards to guard).
pub fn op_of(e: &Expr) -> Option<(BinOp, DType)> {
    match &e.kind {
        ExprKind::Cast(x, _) => op_of(x),
        ExprKind::Binary(op, l, _) => Some((*op, dtype_of(l))),
        _ => None,
    }
}

/// A value a generator knows while generating: a literal or a folded
/// constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Known {
    /// An integer (or bool) constant.
    Int(i128),
    /// A float constant.
    Float(f64),
}

/// The operations a guard needs, over a generator's own values. Each
/// builds what the dialect's front end makes of the construct.
pub trait GuardBuilder {
    /// A value of the generator (an IR expression, a front-end value).
    type Val;
    /// What building can fail with.
    type Err;

    /// The dtype `v` computes in.
    fn dtype(&self, v: &Self::Val) -> DType;
    /// `v`'s value where it is a constant the generator knows.
    fn known(&self, v: &Self::Val) -> Option<Known>;
    /// An integer constant for an operation with an operand of dtype `d`.
    fn int(&mut self, d: DType, v: i128) -> Result<Self::Val, Self::Err>;
    /// A float constant for an operation with an operand of dtype `d`.
    fn float(&mut self, d: DType, v: f64) -> Result<Self::Val, Self::Err>;
    /// The dtype a float constant of [`GuardBuilder::float`] has in the
    /// dialect (Python floats are float32 constants in some, float64 in
    /// others): a float bound must be exact in it too.
    fn float_const_dtype(&self) -> DType;
    /// Bitwise `a & b`.
    fn bit_and(&mut self, a: Self::Val, b: Self::Val) -> Result<Self::Val, Self::Err>;
    /// Bitwise `a | b`.
    fn bit_or(&mut self, a: Self::Val, b: Self::Val) -> Result<Self::Val, Self::Err>;
    /// Float `x` clamped into `[lo, hi]`, a NaN included (IR `Min`/`Max`
    /// of `NanMode::Ignore` give the bound for a NaN; a select on `lo < x`
    /// does too).
    fn clamp(&mut self, x: Self::Val, lo: f64, hi: f64) -> Result<Self::Val, Self::Err>;
}

#[cfg(test)]
pub(crate) mod tiny {
    //! A builder over a tiny expression language, evaluated with the
    //! interpreter's element semantics (`ksem_interp::ops`): each pass's
    //! unit tests check that a guarded value never hits the hazard.

    use super::{GuardBuilder, Known};
    use ksem_interp::dtype::DType;
    use ksem_interp::float::{Overflow, Rounding};
    use ksem_interp::ir::{BinOp, CastKind, NanMode};
    use ksem_interp::ops;

    /// An expression: an element's bits of a dtype, or an operation.
    #[derive(Clone, Debug)]
    pub enum E {
        /// A runtime value (unknown to the pass).
        Input(DType, u64),
        /// A constant the generator knows.
        Const(DType, u64),
        /// A binary operation in the operands' first dtype.
        Bin(BinOp, Box<E>, Box<E>),
    }

    impl E {
        /// The dtype.
        pub fn dtype(&self) -> DType {
            match self {
                E::Input(d, _) | E::Const(d, _) => *d,
                E::Bin(_, a, _) => a.dtype(),
            }
        }

        /// The bits, computed by the interpreter's element semantics.
        pub fn eval(&self) -> u64 {
            match self {
                E::Input(_, b) | E::Const(_, b) => *b,
                E::Bin(op, a, b) => {
                    let d = a.dtype();
                    let y = ops::cast(
                        CastKind::Convert(Rounding::NearestEven, Overflow::Infinity),
                        b.dtype(),
                        d,
                        b.eval(),
                    )
                    .expect("a defined conversion");
                    ops::binary(*op, d, a.eval(), y).expect("a defined operation")
                }
            }
        }
    }

    /// The tiny language's builder (float constants of `consts`).
    pub struct Tiny {
        /// The dtype of a float constant.
        pub consts: DType,
    }

    fn bits(d: DType, v: f64) -> u64 {
        ksem_interp::float::from_f64(d, v, Rounding::NearestEven, Overflow::Infinity)
    }

    impl GuardBuilder for Tiny {
        type Val = E;
        type Err = ();
        fn dtype(&self, v: &E) -> DType {
            v.dtype()
        }
        fn known(&self, v: &E) -> Option<Known> {
            match v {
                E::Const(d, b) if d.is_float() => Some(Known::Float(ops::fval(*d, *b))),
                E::Const(d, b) => Some(Known::Int(ops::int_value(*d, *b))),
                _ => None,
            }
        }
        fn int(&mut self, d: DType, v: i128) -> Result<E, ()> {
            Ok(E::Const(d, (v as u64) & d.mask()))
        }
        fn float(&mut self, _d: DType, v: f64) -> Result<E, ()> {
            Ok(E::Const(self.consts, bits(self.consts, v)))
        }
        fn float_const_dtype(&self) -> DType {
            self.consts
        }
        fn bit_and(&mut self, a: E, b: E) -> Result<E, ()> {
            Ok(E::Bin(BinOp::And, Box::new(a), Box::new(b)))
        }
        fn bit_or(&mut self, a: E, b: E) -> Result<E, ()> {
            Ok(E::Bin(BinOp::Or, Box::new(a), Box::new(b)))
        }
        fn clamp(&mut self, x: E, lo: f64, hi: f64) -> Result<E, ()> {
            let d = x.dtype();
            let (lo, hi) = (E::Const(d, bits(d, lo)), E::Const(d, bits(d, hi)));
            let m = E::Bin(BinOp::Max(NanMode::Ignore), Box::new(x), Box::new(lo));
            Ok(E::Bin(
                BinOp::Min(NanMode::Ignore),
                Box::new(m),
                Box::new(hi),
            ))
        }
    }
}

#[cfg(test)]
mod campaign_tests {
    use crate::fuzz::gen::{generate, Config};
    use ksem_interp::eval::RunOptions;
    use ksem_interp::frontend::Dialect;
    use ksem_interp::launch::parse_launch;
    use ksem_interp::ub::UbKind;

    /// The kinds of UB the passes guard.
    const GUARDED: [UbKind; 6] = [
        UbKind::SignedOverflow,
        UbKind::DivisionByZero,
        UbKind::RemainderByZero,
        UbKind::DivisionOverflow,
        UbKind::ShiftOutOfRange,
        UbKind::FloatToIntOutOfRange,
    ];

    /// 150 programs of every dialect run with no UB of a guarded kind: a
    /// pass that stopped guarding (or a generator that stopped calling it)
    /// fails here, as the generators produce edge-valued divisors, shift
    /// amounts and floats (zeros, -1, MIN, NaN, infinities) all the time
    /// (with `int_divz` disabled, the first 500 gave hundreds of reports).
    #[test]
    fn generated_programs_hit_no_guarded_ub() {
        for dialect in [
            Dialect::Triton,
            Dialect::CudaPy,
            Dialect::TileLang,
            Dialect::Hidet,
        ] {
            let cfg = Config {
                dialect,
                ..Default::default()
            };
            let mut hits = Vec::new();
            for i in 0..150 {
                let p = generate(&cfg, 3, i);
                let Ok(l) = parse_launch(&p.launch.to_string()) else {
                    continue;
                };
                let opts = RunOptions {
                    threads: 1,
                    ..Default::default()
                };
                let Ok(r) = ksem_interp::run_source("fuzz.py", &p.source, &l, None, &opts) else {
                    continue;
                };
                for u in &r.ub {
                    if u.ub_kind().is_some_and(|k| GUARDED.contains(&k)) {
                        hits.push(format!("{dialect:?} program {i}: {}", u.kind));
                    }
                }
            }
            let first = &hits[..hits.len().min(8)];
            assert!(hits.is_empty(), "{} UB reports: {first:?}", hits.len());
        }
    }
}
