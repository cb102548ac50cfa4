//! `raise` and `assert` as numba-cuda compiles them (measured on a GPU,
//! `tools/probes/numba/raise_debug.json`, docs/numba-measured.md (l)):
//!
//! - without `debug=True` a `raise` that runs (an `assert` whose condition
//!   is false) ends the thread silently, in a device function too; the
//!   launch succeeds;
//! - with `@cuda.jit(debug=True)` the thread ends and the host raises the
//!   exception after the launch. ksem records the first such thread (an
//!   atomic compare-and-swap) into a buffer the kernel makes itself,
//!   [`RAISE_BUFFER`]: the `raise`'s line and column, its kind, the thread's
//!   and the block's indices. The Python package raises from it.

use super::*;

/// The name of the buffer a kernel compiled with `debug=True` records its
/// first fired `raise`/`assert` in (a `fresh` parameter of the kernel).
pub const RAISE_BUFFER: &str = "__ksem_raise";

/// Numbers [`RAISE_BUFFER`] holds: line, column, kind, thread x/y/z,
/// block x/y/z.
pub const RAISE_FIELDS: usize = 9;

/// Kind 1: a `raise`/`assert` of the kernel's own body: the host raises
/// the user's exception.
pub const RAISE_IN_KERNEL: i128 = 1;
/// Kind 2: one in a device function (or a nested function): numba-cuda
/// 0.30.4 reports `SystemError: … unknown error 1 in native function`
/// (measured; numba issue 8036).
pub const RAISE_IN_DEVICE_FUNCTION: i128 = 2;
/// Kind 3: a recursive call deeper than ksem inlines
/// ([`super::recursion::MAX_DEPTH`]) was reached: ksem refuses the run
/// (recorded with and without `debug=True`).
pub const RECURSION_TOO_DEEP: i128 = 3;
/// Kind 4: a tuple index out of range at run time: numba-cuda raises
/// `IndexError('tuple index out of range')` there (ending the thread
/// silently without `debug=True`, as any raise).
pub const TUPLE_INDEX_ERROR: i128 = 4;

impl Elab<'_> {
    /// `raise E`, `raise E(constant, …)`.
    pub(super) fn raise_stmt(&mut self, r: &ast::StmtRaise, span: Span) -> DResult<()> {
        let Some(exc) = r.exc.as_deref() else {
            return py::unsupported(
                span,
                "a bare `raise`",
                DIALECT,
                "raise an exception class or instance",
            );
        };
        if r.cause.is_some() {
            return py::unsupported(
                span,
                "`raise … from …`",
                DIALECT,
                "raise the exception without a cause",
            );
        }
        self.check_constant_exception(exc)?;
        self.fire(span);
        Ok(())
    }

    /// `assert cond` / `assert cond, msg`: the condition is evaluated; where
    /// it is false the thread raises `AssertionError`.
    pub(super) fn assert_stmt(&mut self, a: &ast::StmtAssert, span: Span) -> DResult<()> {
        if let Some(m) = a.msg.as_deref() {
            self.check_constant_exception(m)?;
        }
        let cond = self.cond(&a.test)?;
        let failed = unary(UnOp::LogicalNot, cond, span);
        let kind = self.raise_kind();
        self.fire_kind_if(failed, kind, self.debug, span);
        Ok(())
    }

    /// numba needs an exception's arguments at compile time: a name the
    /// function binds at run time is refused.
    fn check_constant_exception(&self, e: &ast::Expr) -> DResult<()> {
        let env = &self.frames.last().expect("a frame").env;
        let mut bad = None;
        walk_expr(e, &mut |x| {
            if let ast::Expr::Name(n) = x {
                if bad.is_none()
                    && matches!(
                        env.get(n.id.as_str()),
                        Some(Val::Num(_) | Val::Complex(_) | Val::Array(_) | Val::Tuple(_))
                    )
                {
                    bad = Some((n.id.to_string(), self.span(x)));
                }
            }
        });
        match bad {
            Some((n, at)) => py::unsupported(
                at,
                &format!("an exception argument computed at run time (`{n}`)"),
                DIALECT,
                "numba-cuda takes only constant exception arguments: raise with a constant message",
            ),
            None => Ok(()),
        }
    }

    /// The thread raises here: with `debug=True` it records itself in
    /// [`RAISE_BUFFER`] if it is the first; then it ends.
    fn fire(&mut self, span: Span) {
        let kind = self.raise_kind();
        self.fire_kind(kind, self.debug, span);
    }

    /// The kind of a `raise` here: in a device function or in the kernel.
    fn raise_kind(&self) -> i128 {
        if self.frames.len() > 1 {
            RAISE_IN_DEVICE_FUNCTION
        } else {
            RAISE_IN_KERNEL
        }
    }

    /// Where `cond` holds, the thread raises `kind` as
    /// [`Elab::fire_kind`] does.
    pub(super) fn fire_kind_if(&mut self, cond: Expr, kind: i128, record: bool, span: Span) {
        self.blocks.push(Vec::new());
        self.fire_kind(kind, record, span);
        let then_body = self.blocks.pop().expect("pushed above");
        self.emit(Stmt::If {
            cond,
            then_body,
            else_body: vec![],
        });
    }

    /// The thread ends here; where `record`, it first records itself (if
    /// it is the first) as a raise of `kind`.
    pub(super) fn fire_kind(&mut self, kind: i128, record: bool, span: Span) {
        if record {
            let buf = self.raise_buffer(span);
            let d = DType::I64;
            let at = |k: i128| {
                mk(
                    ExprKind::ElemPtr {
                        base: Box::new(buf.clone()),
                        indices: vec![int_const(d, k, span)],
                        dims: vec![RAISE_FIELDS],
                        neg: NegIndex::Ub,
                        offset: None,
                    },
                    buf.ty.clone(),
                    span,
                )
            };
            let line = int_const(d, span.line as i128, span);
            let cas = mk(
                ExprKind::Atomic {
                    op: AtomicOp::Cas,
                    ptr: Box::new(at(0)),
                    val: Box::new(line),
                    cmp: Some(Box::new(int_const(d, 0, span))),
                    mask: None,
                },
                Type::scalar(d),
                span,
            );
            let old = self.new_var("_raised", Type::scalar(d));
            self.emit(Stmt::Let(old, cas));
            let first = bin(
                BinOp::Eq,
                self.var_expr(old, span),
                int_const(d, 0, span),
                span,
            );
            let ids = [
                int_const(d, span.col as i128, span),
                int_const(d, kind, span),
                convert(mk(ExprKind::ThreadId(0), Type::scalar(DType::I32), span), d),
                convert(mk(ExprKind::ThreadId(1), Type::scalar(DType::I32), span), d),
                convert(mk(ExprKind::ThreadId(2), Type::scalar(DType::I32), span), d),
                convert(mk(ExprKind::BlockId(0), Type::scalar(DType::I32), span), d),
                convert(mk(ExprKind::BlockId(1), Type::scalar(DType::I32), span), d),
                convert(mk(ExprKind::BlockId(2), Type::scalar(DType::I32), span), d),
            ];
            let then_body = ids
                .into_iter()
                .enumerate()
                .map(|(i, value)| Stmt::Store {
                    ptr: at(i as i128 + 1),
                    value,
                    mask: None,
                    span,
                })
                .collect();
            self.emit(Stmt::If {
                cond: first,
                then_body,
                else_body: vec![],
            });
        }
        self.emit(Stmt::Return);
    }

    /// The pointer to [`RAISE_BUFFER`], made at the first `raise`.
    fn raise_buffer(&mut self, span: Span) -> Expr {
        let var = match self.raise_param {
            Some(v) => v,
            None => {
                let v = self.new_var(RAISE_BUFFER, Type::global_ptr(DType::I64));
                self.raise_param = Some(v);
                v
            }
        };
        self.var_expr(var, span)
    }
}

impl Elab<'_> {
    /// `t[i]` of a tuple of numbers of one type with an index known only at
    /// run time (numba's UniTuple): Python's negative indices count from
    /// the end; out of range, the thread raises IndexError. `None` where
    /// the tuple is not of numbers of one type.
    pub(super) fn tuple_at_run_time(
        &mut self,
        items: Vec<Val>,
        index: &ast::Expr,
        span: Span,
    ) -> Option<DResult<Val>> {
        let xs: Vec<Expr> = items
            .into_iter()
            .map(|v| match v {
                Val::Num(e) => Some(e),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let d = dtype_of(xs.first()?);
        if xs.iter().any(|x| dtype_of(x) != d) {
            return None;
        }
        Some(self.tuple_select(xs, index, span))
    }

    fn tuple_select(&mut self, xs: Vec<Expr>, index: &ast::Expr, span: Span) -> DResult<Val> {
        let i64 = DType::I64;
        let v = self.expr(index)?;
        let i = self.num(v, span)?;
        if dtype_of(&i).is_float() || dtype_of(&i) == DType::Bool {
            return err(span, "a tuple index must be an integer");
        }
        let xs: Vec<Expr> = xs.into_iter().map(|x| self.temp(x)).collect();
        let i = self.temp(convert(i, i64));
        let n = int_const(i64, xs.len() as i128, span);
        let neg = bin(BinOp::Lt, i.clone(), int_const(i64, 0, span), span);
        let j = select(neg, bin(BinOp::Add, i.clone(), n.clone(), span), i, span);
        let j = self.temp(j);
        let low = bin(BinOp::Lt, j.clone(), int_const(i64, 0, span), span);
        let high = bin(BinOp::Ge, j.clone(), n, span);
        let out = bin(BinOp::Or, low, high, span);
        let kind = if self.frames.len() > 1 {
            RAISE_IN_DEVICE_FUNCTION
        } else {
            TUPLE_INDEX_ERROR
        };
        self.fire_kind_if(out, kind, self.debug, span);
        let mut acc = xs.last().expect("a non-empty tuple").clone();
        for (k, x) in xs.iter().enumerate().rev().skip(1) {
            let at = bin(BinOp::Eq, j.clone(), int_const(i64, k as i128, span), span);
            acc = select(at, x.clone(), acc, span);
        }
        Ok(Val::Num(acc))
    }
}
