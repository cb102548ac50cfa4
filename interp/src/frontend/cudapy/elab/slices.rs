//! Array slicing in CUDA Python kernels: `a[1:]`, `a[::2]`, `a[3:1:-1]`,
//! `a[i, :]`, `a[i]` of a 2-d array. A slice is a view of the same memory:
//! the element at view indices `(j0, j1, …)` is element
//! `offset + Σ jk·stride_k` of the underlying buffer (counted in elements of
//! the array; two numbers each for a complex array). ksem gives arrays
//! static shapes, so a slice's bounds and step must be constants (Python's
//! `slice.indices` rule decides its length); an integer index beside them
//! may be a runtime value, checked against its dimension where the view is
//! made. Indices into the view are checked against the view's shape.

use super::*;

/// Where a slice's elements lie in its buffer.
#[derive(Clone, Debug)]
pub(super) struct View {
    /// The element offset of the view's element 0 (int64, held in a variable).
    pub offset: Expr,
    /// Elements from one index to the next along each view dimension.
    pub strides: Vec<i64>,
}

/// `slice(start, stop, step).indices(len)` and the slice's length, as
/// Python computes them.
pub(super) fn slice_indices(
    start: Option<i128>,
    stop: Option<i128>,
    step: i128,
    len: i128,
) -> (i128, i128) {
    let (lower, upper) = if step > 0 { (0, len) } else { (-1, len - 1) };
    let clamp = |v: Option<i128>, default: i128| match v {
        None => default,
        Some(v) => {
            let v = if v < 0 { v + len } else { v };
            v.clamp(lower, upper)
        }
    };
    let start = clamp(start, if step > 0 { lower } else { upper });
    let stop = clamp(stop, if step > 0 { upper } else { lower });
    let n = if step > 0 {
        (stop - start + step - 1).div_euclid(step).max(0)
    } else {
        (start - stop + (-step) - 1).div_euclid(-step).max(0)
    };
    (start, n)
}

fn i64c(v: i128, span: Span) -> Expr {
    int_const(DType::I64, v, span)
}

impl Elab<'_> {
    /// The offset and strides of `arr` (row-major from its base when it is
    /// no view).
    fn layout_of(arr: &ArrayVal, span: Span) -> (Expr, Vec<i64>) {
        match &arr.view {
            Some(v) => (v.offset.clone(), v.strides.clone()),
            None => {
                let mut st = vec![1i64; arr.shape.len()];
                for k in (0..arr.shape.len().saturating_sub(1)).rev() {
                    st[k] = st[k + 1] * arr.shape[k + 1] as i64;
                }
                (i64c(0, span), st)
            }
        }
    }

    /// Whether `index` of `arr` selects a sub-array (a slice among the
    /// indices, or fewer indices than dimensions) rather than an element.
    pub(super) fn selects_view(&self, arr: &ArrayVal, index: &ast::Expr) -> bool {
        let items: Vec<&ast::Expr> = match index {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            other => vec![other],
        };
        if items.iter().any(|i| matches!(i, ast::Expr::Slice(_))) {
            return true;
        }
        // one name bound to a tuple of indices is a whole index (`a[idx]`)
        let tuple_name = match items.as_slice() {
            [ast::Expr::Name(n)] => matches!(
                self.frames.last().and_then(|f| f.env.get(n.id.as_str())),
                Some(Val::Tuple(_))
            ),
            [ast::Expr::Tuple(_)] => true,
            _ => false,
        };
        items.len() < arr.shape.len() && !tuple_name
    }

    /// The view `arr[index]` (where [`Elab::selects_view`] says it is one).
    pub(super) fn slice_view(
        &mut self,
        arr: &ArrayVal,
        index: &ast::Expr,
        span: Span,
    ) -> DResult<ArrayVal> {
        let items: Vec<&ast::Expr> = match index {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            other => vec![other],
        };
        if items.len() > arr.shape.len() {
            return err(
                span,
                format!(
                    "too many indices: {} for a {}-d array",
                    items.len(),
                    arr.shape.len()
                ),
            );
        }
        let (mut offset, strides) = Self::layout_of(arr, span);
        let (mut shape, mut new_strides) = (Vec::new(), Vec::new());
        for (k, item) in items.iter().enumerate() {
            let (dim, stride) = (arr.shape[k] as i128, strides[k]);
            let ispan = self.span(*item);
            if let ast::Expr::Slice(s) = item {
                let bound = |me: &mut Self, e: &Option<Box<ast::Expr>>| -> DResult<Option<i128>> {
                    match e {
                        None => Ok(None),
                        Some(e) => me.const_int(e).map(Some).map_err(|_| {
                            Diagnostic::new(me.span(&**e), "a slice's start, stop and step must be constants in ksem (its arrays have static shapes)")
                        }),
                    }
                };
                let start = bound(self, &s.lower)?;
                let stop = bound(self, &s.upper)?;
                let step = bound(self, &s.step)?.unwrap_or(1);
                if step == 0 {
                    return err(ispan, "slice step cannot be zero");
                }
                let (first, n) = slice_indices(start, stop, step, dim);
                if n > 0 && first != 0 {
                    let by = i64c(first * stride as i128, span);
                    offset = bin(BinOp::Add, offset, by, span);
                }
                shape.push(n as usize);
                new_strides.push(stride * step as i64);
                continue;
            }
            let v = self.expr(item)?;
            let i = self.num(v, ispan)?;
            let i = self.index_value(i, ispan)?;
            let i = self.checked_index(arr, i, dim as usize, ispan);
            let by = bin(BinOp::Mul, i, i64c(stride as i128, span), span);
            offset = bin(BinOp::Add, offset, by, span);
        }
        shape.extend_from_slice(&arr.shape[items.len()..]);
        new_strides.extend_from_slice(&strides[items.len()..]);
        let offset = self.temp(offset);
        Ok(ArrayVal {
            base: arr.base.clone(),
            dtype: arr.dtype,
            shape,
            pairs: arr.pairs,
            view: Some(Box::new(View {
                offset,
                strides: new_strides,
            })),
        })
    }

    /// Index `i` into a dimension of `dim`, checked now (out of bounds is
    /// UB, as for an element index) and a negative one counted from the
    /// end; held in a variable.
    fn checked_index(&mut self, arr: &ArrayVal, i: Expr, dim: usize, span: Span) -> Expr {
        let i = self.temp(i);
        let check = mk(
            ExprKind::ElemPtr {
                base: Box::new(arr.base.clone()),
                indices: vec![i.clone()],
                dims: vec![dim],
                neg: NegIndex::Wrap,
                offset: Some(Box::new(i64c(0, span))),
            },
            arr.base.ty.clone(),
            span,
        );
        let v = self.new_var("_in_bounds", arr.base.ty.clone());
        self.emit(Stmt::Let(v, check));
        let neg = bin(BinOp::Lt, i.clone(), i64c(0, span), span);
        let wrapped = bin(BinOp::Add, i.clone(), i64c(dim as i128, span), span);
        let e = select(neg, wrapped, i, span);
        self.temp(e)
    }

    /// The pointer to the element of view `arr` at `indices` (one per
    /// view dimension, int64; then the part index of a complex array).
    pub(super) fn view_elem_ptr(&mut self, arr: &ArrayVal, indices: Vec<Expr>, span: Span) -> Expr {
        let view = arr.view.as_ref().expect("a view");
        let n = arr.shape.len();
        let mut held = Vec::new();
        let mut off = view.offset.clone();
        for (k, i) in indices.iter().take(n).enumerate() {
            let i = self.temp(i.clone());
            let neg = bin(BinOp::Lt, i.clone(), i64c(0, span), span);
            let wrapped = bin(
                BinOp::Add,
                i.clone(),
                i64c(arr.shape[k] as i128, span),
                span,
            );
            let w = self.temp(select(neg, wrapped, i, span));
            let by = bin(
                BinOp::Mul,
                w.clone(),
                i64c(view.strides[k] as i128, span),
                span,
            );
            off = bin(BinOp::Add, off, by, span);
            held.push(w);
        }
        let mut dims = arr.shape.clone();
        if arr.pairs != Pairs::No {
            // complex elements: two numbers each, the part index last
            let part = indices[n].clone();
            off = bin(BinOp::Mul, off, i64c(2, span), span);
            off = bin(BinOp::Add, off, part.clone(), span);
            held.push(part);
            dims.push(2);
        }
        mk(
            ExprKind::ElemPtr {
                base: Box::new(arr.base.clone()),
                indices: held,
                dims,
                neg: NegIndex::Wrap,
                offset: Some(Box::new(off)),
            },
            arr.base.ty.clone(),
            span,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::slice_indices;

    #[test]
    fn slice_lengths_follow_pythons_slice_indices() {
        // range(10)[a:b:c] in Python, by hand
        assert_eq!(slice_indices(None, None, 1, 10), (0, 10));
        assert_eq!(slice_indices(Some(1), None, 1, 10), (1, 9));
        assert_eq!(slice_indices(None, None, 2, 10), (0, 5));
        assert_eq!(slice_indices(Some(1), None, -1, 10), (1, 2)); // [1, 0]
        assert_eq!(slice_indices(Some(3), Some(1), -1, 10), (3, 2)); // [3, 2]
        assert_eq!(slice_indices(None, None, -1, 10), (9, 10));
        assert_eq!(slice_indices(Some(-3), None, 1, 10), (7, 3));
        assert_eq!(slice_indices(Some(5), Some(2), 1, 10), (5, 0));
        assert_eq!(slice_indices(Some(-20), Some(20), 3, 10), (0, 4)); // 0 3 6 9
        assert_eq!(slice_indices(None, None, 1, 0), (0, 0));
    }
}
