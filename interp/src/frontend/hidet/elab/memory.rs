//! Memory: shared and local arrays, tensors and their layouts, indexing.

use super::*;

impl<'m> Elab<'m> {
    // ---- memory ----------------------------------------------------------------

    /// A new shared or local array of `n` elements.
    pub(super) fn alloc(
        &mut self,
        name: &str,
        d: DType,
        shape: Vec<usize>,
        space: AddrSpace,
        span: Span,
    ) -> DResult<ArrayId> {
        let what = format!("{} tensor", space.name());
        simt::array_elems(&shape, &what, span)?;
        self.arrays.push(ArrayDecl {
            name: name.to_string(),
            dtype: d,
            space,
            shape,
            span,
        });
        Ok(self.arrays.len() - 1)
    }

    pub(super) fn array_base(&self, id: ArrayId, span: Span) -> Expr {
        let a = &self.arrays[id];
        array_base(id, a.dtype, a.space, span)
    }

    /// Stores `value` (already of the cell's dtype `d`) into the memory
    /// of cell `id`, the one-element array of a variable whose address the
    /// function takes.
    pub(super) fn set_cell(&mut self, id: ArrayId, d: DType, value: Expr, span: Span) {
        let ptr = self.cell_ptr(id, d, span);
        self.emit(Stmt::Store {
            ptr,
            value,
            mask: None,
            span,
        });
    }

    /// Whether the current function takes the address of variable `name`
    /// (`~name`): its scalar lives in a cell.
    pub(super) fn addressed(&self, name: &str) -> bool {
        self.frames
            .last()
            .is_some_and(|f| f.addressed.contains(name))
    }

    pub(super) fn cell_ptr(&self, id: ArrayId, _d: DType, span: Span) -> Expr {
        let base = self.array_base(id, span);
        let ty = base.ty.clone();
        mk(
            ExprKind::ElemPtr {
                base: Box::new(base),
                indices: vec![int_const(DType::I64, 0, span)],
                dims: vec![1],
                neg: NegIndex::Ub,
                offset: None,
            },
            ty,
            span,
        )
    }

    /// A tensor declared in the kernel: its storage is a shared or local
    /// array (`width` numbers per element).
    pub(super) fn declare_tensor(
        &mut self,
        name: &str,
        elt: Elt,
        layout: Layout,
        space: AddrSpace,
        span: Span,
    ) -> DResult<Val> {
        let d = elt.comp();
        self.supported_dtype(d, span)?;
        if space == AddrSpace::Shared && self.kind == FuncKind::CpuKernel {
            return err(span, "a cpu_kernel has no shared memory");
        }
        let size = layout.size() * elt.width();
        let id = self.alloc(name, d, vec![size.max(0) as usize], space, span)?;
        Ok(Val::Tensor(Tensor {
            prefix: vec![],
            base: self.array_base(id, span),
            elt,
            layout,
        }))
    }

    /// The pointer to element `index` of a tensor or pointer, and its type.
    pub(super) fn element(
        &mut self,
        base: Val,
        index: &ast::Expr,
        span: Span,
    ) -> DResult<(Expr, Elt)> {
        match self.index(base, index, span)? {
            Indexed::Elem(p, d) => Ok((p, d)),
            Indexed::Sub(t) => err(
                span,
                format!(
                    "{} of the tensor's {} indices are given; an element needs all of them",
                    t.prefix.len(),
                    t.layout.shape().len()
                ),
            ),
        }
    }

    /// The integer coordinates an index expression gives (`a[i, j]`, and
    /// `a[axes]` with a tuple of loop variables).
    pub(super) fn coords(&mut self, index: &ast::Expr) -> DResult<Vec<Expr>> {
        let idx: Vec<&ast::Expr> = match index {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            e => vec![e],
        };
        let mut vals = Vec::new();
        for i in &idx {
            if matches!(i, ast::Expr::Slice(_)) {
                return py::unsupported(
                    self.span(*i),
                    "slicing a tensor",
                    DIALECT,
                    "index one element at a time: a[i, j]",
                );
            }
            match self.expr(i)? {
                Val::List(items) => vals.extend(items.into_iter().map(|v| (v, self.span(*i)))),
                v => vals.push((v, self.span(*i))),
            }
        }
        let mut coords = Vec::new();
        for (v, sp) in vals {
            let (e, _) = self.scalar(v, sp)?;
            if !dtype_of(&e).is_int() {
                return err(
                    sp,
                    format!("an index must be an integer, not {}", Named(dtype_of(&e))),
                );
            }
            coords.push(convert(e, DType::I64));
        }
        Ok(coords)
    }

    /// Indexes a tensor or a pointer: an element, or (fewer indices than
    /// dimensions, `a[i][j]`) the tensor of the remaining dimensions.
    pub(super) fn index(&mut self, base: Val, index: &ast::Expr, span: Span) -> DResult<Indexed> {
        let coords = self.coords(index)?;
        match base {
            Val::Tensor(t) => {
                let shape = t.layout.shape();
                let mut all = t.prefix.clone();
                all.extend(coords);
                let dims = shape.len();
                py::arity::count(span, all.len(), (0, dims), |n| {
                    format!("a tensor of {dims} dimensions indexed with {n} indices")
                })?;
                if all.len() < shape.len() {
                    // the indices are evaluated here, once
                    let held = all.into_iter().map(|c| self.temp(c)).collect();
                    return Ok(Indexed::Sub(Tensor { prefix: held, ..t }));
                }
                let width = t.elt.width();
                let offset = if t.layout.is_row_major() && width == 1 {
                    None
                } else {
                    let held: Vec<Expr> = all.into_iter().map(|c| self.temp(c)).collect();
                    all = held;
                    let o = t.layout.offset_expr(&all, span);
                    // a complex or vector element is `width` numbers
                    let o = if width == 1 {
                        o
                    } else {
                        let w = int_const(dtype_of(&o), width as i128, span);
                        bin(BinOp::Mul, o, w, span)
                    };
                    Some(Box::new(o))
                };
                let ty = t.base.ty.clone();
                Ok(Indexed::Elem(
                    mk(
                        ExprKind::ElemPtr {
                            base: Box::new(t.base),
                            indices: all,
                            dims: shape.iter().map(|&s| s.max(0) as usize).collect(),
                            neg: NegIndex::Ub,
                            offset,
                        },
                        ty,
                        span,
                    ),
                    t.elt,
                ))
            }
            Val::Ptr(p, d, named) => {
                let [i] = coords.as_slice() else {
                    return err(span, "a pointer takes one index");
                };
                if !named {
                    return Err(Diagnostic::new(span, "Can not infer the tensor rank (Hidet indexes only a pointer held in a variable)")
                        .with_help("name the pointer first: p = ~a[0, 0]; then p[k]"));
                }
                let i = scaled(i.clone(), d, span);
                Ok(Indexed::Elem(bin(BinOp::PtrAdd, p, i, span), d))
            }
            Val::Cell(..) | Val::Num { .. } | Val::Int(_) | Val::Float(_) => {
                err(span, "a scalar cannot be indexed")
            }
            // measured: g++ refuses `v[0]` of a `void *`
            Val::VoidPtr(_) => Err(Diagnostic::new(span, "a void pointer cannot be indexed")
                .with_help("cast it to a typed pointer first: q = cast(p, ~f32); then q[k]")),
            _ => err(span, "only a tensor or a pointer can be indexed"),
        }
    }
}

/// An element count `i` (int64) as a count of numbers of `elt`'s component.
pub(super) fn scaled(i: Expr, elt: Elt, span: Span) -> Expr {
    match elt.width() {
        1 => i,
        w => bin(BinOp::Mul, i, int_const(DType::I64, w as i128, span), span),
    }
}
