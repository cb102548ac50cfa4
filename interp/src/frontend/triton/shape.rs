//! Triton's shape builtins that move elements: `tl.flip`, `tl.cat`,
//! `tl.squeeze`, `tl.unsqueeze` and `tl.ravel` (Triton's `standard.py` and
//! `semantic.py`), built from existing tile IR: reshapes, permutations and
//! the `join`/`split` pair of `super::join`.
//!
//! - `flip(x, dim=None)` reverses `x` along `dim` (the last axis when
//!   `None`), whose size must be a power of two (Triton's `static_assert`).
//!   Reversing index i of a 2^k axis is complementing its k bits, so the
//!   axis is reshaped into k axes of size 2 and each of them swapped.
//! - `cat(input, other, can_reorder=False, dim=0)` concatenates two tensors
//!   of one shape and dtype along `dim`, in order (Triton 3.9; Triton 3.6
//!   takes only `can_reorder=True` and leaves the order unspecified, which
//!   this order satisfies): join along a new last axis, move that axis in
//!   front of `dim`, merge the two.
//! - `squeeze(x, dim)` removes an axis of size 1; `unsqueeze(x, dim)` adds
//!   one (`expand_dims`); `ravel(x)` is the row-major 1-D view; `item(x)` is
//!   the one element of a one-element tensor as a 0-d value.

use super::builtins::{const_int, normalize_axis, Bound, Signatures};
use super::elab::{err, Elab};
use super::value::Value;
use crate::ir::*;
use crate::span::{DResult, Span};

/// The builtins of this module (without `tl.`), each with its Python
/// signature (see [`super::builtins::bind`]).
pub const BUILTINS: Signatures = &[
    ("flip", "x, dim"),
    ("cat", "input, other, can_reorder, dim"),
    ("squeeze", "x, dim"),
    ("unsqueeze", "x, dim"),
    ("ravel", "x, can_reorder"),
    ("item", "input"),
];

impl Elab<'_> {
    /// Elaborates `tl.<name>(…)`, one of [`BUILTINS`].
    pub(super) fn shape_builtin(&mut self, name: &str, b: Bound, span: Span) -> DResult<Value> {
        let out = match name {
            "flip" => {
                let x = self.to_tensor(b.req("x", span)?, span)?;
                let dim = match b.opt("dim") {
                    None | Some(Value::None) => None,
                    Some(v) => Some(const_int(&v, "dim", span)?),
                };
                self.flip(x, dim, span)?
            }
            "cat" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                let y = self.to_tensor(b.req("other", span)?, span)?;
                let dim = match b.opt("dim") {
                    None | Some(Value::None) => 0,
                    Some(v) => const_int(&v, "dim", span)?,
                };
                self.cat(x, y, dim, span)?
            }
            "squeeze" => {
                let x = self.to_tensor(b.req("x", span)?, span)?;
                let rank = x.ty.shape.len();
                let d = normalize_axis(const_int(&b.req("dim", span)?, "dim", span)?, rank, span)?;
                if x.ty.shape[d] != 1 {
                    return err(
                        span,
                        format!(
                            "tl.squeeze: dimension {d} of {} has size {}, not 1",
                            x.ty, x.ty.shape[d]
                        ),
                    );
                }
                let mut shape = x.ty.shape.clone();
                shape.remove(d);
                self.reshape(x, shape, span)
            }
            "unsqueeze" => {
                let x = self.to_tensor(b.req("x", span)?, span)?;
                let rank = x.ty.shape.len() + 1;
                let d = normalize_axis(const_int(&b.req("dim", span)?, "dim", span)?, rank, span)?;
                let mut shape = x.ty.shape.clone();
                shape.insert(d, 1);
                self.reshape(x, shape, span)
            }
            "item" => {
                let x = self.to_tensor(b.req("input", span)?, span)?;
                if x.ty.numel() != 1 {
                    return err(
                        span,
                        format!("item() needs a tensor of one element, got {}", x.ty),
                    );
                }
                self.reshape(x, vec![], span)
            }
            _ => {
                // "ravel"
                let x = self.to_tensor(b.req("x", span)?, span)?;
                let n = x.ty.numel();
                self.reshape(x, vec![n], span)
            }
        };
        Ok(Value::Tensor(out))
    }

    /// `x` reversed along `dim` (the last axis for `None`).
    fn flip(&mut self, x: Expr, dim: Option<i128>, span: Span) -> DResult<Expr> {
        let rank = x.ty.shape.len();
        if rank == 0 {
            return err(
                span,
                "tl.flip needs a tensor of rank 1 or more, got a scalar",
            );
        }
        if x.ty.is_ptr() {
            return err(span, "tl.flip of pointers is not supported by ksem");
        }
        let d = match dim {
            None => rank - 1,
            Some(a) => normalize_axis(a, rank, span)?,
        };
        let n = x.ty.shape[d];
        if !n.is_power_of_two() {
            return err(
                span,
                format!(
                    "tl.flip needs a power-of-two dimension: dimension {d} of {} has size {n}",
                    x.ty
                ),
            );
        }
        if n == 1 {
            return Ok(x);
        }
        let k = n.trailing_zeros() as usize;
        let shape = x.ty.shape.clone();
        let mut bits = shape[..d].to_vec();
        bits.extend(std::iter::repeat_n(2, k));
        bits.extend_from_slice(&shape[d + 1..]);
        let mut y = self.reshape(x, bits, span);
        for j in 0..k {
            y = self.swap_pair_axis(y, d + j, span)?;
        }
        Ok(self.reshape(y, shape, span))
    }

    /// `y` with its elements 0 and 1 along `axis` (of size 2) exchanged.
    fn swap_pair_axis(&mut self, y: Expr, axis: usize, span: Span) -> DResult<Expr> {
        let rank = y.ty.shape.len();
        // move `axis` last, where split and join work
        let to_last: Vec<usize> = (0..rank)
            .filter(|&a| a != axis)
            .chain(std::iter::once(axis))
            .collect();
        let moved = self.permute(y, &to_last, span);
        let moved = self.bind("flip", moved);
        let (lo, hi) = self.split(moved, span)?;
        let swapped = self.join(hi, lo, span)?;
        let mut back = vec![0; rank];
        for (i, &a) in to_last.iter().enumerate() {
            back[a] = i;
        }
        Ok(self.permute(swapped, &back, span))
    }

    /// `x` then `y` along `dim`: two tensors of one shape and dtype.
    fn cat(&mut self, x: Expr, y: Expr, dim: i128, span: Span) -> DResult<Expr> {
        if x.ty != y.ty {
            return err(
                span,
                format!(
                    "tl.cat needs two tensors of one shape and dtype, got {} and {}",
                    x.ty, y.ty
                ),
            );
        }
        let rank = x.ty.shape.len();
        if rank == 0 {
            return err(span, "tl.cat needs tensors of rank 1 or more, got scalars");
        }
        let d = normalize_axis(dim, rank, span)?;
        let mut out = x.ty.shape.clone();
        out[d] *= 2;
        let j = self.join(x, y, span)?;
        // the new last axis (0: x, 1: y) in front of `dim`
        let perm: Vec<usize> = (0..d).chain(std::iter::once(rank)).chain(d..rank).collect();
        let p = self.permute(j, &perm, span);
        Ok(self.reshape(p, out, span))
    }

    /// Axes permutation: result axis i is operand axis `perm[i]` (`e`
    /// itself for the identity).
    pub(super) fn permute(&self, e: Expr, perm: &[usize], span: Span) -> Expr {
        if perm.iter().enumerate().all(|(i, &p)| i == p) {
            return e;
        }
        let shape = perm.iter().map(|&p| e.ty.shape[p]).collect();
        let ty = e.ty.with_shape(shape);
        Expr {
            kind: ExprKind::Permute(Box::new(e), perm.to_vec()),
            ty,
            span,
        }
    }
}
