//! Buffer views: `T.reshape(buf, shape)`, `T.view(buf, shape)` and
//! `T.Tensor(shape, dtype, buf.data)` inside a kernel. Each is a new buffer
//! over the same storage, read in row-major order with the new shape: no
//! copy, so a write through one is seen through the other. TileLang builds
//! all three as `T.Tensor(shape, dtype, src.data)` and asserts that the
//! view's bits equal the source's (tilelang/language/customize.py,
//! `reshape` and `view`); ksem checks the element counts. A view to another
//! dtype reinterprets the bytes, which ksem's buffers do not model: refused.

use super::*;

impl<'m> Elab<'m> {
    /// `T.reshape(src, shape)`.
    pub(super) fn reshape(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let (src, shape) = match (c.args.as_slice(), c.keywords.as_slice()) {
            ([src, shape], []) => (src, shape),
            _ => return err(span, "T.reshape takes (buffer, shape)"),
        };
        let src = self.view_source(src, "T.reshape")?;
        let shape = self.static_shape(shape)?;
        view_of(&src, shape, src.dtype, "T.reshape", span).map(Val::Buf)
    }

    /// `T.view(src, shape=None, dtype=None)`: the source's shape or dtype
    /// where one is not given.
    pub(super) fn view(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let src_e = c
            .args
            .first()
            .ok_or_else(|| Diagnostic::new(span, "T.view takes (buffer, shape, dtype)"))?;
        let arg = |i: usize, name: &str| c.args.get(i).or_else(|| py::call::keyword(c, name));
        let src = self.view_source(src_e, "T.view")?;
        let shape = match arg(1, "shape") {
            Some(e) if !is_none(e) => self.static_shape(e)?,
            _ => src.shape.clone(),
        };
        let dtype = match arg(2, "dtype") {
            Some(e) if !is_none(e) => self.dtype_arg(e)?,
            _ => src.dtype,
        };
        view_of(&src, shape, dtype, "T.view", span).map(Val::Buf)
    }

    /// `T.Tensor(shape, dtype, src.data)` (also `T.Buffer`, `data=`): a
    /// view of `src`. Without a data argument a tensor is a parameter's
    /// type, which belongs in the signature.
    pub(super) fn tensor_view(&mut self, f: &str, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let data = c.args.get(2).or_else(|| py::call::keyword(c, "data"));
        let src = match data {
            Some(ast::Expr::Attribute(a)) if a.attr.as_str() == "data" => {
                self.view_source(&a.value, &format!("T.{f}"))?
            }
            _ => {
                return err(
                    span,
                    format!(
                        "T.{f} inside a kernel must view a buffer: T.{f}(shape, dtype, buffer.data)"
                    ),
                )
            }
        };
        let mut head = c.clone();
        head.args.truncate(2);
        head.keywords.retain(|k| k.arg.as_deref() != Some("data"));
        let (shape, dtype) = self.shape_and_dtype(&head, &format!("T.{f}"), None, span)?;
        view_of(&src, shape, dtype, &format!("T.{f}"), span).map(Val::Buf)
    }

    /// The buffer a view is made of.
    fn view_source(&mut self, e: &ast::Expr, what: &str) -> DResult<Buf> {
        let span = self.span(e);
        match self.expr(e)? {
            Val::Buf(b) if !b.scalar => Ok(b),
            Val::Buf(_) => err(span, format!("{what} of a T.alloc_var: it has no shape")),
            _ => err(span, format!("{what} takes a buffer")),
        }
    }
}

/// `src` seen with `shape` and `dtype`.
fn view_of(src: &Buf, shape: Vec<usize>, dtype: DType, what: &str, span: Span) -> DResult<Buf> {
    if dtype != src.dtype {
        return err(
            span,
            format!(
                "{what} from {} to {}: a view that reinterprets the bytes as another dtype is not supported by ksem yet",
                types::dtype_name(src.dtype),
                types::dtype_name(dtype)
            ),
        );
    }
    let count = |s: &[usize]| s.iter().product::<usize>();
    if count(&shape) != count(&src.shape) {
        return err(
            span,
            format!(
                "{what}: shape {shape:?} has {} elements but `{}` of shape {:?} has {}",
                count(&shape),
                src.name,
                src.shape,
                count(&src.shape)
            ),
        );
    }
    Ok(Buf {
        name: format!("view of {}", src.name),
        shape,
        ..src.clone()
    })
}

/// Whether `e` is the literal `None`.
fn is_none(e: &ast::Expr) -> bool {
    matches!(e, ast::Expr::Constant(k) if matches!(k.value, Constant::None))
}
