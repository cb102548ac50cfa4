//! Triton's counter-based random numbers (`tl.randint`, `tl.randint4x`,
//! `tl.rand`, `tl.rand4x`, `tl.randn`, `tl.randn4x`,
//! `tl.uint_to_uniform_float`, `tl.pair_uniform_to_normal`) as Triton 3.6's
//! `language/random.py` computes them: Philox-4x32 with `n_rounds` rounds
//! (default 10) keyed by the seed, counters (offset low word, offset high
//! word, 0, 0). The IR is built from ordinary integer operations (the high
//! word of a 32 × 32 product through a 64-bit multiply), so the interpreter
//! and the lowering need nothing new. Measured bit for bit on an H200 for
//! seeds 0, 42, -7 and 123456789012, 7 and 10 rounds
//! (`tools/probes/triton_features/measure_atomics_random.py`).

use super::builtins::{const_int, Bound, Signatures, CONVERT};
use super::elab::{err, Elab};
use super::value::Value;
use crate::dtype::DType;
use crate::ir::build::{bin, float_const, int_const, select, unary};
use crate::ir::*;
use crate::span::{DResult, Span};

/// The random builtins (without `tl.`), each with its Python signature
/// (see [`super::builtins::bind`]).
pub const BUILTINS: Signatures = &[
    ("randint", "seed, offset, n_rounds"),
    ("randint4x", "seed, offset, n_rounds"),
    ("rand", "seed, offset, n_rounds"),
    ("rand4x", "seed, offset, n_rounds"),
    ("randn", "seed, offset, n_rounds"),
    ("randn4x", "seed, offset, n_rounds"),
    ("uint_to_uniform_float", "x"),
    ("pair_uniform_to_normal", "u1, u2"),
];

/// Philox-4x32's round multipliers and key increments.
const ROUND_A: u64 = 0xD251_1F53;
const ROUND_B: u64 = 0xCD9E_8D57;
const KEY_A: u64 = 0x9E37_79B9;
const KEY_B: u64 = 0xBB67_AE85;
/// `N_ROUNDS_DEFAULT`.
const DEFAULT_ROUNDS: i128 = 10;

impl Elab<'_> {
    /// Elaborates `tl.<name>(…)`, one of [`BUILTINS`].
    pub(super) fn random(&mut self, name: &str, b: Bound, span: Span) -> DResult<Value> {
        match name {
            "uint_to_uniform_float" => {
                let x = self.to_tensor(b.req("x", span)?, span)?;
                return Ok(Value::Tensor(self.uniform(x, span)?));
            }
            "pair_uniform_to_normal" => {
                let u1 = self.to_tensor(b.req("u1", span)?, span)?;
                let u2 = self.to_tensor(b.req("u2", span)?, span)?;
                let (n1, n2) = self.normal_pair(u1, u2, span)?;
                return Ok(Value::Tuple(vec![Value::Tensor(n1), Value::Tensor(n2)]));
            }
            _ => {}
        }
        let rounds = match b.opt("n_rounds") {
            Some(v) => const_int(&v, "n_rounds", span)?,
            None => DEFAULT_ROUNDS,
        };
        if !(0..=64).contains(&rounds) {
            return err(
                span,
                format!("n_rounds must be a small non-negative constexpr, got {rounds}"),
            );
        }
        let seed = b.req("seed", span)?;
        let offset = b.req("offset", span)?;
        let ints = self.randint4x(seed, offset, rounds as usize, span)?;
        let one = |e: Expr| Value::Tensor(e);
        Ok(match name {
            "randint" => one(ints[0].clone()),
            "randint4x" => Value::Tuple(ints.into_iter().map(one).collect()),
            "rand" => one(self.uniform(ints[0].clone(), span)?),
            "rand4x" => {
                let mut us = Vec::new();
                for x in ints {
                    us.push(one(self.uniform(x, span)?));
                }
                Value::Tuple(us)
            }
            "randn" => {
                let u1 = self.uniform(ints[0].clone(), span)?;
                let u2 = self.uniform(ints[1].clone(), span)?;
                one(self.normal_pair(u1, u2, span)?.0)
            }
            _ => {
                // randn4x
                let mut us = Vec::new();
                for x in ints {
                    us.push(self.uniform(x, span)?);
                }
                let (n1, n2) = self.normal_pair(us[0].clone(), us[1].clone(), span)?;
                let (n3, n4) = self.normal_pair(us[2].clone(), us[3].clone(), span)?;
                Value::Tuple(vec![one(n1), one(n2), one(n3), one(n4)])
            }
        })
    }

    /// `randint4x`: four uint32 tiles of the offset's shape.
    fn randint4x(
        &mut self,
        seed: Value,
        offset: Value,
        rounds: usize,
        span: Span,
    ) -> DResult<[Expr; 4]> {
        let seed = self.to_tensor(seed, span)?;
        let offset = self.to_tensor(offset, span)?;
        for (what, e) in [("seed", &seed), ("offset", &offset)] {
            if e.ty.is_ptr() || !e.ty.dtype().is_int() || e.ty.dtype() == DType::Bool {
                return err(
                    span,
                    format!("the random {what} must be an integer, got {}", e.ty),
                );
            }
        }
        if !seed.ty.shape.is_empty() {
            return err(
                span,
                format!("the random seed must be a scalar, got {}", seed.ty),
            );
        }
        // philox(): seed.to(uint64), split into two uint32 key words
        let s = self.cast(seed, DType::U64, CONVERT);
        let hi = bin(
            BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
            s.clone(),
            int_const(DType::U64, 32, span),
            span,
        );
        let k1 = self.cast(hi, DType::U32, CONVERT);
        let k0 = self.cast(s, DType::U32, CONVERT);
        // randint4x(): counters (offset low word, high word, 0, 0)
        let shape = offset.ty.shape.clone();
        let od = offset.ty.dtype();
        let c0 = self.cast(offset.clone(), DType::U32, CONVERT);
        let zero = self.broadcast_to(int_const(DType::U32, 0, span), &shape, span)?;
        let c1 = if od.bits() > 32 {
            let shr = if od.is_signed_int() {
                ShrKind::Arith
            } else {
                ShrKind::Logical
            };
            let amount = self.broadcast_to(int_const(od, 32, span), &shape, span)?;
            let h = bin(BinOp::Shr(shr, ShiftRange::Ub), offset, amount, span);
            self.cast(h, DType::U32, CONVERT)
        } else {
            zero.clone()
        };
        let mut c = [c0, c1, zero.clone(), zero];
        let (mut k0, mut k1) = (k0, k1);
        for _ in 0..rounds {
            let k0t = self.broadcast_to(k0.clone(), &shape, span)?;
            let k1t = self.broadcast_to(k1.clone(), &shape, span)?;
            let a =
                self.broadcast_to(int_const(DType::U32, ROUND_A as i128, span), &shape, span)?;
            let b =
                self.broadcast_to(int_const(DType::U32, ROUND_B as i128, span), &shape, span)?;
            let [c0, c1, c2, c3] = c;
            let n0 = xor3(self.mul_hi(b.clone(), c2.clone(), span)?, c1, k0t, span);
            let n2 = xor3(self.mul_hi(a.clone(), c0.clone(), span)?, c3, k1t, span);
            let n1 = bin(BinOp::Mul, b, c2, span);
            let n3 = bin(BinOp::Mul, a, c0, span);
            // each round's state is named, so the tree stays linear in rounds
            c = [
                self.bind("_philox", n0),
                self.bind("_philox", n1),
                self.bind("_philox", n2),
                self.bind("_philox", n3),
            ];
            k0 = bin(
                BinOp::Add,
                k0,
                int_const(DType::U32, KEY_A as i128, span),
                span,
            );
            k1 = bin(
                BinOp::Add,
                k1,
                int_const(DType::U32, KEY_B as i128, span),
                span,
            );
        }
        Ok(c)
    }

    /// `uint_to_uniform_float`: the bits read as a signed integer, a
    /// negative `x` folded to `-x - 1`, times 4.6566127342e-10 (32-bit) or
    /// 1.0842020432385337e-19 (64-bit), both as float32: a float32 in [0, 1).
    fn uniform(&mut self, x: Expr, span: Span) -> DResult<Expr> {
        let (sd, scale) = match x.ty.dtype() {
            DType::U32 | DType::I32 => (DType::I32, 4.6566127342e-10),
            DType::U64 | DType::I64 => (DType::I64, 1.0842020432385337e-19),
            d => {
                return err(
                    span,
                    format!(
                        "uint_to_uniform_float takes 32- or 64-bit integers, got {}",
                        d.json_name()
                    ),
                )
            }
        };
        let shape = x.ty.shape.clone();
        let x = self.cast(x, sd, CastKind::Bitcast);
        let zero = self.broadcast_to(int_const(sd, 0, span), &shape, span)?;
        let one = self.broadcast_to(int_const(sd, 1, span), &shape, span)?;
        let neg = bin(BinOp::Lt, x.clone(), zero.clone(), span);
        let folded = bin(
            BinOp::Sub,
            bin(BinOp::Sub, zero, x.clone(), span),
            one,
            span,
        );
        let v = select(neg, folded, x, span);
        let f = self.cast(v, DType::F32, CONVERT);
        let s = self.broadcast_to(float_const(DType::F32, scale, span), &shape, span)?;
        Ok(bin(BinOp::Mul, f, s, span))
    }

    /// `pair_uniform_to_normal` (Box–Muller on float32): u1 = max(1e-7, u1),
    /// th = 2π·u2 (the float64 2π Triton writes, rounded to float32), r =
    /// sqrt(-2·log u1); (r·cos th, r·sin th). The math is
    /// Triton's approximate `tl.log/sqrt/cos/sin`, so the results are inexact.
    fn normal_pair(&mut self, u1: Expr, u2: Expr, span: Span) -> DResult<(Expr, Expr)> {
        for u in [&u1, &u2] {
            if u.ty.dtype() != DType::F32 || u.ty.is_ptr() {
                return err(
                    span,
                    format!("pair_uniform_to_normal takes float32 tensors, got {}", u.ty),
                );
            }
        }
        let (u1, u2) = self.broadcast_pair(u1, u2, span)?;
        let shape = u1.ty.shape.clone();
        let c =
            |this: &Self, v: f64| this.broadcast_to(float_const(DType::F32, v, span), &shape, span);
        let u1 = bin(BinOp::Max(NanMode::Ignore), c(self, 1.0e-7)?, u1, span);
        let th = bin(BinOp::Mul, c(self, std::f64::consts::TAU)?, u2, span);
        let th = self.bind("_th", th);
        let log = unary(UnOp::Math(MathFn::Log), u1, span);
        let r = unary(
            UnOp::Math(MathFn::Sqrt),
            bin(BinOp::Mul, c(self, -2.0)?, log, span),
            span,
        );
        let r = self.bind("_r", r);
        let cos = unary(UnOp::Math(MathFn::Cos), th.clone(), span);
        let sin = unary(UnOp::Math(MathFn::Sin), th, span);
        Ok((
            bin(BinOp::Mul, r.clone(), cos, span),
            bin(BinOp::Mul, r, sin, span),
        ))
    }
}

/// `a ^ b ^ c`, left to right.
fn xor3(a: Expr, b: Expr, c: Expr, span: Span) -> Expr {
    bin(BinOp::Xor, bin(BinOp::Xor, a, b, span), c, span)
}
