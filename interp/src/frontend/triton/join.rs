//! `tl.join`, `tl.split` and `tl.interleave` (Triton 3.6's
//! `semantic.join/split` and `standard.interleave`, measured on an H200:
//! `docs/triton-measured.md` (p)). They are built from existing tile IR: a
//! join selects between its two operands along a new minor axis of size 2; a
//! split reduces that axis with a combiner that keeps its left (right)
//! operand, which over two elements is exactly element 0 (1).

use super::builtins::{Bound, Signatures};
use super::elab::{err, operands_agree, Elab};
use super::value::Value;
use crate::dtype::DType;
use crate::ir::build::{bin, int_const};
use crate::ir::*;
use crate::span::{DResult, Span};

/// The builtins of this module (without `tl.`), each with its Python
/// signature (see [`super::builtins::bind`]).
pub const BUILTINS: Signatures = &[("join", "a, b"), ("split", "a"), ("interleave", "a, b")];

impl Elab<'_> {
    /// Elaborates `tl.<name>(…)`, one of [`BUILTINS`].
    pub(super) fn join_split(&mut self, name: &str, b: Bound, span: Span) -> DResult<Value> {
        if name == "split" {
            let a = self.to_tensor(b.req("a", span)?, span)?;
            let (l, r) = self.split(a, span)?;
            return Ok(Value::Tuple(vec![Value::Tensor(l), Value::Tensor(r)]));
        }
        let a = self.to_tensor(b.req("a", span)?, span)?;
        let bv = self.to_tensor(b.req("b", span)?, span)?;
        let j = self.join(a, bv, span)?;
        if name == "join" || j.ty.shape.len() == 1 {
            return Ok(Value::Tensor(j));
        }
        // interleave: the pairs laid out along the last axis, doubling it
        let mut shape = j.ty.shape.clone();
        shape.pop();
        if let Some(last) = shape.last_mut() {
            *last *= 2;
        }
        Ok(Value::Tensor(self.reshape(j, shape, span)))
    }

    /// `join(a, b)`: shape `S + [2]` with `[.., 0]` from `a`, `[.., 1]` from `b`.
    pub(super) fn join(&mut self, a: Expr, b: Expr, span: Span) -> DResult<Expr> {
        let same = a.ty.elem == b.ty.elem;
        operands_agree("tl.join", "type", same, (&a.ty, &b.ty), span)
            .map_err(|d| d.with_help("convert one with .to()"))?;
        let (a, b) = self.broadcast_pair(a, b, span)?;
        let scalar = a.ty.shape.is_empty();
        let mut s = a.ty.shape.clone();
        if scalar {
            s.push(1);
        }
        let mut one = s.clone();
        one.push(1);
        let mut two = s.clone();
        two.push(2);
        let wide = |this: &mut Self, x: Expr| -> DResult<Expr> {
            let x = this.reshape(x, one.clone(), span);
            this.broadcast_to(x, &two, span)
        };
        let (a2, b2) = (wide(self, a)?, wide(self, b)?);
        let mut axis = vec![1; s.len()];
        axis.push(2);
        let iota = Expr {
            kind: ExprKind::Iota(0, 2),
            ty: Type::num(DType::I32, vec![2]),
            span,
        };
        let iota = self.reshape(iota, axis, span);
        let iota = self.broadcast_to(iota, &two, span)?;
        let zero = self.broadcast_to(int_const(DType::I32, 0, span), &two, span)?;
        let first = bin(BinOp::Eq, iota, zero, span);
        let ty = a2.ty.clone();
        let j = Expr {
            kind: ExprKind::Select(Box::new(first), Box::new(a2), Box::new(b2)),
            ty,
            span,
        };
        Ok(if scalar {
            self.reshape(j, vec![2], span)
        } else {
            j
        })
    }

    /// `split(a)`: the two halves of `a`'s last axis, which must have size 2.
    pub(super) fn split(&mut self, a: Expr, span: Span) -> DResult<(Expr, Expr)> {
        if a.ty.shape.last() != Some(&2) {
            return err(
                span,
                format!(
                    "tl.split needs a tensor whose last dimension is 2, got {}",
                    a.ty
                ),
            );
        }
        if a.ty.is_ptr() {
            return err(span, "tl.split of pointers is not supported by ksem");
        }
        let axis = a.ty.shape.len() - 1;
        let mut out = a.ty.shape.clone();
        out.pop();
        let d = a.ty.dtype();
        let pick = |this: &mut Self, right: bool| -> Expr {
            let lhs = this.new_var("lhs", Type::scalar(d));
            let rhs = this.new_var("rhs", Type::scalar(d));
            let kept = this.var_expr(if right { rhs } else { lhs }, span);
            Expr {
                kind: ExprKind::Reduce {
                    arg: Box::new(a.clone()),
                    axis: Some(axis),
                    keep_dims: false,
                    combiner: Box::new(Combiner::Custom {
                        lhs,
                        rhs,
                        body: vec![],
                        result: Box::new(kept),
                    }),
                },
                ty: Type::num(d, out.clone()),
                span,
            }
        };
        let l = pick(self, false);
        let r = pick(self, true);
        Ok((l, r))
    }
}
