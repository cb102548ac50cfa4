//! Array methods that give another look at the same memory: `a.reshape(…)`
//! and `a.view(dtype)`.
//!
//! `reshape` takes the new shape as numbers or one tuple (a tuple argument
//! of the kernel too, so its dimensions may be runtime values) of a
//! contiguous array (a kernel's argument, a local or shared array, a slice
//! with step 1). The result is a view with row-major strides; a dimension
//! that is not a constant has a runtime length (`slices.rs`). As numba
//! normalizes a reshape's shape: a negative dimension is the unknown one,
//! inferred from the size (0 where the other dimensions multiply to 0, and
//! then only an array of size 0 fits); two negative dimensions, or a size
//! that does not match, raise `ValueError` in numba's own code, at run time.
//! `view(d)` of a 1-d contiguous uint8 array in global memory reads its
//! bytes as `d` numbers (`len · 1 / size(d)` of them; a length that does
//! not divide raises `ValueError` there, measured:
//! `tools/probes/numba/runtime_slices.json`). Memory holds typed numbers, so
//! the view's elements are read and written byte by byte (`records.rs`); an
//! element whose byte offset is not a multiple of its size is a misaligned
//! access on the GPU (measured: `CUDA_ERROR_MISALIGNED_ADDRESS`), UB here.
//! A raise in numba's own code ends the thread (measured for `view`); under
//! `debug=True` ksem reports it as numba-cuda reports a raise in a device
//! function (`SystemError: … unknown error 1 in native function`; numba-cuda
//! numbers the error 6 for `view`).

use super::slices::{i64c, i64op, View};
use super::*;
use crate::launch::FieldKind;

/// A dimension of the new shape.
enum Dim {
    Const(i128),
    Run(Expr),
}

impl Elab<'_> {
    /// `arr.reshape(…)` or `arr.view(…)` (`name`).
    pub(super) fn array_method(&mut self, arr: ArrayVal, call: Call) -> DResult<Val> {
        let (name, c, span) = (call.name, call.expr, call.span);
        if !call.keywords().is_empty() {
            return py::unsupported(
                span,
                &format!("keyword arguments of `{name}`"),
                DIALECT,
                "pass the arguments by position",
            );
        }
        match name {
            "reshape" => self.reshape(arr, c, span),
            _ => self.byte_view(arr, c, span),
        }
    }

    /// Whether `arr`'s elements lie one after another in row-major order.
    fn contiguous(arr: &ArrayVal) -> bool {
        if matches!(arr.pairs, Pairs::Part(_)) {
            return false;
        }
        let Some(v) = &arr.view else { return true };
        if arr.shape.len() == 1 {
            return fold_int(&v.strides[0]) == Some(1);
        }
        let mut want = 1i128;
        for k in (0..arr.shape.len()).rev() {
            if v.lens[k].is_some() || fold_int(&v.strides[k]) != Some(want) {
                return false;
            }
            want *= arr.shape[k] as i128;
        }
        true
    }

    /// The dimensions `reshape` is given.
    fn reshape_dims(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Vec<Dim>> {
        let mut items = Vec::new();
        for a in &c.args {
            let aspan = self.span(a);
            match self.expr(a)? {
                Val::Tuple(t) if c.args.len() == 1 => {
                    items.extend(t.into_iter().map(|v| (v, aspan)))
                }
                v => items.push((v, aspan)),
            }
        }
        if items.is_empty() {
            return py::unsupported(
                span,
                "reshape to a 0-d shape",
                DIALECT,
                "give at least one dimension",
            );
        }
        let mut dims = Vec::new();
        for (v, s) in items {
            let x = self.num(v, s)?;
            if !dtype_of(&x).is_int() {
                return err(s, "a reshape dimension must be an integer");
            }
            dims.push(match fold_int(&x) {
                Some(k) => Dim::Const(k),
                None => Dim::Run(self.temp(convert(x, DType::I64))),
            });
        }
        Ok(dims)
    }

    /// `arr.reshape(…)`.
    fn reshape(&mut self, arr: ArrayVal, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        if !Self::contiguous(&arr) {
            return py::unsupported(
                span,
                "reshape of a view whose elements are not contiguous",
                DIALECT,
                "reshape the array the view was taken from",
            );
        }
        let dims = self.reshape_dims(c, span)?;
        let size = arr.size_expr(span);
        // an upper bound of every runtime dimension of a non-empty result
        let bound: usize = arr.shape.iter().product();
        let (offset, _, _) = Self::layout_of(&arr, span);
        let consts: Option<Vec<i128>> = dims
            .iter()
            .map(|d| match d {
                Dim::Const(k) => Some(*k),
                Dim::Run(_) => None,
            })
            .collect();
        let lens: Vec<Expr> = match (consts, fold_int(&size)) {
            (Some(ks), Some(s)) => match normalize_shape(s, &ks) {
                Some(ks) => ks.into_iter().map(|k| i64c(k, span)).collect(),
                None => {
                    self.fire_in_numba(span);
                    ks.iter().map(|_| i64c(0, span)).collect()
                }
            },
            _ => self.runtime_shape(dims, size, span),
        };
        let n = lens.len();
        let mut strides = vec![i64c(1, span); n];
        for k in (0..n.saturating_sub(1)).rev() {
            let st = i64op(
                BinOp::Mul,
                strides[k + 1].clone(),
                lens[k + 1].clone(),
                span,
            );
            strides[k] = self.temp(st);
        }
        let (mut shape, mut runtime) = (Vec::new(), Vec::new());
        for l in lens {
            match fold_int(&l) {
                Some(k) => {
                    shape.push(k as usize);
                    runtime.push(None);
                }
                None => {
                    shape.push(bound);
                    runtime.push(Some(l));
                }
            }
        }
        Ok(Val::Array(ArrayVal {
            shape,
            view: Some(Box::new(View {
                offset,
                strides,
                lens: runtime,
            })),
            ..arr
        }))
    }

    /// The lengths (int64 variables) of a reshape to `dims` of an array of
    /// `size` elements, by numba's rule (module docs); where it fails the
    /// thread raises.
    fn runtime_shape(&mut self, dims: Vec<Dim>, size: Expr, span: Span) -> Vec<Expr> {
        let i64 = DType::I64;
        let dims: Vec<Expr> = dims
            .into_iter()
            .map(|d| match d {
                Dim::Const(k) => i64c(k, span),
                Dim::Run(e) => e,
            })
            .collect();
        let size = self.temp(size);
        let zero = || i64c(0, span);
        let one = || i64c(1, span);
        let mut negs = Vec::new();
        let (mut known, mut unknown) = (one(), zero());
        for d in &dims {
            let neg = self.temp(bin(BinOp::Lt, d.clone(), zero(), span));
            let factor = select(neg.clone(), one(), d.clone(), span);
            known = self.temp(bin(BinOp::Mul, known, factor, span));
            let count = select(neg.clone(), one(), zero(), span);
            unknown = self.temp(bin(BinOp::Add, unknown, count, span));
            negs.push(neg);
        }
        let safe = self.temp(bin(BinOp::Max(NanMode::Ignore), known.clone(), one(), span));
        let none_known = self.temp(bin(BinOp::Eq, known.clone(), zero(), span));
        let quotient = bin(BinOp::IDiv(IntDiv::FLOOR), size.clone(), safe.clone(), span);
        let inferred = self.temp(select(none_known.clone(), zero(), quotient, span));
        let rem = bin(BinOp::IRem(IntDiv::FLOOR), size.clone(), safe, span);
        let divides = bin(BinOp::Eq, rem, zero(), span);
        let empty = bin(BinOp::Eq, size.clone(), zero(), span);
        let fits = select(none_known, empty, divides, span);
        let many = bin(BinOp::Gt, unknown.clone(), one(), span);
        let no_unknown = bin(BinOp::Eq, unknown.clone(), zero(), span);
        let mismatch = bin(BinOp::Ne, known, size, span);
        let one_unknown = bin(BinOp::Eq, unknown, one(), span);
        let unfit = unary(UnOp::LogicalNot, fits, span);
        let bad = bin(
            BinOp::Or,
            many,
            bin(
                BinOp::Or,
                bin(BinOp::And, no_unknown, mismatch, span),
                bin(BinOp::And, one_unknown, unfit, span),
                span,
            ),
            span,
        );
        self.fire_in_numba_if(bad, span);
        dims.into_iter()
            .zip(negs)
            .map(|(d, neg)| {
                let e = select(neg, inferred.clone(), d, span);
                let e = convert(e, i64);
                self.temp(e)
            })
            .collect()
    }

    /// A `ValueError` raised in numba's own code: the thread ends (with
    /// `debug=True` the host reports a raise in a device function).
    fn fire_in_numba(&mut self, span: Span) {
        let debug = self.debug;
        self.fire_kind(exceptions::RAISE_IN_DEVICE_FUNCTION, debug, span);
    }

    /// Where `cond` holds, a `ValueError` raised in numba's own code (see
    /// [`Elab::fire_in_numba`]).
    fn fire_in_numba_if(&mut self, cond: Expr, span: Span) {
        let debug = self.debug;
        self.fire_kind_if(cond, exceptions::RAISE_IN_DEVICE_FUNCTION, debug, span);
    }

    /// `arr.view(dtype)` of a 1-d contiguous uint8 array in global memory.
    fn byte_view(&mut self, arr: ArrayVal, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let [dt] = c.args.as_slice() else {
            return err(span, "view() takes one argument, a dtype");
        };
        let d = match self.expr(dt)? {
            Val::Type(d) => d,
            _ => return err(self.span(dt), "view() takes a dtype such as np.int32"),
        };
        if d == arr.dtype && arr.pairs == Pairs::No {
            return Ok(Val::Array(arr));
        }
        let global = arr.base.ty.space() == Some(AddrSpace::Global);
        if arr.dtype != DType::U8 || arr.pairs != Pairs::No || arr.shape.len() != 1 || !global {
            return py::unsupported(
                span,
                "view() of an array other than a 1-d uint8 array in global memory",
                DIALECT,
                "view a uint8 kernel argument (ksem's memory holds typed numbers)",
            );
        }
        if !Self::contiguous(&arr) || d == DType::Bool {
            return py::unsupported(
                span,
                "view() of a strided slice, or as bool",
                DIALECT,
                "view a contiguous uint8 array as a number dtype",
            );
        }
        let item = (d.storage_bits() / 8) as i128;
        let bytes = arr.len_expr(0, span);
        let (offset, _, _) = Self::layout_of(&arr, span);
        let n = i64op(
            BinOp::IDiv(IntDiv::FLOOR),
            bytes.clone(),
            i64c(item, span),
            span,
        );
        let rem = i64op(BinOp::IRem(IntDiv::FLOOR), bytes, i64c(item, span), span);
        let (shape, len) = match (fold_int(&n), fold_int(&rem)) {
            (Some(n), Some(0)) => (n as usize, None),
            (Some(n), Some(_)) => {
                self.fire_in_numba(span);
                (n as usize, None)
            }
            _ => {
                let bad = bin(BinOp::Ne, rem, i64c(0, span), span);
                self.fire_in_numba_if(bad, span);
                (arr.shape[0], Some(self.temp(n)))
            }
        };
        Ok(Val::Bytes(records::ByteArray {
            base: arr.base,
            shape: vec![shape],
            kind: FieldKind::Num(d),
            view: Some(Box::new(View {
                offset,
                strides: vec![i64c(item, span)],
                lens: vec![len],
            })),
        }))
    }

    /// The uint8 array whose element `i` is the first byte of element `i`
    /// of the byte view `arr` (for its indexing and lengths).
    pub(super) fn byte_proxy(arr: &records::ByteArray) -> ArrayVal {
        ArrayVal {
            base: arr.base.clone(),
            dtype: DType::U8,
            shape: arr.shape.clone(),
            pairs: Pairs::No,
            view: arr.view.clone(),
        }
    }

    /// The uint8 pointer to the element of byte view `arr` that index `at`
    /// selects, its alignment checked (held in a variable).
    pub(super) fn byte_view_ptr(&mut self, arr: &records::ByteArray, at: Index) -> DResult<Expr> {
        let span = at.span;
        let proxy = Self::byte_proxy(arr);
        let p = self.elem_ptr(&proxy, at)?;
        if let (
            ExprKind::ElemPtr {
                offset: Some(off), ..
            },
            FieldKind::Num(d),
        ) = (&p.kind, &arr.kind)
        {
            // moving a `d` pointer by the element's byte offset: UB
            // (misaligned) unless a whole number of `d` elements
            let typed = bits_pointer(pointer_bits(arr.base.clone()), Type::global_ptr(*d));
            let moved = bin(BinOp::PtrAddBytes, typed, (**off).clone(), span);
            let v = self.new_var("_aligned", moved.ty.clone());
            self.emit(Stmt::Let(v, moved));
        }
        Ok(self.temp(p))
    }
}

/// numba's normalization of a reshape of `size` elements to `dims`: the
/// new shape, or `None` where it raises.
fn normalize_shape(size: i128, dims: &[i128]) -> Option<Vec<i128>> {
    let unknown: Vec<usize> = (0..dims.len()).filter(|&k| dims[k] < 0).collect();
    let known: i128 = dims.iter().filter(|&&d| d >= 0).product();
    match unknown.as_slice() {
        [] => (known == size).then(|| dims.to_vec()),
        [k] => {
            let (inferred, fits) = if known == 0 {
                (0, size == 0)
            } else {
                (size / known, size % known == 0)
            };
            let mut out = dims.to_vec();
            out[*k] = inferred;
            fits.then_some(out)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::normalize_shape;

    #[test]
    fn reshape_shapes_by_hand() {
        assert_eq!(normalize_shape(24, &[4, 6]), Some(vec![4, 6]));
        assert_eq!(normalize_shape(24, &[-1, 8]), Some(vec![3, 8]));
        // any negative dimension is the unknown one
        assert_eq!(normalize_shape(24, &[-7, 8]), Some(vec![3, 8]));
        assert_eq!(normalize_shape(24, &[5, 6]), None);
        assert_eq!(normalize_shape(24, &[-1, 5]), None);
        assert_eq!(normalize_shape(24, &[-1, -1]), None);
        assert_eq!(normalize_shape(0, &[1, 0, 2]), Some(vec![1, 0, 2]));
        assert_eq!(normalize_shape(0, &[0, -1]), Some(vec![0, 0]));
        assert_eq!(normalize_shape(24, &[0, -1]), None);
    }
}
