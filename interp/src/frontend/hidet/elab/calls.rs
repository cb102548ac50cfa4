//! Calls: type casts, Hidet's constructs and primitives, helpers (inlined).

use super::*;

/// A call's arguments: the positional ones in order, then the keyword ones.
pub(super) struct Args {
    /// The positional arguments (not yet taken).
    pub(super) pos: Vec<Val>,
    /// The keyword arguments, by name.
    pub(super) kw: Vec<(String, Val)>,
}

impl Args {
    /// The keyword argument `k`, if given.
    pub(super) fn kw(&self, k: &str) -> Option<Val> {
        self.kw.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    }

    /// Positional argument `i`, else keyword argument `k`.
    pub(super) fn get(&self, i: usize, k: &str) -> Option<Val> {
        self.pos.get(i).cloned().or_else(|| self.kw(k))
    }

    /// Takes the next positional argument, if any is left.
    pub(super) fn next(&mut self) -> Option<Val> {
        (!self.pos.is_empty()).then(|| self.pos.remove(0))
    }

    /// Takes the next positional argument, else keyword argument `k`: the
    /// next parameter, `k`, as Python binds it.
    pub(super) fn take(&mut self, k: &str) -> Option<Val> {
        self.next().or_else(|| self.kw(k))
    }
}

impl<'m> Elab<'m> {
    // ---- calls -----------------------------------------------------------------

    pub(super) fn call(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Val> {
        let callee = self.expr(&c.func)?;
        let mut args = Vec::new();
        for a in &c.args {
            if let ast::Expr::Starred(s) = a {
                match self.expr(&s.value)? {
                    Val::List(items) => args.extend(items),
                    _ => return err(self.span(a), "only a tuple can be unpacked"),
                }
            } else {
                args.push(self.expr(a)?);
            }
        }
        let mut kw = Vec::new();
        for k in &c.keywords {
            let Some(name) = &k.arg else {
                return err(span, "`**kwargs` is not supported in a call");
            };
            kw.push((name.to_string(), self.expr(&k.value)?));
        }
        let args = Args { pos: args, kw };
        match callee {
            Val::Type(HType::Scalar(d)) => {
                let [x] = args.pos.as_slice() else {
                    return err(span, format!("{}(…) takes one value", Named(d)));
                };
                self.supported_dtype(d, span)?;
                self.cast_to(x.clone(), d, span)
            }
            Val::Type(HType::Compound(Elt::Complex(d))) => {
                let [x] = args.pos.as_slice() else {
                    return err(span, format!("{}(…) takes one value", Elt::Complex(d)));
                };
                Ok(Val::Cx(self.as_complex(x.clone(), d, span)?))
            }
            Val::Type(HType::Compound(e)) => err(
                span,
                format!("{e}(…): Hidet has no conversion to a vector type; load it through a pointer (cast(p, ~{e})[0])"),
            ),
            Val::Func(name) => self.inline(&name, args, span),
            Val::Method(base, m) => match (*base, m.as_str()) {
                (Val::TaskMap(t), "spatial" | "repeat") => {
                    let inner = self.mapping_of(&m, args, span)?;
                    if t.task_shape().len() != inner.task_shape().len() {
                        return err(
                            span,
                            "composed task mappings must have the same number of dimensions",
                        );
                    }
                    Ok(Val::TaskMap(TaskMap::Composed(
                        Box::new(t),
                        Box::new(inner),
                    )))
                }
                _ => err(
                    span,
                    format!("`.{m}(…)` is a loop iterable: for i, j in mapping.{m}(w)"),
                ),
            },
            Val::Path(p) => self.path_call(&p, args, span),
            _ => err(span, "this value cannot be called"),
        }
    }

    /// `f32(x)`, `cast(x, f32)`: a Python number becomes a constant of the
    /// type (Hidet prints it as a typed C literal); a Hidet value is
    /// converted as C's cast does.
    pub(super) fn cast_to(&mut self, x: Val, d: DType, span: Span) -> DResult<Val> {
        let x = self.scalar_of(x, span)?;
        let c = ops::cast(&x, d, span)?;
        Ok(Val::from_scalar(c))
    }

    pub(super) fn path_call(&mut self, p: &str, args: Args, span: Span) -> DResult<Val> {
        let name = last(p);
        match name {
            "syncthreads" => {
                if self.kind == FuncKind::CpuKernel {
                    return err(
                        span,
                        "syncthreads() is a CUDA barrier; a cpu_kernel runs as one thread",
                    );
                }
                self.emit(Stmt::Barrier { span });
                Ok(Val::None)
            }
            "printf" => {
                let mut it = args.pos.into_iter();
                let fmt = match it.next() {
                    Some(Val::Str(s)) => s,
                    _ => return err(span, "printf takes a format string first"),
                };
                let mut vals = Vec::new();
                for a in it {
                    vals.push(self.scalar(a, span)?.0);
                }
                self.emit(Stmt::Print {
                    prefix: fmt,
                    args: vals,
                    span,
                });
                Ok(Val::None)
            }
            "cast" => match (args.get(0, "obj"), args.get(1, "dtype")) {
                (Some(x), Some(Val::Type(HType::Scalar(d)))) => {
                    self.supported_dtype(d, span)?;
                    self.cast_to(x, d, span)
                }
                (Some(x), Some(Val::Type(HType::Compound(Elt::Complex(d))))) => {
                    Ok(Val::Cx(self.as_complex(x, d, span)?))
                }
                (Some(x), Some(Val::Type(HType::Pointer(elt)))) => self.pointer_cast(x, elt, span),
                (Some(x), Some(Val::Type(HType::VoidPtr))) => self.void_cast(x, span),
                _ => err(
                    span,
                    "cast(x, dtype) takes a value and a scalar or pointer type",
                ),
            },
            "row_major" | "column_major" | "local_layout" => {
                let mut shape = Vec::new();
                for a in args.pos {
                    shape.extend(self.static_ints(a, span)?);
                }
                Ok(Val::Layout(match name {
                    "row_major" => Layout::row_major(shape),
                    "column_major" => Layout::column_major(shape),
                    _ => Layout::Local { shape },
                }))
            }
            "strided_layout" => {
                let shape = match args.get(0, "shape") {
                    Some(v) => self.static_ints(v, span)?,
                    None => return err(span, "strided_layout(shape, ranks) needs a shape"),
                };
                let ranks: Vec<usize> = match args.get(1, "ranks") {
                    Some(v) => self
                        .static_ints(v, span)?
                        .into_iter()
                        .map(|r| r as usize)
                        .collect(),
                    None => (0..shape.len()).collect(),
                };
                let mut sorted = ranks.clone();
                sorted.sort_unstable();
                if sorted != (0..shape.len()).collect::<Vec<_>>() {
                    return err(
                        span,
                        format!(
                            "ranks {ranks:?} must order the {} dimensions: a permutation of 0..{}",
                            shape.len(),
                            shape.len()
                        ),
                    );
                }
                Ok(Val::Layout(Layout::strided(shape, &ranks)))
            }
            "tensor_pointer" | "as_tensor_pointer" => self.tensor_pointer(name, args, span),
            "spatial" | "repeat" | "row_spatial" | "col_spatial" | "row_repeat" | "col_repeat"
            | "spatial_map" | "repeat_map" | "auto_map" => {
                Ok(Val::TaskMap(self.mapping_of(name, args, span)?))
            }
            "tensor" | "shared_tensor" | "register_tensor" => self.tensor_decl(name, args, span),
            "bitwise_not" => {
                let [x] = args.pos.as_slice() else {
                    return err(span, "bitwise_not(x) takes one value");
                };
                let x = self.scalar_of(x.clone(), span)?;
                let n = ops::bitwise_not(&x, span)?;
                Ok(Val::from_scalar(n))
            }
            "real" | "imag" | "conj" | "make_complex" if p.contains(".primitives.") => {
                match self.complex_primitive(name, args.pos, span)? {
                    Some(v) => Ok(v),
                    None => err(
                        span,
                        format!("`{p}` is not supported in a Hidet kernel yet"),
                    ),
                }
            }
            _ if p.contains(".primitives.") && !p.contains(".cuda.")
                || p.starts_with("hidet.lang.math") =>
            {
                if let Some(v) = self.math(name, &args.pos, span)? {
                    return Ok(v);
                }
                err(
                    span,
                    format!("`{p}` is not supported in a Hidet kernel yet"),
                )
            }
            "atomic_add" | "atomic_sub" | "atomic_min" | "atomic_max" | "atomic_exchange"
            | "atomic_cas" => self.atomic(name, args.pos, span),
            "range" | "grid" => err(
                span,
                format!("{name}(…) is a loop iterable: for i in {name}(…)"),
            ),
            "min" | "max" | "abs" if p.starts_with("builtins.") => Err(Diagnostic::new(
                span,
                format!("Python's {name}() does not apply to Hidet values"),
            )
            .with_help("write the comparison: a if a < b else b")),
            _ => err(
                span,
                format!("`{p}` is not supported in a Hidet kernel yet"),
            ),
        }
    }

    /// `tensor(dtype, shape, layout, scope)`, `shared_tensor(…)`, `register_tensor(…)`.
    pub(super) fn tensor_decl(&mut self, name: &str, mut args: Args, span: Span) -> DResult<Val> {
        let mut scope = match name {
            "shared_tensor" => Some(Val::Str("shared".into())),
            "register_tensor" => Some(Val::Str("register".into())),
            _ => None,
        };
        let mut first = args.next();
        if name == "tensor" {
            // `tensor('shared', f32, …)` (a scope first) or `tensor('float32', …)`
            if matches!(&first, Some(Val::Str(s)) if types::scalar_named(s).is_none()) {
                scope = first.take();
                first = args.next();
            }
        }
        let dtype = first.or_else(|| args.kw("dtype"));
        let shape = args.take("shape");
        let layout = args.take("layout");
        if let Some(s) = args.kw("scope") {
            scope = Some(s);
        }
        let d = match dtype {
            Some(Val::Type(HType::Scalar(d))) => Elt::Real(d),
            Some(Val::Type(HType::Compound(e))) => e,
            Some(Val::Str(s)) => elt_named(&s)
                .ok_or_else(|| Diagnostic::new(span, format!("unknown dtype {s:?}")))?,
            _ => return err(span, "a tensor needs a scalar dtype"),
        };
        let layout = match (shape, layout) {
            (_, Some(Val::Layout(l))) => l,
            (Some(Val::None) | None, None | Some(Val::None)) => {
                return err(span, "a tensor needs a shape or a layout")
            }
            (Some(s), _) => {
                self.compile_time(&s, span)?;
                let shape = self.static_ints(s, span)?;
                Layout::row_major(shape)
            }
            (None, Some(_)) => return err(span, "layout must be a layout (row_major(…), …)"),
        };
        let space = match scope {
            None => AddrSpace::Local,
            Some(Val::Str(s)) => match s.as_str() {
                "shared" => AddrSpace::Shared,
                "register" | "default" | "local" => AddrSpace::Local,
                "global" => {
                    return err(
                        span,
                        "global tensors declared in a kernel are not supported yet",
                    )
                }
                _ => return err(span, format!("unknown scope {s:?}")),
            },
            Some(_) => return err(span, "scope is a string ('shared', 'register')"),
        };
        Ok(Val::Decl(d, layout, space))
    }

    /// Hidet's math primitives (`hidet.ir.primitives.math`): the function of
    /// a float argument's own type (Hidet has one function set per float
    /// type: sqrtf, expf, …); `min`/`max` of the promoted type (C's fminf,
    /// fmaxf for floats: a NaN operand is ignored). `None`: not one of them.
    pub(super) fn math(&mut self, name: &str, args: &[Val], span: Span) -> DResult<Option<Val>> {
        let unary_fn = match MathFn::named(name).filter(|m| MATH.contains(m)) {
            Some(m) => m,
            None if name == "min" || name == "max" => {
                let [a, b] = args else {
                    return err(span, format!("{name}(a, b) takes two values"));
                };
                let a = self.scalar_of(a.clone(), span)?;
                let b = self.scalar_of(b.clone(), span)?;
                let p = ops::promote(a.hty, b.hty, span)?;
                let x = ops::value_for(&a, p, span);
                let y = ops::value_for(&b, p, span);
                let op = if name == "min" {
                    BinOp::Min(NanMode::Ignore)
                } else {
                    BinOp::Max(NanMode::Ignore)
                };
                return Ok(Some(Val::num(bin(op, x, y, span), p)));
            }
            _ => return Ok(None),
        };
        let [x] = args else {
            return err(span, format!("{name}(x) takes one value"));
        };
        let x = self.scalar_of(x.clone(), span)?;
        // a Python number is a float32 constant; an integer has no math function set
        let d = if matches!(x.lit, Some(ops::Lit::Int(_))) {
            DType::F32
        } else {
            x.hty
        };
        if !matches!(d, DType::F32 | DType::F64) {
            return err(
                span,
                format!(
                    "Hidet's {name} has no {} version here (float32 and float64 only)",
                    Named(d)
                ),
            );
        }
        let e = ops::value_for(&x, d, span);
        Ok(Some(Val::num(unary(UnOp::Math(unary_fn), e, span), d)))
    }

    /// `tensor_pointer(dtype, shape, layout, init=p)` and
    /// `as_tensor_pointer(p, dtype, shape, layout)`: a tensor view of the
    /// memory `p` points to. Its shape may depend on the kernel's scalar
    /// arguments (their launch values fix it, as they fix the launch).
    pub(super) fn tensor_pointer(
        &mut self,
        name: &str,
        mut args: Args,
        span: Span,
    ) -> DResult<Val> {
        let init = if name == "as_tensor_pointer" {
            args.take("expr")
        } else {
            None
        };
        let dtype = args.take("dtype");
        let shape = args.take("shape");
        let layout = args.take("layout");
        let init = init.or_else(|| args.take("init"));
        let d = match dtype {
            Some(Val::Type(HType::Scalar(d))) => Elt::Real(d),
            Some(Val::Type(HType::Compound(e))) => e,
            Some(Val::Str(s)) => elt_named(&s)
                .ok_or_else(|| Diagnostic::new(span, format!("unknown dtype {s:?}")))?,
            _ => return err(span, format!("{name} needs a scalar dtype")),
        };
        self.supported_dtype(d.comp(), span)?;
        let layout = match (shape, layout) {
            (_, Some(Val::Layout(l))) => l,
            (Some(s), None | Some(Val::None)) if !matches!(s, Val::None) => {
                Layout::row_major(self.static_ints(s, span).map_err(|d| {
                    d.with_help("a tensor pointer's shape must follow from constants and the kernel's scalar arguments")
                })?)
            }
            _ => return err(span, format!("{name} needs a shape or a layout")),
        };
        let Some(init) = init else {
            return err(span, format!("{name} needs the pointer it views (init=…)"));
        };
        let (base, pd) = self.pointer(init, span)?;
        if pd != d {
            return err(
                span,
                format!("a {d} tensor pointer cannot view {pd} memory"),
            );
        }
        Ok(Val::Tensor(Tensor {
            base,
            elt: d,
            layout,
            prefix: vec![],
        }))
    }

    /// A task mapping from its constructor's arguments.
    pub(super) fn mapping_of(
        &mut self,
        name: &str,
        mut args: Args,
        span: Span,
    ) -> DResult<TaskMap> {
        let mut shape = Vec::new();
        let (shape_vals, mut ranks): (Vec<Val>, Option<Vec<usize>>) =
            if matches!(name, "spatial_map" | "repeat_map") {
                let s = args.take("task_shape").into_iter().collect();
                let r = args.take("ranks");
                (
                    s,
                    r.filter(|r| !matches!(r, Val::None))
                        .map(|r| self.static_ints(r, span))
                        .transpose()?
                        .map(|v| v.into_iter().map(|x| x as usize).collect()),
                )
            } else {
                (
                    std::mem::take(&mut args.pos)
                        .into_iter()
                        .filter(|a| !matches!(a, Val::Str(_)))
                        .collect(),
                    None,
                )
            };
        for v in shape_vals {
            shape.extend(self.static_ints(v, span)?);
        }
        if let Some(r) = args.kw("ranks").filter(|r| !matches!(r, Val::None)) {
            ranks = Some(
                self.static_ints(r, span)?
                    .into_iter()
                    .map(|x| x as usize)
                    .collect(),
            );
        }
        if matches!(name, "col_spatial" | "col_repeat") {
            ranks = Some((0..shape.len()).rev().collect());
        }
        if let Some(r) = &ranks {
            let mut sorted = r.clone();
            sorted.sort_unstable();
            if sorted != (0..shape.len()).collect::<Vec<_>>() {
                return err(
                    span,
                    format!("ranks {r:?} must order the {} dimensions", shape.len()),
                );
            }
        }
        if shape.is_empty() {
            return err(span, format!("{name}(…) needs a task shape"));
        }
        Ok(match name {
            "spatial" | "row_spatial" | "col_spatial" | "spatial_map" => {
                TaskMap::spatial(shape, ranks)
            }
            "auto_map" => {
                let workers = match args.kw("workers") {
                    Some(w) => self.static_ints(w, span)?.first().copied().unwrap_or(0),
                    None => return err(span, "auto_map(…) needs workers=…"),
                };
                TaskMap::auto(shape.clone(), workers, ranks).ok_or_else(|| {
                    Diagnostic::new(span, format!(
                        "Expect the number of tasks {} in task shape {shape:?} be a multiple of number of workers {workers}.",
                        shape.iter().product::<i64>()
                    ))
                })?
            }
            _ => TaskMap::repeat(shape, ranks),
        })
    }

    /// `for i, j in mapping.on(w): body`: the worker's tasks, as Hidet
    /// lowers it (`if w < workers`, the repeat loops, the coordinates).
    pub(super) fn mapping_loop(
        &mut self,
        m: &TaskMap,
        worker: Val,
        names: &[String],
        bind_tuple: bool,
        body: &[ast::Stmt],
        span: Span,
    ) -> DResult<Stmt> {
        let (w, _) = self.scalar(worker, span)?;
        if !dtype_of(&w).is_int() {
            return err(span, "a worker index is an integer");
        }
        let dims = m.task_shape().len();
        let tuple_target = names.len() == 1 && (dims > 1 || bind_tuple);
        if !tuple_target && names.len() != dims {
            return err(
                span,
                format!("Expect {dims} loop variables, but got {}.", names.len()),
            );
        }
        let w = self.temp(convert(w, DType::I64));
        let (loops, coords) = m.lower();
        let loop_vars: Vec<VarId> = loops
            .iter()
            .map(|_| self.new_var("_task", Type::scalar(DType::I32)))
            .collect();
        self.frame().loops += 1;
        self.frame().scopes.push(HashMap::new());
        self.blocks.push(Vec::new());
        // the coordinates, as int32 variables named by the loop targets
        let i64c = |v: i64| int_const(DType::I64, v as i128, span);
        let mut targets = Vec::new();
        for (d, terms) in coords.iter().enumerate() {
            let mut sum = i64c(0);
            let iv = |k: usize| convert(self.var_expr(loop_vars[k], span), DType::I64);
            for t in terms {
                let e = t.value(&Ir(span), &w, iv);
                sum = bin(BinOp::Add, sum, e, span);
            }
            let name = if tuple_target {
                format!("{}{d}", names[0])
            } else {
                names[d].clone()
            };
            let v = self.new_var(&name, Type::scalar(DType::I32));
            self.emit(Stmt::Let(v, convert(sum, DType::I32)));
            targets.push(Val::num(self.var_expr(v, span), DType::I32));
        }
        if tuple_target {
            self.define(&names[0], Val::List(targets));
        } else {
            for (n, t) in names.iter().zip(targets) {
                self.define(n, t);
            }
        }
        let r = self.stmts(body);
        let mut inner = self.blocks.pop().expect("pushed above");
        self.frame().scopes.pop();
        self.frame().loops -= 1;
        r?;
        for (l, &v) in loops.iter().zip(&loop_vars).rev() {
            inner = vec![Stmt::For {
                var: v,
                start: int_const(DType::I32, 0, span),
                end: int_const(DType::I32, l.extent as i128, span),
                step: int_const(DType::I32, 1, span),
                body: inner,
                span,
                parallel: None,
            }];
        }
        if loops.is_empty() {
            // no loop: `break`/`continue` would leave an enclosing one
            if body_has_jump(body) {
                return err(
                    span,
                    "`break`/`continue` in a mapping loop without repeat dimensions",
                );
            }
        }
        let cond = bin(BinOp::Lt, w, i64c(m.workers()), span);
        Ok(Stmt::If {
            cond,
            then_body: inner,
            else_body: vec![],
        })
    }

    pub(super) fn atomic(&mut self, name: &str, args: Vec<Val>, span: Span) -> DResult<Val> {
        if self.kind == FuncKind::CpuKernel {
            return err(
                span,
                format!("{name} is a CUDA atomic; a cpu_kernel runs as one thread"),
            );
        }
        let op = match name {
            "atomic_add" => AtomicOp::Add,
            "atomic_sub" => AtomicOp::Sub,
            "atomic_min" => AtomicOp::Min,
            "atomic_max" => AtomicOp::Max,
            "atomic_exchange" => AtomicOp::Exch,
            _ => AtomicOp::Cas,
        };
        let want = if op == AtomicOp::Cas { 3 } else { 2 };
        py::arity::expect_args(span, name, want, args.len())?;
        let mut it = args.into_iter();
        let (ptr, elt) = self.pointer(it.next().expect("checked"), span)?;
        let Elt::Real(d) = elt else {
            return err(
                span,
                format!("{name} is not defined on {elt} (CUDA's atomics)"),
            );
        };
        let ok = matches!(d, DType::I32 | DType::U32 | DType::I64 | DType::U64)
            || (matches!(d, DType::F32 | DType::F64)
                && matches!(op, AtomicOp::Add | AtomicOp::Exch));
        if !ok {
            return err(
                span,
                format!("{name} is not defined on {} (CUDA's atomics)", Named(d)),
            );
        }
        let mut rest = Vec::new();
        for a in it {
            rest.push(self.scalar_of(a, span)?);
        }
        let val = rest.pop().expect("one");
        let e = ops::atomic(op, ptr, &val, rest.last(), span);
        let v = self.new_var("_atomic", Type::scalar(d));
        self.emit(Stmt::Let(v, e));
        Ok(Val::num(self.var_expr(v, span), d))
    }

    /// A pointer parameter of an inlined helper: a variable of the helper
    /// where it points to global memory, else the pointer held as it is.
    fn pointer_param(&mut self, pname: &str, p: Expr, pspan: Span) -> Expr {
        if p.ty.space() == Some(AddrSpace::Global) {
            let v = self.new_var(pname, p.ty.clone());
            self.emit(Stmt::Let(v, p));
            self.var_expr(v, pspan)
        } else {
            self.hold_ptr(p)
        }
    }

    /// A call of a helper (`cuda_internal`, `cpu_internal`): inlined.
    pub(super) fn inline(&mut self, name: &str, args: Args, span: Span) -> DResult<Val> {
        if !args.kw.is_empty() {
            return err(span, "Hidet do not support call with keyword.");
        }
        let f = &self.m.funcs[name];
        // a host function may call a cpu_kernel (a plain C call); launching
        // a CUDA kernel from one is a grid of its own
        let callee_kind = declared_kind(self.m, f).map(|(k, _)| k);
        let cpu_call = self.kind == FuncKind::CpuKernel
            && matches!(
                callee_kind.as_deref(),
                Some("cpu_kernel" | "cpu_internal" | "public")
            );
        if is_kernel(self.m, f) && !cpu_call {
            return Err(Diagnostic::new(
                span,
                format!("`{name}` is a CUDA kernel: launching one from another function is not supported"),
            )
            .with_help(format!("run `{name}` itself: \"kernel\": \"{name}\" in the launch")));
        }
        if self.frames.iter().any(|fr| fr.name == name) || self.frames.len() > 32 {
            return py::unsupported(span, "recursion", DIALECT, "write the recursion as a loop");
        }
        let args = args.pos;
        let def = f.def.clone();
        let params = self.param_list(&def)?;
        py::arity::expect_args(span, &format!("`{name}`"), params.len(), args.len())?;
        let mut env = HashMap::new();
        for ((pname, pspan, ann), a) in params.iter().zip(args) {
            match self.annotation_type(ann)? {
                HType::Scalar(d) => {
                    self.supported_dtype(d, *pspan)?;
                    let (e, _) = self.scalar(a, span)?;
                    let v = self.new_var(pname, Type::scalar(d));
                    self.emit(Stmt::Let(v, convert(e, d)));
                    env.insert(pname.clone(), Val::num(self.var_expr(v, *pspan), d));
                }
                HType::Compound(Elt::Complex(d)) => {
                    let c = self.as_complex(a, d, span)?;
                    let v = self.hold_compound(pname, Val::Cx(c), *pspan);
                    env.insert(pname.clone(), v);
                }
                HType::Compound(e) => {
                    return err(
                        *pspan,
                        format!("a helper parameter of the vector type {e} is not supported"),
                    )
                }
                HType::Tensor(d, layout) => {
                    let (p, pd) = self.pointer(a, span)?;
                    if pd != d {
                        return err(
                            span,
                            format!("`{pname}` of `{name}` holds {d}, but a {pd} tensor is passed"),
                        );
                    }
                    env.insert(
                        pname.clone(),
                        Val::Tensor(Tensor {
                            prefix: vec![],
                            base: p,
                            elt: d,
                            layout,
                        }),
                    );
                }
                HType::Pointer(d) => {
                    let (p, pd) = self.pointer(a, span)?;
                    if pd != d {
                        return err(
                            span,
                            format!(
                                "`{pname}` of `{name}` is ~{d}, but a pointer to {pd} is passed"
                            ),
                        );
                    }
                    // the parameter is a variable of the helper
                    let p = self.pointer_param(pname, p, *pspan);
                    env.insert(pname.clone(), Val::Ptr(p, d, true));
                }
                HType::VoidPtr => {
                    // any pointer converts to `void *` (C++)
                    let p = self.void_cast(a, span)?;
                    let Val::VoidPtr(p) = p else {
                        unreachable!("void_cast gives a void pointer")
                    };
                    let p = self.pointer_param(pname, p, *pspan);
                    env.insert(pname.clone(), Val::VoidPtr(p));
                }
                HType::Void => return err(*pspan, "a parameter cannot be void"),
            }
        }
        let ret_ty = match &def.returns {
            None => None,
            Some(r) => match self.annotation_type(r)? {
                HType::Scalar(d) => Some(d),
                HType::Void => None,
                _ => return err(self.span(&**r), "a helper returns a scalar or nothing"),
            },
        };
        let names = Names {
            scopes: vec![env],
            addressed: address::addressed_names(&def.body),
        };
        let inl = self.inline_call(name, (names, ret_ty), |me| me.stmts(&def.body), span)?;
        match (inl.ret, inl.more) {
            (Some(r), Some(d)) => Ok(Val::num(self.var_expr(r, span), d)),
            (None, Some(_)) => err(span, format!("`{name}` never returns a value")),
            _ => Ok(Val::None),
        }
    }
}

/// The element type a dtype name given as a string stands for (`'float32'`, `'complex64'`).
fn elt_named(s: &str) -> Option<Elt> {
    types::scalar_named(s)
        .map(Elt::Real)
        .or_else(|| Elt::compound_named(s))
}

/// Task-mapping terms as int64 IR expressions at `span` (C's division).
struct Ir(Span);

impl TermArith for Ir {
    type N = Expr;
    fn konst(&self, v: i64) -> Expr {
        int_const(DType::I64, v as i128, self.0)
    }
    fn div(&self, a: Expr, b: Expr) -> Expr {
        bin(BinOp::IDiv(C_DIV), a, b, self.0)
    }
    fn rem(&self, a: Expr, b: Expr) -> Expr {
        bin(BinOp::IRem(C_DIV), a, b, self.0)
    }
    fn mul(&self, a: Expr, b: Expr) -> Expr {
        bin(BinOp::Mul, a, b, self.0)
    }
}

/// The unary functions of `hidet.ir.primitives.math`.
const MATH: [MathFn; 25] = {
    use MathFn::*;
    [
        Sin, Cos, Tan, Sinh, Cosh, Tanh, Asin, Acos, Atan, Asinh, Acosh, Atanh, Exp, Exp2, Expm1,
        Erf, Sqrt, Rsqrt, Log, Log2, Log10, Log1p, Abs, Ceil, Floor,
    ]
};
