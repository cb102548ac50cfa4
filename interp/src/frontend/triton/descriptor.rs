//! Tensor descriptors: `tl.make_tensor_descriptor(base, shape, strides,
//! block_shape, padding_option="zero")`. ksem does not run them yet; it
//! first makes the compile-time checks Triton's `semantic.
//! make_tensor_descriptor` makes (Triton 3.9), in its order and with its
//! words (its tests match them), then refuses the descriptor itself.

use super::builtins::{const_int, Bound, Signatures};
use super::elab::{err, Elab};
use super::value::Value;
use crate::frontend::py;
use crate::span::{DResult, Span};

/// The builtins of this module (without `tl.`), with their signatures.
pub const BUILTINS: Signatures = &[(
    "make_tensor_descriptor",
    "base, shape, strides, block_shape, padding_option",
)];

/// The entries of a shape-like argument (a tuple or list; one value alone).
fn entries(v: Value) -> Vec<Value> {
    match v {
        Value::Tuple(t) => t,
        other => vec![other],
    }
}

impl Elab<'_> {
    /// Elaborates `tl.make_tensor_descriptor`: Triton's checks, then a refusal.
    pub(super) fn descriptor_builtin(
        &mut self,
        _name: &str,
        b: Bound,
        span: Span,
    ) -> DResult<Value> {
        let base = self.to_tensor(b.req("base", span)?, span)?;
        let shape = entries(b.req("shape", span)?);
        let strides = entries(b.req("strides", span)?);
        let block = entries(b.req("block_shape", span)?);
        let ndim = shape.len();
        if !(1..=5).contains(&ndim) {
            return err(
                span,
                format!("Expected 1 <= ndim <= 5 but got {ndim} dimensions"),
            );
        }
        py::arity::count(span, strides.len(), (ndim, ndim), |n| {
            format!("Expected {ndim} strides but got {n}")
        })?;
        // (Triton's message names the strides' count here)
        py::arity::count(span, block.len(), (ndim, ndim), |_| {
            format!(
                "Expected block_shape to have {ndim} dimensions but got {}",
                strides.len()
            )
        })?;
        if !base.ty.is_ptr() {
            return err(
                span,
                format!("base must be a pointer type, got {}", base.ty),
            );
        }
        let elem = (base.ty.dtype().storage_bits() / 8) as i128;
        let contig = const_int(&block[ndim - 1], "block_shape", span)?;
        if contig * elem < 16 {
            return err(
                span,
                format!(
                    "Descriptor block shape must have at least 16 bytes in the last dimension, \
                     but got {contig} * {elem} = {} bytes",
                    contig * elem
                ),
            );
        }
        if let Value::Num(_) = &strides[ndim - 1] {
            let last = const_int(&strides[ndim - 1], "strides", span)?;
            if last != 1 {
                return err(
                    span,
                    format!("Tensor descriptor last dim must be 1 but got {last}"),
                );
            }
        }
        err(
            span,
            "tensor descriptors (`tl.make_tensor_descriptor`) are not supported by ksem yet",
        )
    }
}
