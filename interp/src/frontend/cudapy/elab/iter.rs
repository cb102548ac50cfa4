//! `for` loops over what numba-cuda iterates besides a plain `range()`
//! (which `stmt.rs` lowers to a counted loop of its own): a 1-d array (its
//! elements, each read when its iteration starts), a tuple of numbers of
//! one dtype (numba's UniTuple), `enumerate(it[, start])` (an int64 count
//! with each item) and `zip(a, b, …)` (tuples of items, as long as the
//! shortest), nested in any way, and `range()` inside them. Each becomes a
//! counted loop over `0..len` whose body first binds the target to item
//! `k`, so `break`, `continue` and the target's value after the loop are
//! those of the other loops.

use super::*;

/// What a for loop iterates over.
enum Iterable {
    /// `range(start, …, step)` of `len` items (inside enumerate/zip).
    Range {
        start: Expr,
        step: Expr,
        len: Expr,
    },
    Array(ArrayVal),
    Tuple(Vec<Expr>),
    /// A tuple of CUDA vectors of one type: each item's components.
    Vectors(Vec<Vec<Expr>>),
    Enumerate(Box<Iterable>, Expr),
    Zip(Vec<Iterable>),
}

impl Elab<'_> {
    /// Whether `name` is Python's builtin here (not a local, a module-level
    /// name or a function of the module).
    fn is_builtin(&self, name: &str) -> bool {
        !self.frames.last().is_some_and(|f| f.env.contains_key(name))
            && !self.m.globals.contains_key(name)
            && !self.m.funcs.contains_key(name)
    }

    /// `for target in iter: body` over anything but a plain `range()`.
    pub(super) fn for_each(&mut self, f: &ast::StmtFor, span: Span) -> DResult<()> {
        let it = self.iterable(&f.iter)?;
        let n = self.iter_len(&it, span);
        let n = self.temp(n);
        let k = self.new_var("_k", Type::scalar(DType::I64));
        let mut bound = Ok(());
        let body = self.loop_body(&f.body, |me| {
            let kv = me.var_expr(k, span);
            bound = me
                .iter_item(&it, kv, span)
                .and_then(|v| me.assign(&f.target, v));
        });
        bound?;
        let body = body?;
        self.emit(Stmt::For {
            var: k,
            start: int_const(DType::I64, 0, span),
            end: n,
            step: int_const(DType::I64, 1, span),
            body,
            span,
            parallel: None,
        });
        self.after_loop();
        Ok(())
    }

    fn iterable(&mut self, e: &ast::Expr) -> DResult<Iterable> {
        let span = self.span(e);
        if let ast::Expr::Call(c) = e {
            if let ast::Expr::Name(n) = &*c.func {
                let name = n.id.as_str();
                if matches!(name, "enumerate" | "zip" | "range" | "xrange") && self.is_builtin(name)
                {
                    return self.iter_call(name, c, span);
                }
            }
        }
        match self.expr(e)? {
            Val::Array(a) if a.shape.len() == 1 => Ok(Iterable::Array(a)),
            Val::Array(a) => py::unsupported(
                span,
                &format!("a for loop over a {}-d array", a.shape.len()),
                DIALECT,
                "loop over the indices: for i in range(a.shape[0])",
            ),
            Val::Tuple(items) if matches!(items.first(), Some(Val::Vector(_))) => {
                let mut vs: Vec<Vec<Expr>> = Vec::new();
                for it in items {
                    let Val::Vector(v) = it else {
                        return err(span, "a for loop over a tuple of mixed types (numba iterates only tuples of one type)");
                    };
                    let same = |a: &[Expr], b: &[Expr]| {
                        a.len() == b.len() && dtype_of(&a[0]) == dtype_of(&b[0])
                    };
                    if vs.first().is_some_and(|f| !same(f, &v)) {
                        return err(span, "a for loop over a tuple of vectors of mixed types (numba iterates only tuples of one type)");
                    }
                    vs.push(v.into_iter().map(|x| self.temp(x)).collect());
                }
                Ok(Iterable::Vectors(vs))
            }
            Val::Tuple(items) => {
                let mut xs = Vec::new();
                for it in items {
                    xs.push(self.num(it, span)?);
                }
                let Some(first) = xs.first() else {
                    return err(span, "a for loop over an empty tuple");
                };
                {
                    let d = dtype_of(first);
                    if xs.iter().any(|x| dtype_of(x) != d) {
                        return err(
                            span,
                            "a for loop over a tuple of mixed types (numba iterates only tuples of one type)",
                        );
                    }
                }
                let xs = xs.into_iter().map(|x| self.temp(x)).collect();
                Ok(Iterable::Tuple(xs))
            }
            _ => self.not_range(e),
        }
    }

    fn iter_call(&mut self, name: &str, c: &ast::ExprCall, span: Span) -> DResult<Iterable> {
        if !c.keywords.is_empty() && name != "enumerate" {
            return err(span, format!("{name}() takes no keyword arguments here"));
        }
        match name {
            "enumerate" => {
                let mut start = None;
                for k in &c.keywords {
                    match k.arg.as_deref() {
                        Some("start") => start = Some(&k.value),
                        _ => return err(span, "enumerate() takes an iterable and start"),
                    }
                }
                let (it, start) = match (c.args.as_slice(), start) {
                    ([it], s) => (it, s),
                    ([it, s], None) => (it, Some(s)),
                    _ => return err(span, "enumerate() takes an iterable and optionally start"),
                };
                let inner = self.iterable(it)?;
                let start = match start {
                    Some(s) => {
                        let v = self.expr(s)?;
                        let e = self.num(v, self.span(s))?;
                        if !dtype_of(&e).is_int() {
                            return err(self.span(s), "enumerate()'s start must be an integer");
                        }
                        self.temp(convert(e, DType::I64))
                    }
                    None => int_const(DType::I64, 0, span),
                };
                Ok(Iterable::Enumerate(Box::new(inner), start))
            }
            "zip" => {
                if c.args.is_empty() {
                    return py::unsupported(span, "zip()", DIALECT, "zip at least one iterable");
                }
                let mut parts = Vec::new();
                for a in &c.args {
                    parts.push(self.iterable(a)?);
                }
                Ok(Iterable::Zip(parts))
            }
            _ => {
                let (start, end, step) = self.range_bounds(&c.args, span)?;
                let d = dtype_of(&start);
                let i = |v: i128| int_const(d, v, span);
                let zero = i(0);
                // the count of range(start, end, step), 0 when empty:
                // (to - from - 1) // by + 1 going up, and mirrored going down
                let count = |from: &Expr, to: &Expr, by: Expr| {
                    let gap = bin(BinOp::Sub, to.clone(), from.clone(), span);
                    let gap = bin(BinOp::Sub, gap, i(1), span);
                    let steps = bin(BinOp::IDiv(INT_DIV), gap, by, span);
                    bin(BinOp::Add, steps, i(1), span)
                };
                let up = count(&start, &end, step.clone());
                let down = count(
                    &end,
                    &start,
                    bin(BinOp::Sub, zero.clone(), step.clone(), span),
                );
                let pos = bin(BinOp::Gt, step.clone(), zero.clone(), span);
                let len = select(
                    pos,
                    select(
                        bin(BinOp::Gt, end.clone(), start.clone(), span),
                        up,
                        zero.clone(),
                        span,
                    ),
                    select(bin(BinOp::Gt, start.clone(), end, span), down, zero, span),
                    span,
                );
                let len = self.temp(convert(len, DType::I64));
                Ok(Iterable::Range { start, step, len })
            }
        }
    }

    /// The number of items (int64), evaluated before the loop.
    fn iter_len(&mut self, it: &Iterable, span: Span) -> Expr {
        let i64c = |v: usize| int_const(DType::I64, v as i128, span);
        match it {
            Iterable::Range { len, .. } => len.clone(),
            Iterable::Array(a) => a.len_expr(0, span),
            Iterable::Tuple(xs) => i64c(xs.len()),
            Iterable::Vectors(vs) => i64c(vs.len()),
            Iterable::Enumerate(inner, _) => self.iter_len(inner, span),
            Iterable::Zip(parts) => {
                let mut acc: Option<Expr> = None;
                for p in parts {
                    let n = self.iter_len(p, span);
                    acc = Some(match acc {
                        None => n,
                        Some(a) => {
                            let m = bin(BinOp::Min(NanMode::Ignore), a, n, span);
                            self.temp(m)
                        }
                    });
                }
                acc.expect("zip of one iterable or more")
            }
        }
    }

    /// Item `k` (an int64 below the length).
    fn iter_item(&mut self, it: &Iterable, k: Expr, span: Span) -> DResult<Val> {
        Ok(match it {
            Iterable::Range { start, step, .. } => {
                let d = dtype_of(start);
                let off = bin(BinOp::Mul, convert(k, d), step.clone(), span);
                Val::Num(bin(BinOp::Add, start.clone(), off, span))
            }
            Iterable::Array(a) if a.view.is_some() => {
                Val::Num(load(self.index_ptr(a, vec![k], span), a.dtype, span))
            }
            Iterable::Array(a) => {
                let ptr = mk(
                    ExprKind::ElemPtr {
                        base: Box::new(a.base.clone()),
                        indices: vec![k],
                        dims: a.shape.clone(),
                        neg: NegIndex::Wrap,
                        offset: None,
                    },
                    a.base.ty.clone(),
                    span,
                );
                Val::Num(load(ptr, a.dtype, span))
            }
            Iterable::Tuple(xs) => {
                let mut acc = xs.last().expect("a non-empty tuple").clone();
                for (j, x) in xs.iter().enumerate().rev().skip(1) {
                    let at = bin(
                        BinOp::Eq,
                        k.clone(),
                        int_const(DType::I64, j as i128, span),
                        span,
                    );
                    acc = select(at, x.clone(), acc, span);
                }
                Val::Num(acc)
            }
            Iterable::Vectors(vs) => {
                let width = vs[0].len();
                let mut parts = Vec::new();
                for c in 0..width {
                    let column: Vec<Expr> = vs.iter().map(|v| v[c].clone()).collect();
                    match self.iter_item(&Iterable::Tuple(column), k.clone(), span)? {
                        Val::Num(e) => parts.push(e),
                        _ => unreachable!("a tuple's item is a number"),
                    }
                }
                Val::Vector(parts)
            }
            Iterable::Enumerate(inner, start) => {
                let n = bin(BinOp::Add, start.clone(), k.clone(), span);
                let item = self.iter_item(inner, k, span)?;
                Val::Tuple(vec![Val::Num(n), item])
            }
            Iterable::Zip(parts) => {
                let mut items = Vec::new();
                for p in parts {
                    items.push(self.iter_item(p, k.clone(), span)?);
                }
                Val::Tuple(items)
            }
        })
    }
}
