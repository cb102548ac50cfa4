//! Builtins of Triton's standard library that compute with existing IR:
//! `tl.umulhi`, `tl.swizzle2d` and `tl.assume`.
//!
//! - `umulhi(x, y)`: the high N bits of the 2N-bit product of the operands'
//!   unsigned bit patterns, for 32- and 64-bit integers of one dtype
//!   (Triton lowers it to `__nv_umulhi` / `__nv_umul64hi` whatever the
//!   signedness; its own test, `test_umulhi`, multiplies the unsigned
//!   patterns). 64-bit operands are split into 32-bit halves, so every
//!   product fits in 64 bits.
//! - `swizzle2d(i, j, size_i, size_j, size_g)`: Triton's `standard.py`
//!   formula, elaborated with the operators' own Triton semantics (so `//`
//!   and `%` truncate on tensors, as in the jit function).
//! - `assume(cond)`: a hint to the compiler; ksem checks that `cond` is a
//!   condition and otherwise does nothing. A false assumption is undefined
//!   behaviour in Triton that ksem does not report yet (docs/semantics.md).

use super::builtins::{Bound, Signatures, CONVERT};
use super::elab::{err, operands_agree, Elab};
use super::value::Value;
use crate::dtype::DType;
use crate::ir::build::{bin, int_const};
use crate::ir::*;
use crate::span::{DResult, Span};
use rustpython_parser::ast::Operator;

/// The builtins of this module (without `tl.`), each with its Python
/// signature (see [`super::builtins::bind`]).
pub const BUILTINS: Signatures = &[
    ("umulhi", "x, y"),
    ("swizzle2d", "i, j, size_i, size_j, size_g"),
    ("assume", "cond"),
];

impl Elab<'_> {
    /// Elaborates `tl.<name>(…)`, one of [`BUILTINS`].
    pub(super) fn standard_builtin(&mut self, name: &str, b: Bound, span: Span) -> DResult<Value> {
        match name {
            "umulhi" => {
                let x = self.to_tensor(b.req("x", span)?, span)?;
                let y = self.to_tensor(b.req("y", span)?, span)?;
                let (x, y) = self.broadcast_pair(x, y, span)?;
                let same = x.ty.elem == y.ty.elem;
                operands_agree("tl.umulhi", "dtype", same, (&x.ty, &y.ty), span)?;
                Ok(Value::Tensor(self.mul_hi(x, y, span)?))
            }
            "swizzle2d" => {
                let [i, j, size_i, size_j, size_g] =
                    ["i", "j", "size_i", "size_j", "size_g"].map(|n| b.req(n, span));
                self.swizzle2d(i?, j?, size_i?, size_j?, size_g?, span)
            }
            _ => {
                // "assume"
                match b.req("cond", span)? {
                    Value::Num(_) => {}
                    Value::Tensor(c) if c.ty.dtype().is_int() || c.ty.dtype() == DType::Bool => {}
                    other => {
                        return err(
                            span,
                            format!("tl.assume takes a condition, got {}", other.describe()),
                        )
                    }
                }
                Ok(Value::None)
            }
        }
    }

    /// The high half of the product of the unsigned bit patterns of `x` and
    /// `y` (one 32- or 64-bit integer dtype), in that dtype (`tl.umulhi`, and
    /// Philox's rounds in `super::random`).
    pub(super) fn mul_hi(&mut self, x: Expr, y: Expr, span: Span) -> DResult<Expr> {
        let d = x.ty.dtype();
        let shape = x.ty.shape.clone();
        let unsigned = match d {
            DType::I32 | DType::U32 => DType::U32,
            DType::I64 | DType::U64 => DType::U64,
            other => {
                return err(
                    span,
                    format!(
                        "tl.umulhi takes 32- or 64-bit integers, got {}",
                        other.json_name()
                    ),
                )
            }
        };
        let (x, y) = (
            self.cast(x, unsigned, CastKind::Bitcast),
            self.cast(y, unsigned, CastKind::Bitcast),
        );
        let u64c =
            |this: &Self, v: i128| this.broadcast_to(int_const(DType::U64, v, span), &shape, span);
        let shr = |a: Expr, s: Expr| bin(BinOp::Shr(ShrKind::Logical, ShiftRange::Ub), a, s, span);
        let hi = if unsigned == DType::U32 {
            let wide = bin(
                BinOp::Mul,
                self.cast(x, DType::U64, CONVERT),
                self.cast(y, DType::U64, CONVERT),
                span,
            );
            let h = shr(wide, u64c(self, 32)?);
            self.cast(h, DType::U32, CONVERT)
        } else {
            // 32-bit halves: x = xh * 2^32 + xl, y = yh * 2^32 + yl
            let x = self.bind("umulhi_x", x);
            let y = self.bind("umulhi_y", y);
            let mask = u64c(self, 0xffff_ffff)?;
            let lo = |a: &Expr| bin(BinOp::And, a.clone(), mask.clone(), span);
            let thirty_two = u64c(self, 32)?;
            let (xl, xh) = (lo(&x), shr(x.clone(), thirty_two.clone()));
            let (yl, yh) = (lo(&y), shr(y.clone(), thirty_two.clone()));
            let ll = self.bind("umulhi_ll", bin(BinOp::Mul, xl.clone(), yl.clone(), span));
            let hl = self.bind("umulhi_hl", bin(BinOp::Mul, xh.clone(), yl, span));
            let lh = bin(BinOp::Mul, xl, yh.clone(), span);
            let hh = bin(BinOp::Mul, xh, yh, span);
            // (ll >> 32) + (hl & mask) + lh < 2^64: at most 2^64 - 1
            let cross = bin(
                BinOp::Add,
                bin(BinOp::Add, shr(ll, thirty_two.clone()), lo(&hl), span),
                lh,
                span,
            );
            let cross = self.bind("umulhi_cross", cross);
            bin(
                BinOp::Add,
                bin(BinOp::Add, hh, shr(hl, thirty_two.clone()), span),
                shr(cross, thirty_two),
                span,
            )
        };
        Ok(self.cast(hi, d, CastKind::Bitcast))
    }

    /// Triton's `swizzle2d`, operator by operator as its jit function runs.
    fn swizzle2d(
        &mut self,
        i: Value,
        j: Value,
        size_i: Value,
        size_j: Value,
        size_g: Value,
        span: Span,
    ) -> DResult<Value> {
        use Operator::*;
        // ij = i * size_j + j
        let ij = self.binop(Mult, i, size_j.clone(), span)?;
        let ij = self.binop(Add, ij, j, span)?;
        // size_gj = size_g * size_j
        let size_gj = self.binop(Mult, size_g.clone(), size_j, span)?;
        // group_id = ij // size_gj; off_i = group_id * size_g
        let group_id = self.binop(FloorDiv, ij.clone(), size_gj.clone(), span)?;
        let off_i = self.binop(Mult, group_id, size_g.clone(), span)?;
        // size_g = minimum(size_i - off_i, size_g)
        let rest = self.binop(Sub, size_i, off_i.clone(), span)?;
        let size_g = self.call_builtin("minimum", vec![rest, size_g], span)?;
        // ij = ij % size_gj; new_i = off_i + ij % size_g; new_j = ij // size_g
        let ij = self.binop(Mod, ij, size_gj, span)?;
        let m = self.binop(Mod, ij.clone(), size_g.clone(), span)?;
        let new_i = self.binop(Add, off_i, m, span)?;
        let new_j = self.binop(FloorDiv, ij, size_g, span)?;
        Ok(Value::Tuple(vec![new_i, new_j]))
    }
}
