//! Records (numpy structured dtypes) in CUDA Python kernels.
//!
//! A record buffer is the array's bytes as numpy lays them out (a uint8
//! buffer; the layout comes with the launch: `launch::RecordLayout`). Memory
//! holds typed numbers, so a field is read and written one byte at a time:
//! a field of dtype `d` at byte `o` of record `i` is the little-endian
//! number made of bytes `i·itemsize + o … + size(d) − 1` (one rule:
//! [`Elab::load_bytes`] and [`Elab::store_bytes`]). Index bounds are
//! checked per dimension as for any array (`ElemPtr` over the record array
//! with the bytes of a record as its last dimension).
//!
//! Values: [`RecordVal`] is one record (`r`, `a[i]`, a record field);
//! [`ByteArray`] is an array whose elements lie in a record buffer: a
//! record array (elements are records) or a subarray field (`r.h`).

use super::*;
use crate::launch::{FieldKind, RecordLayout};
use std::sync::Arc;

/// One record in memory.
#[derive(Clone, Debug)]
pub(super) struct RecordVal {
    /// A uint8 pointer to the record's first byte (held in a variable).
    pub base: Expr,
    pub layout: Arc<RecordLayout>,
}

/// How an access names a record's field: `r[key]` (a field name or a
/// position) or `r.name`.
#[derive(Clone, Copy)]
pub(super) enum FieldAt<'a> {
    /// `r[key]`.
    Key(&'a ast::Expr),
    /// `r.name`.
    Attr(&'a str),
}

/// An array whose elements lie in a record buffer, `kind.size()` bytes
/// each, row-major from `base`.
#[derive(Clone, Debug)]
pub(super) struct ByteArray {
    /// A uint8 pointer to the first byte of element 0.
    pub base: Expr,
    pub shape: Vec<usize>,
    pub kind: FieldKind,
    /// Where the elements lie when not row-major from `base`: offset and
    /// strides in bytes (`a.view(dtype)` of a uint8 array, `methods.rs`).
    pub view: Option<Box<super::slices::View>>,
}

/// A constant string or bytes of the kernel's text.
#[derive(Clone, Debug)]
pub(super) enum TextConst {
    /// `"…"`: its code points.
    Str(Vec<u32>),
    /// `b"…"`: its bytes.
    Bytes(Vec<u8>),
}

impl TextConst {
    /// The code units an element of `unit` bytes per unit receives, or
    /// None where numba has no such store (a `str` into an `S<n>` element, a
    /// `bytes` into a `U<n>` one: numba-cuda's TypingError, measured,
    /// tools/probes/numba/host_values.json).
    fn units(&self, unit: usize) -> Option<Vec<u32>> {
        match (self, unit) {
            (TextConst::Str(cps), 4) => Some(cps.clone()),
            (TextConst::Bytes(b), 1) => Some(b.iter().map(|&x| u32::from(x)).collect()),
            _ => None,
        }
    }
}

/// The unsigned integer dtype of `bytes` bytes.
fn uint_of_size(bytes: usize) -> DType {
    match bytes {
        1 => DType::U8,
        2 => DType::U16,
        4 => DType::U32,
        _ => DType::U64,
    }
}

fn i64c(v: usize, span: Span) -> Expr {
    int_const(DType::I64, v as i128, span)
}

/// `p` moved by `k` bytes (a uint8 pointer).
fn byte_ptr(p: &Expr, k: usize, span: Span) -> Expr {
    if k == 0 {
        return p.clone();
    }
    bin(BinOp::PtrAdd, p.clone(), i64c(k, span), span)
}

fn kind_name(k: &FieldKind) -> String {
    match k {
        FieldKind::Num(d) => Named(*d).to_string(),
        FieldKind::Complex(d) => format!("complex{}", d.bits() * 2),
        FieldKind::Record(_) => "record".into(),
        FieldKind::Text { unit: 1, bytes } => format!("bytes of length {bytes}"),
        FieldKind::Text { bytes, .. } => format!("a string of length {}", bytes / 4),
    }
}

/// The value of an `S<n>`/`U<n>` array (its elements lie in a uint8
/// buffer, `kind.size()` bytes each, as in a record buffer).
pub(super) fn text_array_val(base: Expr, shape: Vec<usize>, kind: FieldKind) -> Val {
    Val::Bytes(ByteArray {
        base,
        shape,
        kind,
        view: None,
    })
}

impl Elab<'_> {
    /// The value of a record buffer parameter: a record (0-d) or a record array.
    pub(super) fn record_param_val(
        &self,
        base: Expr,
        shape: Vec<usize>,
        layout: Arc<RecordLayout>,
    ) -> Val {
        if shape.is_empty() {
            Val::Record(RecordVal { base, layout })
        } else {
            Val::Bytes(ByteArray {
                base,
                shape,
                kind: FieldKind::Record(layout),
                view: None,
            })
        }
    }

    /// `cuda.shared.array(shape, dtype=rec)` / `cuda.local.array(…)` of a
    /// record dtype: a byte array of `itemsize` bytes per record in that
    /// space (uninitialised, as any shared or local array), seen as an
    /// array of records.
    pub(super) fn record_array(
        &mut self,
        space: AddrSpace,
        shape: Vec<usize>,
        layout: Arc<RecordLayout>,
        span: Span,
    ) -> DResult<Val> {
        let records = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
        let bytes = records.and_then(|n| n.checked_mul(layout.itemsize));
        let Some(bytes) = bytes.filter(|&b| b > 0 && b <= 1 << 20) else {
            return err(
                span,
                format!(
                    "a {} array of {shape:?} records of {} bytes is empty or too large for ksem",
                    space.name(),
                    layout.itemsize
                ),
            );
        };
        self.arrays.push(ArrayDecl {
            name: format!("{}{}", space.name(), self.arrays.len()),
            dtype: DType::U8,
            space,
            shape: vec![bytes],
            span,
        });
        let base = array_base(self.arrays.len() - 1, DType::U8, space, span);
        Ok(Val::Bytes(ByteArray {
            base,
            shape,
            kind: FieldKind::Record(layout),
            view: None,
        }))
    }

    /// `e` held in a variable (a pointer used for several bytes is computed,
    /// and its indices checked, once). A pointer into shared or local
    /// memory stays an expression (the CUDA lowering addresses those arrays
    /// by index, never through a pointer value): its indices are checked at
    /// each byte, with the same outcome.
    fn held(&mut self, e: Expr) -> Expr {
        if matches!(
            e.ty.elem,
            Elem::Ptr(_, AddrSpace::Shared | AddrSpace::Local)
        ) {
            return e;
        }
        self.temp(e)
    }

    /// The number of dtype `d` whose bytes start at uint8 pointer `p`
    /// (little-endian, as numpy stores it).
    pub(super) fn load_bytes(&mut self, p: Expr, d: DType, span: Span) -> Expr {
        let p = self.held(p);
        let n = d.storage_bits() as usize / 8;
        let byte = |j: usize| convert(load(byte_ptr(&p, j, span), DType::U8, span), DType::U64);
        let mut acc = byte(0);
        for j in 1..n {
            let shifted = bin(
                BinOp::Shl(ShiftRange::Ub),
                byte(j),
                konst(DType::U64, 8 * j as u64, span),
                span,
            );
            acc = bin(BinOp::Or, acc, shifted, span);
        }
        let u = convert(acc, uint_of_size(n));
        match d {
            DType::Bool => bin(BinOp::Ne, u, konst(DType::U8, 0, span), span),
            _ if d == uint_of_size(n) => u,
            _ => mk(
                ExprKind::Cast(Box::new(u), CastKind::Bitcast),
                Type::scalar(d),
                span,
            ),
        }
    }

    /// Stores `value` (converted to `d`) as the bytes of a `d` number from
    /// uint8 pointer `p` on.
    pub(super) fn store_bytes(&mut self, p: Expr, value: Expr, d: DType, span: Span) {
        let p = self.held(p);
        let n = d.storage_bits() as usize / 8;
        let v = convert(value, d);
        let u = match d {
            DType::Bool => convert(v, DType::U8),
            _ if d == uint_of_size(n) => v,
            _ => mk(
                ExprKind::Cast(Box::new(v), CastKind::Bitcast),
                Type::scalar(uint_of_size(n)),
                span,
            ),
        };
        let bits = self.held(convert(u, DType::U64));
        for j in 0..n {
            let b = if j == 0 {
                bits.clone()
            } else {
                bin(
                    BinOp::Shr(ShrKind::Logical, ShiftRange::Ub),
                    bits.clone(),
                    konst(DType::U64, 8 * j as u64, span),
                    span,
                )
            };
            self.store(
                byte_ptr(&p, j, span),
                convert(b, DType::U8),
                DType::U8,
                span,
            );
        }
    }

    /// The value of the element of `kind` whose bytes start at `p`.
    fn load_element(&mut self, p: Expr, kind: &FieldKind, span: Span) -> DResult<Val> {
        Ok(match kind {
            FieldKind::Num(d) => Val::Num(self.load_bytes(p, *d, span)),
            FieldKind::Complex(d) => {
                let p = self.held(p);
                let size = d.storage_bits() as usize / 8;
                let re = self.load_bytes(p.clone(), *d, span);
                let im = self.load_bytes(byte_ptr(&p, size, span), *d, span);
                Val::Complex(crate::complex::Cx { re, im })
            }
            FieldKind::Record(layout) => Val::Record(RecordVal {
                base: self.held(p),
                layout: layout.clone(),
            }),
            FieldKind::Text { .. } => {
                return py::unsupported(
                    span,
                    "reading a string field",
                    DIALECT,
                    "a kernel may assign a constant string to it",
                )
            }
        })
    }

    /// Stores `v` into the element of `kind` whose bytes start at `p`.
    fn store_element(&mut self, p: Expr, kind: &FieldKind, v: Val, span: Span) -> DResult<()> {
        match (kind, v) {
            (FieldKind::Num(_), Val::Complex(_)) => err(
                span,
                format!("a complex number cannot be stored into a {} field (numba: no conversion from complex to a real type)", kind_name(kind)),
            ),
            (FieldKind::Num(d), v) => {
                let value = self.num(v, span)?;
                self.store_bytes(p, value, *d, span);
                Ok(())
            }
            (FieldKind::Complex(d), v) => {
                let z = self.as_complex(v, *d, span)?;
                let z = self.hold(z);
                let p = self.held(p);
                let size = d.storage_bits() as usize / 8;
                self.store_bytes(p.clone(), z.re, *d, span);
                self.store_bytes(byte_ptr(&p, size, span), z.im, *d, span);
                Ok(())
            }
            (FieldKind::Record(layout), Val::Record(src)) => {
                if src.layout != *layout {
                    return err(span, "a record can be assigned only a record of the same dtype");
                }
                // numba copies the record's bytes, padding included
                let p = self.held(p);
                for j in 0..layout.itemsize {
                    let b = load(byte_ptr(&src.base, j, span), DType::U8, span);
                    let b = self.temp(b);
                    self.store(byte_ptr(&p, j, span), b, DType::U8, span);
                }
                Ok(())
            }
            (FieldKind::Text { bytes, unit }, Val::Str(t)) => {
                let Some(units) = t.units(*unit) else {
                    return err(
                        span,
                        format!(
                            "cannot store {} into {} (numba has no such conversion)",
                            match &*t {
                                TextConst::Str(_) => "a str",
                                TextConst::Bytes(_) => "bytes",
                            },
                            kind_name(kind)
                        ),
                    );
                };
                self.store_text(p, &units, *bytes, *unit, span);
                Ok(())
            }
            (FieldKind::Text { .. }, _) => err(
                span,
                format!(
                    "only a constant string or bytes can be stored into {} in ksem",
                    kind_name(kind)
                ),
            ),
            (k, _) => err(span, format!("cannot store this value into a {} element", kind_name(k))),
        }
    }

    /// Stores constant text into a `bytes`-byte element of `unit`-byte code
    /// units from `p` on, as numba-cuda does (measured,
    /// tools/probes/numba/host_values.json): the first units that fit, each
    /// zero-extended to `unit` bytes, little-endian; a shorter text is
    /// padded with zero bytes to the element's end, a longer one cut.
    fn store_text(&mut self, p: Expr, units: &[u32], bytes: usize, unit: usize, span: Span) {
        let p = self.held(p);
        for j in 0..bytes {
            let u = units.get(j / unit).copied().unwrap_or(0);
            let b = (u >> (8 * (j % unit))) & 0xff;
            self.store(
                byte_ptr(&p, j, span),
                konst(DType::U8, u64::from(b), span),
                DType::U8,
                span,
            );
        }
    }

    /// The uint8 pointer to the element of `arr` that index `at` selects.
    fn byte_elem_ptr(&mut self, arr: &ByteArray, at: Index) -> DResult<Expr> {
        // the array's indexing rule, over a uint8 array with the element's
        // bytes as one more (trailing) dimension
        if arr.view.is_some() {
            return self.byte_view_ptr(arr, at);
        }
        let mut dims = arr.shape.clone();
        dims.push(arr.kind.size());
        let view = ArrayVal {
            base: arr.base.clone(),
            dtype: DType::U8,
            shape: arr.shape.clone(),
            pairs: Pairs::No,
            view: None,
        };
        let mut p = self.elem_ptr(&view, at)?;
        if let ExprKind::ElemPtr {
            indices, dims: d, ..
        } = &mut p.kind
        {
            indices.push(i64c(0, at.span));
            *d = dims;
        }
        Ok(self.held(p))
    }

    /// `arr[at]` of an array in a record buffer.
    pub(super) fn byte_array_load(&mut self, arr: &ByteArray, at: Index) -> DResult<Val> {
        let p = self.byte_elem_ptr(arr, at)?;
        self.load_element(p, &arr.kind, at.span)
    }

    /// `arr[at] = v` of an array in a record buffer.
    pub(super) fn byte_array_store(&mut self, arr: &ByteArray, at: Index, v: Val) -> DResult<()> {
        let p = self.byte_elem_ptr(arr, at)?;
        self.store_element(p, &arr.kind, v, at.span)
    }

    /// The field of `r` that `key` names: a field name (`r['a']`, `r.a`)
    /// or a position (`r[0]`: numba's first field).
    fn field_of<'r>(
        &mut self,
        r: &'r RecordVal,
        key: &ast::Expr,
        span: Span,
    ) -> DResult<&'r crate::launch::RecordField> {
        if let ast::Expr::Constant(c) = key {
            if let Constant::Str(name) = &c.value {
                return self.field_named(r, name, span);
            }
        }
        let i = self.const_int(key)?;
        let n = r.layout.fields.len() as i128;
        let j = if i < 0 { i + n } else { i };
        if !(0..n).contains(&j) {
            return err(
                span,
                format!("field index {i} out of range for a record of {n} fields"),
            );
        }
        Ok(&r.layout.fields[j as usize])
    }

    fn field_named<'r>(
        &self,
        r: &'r RecordVal,
        name: &str,
        span: Span,
    ) -> DResult<&'r crate::launch::RecordField> {
        r.layout.field(name).ok_or_else(|| {
            Diagnostic::new(
                span,
                format!(
                    "the record has no field `{name}` (its fields: {})",
                    r.layout.names()
                ),
            )
        })
    }

    /// The value of field `f` of `r`: a number, a complex number, a nested
    /// record, or (a subarray field) an array.
    fn field_value(
        &mut self,
        r: &RecordVal,
        f: &crate::launch::RecordField,
        span: Span,
    ) -> DResult<Val> {
        let p = byte_ptr(&r.base, f.offset, span);
        if f.shape.is_empty() {
            return self.load_element(p, &f.kind, span);
        }
        Ok(Val::Bytes(ByteArray {
            base: p,
            shape: f.shape.clone(),
            kind: f.kind.clone(),
            view: None,
        }))
    }

    /// Stores `v` into field `f` of `r`; a subarray field takes an array of
    /// its shape, element by element.
    fn field_store(
        &mut self,
        r: &RecordVal,
        f: &crate::launch::RecordField,
        v: Val,
        span: Span,
    ) -> DResult<()> {
        let p = byte_ptr(&r.base, f.offset, span);
        if f.shape.is_empty() {
            return self.store_element(p, &f.kind, v, span);
        }
        let dest = ByteArray {
            base: p,
            shape: f.shape.clone(),
            kind: f.kind.clone(),
            view: None,
        };
        self.copy_into(&dest, v, span)
    }

    /// `dest[...] = src` for an array `src` of `dest`'s shape (a number
    /// fills every element), element by element in row-major order.
    fn copy_into(&mut self, dest: &ByteArray, src: Val, span: Span) -> DResult<()> {
        if matches!(&src, Val::Bytes(b) if b.view.is_some())
            || matches!(&src, Val::Array(a) if a.view.is_some())
        {
            return py::unsupported(
                span,
                "assigning a view to a subarray field",
                DIALECT,
                "copy the elements in a loop",
            );
        }
        let n: usize = dest.shape.iter().product();
        let src_shape = match &src {
            Val::Array(a) => Some(a.shape.clone()),
            Val::Bytes(b) => Some(b.shape.clone()),
            _ => None,
        };
        if let Some(s) = &src_shape {
            if *s != dest.shape {
                return err(
                    span,
                    format!(
                        "cannot assign an array of shape {s:?} to a field of shape {:?}",
                        dest.shape
                    ),
                );
            }
        }
        for k in 0..n {
            let idx = unravel(&dest.shape, k);
            let v = match &src {
                Val::Array(a) => {
                    let indices: Vec<Expr> = idx.iter().map(|&i| i64c(i, span)).collect();
                    self.array_element(a, indices, span)
                }
                Val::Bytes(b) => {
                    let p = self.byte_ptr_at(b, &idx, span);
                    self.load_element(p, &b.kind, span)?
                }
                other => other.clone(),
            };
            let v = self.materialize(v);
            let p = self.byte_ptr_at(dest, &idx, span);
            self.store_element(p, &dest.kind, v, span)?;
        }
        Ok(())
    }

    /// The uint8 pointer to element `idx` (constant, within bounds) of `arr`.
    fn byte_ptr_at(&self, arr: &ByteArray, idx: &[usize], span: Span) -> Expr {
        let mut flat = 0;
        for (i, d) in idx.iter().zip(&arr.shape) {
            flat = flat * d + i;
        }
        byte_ptr(&arr.base, flat * arr.kind.size(), span)
    }

    /// The element of a plain array at constant `indices`.
    fn array_element(&mut self, a: &ArrayVal, mut indices: Vec<Expr>, span: Span) -> Val {
        let mut dims = a.shape.clone();
        let at = |indices: Vec<Expr>, dims: Vec<usize>| {
            mk(
                ExprKind::ElemPtr {
                    base: Box::new(a.base.clone()),
                    indices,
                    dims,
                    neg: NegIndex::Wrap,
                    offset: None,
                },
                a.base.ty.clone(),
                span,
            )
        };
        match a.pairs {
            Pairs::No => Val::Num(load(at(indices, dims), a.dtype, span)),
            Pairs::Part(k) => {
                indices.push(int_const(DType::I64, k, span));
                dims.push(2);
                Val::Num(load(at(indices, dims), a.dtype, span))
            }
            Pairs::Complex => {
                let mut im = indices.clone();
                indices.push(i64c(0, span));
                im.push(i64c(1, span));
                dims.push(2);
                Val::Complex(crate::complex::Cx {
                    re: load(at(indices, dims.clone()), a.dtype, span),
                    im: load(at(im, dims), a.dtype, span),
                })
            }
        }
    }

    /// The field of `r` that `at` names.
    fn field_at<'r>(
        &mut self,
        r: &'r RecordVal,
        at: FieldAt,
        span: Span,
    ) -> DResult<&'r crate::launch::RecordField> {
        match at {
            FieldAt::Key(key) => self.field_of(r, key, span),
            FieldAt::Attr(name) => self.field_named(r, name, span),
        }
    }

    /// `r[key]` or `r.name` of a record.
    pub(super) fn record_get(&mut self, r: &RecordVal, at: FieldAt, span: Span) -> DResult<Val> {
        let f = self.field_at(r, at, span)?;
        self.field_value(r, f, span)
    }

    /// `r[key] = v` or `r.name = v` of a record.
    pub(super) fn record_set(
        &mut self,
        r: &RecordVal,
        at: FieldAt,
        v: Val,
        span: Span,
    ) -> DResult<()> {
        let f = self.field_at(r, at, span)?;
        self.field_store(r, f, v, span)
    }

    /// Attributes of an array in a record buffer (`shape`, `size`, `ndim`).
    pub(super) fn byte_array_attribute(
        &self,
        a: &ByteArray,
        attr: &str,
        span: Span,
    ) -> DResult<Val> {
        let c = |v: usize| Val::Num(i64c(v, span));
        if a.view.is_some() {
            let proxy = Self::byte_proxy(a);
            return Ok(match attr {
                "shape" => Val::Tuple(vec![Val::Num(proxy.len_expr(0, span))]),
                "size" => Val::Num(proxy.size_expr(span)),
                "ndim" => c(1),
                _ => return err(span, format!("arrays made by .view() have no attribute `{attr}` in ksem (shape, size and ndim are supported)")),
            });
        }
        Ok(match attr {
            "shape" => Val::Tuple(a.shape.iter().map(|&d| c(d)).collect()),
            "size" => c(a.shape.iter().product()),
            "ndim" => c(a.shape.len()),
            _ => return err(span, format!("record arrays and subarray fields have no attribute `{attr}` in ksem (shape, size and ndim are supported)")),
        })
    }
}

/// The row-major multi-index of flat element `k` of `shape`.
fn unravel(shape: &[usize], mut k: usize) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        idx[d] = k % shape[d].max(1);
        k /= shape[d].max(1);
    }
    idx
}
