//! `a.copy()` of an array: a new local array of the same shape and dtype
//! holding a's elements (numba-cuda allocates the copy on the thread's
//! stack), copied in row-major order.

use super::*;

impl Elab<'_> {
    /// `arr.copy()`.
    pub(super) fn array_copy(&mut self, arr: ArrayVal, span: Span) -> DResult<Val> {
        if arr.pairs != Pairs::No {
            return py::unsupported(
                span,
                "copy() of a complex array",
                DIALECT,
                "copy the elements in a loop",
            );
        }
        self.static_shape(&arr, "copy()", span)?;
        simt::array_elems(&arr.shape, "local array", span)?;
        self.arrays.push(ArrayDecl {
            name: format!("local{}", self.arrays.len()),
            dtype: arr.dtype,
            space: AddrSpace::Local,
            shape: arr.shape.clone(),
            span,
        });
        let id = self.arrays.len() - 1;
        let base = array_base(id, arr.dtype, AddrSpace::Local, span);
        let dest = ArrayVal {
            base,
            dtype: arr.dtype,
            shape: arr.shape.clone(),
            pairs: Pairs::No,
            view: None,
        };
        // the innermost body: dest[idx] = arr[idx]
        self.each_index(&arr.shape, "_c", span, |me, idx| {
            let src = if arr.view.is_some() {
                me.view_elem_ptr(&arr, idx.clone(), span)
            } else {
                plain_ptr(&arr, idx.clone(), span)
            };
            let value = load(src, arr.dtype, span);
            let to = plain_ptr(&dest, idx, span);
            me.store(to, value, arr.dtype, span);
            Ok(())
        })?;
        Ok(Val::Array(dest))
    }
}

/// The pointer to element `indices` of a row-major array.
fn plain_ptr(a: &ArrayVal, indices: Vec<Expr>, span: Span) -> Expr {
    mk(
        ExprKind::ElemPtr {
            base: Box::new(a.base.clone()),
            indices,
            dims: a.shape.clone(),
            neg: NegIndex::Wrap,
            offset: None,
        },
        a.base.ty.clone(),
        span,
    )
}
