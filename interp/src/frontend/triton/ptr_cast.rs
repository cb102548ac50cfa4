//! Conversions between integers and pointers (Triton's `semantic.cast`:
//! `int_to_ptr` from any integer, `ptr_to_int` to a 64-bit integer, and a
//! pointer to int1 as `p != 0`), as `x.to(tl.pi32_t)` and a store of
//! pointers into an integer buffer use them. A pointer is its 64-bit
//! representation (`CastKind::is_pointer_bits`); one made from an integer
//! addresses nothing ksem knows, so dereferencing it is UB, while its bits
//! travel unchanged.

use super::builtins::CONVERT;
use super::elab::{err, Elab};
use crate::dtype::DType;
use crate::ir::build::{bin, int_const};
use crate::ir::*;
use crate::span::{DResult, Span};

impl Elab<'_> {
    /// `x.to(<pointer type to d>)`: an integer becomes the pointer whose
    /// representation it is, zero-extended to 64 bits (LLVM's `inttoptr`);
    /// a pointer to `d` stays itself.
    pub(super) fn cast_to_pointer(&self, x: Expr, d: DType, span: Span) -> DResult<Expr> {
        let ty = Type {
            elem: Elem::Ptr(d, AddrSpace::Global),
            shape: x.ty.shape.clone(),
        };
        if x.ty.is_ptr() {
            if x.ty.elem == ty.elem {
                return Ok(x);
            }
            return err(
                span,
                format!(
                    "casting {} to {ty} (a pointer to another dtype) is not supported by ksem",
                    x.ty
                ),
            );
        }
        let s = x.ty.dtype();
        if !s.is_int() || s == DType::Bool {
            return err(
                span,
                format!(
                    "cannot cast {} to {ty}: only integers become pointers",
                    x.ty
                ),
            );
        }
        let unsigned = match s.bits() {
            8 => DType::U8,
            16 => DType::U16,
            32 => DType::U32,
            _ => DType::U64,
        };
        let x = self.cast(x, unsigned, CastKind::Bitcast);
        let x = self.cast(x, DType::U64, CONVERT);
        Ok(Expr {
            kind: ExprKind::Cast(Box::new(x), CastKind::Bitcast),
            ty,
            span,
        })
    }

    /// A pointer converted to `d`: its 64-bit representation for int64 and
    /// uint64 (`ptr_to_int`), `p != 0` for int1; other dtypes are refused,
    /// as Triton's `cast` asserts.
    pub(super) fn pointer_to_number(&self, p: Expr, d: DType, span: Span) -> DResult<Expr> {
        let bits = Expr {
            kind: ExprKind::Cast(Box::new(p.clone()), CastKind::Bitcast),
            ty: p.ty.with_elem(Elem::Num(DType::U64)),
            span,
        };
        match d {
            DType::U64 => Ok(bits),
            DType::I64 => Ok(self.cast(bits, DType::I64, CastKind::Bitcast)),
            DType::Bool => {
                let zero = self.broadcast_to(int_const(DType::U64, 0, span), &p.ty.shape, span)?;
                Ok(bin(BinOp::Ne, bits, zero, span))
            }
            _ => err(
                span,
                format!(
                    "cannot cast {} to {d}: a pointer converts to int64, uint64 or int1 only",
                    p.ty
                ),
            ),
        }
    }
}
