//! Array slicing in CUDA Python kernels: `a[1:]`, `a[::2]`, `a[3:1:-1]`,
//! `a[i, :]`, `a[i]` of a 2-d array, `a[s:e]` with runtime bounds. A slice
//! is a view of the same memory: the element at view indices `(j0, j1, …)`
//! is element `offset + Σ jk·stride_k` of the underlying buffer (counted in
//! elements of the array; two numbers each for a complex array). Python's
//! `slice.indices` rule decides a slice's first index and length (numba-cuda
//! does the same with runtime bounds: measured,
//! `tools/probes/numba/runtime_slices.json`). With constant bounds on a
//! dimension of static length the view's length is static; otherwise it is
//! a runtime value (an int64 variable) and the static shape keeps an upper
//! bound of it. A step must be a constant. An integer index beside slices
//! may be a runtime value, checked against its dimension where the view is
//! made. Indices into the view are checked against the view's lengths
//! (`CheckIndex` for a runtime one): out of bounds is UB.

use super::*;

/// Where a slice's elements lie in its buffer.
#[derive(Clone, Debug)]
pub(super) struct View {
    /// The element offset of the view's element 0 (int64, held in a variable).
    pub offset: Expr,
    /// Elements from one index to the next along each view dimension
    /// (int64: constants, or variables after a runtime `reshape`).
    pub strides: Vec<Expr>,
    /// Per view dimension: its length where that is a runtime value (an
    /// int64 variable; the array's `shape` then holds an upper bound of
    /// it); `None`: the static `shape`.
    pub lens: Vec<Option<Expr>>,
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

/// An int64 constant.
pub(super) fn i64c(v: i128, span: Span) -> Expr {
    int_const(DType::I64, v, span)
}

/// `a op b` of int64 values, folded where both are constants.
pub(super) fn i64op(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
    let e = bin(op, a, b, span);
    match fold_int(&e) {
        Some(v) if !op.is_comparison() => i64c(v, span),
        _ => e,
    }
}

/// A slice's bound: a constant, or a runtime int64 value.
enum Bound {
    Const(i128),
    Run(Expr),
}

impl ArrayVal {
    /// The length of dimension `k` (an int64 constant or variable).
    pub(super) fn len_expr(&self, k: usize, span: Span) -> Expr {
        match self.view.as_ref().and_then(|v| v.lens[k].clone()) {
            Some(n) => n,
            None => i64c(self.shape[k] as i128, span),
        }
    }

    /// Whether a dimension's length is a runtime value.
    pub(super) fn runtime_shape(&self) -> bool {
        self.view
            .as_ref()
            .is_some_and(|v| v.lens.iter().any(Option::is_some))
    }

    /// The number of elements (an int64 constant or value).
    pub(super) fn size_expr(&self, span: Span) -> Expr {
        (0..self.shape.len()).fold(i64c(1, span), |acc, k| {
            i64op(BinOp::Mul, acc, self.len_expr(k, span), span)
        })
    }
}

impl Elab<'_> {
    /// The static shape of `arr`, refused (for `what`) where a length is a
    /// runtime value.
    pub(super) fn static_shape(
        &self,
        arr: &ArrayVal,
        what: &str,
        span: Span,
    ) -> DResult<Vec<usize>> {
        if arr.runtime_shape() {
            return py::unsupported(
                span,
                &format!("{what} of an array whose shape is a runtime value (a slice with runtime bounds, a reshape to a runtime shape)"),
                DIALECT,
                "index its elements in a loop over range(len(a))",
            );
        }
        Ok(arr.shape.clone())
    }

    /// The offset, strides and runtime lengths of `arr` (row-major from
    /// its base when it is no view).
    pub(super) fn layout_of(arr: &ArrayVal, span: Span) -> (Expr, Vec<Expr>, Vec<Option<Expr>>) {
        match &arr.view {
            Some(v) => (v.offset.clone(), v.strides.clone(), v.lens.clone()),
            None => {
                let mut st = vec![1i64; arr.shape.len()];
                for k in (0..arr.shape.len().saturating_sub(1)).rev() {
                    st[k] = st[k + 1] * arr.shape[k + 1] as i64;
                }
                let st = st.into_iter().map(|s| i64c(s as i128, span)).collect();
                (i64c(0, span), st, vec![None; arr.shape.len()])
            }
        }
    }

    /// Whether `index` of `arr` selects a sub-array (a slice among the
    /// indices, or fewer indices than dimensions) rather than an element.
    pub(super) fn selects_view(&self, arr: &ArrayVal, index: &ast::Expr) -> bool {
        let items = index_items(index);
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

    /// A slice's start or stop: a constant where it folds to one.
    fn bound(&mut self, e: &Option<Box<ast::Expr>>) -> DResult<Option<Bound>> {
        let Some(e) = e else { return Ok(None) };
        let span = self.span(&**e);
        let v = self.expr(e)?;
        if matches!(v, Val::None) {
            return Ok(None);
        }
        let x = self.num(v, span)?;
        if let Some(c) = fold_int(&x) {
            return Ok(Some(Bound::Const(c)));
        }
        let x = self.index_value(x, span)?;
        Ok(Some(Bound::Run(self.temp(x))))
    }

    /// The view `arr[at]` (where [`Elab::selects_view`] says it is one).
    pub(super) fn slice_view(&mut self, arr: &ArrayVal, at: Index) -> DResult<ArrayVal> {
        let (items, span) = (at.items(), at.span);
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
        let (mut offset, strides, lens) = Self::layout_of(arr, span);
        let (mut shape, mut new_strides, mut new_lens) = (Vec::new(), Vec::new(), Vec::new());
        for (k, item) in items.iter().enumerate() {
            let (bound, stride) = (arr.shape[k], strides[k].clone());
            let ispan = self.span(*item);
            if let ast::Expr::Slice(s) = item {
                let step = match &s.step {
                    None => 1,
                    Some(e) => {
                        let espan = self.span(&**e);
                        self.const_int(e).map_err(|_| {
                            Diagnostic::new(espan, "a slice's step must be a constant in ksem (its start and stop may be runtime values)")
                        })?
                    }
                };
                if step == 0 {
                    return err(ispan, "slice step cannot be zero");
                }
                let start = self.bound(&s.lower)?;
                let stop = self.bound(&s.upper)?;
                let first = match (&start, &stop, &lens[k]) {
                    (None | Some(Bound::Const(_)), None | Some(Bound::Const(_)), None) => {
                        let c = |b: &Option<Bound>| match b {
                            Some(Bound::Const(v)) => Some(*v),
                            _ => None,
                        };
                        let (first, n) = slice_indices(c(&start), c(&stop), step, bound as i128);
                        new_lens.push(None);
                        shape.push(n as usize);
                        i64c(if n > 0 { first } else { 0 }, span)
                    }
                    _ => {
                        let len = arr.len_expr(k, span);
                        let (first, n) = self.runtime_slice(start, stop, step, len, span);
                        new_lens.push(Some(n));
                        // (a length of at most the dimension's)
                        shape.push(bound);
                        first
                    }
                };
                let by = i64op(BinOp::Mul, first, stride.clone(), span);
                offset = i64op(BinOp::Add, offset, by, span);
                new_strides.push(i64op(BinOp::Mul, stride, i64c(step, span), span));
                continue;
            }
            let v = self.expr(item)?;
            let i = self.num(v, ispan)?;
            let i = self.index_value(i, ispan)?;
            let i = match &lens[k] {
                None => self.checked_index(arr, i, bound, ispan),
                Some(n) => self.runtime_index(i, n.clone(), k, ispan),
            };
            let by = i64op(BinOp::Mul, i, stride, span);
            offset = i64op(BinOp::Add, offset, by, span);
        }
        shape.extend_from_slice(&arr.shape[items.len()..]);
        new_strides.extend_from_slice(&strides[items.len()..]);
        new_lens.extend_from_slice(&lens[items.len()..]);
        let offset = self.temp(offset);
        Ok(ArrayVal {
            base: arr.base.clone(),
            dtype: arr.dtype,
            shape,
            pairs: arr.pairs,
            view: Some(Box::new(View {
                offset,
                strides: new_strides,
                lens: new_lens,
            })),
        })
    }

    /// The first index and the length (int64 variables) of a slice with
    /// constant `step` of a dimension of length `len`, by Python's
    /// `slice.indices` rule: a bound below 0 counts from the end, then it is
    /// clamped to `[0, len]` (`[-1, len - 1]` for a negative step).
    fn runtime_slice(
        &mut self,
        start: Option<Bound>,
        stop: Option<Bound>,
        step: i128,
        len: Expr,
        span: Span,
    ) -> (Expr, Expr) {
        let (lower, upper) = if step > 0 {
            (i64c(0, span), len.clone())
        } else {
            (
                i64c(-1, span),
                i64op(BinOp::Sub, len.clone(), i64c(1, span), span),
            )
        };
        let clamp = |me: &mut Self, b: Option<Bound>, default: &Expr| -> Expr {
            let v = match b {
                None => return default.clone(),
                Some(Bound::Const(c)) => i64c(c, span),
                Some(Bound::Run(e)) => e,
            };
            let neg = bin(BinOp::Lt, v.clone(), i64c(0, span), span);
            let from_end = i64op(BinOp::Add, v.clone(), len.clone(), span);
            let low = bin(BinOp::Max(NanMode::Ignore), from_end, lower.clone(), span);
            let high = bin(BinOp::Min(NanMode::Ignore), v, upper.clone(), span);
            me.temp(select(neg, low, high, span))
        };
        let (d_start, d_stop) = if step > 0 {
            (&lower, &upper)
        } else {
            (&upper, &lower)
        };
        let (d_start, d_stop) = (d_start.clone(), d_stop.clone());
        let first = clamp(self, start, &d_start);
        let last = clamp(self, stop, &d_stop);
        // the number of indices first, first + step, … before `last`
        let (dist, by) = if step > 0 {
            (i64op(BinOp::Sub, last, first.clone(), span), step)
        } else {
            (i64op(BinOp::Sub, first.clone(), last, span), -step)
        };
        let dist = self.temp(dist);
        let up = i64op(BinOp::Add, dist.clone(), i64c(by - 1, span), span);
        let count = bin(BinOp::IDiv(IntDiv::FLOOR), up, i64c(by, span), span);
        let positive = bin(BinOp::Gt, dist, i64c(0, span), span);
        let n = self.temp(select(positive, count, i64c(0, span), span));
        (first, n)
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

    /// Index `i` (int64) into axis `axis` of runtime length `len`, checked
    /// (UB out of bounds), a negative one counted from the end; held in a
    /// variable.
    pub(super) fn runtime_index(&mut self, i: Expr, len: Expr, axis: usize, span: Span) -> Expr {
        let e = mk(
            ExprKind::CheckIndex {
                index: Box::new(i),
                len: Box::new(len),
                neg: NegIndex::Wrap,
                axis,
            },
            Type::scalar(DType::I64),
            span,
        );
        self.temp(e)
    }

    /// The pointer to the element of view `arr` at `indices` (one per
    /// view dimension, int64; then the part index of a complex array).
    /// Each index is wrapped (a negative one counts from the end) and then
    /// checked: against the static length (`ElemPtr`), or a runtime one
    /// (`CheckIndex`, whose value is what `ElemPtr` sees: the GPU's -1 out
    /// of range stays out of range there).
    pub(super) fn view_elem_ptr(&mut self, arr: &ArrayVal, indices: Vec<Expr>, span: Span) -> Expr {
        let view = arr.view.clone().expect("a view");
        let n = arr.shape.len();
        let mut held = Vec::new();
        let mut off = view.offset.clone();
        for (k, i) in indices.iter().take(n).enumerate() {
            let w = match &view.lens[k] {
                Some(len) => self.runtime_index(i.clone(), len.clone(), k, span),
                None => {
                    let i = self.temp(i.clone());
                    let neg = bin(BinOp::Lt, i.clone(), i64c(0, span), span);
                    let wrapped = bin(
                        BinOp::Add,
                        i.clone(),
                        i64c(arr.shape[k] as i128, span),
                        span,
                    );
                    self.temp(select(neg, wrapped, i, span))
                }
            };
            let by = i64op(BinOp::Mul, w.clone(), view.strides[k].clone(), span);
            off = i64op(BinOp::Add, off, by, span);
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
        if held.is_empty() {
            // a 0-d view (every dimension indexed): one trivial index
            held.push(i64c(0, span));
            dims.push(1);
        }
        mk(
            ExprKind::ElemPtr {
                base: Box::new(arr.base.clone()),
                indices: held,
                dims,
                // (wrapped above)
                neg: NegIndex::Ub,
                offset: Some(Box::new(off)),
            },
            arr.base.ty.clone(),
            span,
        )
    }
}

/// A subscript's index as written (`a[i]`, `a[i, j]`, `a[1:n]`), with the
/// span errors about the access point at: what the element and view
/// accesses of arrays take.
#[derive(Clone, Copy)]
pub(super) struct Index<'a> {
    /// The index expression.
    pub expr: &'a ast::Expr,
    /// The access's span.
    pub span: Span,
}

impl<'a> Index<'a> {
    /// The index `expr` of an access at `span`.
    pub(super) fn new(expr: &'a ast::Expr, span: Span) -> Self {
        Index { expr, span }
    }

    /// The index of subscript `s`, at `span`.
    pub(super) fn of(s: &'a ast::ExprSubscript, span: Span) -> Self {
        Index::new(&s.slice, span)
    }

    /// The index's items (see [`index_items`]).
    pub(super) fn items(&self) -> Vec<&'a ast::Expr> {
        index_items(self.expr)
    }
}

/// The items of a subscript's index: a tuple's elements, else the index.
pub(super) fn index_items(index: &ast::Expr) -> Vec<&ast::Expr> {
    match index {
        ast::Expr::Tuple(t) => t.elts.iter().collect(),
        other => vec![other],
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
