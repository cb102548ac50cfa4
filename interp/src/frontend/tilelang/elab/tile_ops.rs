//! The block-level operations: buffer allocation, `T.copy`, `T.fill`,
//! `T.clear`, `T.reduce_*`, `T.gemm` and `T.atomic_*`, each a loop nest
//! over its region.

use super::api::atomic_op;
use super::*;

impl<'m> Elab<'m> {
    pub(super) fn alloc(
        &mut self,
        what: &str,
        d: DType,
        shape: Vec<usize>,
        space: AddrSpace,
        scalar: bool,
        span: Span,
    ) -> Buf {
        let id = self.arrays.len();
        let name = format!("{what}{id}");
        self.arrays.push(ArrayDecl {
            name: name.clone(),
            dtype: d,
            space,
            shape: shape.clone(),
            span,
        });
        let base = array_base(id, d, space, span);
        Buf {
            name,
            base,
            dtype: d,
            shape,
            space,
            scalar,
            private: what == "alloc_local",
        }
    }

    /// `T.copy`, `T.fill`, `T.clear` as statements; `None` for other calls.
    pub(super) fn statement_call(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Option<()>> {
        let Some(p) = dotted(&c.func) else {
            return Ok(None);
        };
        let Some((base, f)) = p.rsplit_once('.') else {
            return Ok(None);
        };
        if !self.m.lang.iter().any(|l| l == base) {
            return Ok(None);
        }
        match f {
            "copy" => {
                // `T.copy(src, dst, *, coalesced_width=…, annotations=…,
                // loop_layout=…)`: src and dst by position or by name; the
                // keyword-only ones say how, not what, to copy
                let (Some(src), Some(dst)) =
                    (py::call::arg(c, "src", 0), py::call::arg(c, "dst", 1))
                else {
                    return err(span, "T.copy takes (src, dst)");
                };
                let src = self.region_arg(src)?;
                let dst = self.region_arg(dst)?;
                if dst.buf.space != AddrSpace::Local {
                    self.block_level_op("T.copy into shared or global memory", span)?;
                }
                self.copy(src, dst, span)?;
                Ok(Some(()))
            }
            "atomic_add" | "atomic_max" | "atomic_min" => {
                self.atomic(f, c, span)?;
                Ok(Some(()))
            }
            // hints that change how, not what, the block computes (the
            // register-count directives only set PTX's setmaxnreg)
            "use_swizzle"
            | "annotate_layout"
            | "annotate_padding"
            | "no_set_max_nreg"
            | "disable_warp_group_reg_alloc"
            | "set_max_nreg" => Ok(Some(())),
            "sync_threads" => {
                self.sync_threads(c, span)?;
                Ok(Some(()))
            }
            "fill" | "clear" => {
                let n = if f == "fill" { 2 } else { 1 };
                py::arity::expect_args(span, &format!("T.{f}"), n, c.args.len())?;
                let dst = self.region_arg(&c.args[0])?;
                if dst.buf.space != AddrSpace::Local {
                    self.block_level_op(&format!("T.{f} of shared or global memory"), span)?;
                }
                let v = if f == "fill" {
                    self.expr(&c.args[1])?
                } else {
                    Val::Py(Const::Num(PyNum::Int(0)))
                };
                let e = self.num(v, span)?;
                let ext: Vec<usize> = dst.extents.iter().map(|e| e.unwrap_or(1)).collect();
                let value = convert(e, dst.buf.dtype);
                self.nest(&ext, span, &mut |me, idx| {
                    let at: Vec<Expr> = offset(&dst, idx, span);
                    let p = me.elem_ptr(&dst.buf, at, span)?;
                    me.emit(Stmt::Store {
                        ptr: p,
                        value: value.clone(),
                        mask: None,
                        span,
                    });
                    Ok(())
                })?;
                Ok(Some(()))
            }
            "reduce_sum" | "reduce_max" | "reduce_min" | "reduce_abssum" | "reduce_absmax" => {
                self.block_level_op(&format!("T.{f}"), span)?;
                self.reduce(f, c, span)?;
                Ok(Some(()))
            }
            "gemm" => {
                self.block_level_op("T.gemm", span)?;
                self.gemm(c, span)?;
                Ok(Some(()))
            }
            "im2col" | "c2d_im2col" => {
                self.block_level_op(&format!("T.{f}"), span)?;
                self.im2col(c, span)?;
                Ok(Some(()))
            }
            _ => Ok(None),
        }
    }

    /// `T.atomic_add(dst, value)` (also `atomic_max`, `atomic_min`): `dst` an
    /// element (`C[i, j]`) with a value, or a buffer or region with a source
    /// buffer or region of the same extent, element by element. Atomics from
    /// different blocks or `T.Parallel` iterations do not race; a float sum
    /// is marked order-dependent.
    pub(super) fn atomic(&mut self, f: &str, c: &ast::ExprCall, span: Span) -> DResult<()> {
        if c.args.len() != 2 {
            return err(span, format!("T.{f} takes (dst, value)"));
        }
        let op = atomic_op(f);
        // the element form: dst is `B[i, j]`
        if let ast::Expr::Subscript(sub) = &c.args[0] {
            let is_slice = match &*sub.slice {
                ast::Expr::Slice(_) => true,
                ast::Expr::Tuple(t) => t.elts.iter().any(|x| matches!(x, ast::Expr::Slice(_))),
                _ => false,
            };
            let value = self.expr(&c.args[1])?;
            if !is_slice && !matches!(value, Val::Buf(_) | Val::Region(_)) {
                let b = self.buffer_of(&sub.value)?;
                let idx = self.indices(&sub.slice)?;
                return self.atomic_elem(op, &b, idx, value, span);
            }
        }
        let dst = self.region_arg(&c.args[0])?;
        let src = self.region_arg(&c.args[1])?;
        let (shape, src, dst) = paired_extent(&format!("T.{f}"), src, dst, span)?;
        self.nest(&shape, span, &mut |me, idx| {
            let sp = me.elem_ptr(&src.buf, offset(&src, idx, span), span)?;
            let dp = me.elem_ptr(&dst.buf, offset(&dst, idx, span), span)?;
            let v = load(sp, src.buf.dtype, span);
            me.atomic_at(op, dp, v, dst.buf.dtype, span);
            Ok(())
        })
    }

    /// The element form `T.atomic_add(b[idx], value)` (also max, min).
    pub(super) fn atomic_elem(
        &mut self,
        op: AtomicOp,
        b: &Buf,
        idx: Vec<Val>,
        value: Val,
        span: Span,
    ) -> DResult<()> {
        let p = self.elem_ptr(b, idx, span)?;
        let v = self.num(value, span)?;
        self.atomic_at(op, p, v, b.dtype, span);
        Ok(())
    }

    /// The atomic update of the `d` element at `ptr` with `value`
    /// (converted to `d`); its old value is unused.
    fn atomic_at(&mut self, op: AtomicOp, ptr: Expr, value: Expr, d: DType, span: Span) {
        let e = mk(
            ExprKind::Atomic {
                op,
                ptr: Box::new(ptr),
                val: Box::new(convert(value, d)),
                cmp: None,
                mask: None,
            },
            Type::scalar(d),
            span,
        );
        let v = self.new_var("_atomic", Type::scalar(d));
        self.emit(Stmt::Let(v, e));
    }

    /// A compile-time bool or int argument.
    pub(super) fn flag(&self, e: Option<&ast::Expr>, default: i128) -> DResult<i128> {
        match e {
            None => Ok(default),
            Some(e) => self
                .py_value(e)
                .ok()
                .and_then(|c| c.as_int())
                .ok_or_else(|| {
                    Diagnostic::new(self.span(e), "this argument must be known at compile time")
                }),
        }
    }

    /// `T.reduce_{sum,max,min,abssum,absmax}(src, dst, dim=-1, clear=True)`:
    /// for every element of `dst`, the elements of `src` along `dim` (their
    /// absolute values for the abs forms) combined in DESIGN.md's canonical
    /// order: `x[i] = x[i] ⊕ x[i + s]` for s = p/2, p/4, …, 1 (p the length
    /// rounded up to a power of two; elements past the length are left out).
    /// Float max/min ignore a NaN operand (CUDA's fmaxf/fminf, which
    /// TileLang's MaxOp/MinOp use on the GPU; the C target cannot compile
    /// reductions, so this is not measured). `clear=False` combines the
    /// result with what `dst` holds.
    pub(super) fn reduce(&mut self, f: &str, c: &ast::ExprCall, span: Span) -> DResult<()> {
        let src_e = c
            .args
            .first()
            .ok_or_else(|| Diagnostic::new(span, format!("T.{f} takes (src, dst, dim=…)")))?;
        let dst_e = c
            .args
            .get(1)
            .ok_or_else(|| Diagnostic::new(span, format!("T.{f} takes (src, dst, dim=…)")))?;
        let src = self.buffer_of(src_e)?;
        let dst = self.buffer_of(dst_e)?;
        let rank = src.shape.len() as i128;
        let dim = self.flag(py::call::arg(c, "dim", 2), -1)?;
        let dim = if dim < 0 { dim + rank } else { dim };
        if !(0..rank).contains(&dim) {
            return err(
                span,
                format!("dim {dim} is out of range for a {rank}-dimensional buffer"),
            );
        }
        let dim = dim as usize;
        if f == "reduce_abssum" && c.keywords.iter().any(|k| k.arg.as_deref() == Some("clear")) {
            // measured: TileLang's reduce_abssum has no `clear`
            return err(
                span,
                "T.reduce_abssum() got an unexpected keyword argument 'clear'",
            );
        }
        let clear = self.flag(py::call::arg(c, "clear", 3), 1)? != 0;
        self.reduce_with(f, &src, &dst, dim, clear, span)
    }

    /// `T.reduce_*` (`f`) of `src` along dimension `dim` (in range) into
    /// `dst`; `clear`: whether `dst`'s old values take no part.
    pub(super) fn reduce_with(
        &mut self,
        f: &str,
        src: &Buf,
        dst: &Buf,
        dim: usize,
        clear: bool,
        span: Span,
    ) -> DResult<()> {
        let (src, dst) = (src.clone(), dst.clone());
        let mut kept: Vec<usize> = src.shape.clone();
        kept.remove(dim);
        let keep_dims = dst.shape.len() == src.shape.len();
        let want: Vec<usize> = if keep_dims {
            let mut k = src.shape.clone();
            k[dim] = 1;
            k
        } else {
            kept.clone()
        };
        if dst.shape != want && !(kept.is_empty() && dst.shape == [1]) {
            return err(
                span,
                format!(
                    "T.{f} of a {:?} buffer along dim {dim} makes {want:?}, not {:?}",
                    src.shape, dst.shape
                ),
            );
        }
        let d = src.dtype;
        let n = src.shape[dim];
        let p = n.next_power_of_two().max(1);
        let (op, abs) = match f {
            "reduce_sum" => (BinOp::Add, false),
            "reduce_abssum" => (BinOp::Add, true),
            "reduce_max" => (BinOp::Max(NanMode::Ignore), false),
            "reduce_absmax" => (BinOp::Max(NanMode::Ignore), true),
            _ => (BinOp::Min(NanMode::Ignore), false),
        };
        let tmp = self.alloc("_reduce", d, vec![p], AddrSpace::Local, false, span);
        self.nest(&kept, span, &mut |me, idx| {
            let at = |r: Expr| -> Vec<Expr> {
                let mut v: Vec<Expr> = idx.to_vec();
                v.insert(dim, r);
                v
            };
            let elem = |me: &Self, i: Expr| me.elem_ptr(&tmp, vec![i], span);
            // x[r] = f(src[…, r, …])
            let r = me.new_var("_r", Type::scalar(DType::I64));
            let rv = me.var_expr(r, span);
            let sp = me.elem_ptr(&src, at(rv.clone()), span)?;
            let mut v = load(sp, d, span);
            if abs {
                v = abs_of(v, span);
            }
            let fill = vec![Stmt::Store {
                ptr: elem(me, rv)?,
                value: v,
                mask: None,
                span,
            }];
            me.emit(Stmt::For {
                var: r,
                start: konst(DType::I64, 0, span),
                end: konst(DType::I64, n as u64, span),
                step: konst(DType::I64, 1, span),
                body: fill,
                span,
                parallel: None,
            });
            let mut s = p / 2;
            while s >= 1 {
                let i = me.new_var("_s", Type::scalar(DType::I64));
                let iv = me.var_expr(i, span);
                let j = bin(
                    BinOp::Add,
                    iv.clone(),
                    konst(DType::I64, s as u64, span),
                    span,
                );
                let a = load(elem(me, iv.clone())?, d, span);
                let b = load(elem(me, j.clone())?, d, span);
                let step = Stmt::Store {
                    ptr: elem(me, iv.clone())?,
                    value: bin(op, a, b, span),
                    mask: None,
                    span,
                };
                // elements past the length take no part
                let guarded = Stmt::If {
                    cond: bin(BinOp::Lt, j, konst(DType::I64, n as u64, span), span),
                    then_body: vec![step],
                    else_body: vec![],
                };
                me.emit(Stmt::For {
                    var: i,
                    start: konst(DType::I64, 0, span),
                    end: konst(DType::I64, s as u64, span),
                    step: konst(DType::I64, 1, span),
                    body: vec![guarded],
                    span,
                    parallel: None,
                });
                s /= 2;
            }
            let mut result = load(elem(me, konst(DType::I64, 0, span))?, d, span);
            let mut out_at: Vec<Expr> = idx.to_vec();
            if keep_dims {
                out_at.insert(dim, konst(DType::I64, 0, span));
            } else if out_at.is_empty() {
                out_at.push(konst(DType::I64, 0, span));
            }
            let dp = me.elem_ptr(&dst, out_at, span)?;
            if !clear {
                let old = load(dp.clone(), dst.dtype, span);
                result = bin(op, convert(old, d), result, span);
            }
            me.store(dp, result, dst.dtype, span);
            Ok(())
        })
    }

    /// `T.gemm(A, B, C, transpose_A=False, transpose_B=False,
    /// clear_accum=False)`: C = C + A·B (C = A·B with `clear_accum`). The
    /// order is exact and documented: for each C[i, j], for k ascending,
    /// `acc = acc + a·b` with a and b converted to C's dtype, the product
    /// rounded, then the sum rounded (no fused multiply-add).
    pub(super) fn gemm(&mut self, c: &ast::ExprCall, span: Span) -> DResult<()> {
        // A, B, C by position or by name (`T.gemm(x, B=y, C=z)`)
        let (Some(a), Some(b), Some(cb)) = (
            py::call::arg(c, "A", 0),
            py::call::arg(c, "B", 1),
            py::call::arg(c, "C", 2),
        ) else {
            return err(span, "T.gemm takes (A, B, C, …)");
        };
        let a = self.buffer_of(a)?;
        let b = self.buffer_of(b)?;
        let cb = self.buffer_of(cb)?;
        let ta = self.flag(py::call::arg(c, "transpose_A", 3), 0)? != 0;
        let tb = self.flag(py::call::arg(c, "transpose_B", 4), 0)? != 0;
        let clear = self.flag(py::call::keyword(c, "clear_accum"), 0)? != 0;
        let two = |x: &Buf| -> DResult<(usize, usize)> {
            match x.shape.as_slice() {
                [r, c] => Ok((*r, *c)),
                _ => err(
                    span,
                    format!(
                        "T.gemm needs 2-dimensional buffers; `{}` has shape {:?}",
                        x.name, x.shape
                    ),
                ),
            }
        };
        let (ar, ac) = two(&a)?;
        let (br, bc) = two(&b)?;
        let (m, n) = two(&cb)?;
        let (am, ak) = if ta { (ac, ar) } else { (ar, ac) };
        let (bk, bn) = if tb { (bc, br) } else { (br, bc) };
        if am != m || bn != n || ak != bk {
            return err(
                span,
                format!(
                    "T.gemm shapes do not fit: A {:?}{}, B {:?}{}, C {:?}",
                    a.shape,
                    if ta { "ᵀ" } else { "" },
                    b.shape,
                    if tb { "ᵀ" } else { "" },
                    cb.shape
                ),
            );
        }
        let d = cb.dtype;
        let acc = self.new_var("_acc", Type::scalar(d));
        // the loop nest is the product's meaning; on three arrays it is also
        // described as one operation, which the interpreter runs fast
        let array = |x: &Buf| match x.base.kind {
            ExprKind::ArrayBase(id) => Some(id),
            _ => None,
        };
        let spec = match (array(&a), array(&b), array(&cb)) {
            (Some(a), Some(b), Some(c)) => Some(GemmSpec {
                a,
                b,
                c,
                m,
                n,
                k: ak,
                trans_a: ta,
                trans_b: tb,
                clear,
            }),
            _ => None,
        };
        self.blocks.push(Vec::new());
        let nest = self.gemm_nest(&a, &b, &cb, (acc, ak), (ta, tb, clear), (m, n), span);
        let body = self.blocks.pop().expect("pushed");
        nest?;
        match spec {
            Some(spec) => self.emit(Stmt::Gemm(Box::new(Gemm { spec, body, span }))),
            None => {
                for s in body {
                    self.emit(s);
                }
            }
        }
        Ok(())
    }

    /// The loop nest of `T.gemm` (see [`Self::gemm`]), emitted into the
    /// current block.
    #[allow(clippy::too_many_arguments)]
    fn gemm_nest(
        &mut self,
        a: &Buf,
        b: &Buf,
        cb: &Buf,
        (acc, ak): (VarId, usize),
        (ta, tb, clear): (bool, bool, bool),
        (m, n): (usize, usize),
        span: Span,
    ) -> DResult<()> {
        let d = cb.dtype;
        self.nest(&[m, n], span, &mut |me, ij| {
            let (i, j) = (ij[0].clone(), ij[1].clone());
            let cp = me.elem_ptr(cb, vec![i.clone(), j.clone()], span)?;
            let init = if clear {
                konst(d, 0, span)
            } else {
                load(cp.clone(), d, span)
            };
            me.emit(Stmt::Let(acc, init));
            let k = me.new_var("_k", Type::scalar(DType::I64));
            let kv = me.var_expr(k, span);
            let a_at = if ta {
                vec![kv.clone(), i.clone()]
            } else {
                vec![i.clone(), kv.clone()]
            };
            let b_at = if tb {
                vec![j.clone(), kv.clone()]
            } else {
                vec![kv.clone(), j.clone()]
            };
            let av = convert(load(me.elem_ptr(a, a_at, span)?, a.dtype, span), d);
            let bv = convert(load(me.elem_ptr(b, b_at, span)?, b.dtype, span), d);
            let prod = bin(BinOp::Mul, av, bv, span);
            let sum = bin(BinOp::Add, me.var_expr(acc, span), prod, span);
            me.emit(Stmt::For {
                var: k,
                start: konst(DType::I64, 0, span),
                end: konst(DType::I64, ak as u64, span),
                step: konst(DType::I64, 1, span),
                body: vec![Stmt::Let(acc, sum)],
                span,
                parallel: None,
            });
            let value = me.var_expr(acc, span);
            me.emit(Stmt::Store {
                ptr: cp,
                value,
                mask: None,
                span,
            });
            Ok(())
        })
    }

    /// A `T.copy`/`T.fill` operand: a whole buffer, a region, or a buffer
    /// element naming where a region starts.
    pub(super) fn region_arg(&mut self, e: &ast::Expr) -> DResult<Region> {
        let span = self.span(e);
        match self.expr(e)? {
            Val::Buf(b) => Ok(Region::whole(b, span)),
            Val::Region(r) => Ok(r),
            Val::Num(_) => {
                let ast::Expr::Subscript(s) = e else {
                    return err(span, "this is not a buffer region");
                };
                let b = self.buffer_of(&s.value)?;
                let idx = self.indices(&s.slice)?;
                self.element_region(b, idx, span)
            }
            _ => err(span, "this is not a buffer region"),
        }
    }

    /// The region that starts at element `idx` of `b`, its extent open
    /// (a copy's other side gives it).
    pub(super) fn element_region(&mut self, b: Buf, idx: Vec<Val>, span: Span) -> DResult<Region> {
        super::expr::check_rank(&b, idx.len(), "is indexed with", span)?;
        let starts = idx
            .into_iter()
            .map(|v| self.num(v, span).map(|x| convert(x, DType::I64)))
            .collect::<DResult<Vec<_>>>()?;
        Ok(Region {
            extents: vec![None; starts.len()],
            starts,
            buf: b,
        })
    }

    /// `T.copy(src, dst)`: element by element over the copied extent (the
    /// dimensions of extent > 1 of both sides, in order, must agree). A
    /// global element outside its buffer is not read (the destination gets
    /// 0) or not written.
    pub(super) fn copy(&mut self, src: Region, dst: Region, span: Span) -> DResult<()> {
        let (shape, src, dst) = paired_extent("T.copy", src, dst, span)?;
        self.nest(&shape, span, &mut |me, idx| {
            let s_at = offset(&src, idx, span);
            let d_at = offset(&dst, idx, span);
            let s_ok = in_bounds(&src.buf, &s_at, span);
            let d_ok = in_bounds(&dst.buf, &d_at, span);
            let sp = me.elem_ptr(&src.buf, s_at, span)?;
            let dp = me.elem_ptr(&dst.buf, d_at, span)?;
            let value = convert(load(sp, src.buf.dtype, span), dst.buf.dtype);
            let zero = konst(dst.buf.dtype, 0, span);
            let write_value = match s_ok {
                None => vec![Stmt::Store {
                    ptr: dp.clone(),
                    value,
                    mask: None,
                    span,
                }],
                Some(c) => vec![Stmt::If {
                    cond: c,
                    then_body: vec![Stmt::Store {
                        ptr: dp.clone(),
                        value,
                        mask: None,
                        span,
                    }],
                    else_body: vec![Stmt::Store {
                        ptr: dp,
                        value: zero,
                        mask: None,
                        span,
                    }],
                }],
            };
            match d_ok {
                None => write_value.into_iter().for_each(|s| me.emit(s)),
                Some(c) => me.emit(Stmt::If {
                    cond: c,
                    then_body: write_value,
                    else_body: vec![],
                }),
            }
            Ok(())
        })
    }

    /// Loops `for i_k in range(ext_k)` nested outermost first, calling `body`
    /// with the index variables.
    pub(super) fn nest(
        &mut self,
        ext: &[usize],
        span: Span,
        body: &mut dyn FnMut(&mut Self, &[Expr]) -> DResult<()>,
    ) -> DResult<()> {
        let vars: Vec<VarId> = ext
            .iter()
            .map(|_| self.new_var("_i", Type::scalar(DType::I64)))
            .collect();
        let idx: Vec<Expr> = vars.iter().map(|&v| self.var_expr(v, span)).collect();
        self.blocks.push(Vec::new());
        let r = body(self, &idx);
        let mut b = self.blocks.pop().expect("pushed");
        r?;
        for (v, &n) in vars.into_iter().zip(ext).rev() {
            b = vec![Stmt::For {
                var: v,
                start: konst(DType::I64, 0, span),
                end: konst(DType::I64, n as u64, span),
                step: konst(DType::I64, 1, span),
                body: b,
                span,
                parallel: None,
            }];
        }
        for s in b {
            self.emit(s);
        }
        Ok(())
    }
}
