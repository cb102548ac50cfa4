//! Block pointers: `tl.make_block_ptr(base, shape, strides, offsets,
//! block_shape, order)`, `tl.advance(ptr, offsets)`, and `tl.load`/`tl.store`
//! through them with `boundary_check` and `padding_option` (Triton 3.6's
//! `semantic.make_block_ptr/advance/_load_block_pointer/_store_block_pointer`,
//! measured on an H200: `docs/triton-measured.md` (p)).
//!
//! A block pointer is a compile-time record whose offsets are runtime int32
//! values (carried through loops like variables). A load or store through it
//! is an ordinary load or store of the pointer tile `base + Σ_d (offsets[d] +
//! arange(block[d])) · strides[d]` (int64 arithmetic), masked where
//! `boundary_check` names a dimension by `0 <= index < shape[d]`; masked
//! lanes of a load read the padding (`"zero"`, or NaN with `"nan"`).

use super::builtins::{const_int, Bound, Signatures, CONVERT};
use super::elab::{err, Elab};
use super::value::{BlockPtr, Value};
use crate::dtype::DType;
use crate::frontend::py;
use crate::ir::build::{bin, konst};
use crate::ir::*;
use crate::span::{DResult, Span};

/// The builtins of this module (without `tl.`), each with its Python
/// signature (see [`super::builtins::bind`]).
pub const BUILTINS: Signatures = &[
    (
        "make_block_ptr",
        "base, shape, strides, offsets, block_shape, order",
    ),
    ("advance", "base, offsets"),
];

impl Elab<'_> {
    /// Elaborates `tl.make_block_ptr` or `tl.advance`.
    pub(super) fn block_ptr_builtin(&mut self, name: &str, b: Bound, span: Span) -> DResult<Value> {
        if name == "advance" {
            let Value::BlockPtr(mut bp) = b.req("base", span)? else {
                return err(span, "tl.advance takes a block pointer (tl.make_block_ptr)");
            };
            let deltas = self.ints(
                b.req("offsets", span)?,
                DType::I32,
                bp.block.len(),
                "offsets",
                span,
            )?;
            for (o, d) in bp.offsets.iter_mut().zip(deltas) {
                *o = bin(BinOp::Add, o.clone(), d, span);
            }
            return Ok(Value::BlockPtr(bp));
        }
        let base = self.to_tensor(b.req("base", span)?, span)?;
        if !base.ty.is_ptr() || !base.ty.shape.is_empty() {
            return err(
                span,
                format!(
                    "make_block_ptr's base must be a scalar pointer, got {}",
                    base.ty
                ),
            );
        }
        let block: Vec<usize> = const_ints(b.req("block_shape", span)?, "block_shape", span)?
            .into_iter()
            .map(|n| n as usize)
            .collect();
        let rank = block.len();
        if rank == 0 || block.iter().any(|d| !d.is_power_of_two()) {
            return err(span, format!("block_shape {block:?} must be powers of 2"));
        }
        super::elab::check_tile_size(&block, span)?;
        let shape = self.ints(b.req("shape", span)?, DType::I64, rank, "shape", span)?;
        let strides = self.ints(b.req("strides", span)?, DType::I64, rank, "strides", span)?;
        let offsets = self.ints(b.req("offsets", span)?, DType::I32, rank, "offsets", span)?;
        let order = const_ints(b.req("order", span)?, "order", span)?;
        let mut sorted = order.clone();
        sorted.sort();
        if sorted != (0..rank as i128).collect::<Vec<_>>() {
            return err(
                span,
                format!("order {order:?} must be a permutation of the {rank} dimensions"),
            );
        }
        Ok(Value::BlockPtr(Box::new(BlockPtr {
            base,
            shape,
            strides,
            offsets,
            block,
        })))
    }

    /// `rank` integers (a tuple of numbers or 0-d integer tensors) as 0-d
    /// values of dtype `d`.
    fn ints(
        &mut self,
        v: Value,
        d: DType,
        rank: usize,
        what: &str,
        span: Span,
    ) -> DResult<Vec<Expr>> {
        let items = match v {
            Value::Tuple(t) => t,
            other => vec![other],
        };
        py::arity::count(span, items.len(), (rank, rank), |n| {
            format!("make_block_ptr: {what} has {n} entries, the block {rank} dimensions")
        })?;
        items
            .into_iter()
            .map(|x| {
                let e = self.to_tensor(x, span)?;
                if e.ty.is_ptr() || !e.ty.dtype().is_int() || !e.ty.shape.is_empty() {
                    return err(
                        span,
                        format!("block pointer {what} must be integer scalars, got {}", e.ty),
                    );
                }
                Ok(self.cast(e, d, CONVERT))
            })
            .collect()
    }

    /// The pointer tile of a block pointer and, for `check`ed dimensions,
    /// the in-bounds mask.
    fn block_tile(
        &mut self,
        bp: &BlockPtr,
        check: &[usize],
        span: Span,
    ) -> DResult<(Expr, Option<Expr>)> {
        let shape = bp.block.clone();
        let rank = shape.len();
        let mut offset: Option<Expr> = None;
        let mut mask: Option<Expr> = None;
        for d in 0..rank {
            let n = shape[d];
            let iota = Expr {
                kind: ExprKind::Iota(0, n as i64),
                ty: Type::num(DType::I32, vec![n]),
                span,
            };
            let mut one = vec![1; rank];
            one[d] = n;
            let iota = self.reshape(iota, one, span);
            let iota = self.broadcast_to(iota, &shape, span)?;
            let start = self.broadcast_to(bp.offsets[d].clone(), &shape, span)?;
            let idx = self.cast(bin(BinOp::Add, start, iota, span), DType::I64, CONVERT);
            let stride = self.broadcast_to(bp.strides[d].clone(), &shape, span)?;
            let term = bin(BinOp::Mul, idx.clone(), stride, span);
            offset = Some(match offset {
                Some(o) => bin(BinOp::Add, o, term, span),
                None => term,
            });
            if check.contains(&d) {
                let zero = self.broadcast_to(konst(DType::I64, 0, span), &shape, span)?;
                let size = self.broadcast_to(bp.shape[d].clone(), &shape, span)?;
                let inside = bin(
                    BinOp::LogicalAnd,
                    bin(BinOp::Ge, idx.clone(), zero, span),
                    bin(BinOp::Lt, idx, size, span),
                    span,
                );
                mask = Some(match mask {
                    Some(m) => bin(BinOp::LogicalAnd, m, inside, span),
                    None => inside,
                });
            }
        }
        let base = self.broadcast_to(bp.base.clone(), &shape, span)?;
        let offset = offset.expect("rank >= 1");
        let ptr = Expr {
            ty: base.ty.clone(),
            kind: ExprKind::Binary(BinOp::PtrAdd, Box::new(base), Box::new(offset)),
            span,
        };
        Ok((ptr, mask))
    }

    /// The dimensions `boundary_check` names (a tuple of constexprs).
    fn checked_dims(&self, v: Option<Value>, rank: usize, span: Span) -> DResult<Vec<usize>> {
        let items = match v {
            None => return Ok(vec![]),
            Some(Value::Tuple(t)) => t,
            Some(other) => vec![other],
        };
        items
            .iter()
            .map(|d| {
                let d = const_int(d, "boundary_check", span)?;
                if d < 0 || d as usize >= rank {
                    return err(
                        span,
                        format!(
                            "boundary_check dimension {d} is out of the block's {rank} dimensions"
                        ),
                    );
                }
                Ok(d as usize)
            })
            .collect()
    }

    /// `tl.load(block_ptr, boundary_check=…, padding_option=…)`.
    pub(super) fn block_load(
        &mut self,
        bp: &BlockPtr,
        check: Option<Value>,
        padding: Option<Value>,
        span: Span,
    ) -> DResult<Value> {
        let d = bp.base.ty.dtype();
        let check = self.checked_dims(check, bp.block.len(), span)?;
        let pad = match padding {
            None => "",
            Some(Value::Str(ref s)) => s.as_str(),
            Some(other) => {
                return err(
                    span,
                    format!(
                        "padding_option must be \"zero\" or \"nan\", got {}",
                        other.describe()
                    ),
                )
            }
        };
        let fill = match pad {
            // Triton: "" leaves the padding undefined
            "" => super::builtins::undefined(d, &bp.block, span),
            "zero" => konst(d, 0, span),
            "nan" if d.is_float() => konst(d, crate::float::qnan_bits(d), span),
            "nan" => return err(span, "padding_option=\"nan\" needs a float tensor"),
            other => {
                return err(
                    span,
                    format!("padding_option must be \"zero\" or \"nan\", got {other:?}"),
                )
            }
        };
        let (ptr, mask) = self.block_tile(bp, &check, span)?;
        let shape = bp.block.clone();
        let other = match mask {
            Some(_) => Some(Box::new(self.broadcast_to(fill, &shape, span)?)),
            None => None,
        };
        Ok(Value::Tensor(Expr {
            kind: ExprKind::Load {
                ptr: Box::new(ptr),
                mask: mask.map(Box::new),
                other,
            },
            ty: Type::num(d, shape),
            span,
        }))
    }

    /// `tl.store(block_ptr, value, boundary_check=…)`.
    pub(super) fn block_store(
        &mut self,
        bp: &BlockPtr,
        value: Value,
        check: Option<Value>,
        span: Span,
    ) -> DResult<()> {
        let d = bp.base.ty.dtype();
        let check = self.checked_dims(check, bp.block.len(), span)?;
        let (ptr, mask) = self.block_tile(bp, &check, span)?;
        // Triton 3.6 converts nothing here: the value must have the block's
        // element type (a scalar is broadcast to the block first)
        let v = self.to_tensor(value, span)?;
        if v.ty.is_ptr() || v.ty.dtype() != d {
            return err(
                span,
                format!("a store through a block pointer of {} needs a value of that type, got {} (convert it with .to())", d.json_name(), v.ty),
            );
        }
        if !v.ty.shape.is_empty() && v.ty.shape != bp.block {
            return err(
                span,
                format!(
                    "block shape {:?} and value shape {:?} differ",
                    bp.block, v.ty.shape
                ),
            );
        }
        let v = self.broadcast_to(v, &bp.block, span)?;
        self.out.push(Stmt::Store {
            ptr,
            value: v,
            mask,
            span,
        });
        Ok(())
    }
}

/// A tuple of compile-time integers, argument `what` of make_block_ptr.
fn const_ints(v: Value, what: &str, span: Span) -> DResult<Vec<i128>> {
    match v {
        Value::Tuple(t) => t.iter().map(|d| const_int(d, what, span)).collect(),
        other => err(
            span,
            format!(
                "{what} must be a tuple of constexprs, got {}",
                other.describe()
            ),
        ),
    }
}
