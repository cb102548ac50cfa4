//! Statements: assignments and declarations, control flow, `return`.

use super::*;

impl<'m> Elab<'m> {
    // ---- statements ------------------------------------------------------------

    /// Assigns `v` to an assignment target (Hidet's `process_assign`).
    pub(super) fn assign(&mut self, target: &ast::Expr, v: Val) -> DResult<()> {
        let span = self.span(target);
        match target {
            ast::Expr::Name(n) => self.assign_name(n.id.as_str(), v, span),
            ast::Expr::Subscript(s) => {
                let base = self.store_base(&s.value)?;
                let (ptr, elt) = self.element(base, &s.slice, span)?;
                self.store_elem(ptr, elt, v, span)
            }
            ast::Expr::Attribute(a) => self.assign_attr(a, v, span),
            _ => err(span, "Cannot recognize this as left side of assignment."),
        }
    }

    /// What a store's target indexes (`b` of `b[k] = x`). A store's
    /// target may index a pointer expression at any depth (`(p + 1)[0] =
    /// x`, `pp[0][1] = x`, `(pp + 1)[0][2] = x`; measured: Hidet refuses
    /// only loads of that form).
    fn store_base(&mut self, e: &ast::Expr) -> DResult<Val> {
        let v = match e {
            ast::Expr::Subscript(s) => {
                let base = self.store_base(&s.value)?;
                let span = self.span(e);
                match self.index(base, &s.slice, span)? {
                    Indexed::Elem(ptr, elt) => self.load_elem(ptr, elt, span),
                    Indexed::Sub(t) => Val::Tensor(t),
                }
            }
            e => self.expr(e)?,
        };
        Ok(match v {
            Val::Ptr(p, d, _) => Val::Ptr(p, d, true),
            v => v,
        })
    }

    /// `attrs.func_kind = …`, `attrs.cuda.grid_dim = …`, `attrs.cuda.block_dim = …`.
    pub(super) fn assign_attr(
        &mut self,
        a: &ast::ExprAttribute,
        v: Val,
        span: Span,
    ) -> DResult<()> {
        let path = dotted(&ast::Expr::Attribute(a.clone())).map(|p| self.m.resolve(&p));
        let Some(path) = path.filter(|p| p.contains("attrs")) else {
            return err(span, "Invalid assignment.");
        };
        let attr = path.rsplit_once("attrs.").map_or("", |(_, r)| r);
        match attr {
            "func_kind" | "func_name" | "cuda.dynamic_smem_bytes" | "cuda.min_blocks" => Ok(()),
            "cuda.grid_dim" | "cuda.block_dim" => {
                if self.frames.len() > 1 {
                    return err(span, "launch attributes belong to the kernel, not a helper");
                }
                let dims = self.dims(v, span)?;
                if attr == "cuda.grid_dim" {
                    self.grid = Some((dims, span));
                } else {
                    self.block = Some((dims, span));
                }
                Ok(())
            }
            other => err(span, format!("unknown attribute attrs.{other}")),
        }
    }

    /// A launch dimension: an integer or a tuple of 1–3 integers known while transpiling.
    pub(super) fn dims(&self, v: Val, span: Span) -> DResult<[u32; 3]> {
        let items = match v {
            Val::List(items) => items,
            other => vec![other],
        };
        if items.is_empty() || items.len() > 3 {
            return err(span, "give 1 to 3 dimensions");
        }
        let mut out = [1u32; 3];
        for (i, it) in items.into_iter().enumerate() {
            let n = match it {
                Val::Int(n) => n,
                Val::Num { e, .. } => self.static_int(&e).ok_or_else(|| {
                    Diagnostic::new(span, "launch dimensions must follow from constants and the kernel's scalar arguments")
                })?,
                _ => return err(span, "launch dimensions must be integers"),
            };
            if !(1..=i128::from(u32::MAX)).contains(&n) {
                return err(span, format!("a launch dimension of {n}"));
            }
            out[i] = n as u32;
        }
        Ok(out)
    }

    /// `name = v`: defines `name` (type from `v`) where it is not a
    /// variable yet, else assigns with C's conversion to its type.
    pub(super) fn assign_name(&mut self, name: &str, v: Val, span: Span) -> DResult<()> {
        match self.lookup_local(name) {
            Some(Val::Num {
                e:
                    Expr {
                        kind: ExprKind::Var(id),
                        ..
                    },
                hty,
                ..
            }) if !matches!(v, Val::Layout(_) | Val::List(_) | Val::Str(_)) => {
                let value = self.value_for(v, hty, span)?;
                self.emit(Stmt::Let(id, value));
                Ok(())
            }
            Some(Val::PtrCell(id, d)) => {
                let value = self.pointer_to_store(v, d, span)?;
                self.set_cell(id, DType::U64, value, span);
                Ok(())
            }
            Some(Val::Cell(id, d)) => {
                let value = self.value_for(v, d, span)?;
                self.set_cell(id, d, value, span);
                Ok(())
            }
            Some(Val::Ptr(
                Expr {
                    kind: ExprKind::Var(id),
                    ..
                },
                d,
                _,
            )) => {
                let p = self.pointer(v, span)?;
                if p.1 != d {
                    return err(span, format!("a ~{d} cannot point to {}", p.1));
                }
                self.emit(Stmt::Let(id, p.0));
                Ok(())
            }
            Some(Val::VoidPtr(Expr {
                kind: ExprKind::Var(id),
                ty,
                ..
            })) => {
                // any pointer converts to `void *`; ksem's void pointer
                // keeps the type of the memory it addresses
                let Val::VoidPtr(p) = self.void_cast(v, span)? else {
                    unreachable!("void_cast gives a void pointer")
                };
                if p.ty != ty {
                    return err(span, format!("this void pointer variable addresses {} memory; ksem cannot point it to {} memory", Named(ty.dtype()), Named(p.ty.dtype())));
                }
                self.emit(Stmt::Let(id, p));
                Ok(())
            }
            Some(old @ (Val::Cx(_) | Val::Lanes(..)))
                if compound_vars(&old)
                    && !matches!(v, Val::Layout(_) | Val::List(_) | Val::Str(_)) =>
            {
                self.assign_compound(old, v, span)
            }
            _ => self.define_new(name, v, span),
        }
    }

    /// Defines scalar variable `name` of type `d` with value `e`: an IR
    /// variable, or a one-element local array where the function takes
    /// its address (`~name`, module `address`).
    pub(super) fn define_scalar(
        &mut self,
        name: &str,
        e: Expr,
        d: DType,
        span: Span,
    ) -> DResult<()> {
        let addressed = self.addressed(name);
        if addressed {
            let id = self.alloc(name, d, vec![1], AddrSpace::Local, span)?;
            self.set_cell(id, d, e, span);
            self.define(name, Val::Cell(id, d));
        } else {
            let id = self.new_var(name, Type::scalar(d));
            self.emit(Stmt::Let(id, e));
            let var = self.var_expr(id, span);
            self.define(name, Val::num(var, d));
        }
        Ok(())
    }

    /// Defines variable `name` holding global pointer `p` to `d`: an IR
    /// variable, or (where the function takes its address, `~name`) a
    /// one-element local array of the pointer's `uint64` representation.
    fn define_pointer(&mut self, name: &str, p: Expr, d: Elt, span: Span) -> DResult<()> {
        let addressed = self.addressed(name);
        match d {
            Elt::Real(n) if addressed => {
                let id = self.alloc(name, DType::U64, vec![1], AddrSpace::Local, span)?;
                self.set_cell(id, DType::U64, pointer_bits(p), span);
                self.define(name, Val::PtrCell(id, n));
            }
            _ => {
                let id = self.new_var(name, p.ty.clone());
                self.emit(Stmt::Let(id, p));
                let var = self.var_expr(id, span);
                self.define(name, Val::Ptr(var, d, true));
            }
        }
        Ok(())
    }

    /// A new variable from its first assignment (Hidet's type inference).
    pub(super) fn define_new(&mut self, name: &str, v: Val, span: Span) -> DResult<()> {
        match v {
            Val::Decl(d, layout, space) => {
                let t = self.declare_tensor(name, d, layout, space, span)?;
                self.define(name, t);
            }
            Val::Int(_) | Val::Float(_) | Val::Bool(_) | Val::Num { .. } => {
                let (e, hty) = self.scalar(v, span)?;
                self.define_scalar(name, convert(e, hty), hty, span)?;
            }
            v @ (Val::Cx(_) | Val::Lanes(..)) => self.define_compound(name, v, span)?,
            Val::Ptr(p, d, _) => {
                if p.ty.space() == Some(AddrSpace::Global) {
                    self.define_pointer(name, p, d, span)?;
                } else {
                    // a pointer into shared or local memory stays the
                    // expression that made it (its indices held), which is
                    // what the lowering can address
                    if self.lookup_local(name).is_some() {
                        return err(span, "a pointer into shared or local memory cannot be reassigned in ksem; name each pointer once");
                    }
                    let held = self.hold_ptr(p);
                    self.define(name, Val::Ptr(held, d, true));
                }
            }
            Val::VoidPtr(p) => {
                if p.ty.space() == Some(AddrSpace::Global) {
                    let id = self.new_var(name, p.ty.clone());
                    self.emit(Stmt::Let(id, p));
                    let var = self.var_expr(id, span);
                    self.define(name, Val::VoidPtr(var));
                } else {
                    if self.lookup_local(name).is_some() {
                        return err(span, "a pointer into shared or local memory cannot be reassigned in ksem; name each pointer once");
                    }
                    let held = self.hold_ptr(p);
                    self.define(name, Val::VoidPtr(held));
                }
            }
            Val::Cell(id, d) => {
                let ptr = self.cell_ptr(id, d, span);
                let e = load(ptr, d, span);
                self.define_scalar(name, e, d, span)?;
            }
            Val::None => return err(span, "`None` cannot be assigned"),
            // host values (layouts, lists, strings, tensors, types) are bound by name
            other => self.define(name, other),
        }
        Ok(())
    }

    /// A pointer expression with its indices and offsets held in variables,
    /// so that using it again computes the same address.
    pub(super) fn hold_ptr(&mut self, p: Expr) -> Expr {
        match p.kind {
            ExprKind::Binary(op @ (BinOp::PtrAdd | BinOp::PtrAddBytes), base, k) => {
                let base = self.hold_ptr(*base);
                let k = self.temp(*k);
                bin(op, base, k, p.span)
            }
            ExprKind::ElemPtr { .. } => self.hold(p),
            kind => mk(kind, p.ty, p.span),
        }
    }

    /// An element pointer whose indices (and offset) are held in variables.
    pub(super) fn hold(&mut self, ptr: Expr) -> Expr {
        let Expr { kind, ty, span } = ptr;
        match kind {
            ExprKind::ElemPtr {
                base,
                indices,
                dims,
                neg,
                offset,
            } => {
                let held: Vec<Expr> = indices.into_iter().map(|i| self.temp(i)).collect();
                let offset = offset.map(|o| Box::new(self.temp(*o)));
                mk(
                    ExprKind::ElemPtr {
                        base,
                        indices: held,
                        dims,
                        neg,
                        offset,
                    },
                    ty,
                    span,
                )
            }
            kind => {
                let e = mk(kind, ty, span);
                self.temp(e)
            }
        }
    }

    /// `for (int32_t v = 0; v < end; v = v + 1)` nests, outermost first.
    pub(super) fn nested_loops(
        &mut self,
        names: &[String],
        tuple_target: bool,
        ends: &[Expr],
        body: &[ast::Stmt],
        span: Span,
    ) -> DResult<Stmt> {
        let vars: Vec<VarId> = (0..ends.len())
            .map(|k| {
                let n = if tuple_target {
                    format!("{}{k}", names[0])
                } else {
                    names[k].clone()
                };
                self.new_var(&n, Type::scalar(DType::I32))
            })
            .collect();
        if tuple_target {
            let items = vars
                .iter()
                .map(|&v| Val::num(self.var_expr(v, span), DType::I32))
                .collect();
            self.define(&names[0], Val::List(items));
        } else {
            for (n, &v) in names.iter().zip(&vars) {
                let e = self.var_expr(v, span);
                self.define(n, Val::num(e, DType::I32));
            }
        }
        self.blocks.push(Vec::new());
        let r = self.stmts(body);
        let mut inner = self.blocks.pop().expect("pushed above");
        r?;
        for (k, (&v, end)) in vars.iter().zip(ends).enumerate().rev() {
            // `v < end` in C's common type of int32 and the extent's type
            let c = types::c_arith(DType::I32, dtype_of(end));
            if c != DType::I32 {
                return err(span, format!(
                    "loop extent {k} is {}: ksem runs loops over int32 extents (C compares the int32 loop variable in {})",
                    Named(dtype_of(end)),
                    Named(c)
                ));
            }
            inner = vec![Stmt::For {
                var: v,
                start: int_const(DType::I32, 0, span),
                end: end.clone(),
                step: int_const(DType::I32, 1, span),
                body: inner,
                span,
                parallel: None,
            }];
        }
        Ok(inner.pop().expect("at least one loop"))
    }

    pub(super) fn not_loop<T>(&self, iter: &ast::Expr) -> DResult<T> {
        Err(Diagnostic::new(
            self.span(iter),
            "For loop iterable must be range(...) or grid(...)",
        )
        .with_help("for i in range(n): …  or  for i, j in grid(m, n): …"))
    }
}

/// Whether a complex or vector value is a variable (its parts are IR variables).
fn compound_vars(v: &Val) -> bool {
    let is_var = |e: &Expr| matches!(e.kind, ExprKind::Var(_));
    match v {
        Val::Cx(c) => is_var(&c.re) && is_var(&c.im),
        Val::Lanes(l, _) => l.iter().all(is_var),
        _ => false,
    }
}

impl Walk for Elab<'_> {
    type Cond = Expr;

    const DIALECT: &'static str = DIALECT;

    fn span_of(&self, node: &impl ast::Ranged) -> Span {
        self.span(node)
    }

    fn help(&self, r: walk::Refused) -> &'static str {
        use walk::Refused as R;
        match r {
            R::Assert => "test the condition with `if` and return early",
            R::NestedDef => "define the helper as another @hidet.script function with attrs.func_kind = 'cuda_internal'",
            // measured: Hidet says "Hidet does not support del statement."
            R::Delete => "leave the variable alone (Hidet has no `del`)",
            R::Other => "use assignments, declarations (x: i32 = 0), if, for over range()/grid(), while, break, continue and return",
            r => r.default_help(),
        }
    }

    fn in_loop(&self) -> bool {
        self.loop_open()
    }

    fn expr_statement(&mut self, e: &ast::Expr, _span: Span) -> DResult<()> {
        self.expr(e).map(|_| ())
    }

    fn assign_statement(&mut self, a: &ast::StmtAssign, span: Span) -> DResult<()> {
        let [target] = a.targets.as_slice() else {
            return err(span, "Hidet does not support syntax like \"a = b = 1\".");
        };
        match (target, &*a.value) {
            (
                ast::Expr::Tuple(_) | ast::Expr::List(_),
                ast::Expr::Tuple(_) | ast::Expr::List(_),
            ) if elts(target).len() == elts(&a.value).len() => {
                let vals = elts(&a.value)
                    .iter()
                    .map(|x| self.expr(x))
                    .collect::<DResult<Vec<_>>>()?;
                for (t, v) in elts(target).iter().zip(vals) {
                    self.assign(t, v)?;
                }
                Ok(())
            }
            (ast::Expr::Tuple(ast::ExprTuple { elts, .. }), _)
            | (ast::Expr::List(ast::ExprList { elts, .. }), _) => {
                let v = self.expr(&a.value)?;
                let items = match v {
                    Val::List(items) => items,
                    _ => {
                        return err(
                            span,
                            "The number of left values and right values does not match.",
                        )
                    }
                };
                if items.len() != elts.len() {
                    return err(
                        span,
                        "The number of left values and right values does not match.",
                    );
                }
                for (t, v) in elts.iter().zip(items) {
                    self.assign(t, v)?;
                }
                Ok(())
            }
            _ => {
                let v = self.expr(&a.value)?;
                self.assign(target, v)
            }
        }
    }

    /// `name: T = value` and `name: T` declare a variable of type `T`.
    fn ann_assign_statement(&mut self, a: &ast::StmtAnnAssign, span: Span) -> DResult<()> {
        let ast::Expr::Name(n) = &*a.target else {
            return err(span, "only a name can be declared with a type");
        };
        let name = n.id.as_str();
        if self
            .frames
            .last()
            .and_then(|f| f.scopes.last())
            .is_some_and(|s| s.contains_key(name))
        {
            return err(
                span,
                "Can not define two variables with the same name in the same scope.",
            );
        }
        let ty = self.annotation_type(&a.annotation)?;
        let value = match &a.value {
            Some(v) => Some(self.expr(v)?),
            None => None,
        };
        match (ty, value) {
            (HType::Scalar(d), None) => {
                self.supported_dtype(d, span)?;
                let id = self.alloc(name, d, vec![1], AddrSpace::Local, span)?;
                self.define(name, Val::Cell(id, d));
                Ok(())
            }
            (HType::Scalar(d), Some(v)) => {
                self.supported_dtype(d, span)?;
                let (e, _) = self.scalar(v, span)?;
                self.define_scalar(name, convert(e, d), d, span)
            }
            (HType::Tensor(d, layout), None) => {
                let space = AddrSpace::Local;
                let t = self.declare_tensor(name, d, layout, space, span)?;
                self.define(name, t);
                Ok(())
            }
            (HType::Compound(Elt::Complex(d)), Some(v)) => {
                let c = self.as_complex(v, d, span)?;
                self.define_compound(name, Val::Cx(c), span)
            }
            (HType::Compound(e), Some(v)) => {
                let held = match v {
                    Val::Lanes(l, ve) if ve == e => Val::Lanes(l, ve),
                    _ => return err(span, format!("a {e} variable takes a {e} value (Hidet has no conversion to a vector type)")),
                };
                self.define_compound(name, held, span)
            }
            (HType::Compound(e), None) => Err(Diagnostic::new(
                span,
                format!("ksem needs a {e} variable's value where it is declared"),
            )
            .with_help(format!("declare it with its first value: {name}: {e} = …"))),
            (HType::Pointer(d), Some(v)) => {
                let p = self.pointer(v, span)?;
                if p.1 != d {
                    return err(span, format!("a ~{d} cannot point to {}", p.1));
                }
                if p.0.ty.space() == Some(AddrSpace::Global) {
                    return self.define_pointer(name, p.0, d, span);
                }
                self.define_new(name, Val::Ptr(p.0, d, true), span)
            }
            (HType::VoidPtr, Some(v)) => {
                // any pointer converts to `void *` (C++)
                let v = self.void_cast(v, span)?;
                self.define_new(name, v, span)
            }
            (HType::Pointer(_) | HType::VoidPtr, None) => {
                err(span, "declare a pointer with its value: p: ~f32 = ~a[0]")
            }
            (HType::Tensor(..), Some(_)) => err(span, "a tensor declaration takes no value"),
            (HType::Void, _) => err(span, "a variable cannot be void"),
        }
    }

    fn aug_assign_statement(&mut self, a: &ast::StmtAugAssign, span: Span) -> DResult<()> {
        let cur = match &*a.target {
            ast::Expr::Name(n) => self.lookup(n.id.as_str(), span)?,
            ast::Expr::Subscript(s) => {
                // the element's indices are evaluated once
                let base = self.expr(&s.value)?;
                let (ptr, elt) = self.element(base, &s.slice, span)?;
                let ptr = self.hold(ptr);
                let Elt::Real(d) = elt else {
                    let cur = self.load_elem(ptr.clone(), elt, span);
                    let rhs = self.expr(&a.value)?;
                    let r = self.binop(a.op, cur, rhs, span)?;
                    return self.store_elem(ptr, elt, r, span);
                };
                let cur = load(ptr.clone(), d, span);
                let rhs = self.expr(&a.value)?;
                let cur = Val::num(cur, d);
                let r = self.binop(a.op, cur, rhs, span)?;
                let (e, _) = self.scalar(r, span)?;
                self.emit(Stmt::Store {
                    ptr,
                    value: convert(e, d),
                    mask: None,
                    span,
                });
                return Ok(());
            }
            _ => return err(span, "cannot assign to this expression"),
        };
        let rhs = self.expr(&a.value)?;
        if !matches!(
            a.op,
            ast::Operator::Add
                | ast::Operator::Sub
                | ast::Operator::Mult
                | ast::Operator::Div
                | ast::Operator::FloorDiv
                | ast::Operator::Mod
                | ast::Operator::RShift
                | ast::Operator::LShift
                | ast::Operator::BitXor
        ) {
            return err(
                span,
                format!("Hidet does not support `{}=`", py::op_text(a.op)),
            );
        }
        let r = self.binop(a.op, cur, rhs, span)?;
        self.assign(&a.target, r)
    }

    fn if_condition(&mut self, test: &ast::Expr, _span: Span) -> DResult<walk::Truth<Expr>> {
        let span = self.span(test);
        let c = self.expr(test)?;
        // a condition known while transpiling elaborates only its branch
        if let Some(b) = host_truth(&c) {
            return Ok(walk::Truth::Known(b));
        }
        Ok(walk::Truth::Runtime(self.truth(c, span)?))
    }

    /// A runtime `if`: each branch in a scope of its own.
    fn runtime_branches(&mut self, cond: Expr, i: &ast::StmtIf, _span: Span) -> DResult<()> {
        let then_body = self.block_of(&i.body)?;
        let else_body = self.block_of(&i.orelse)?;
        self.emit(Stmt::If {
            cond,
            then_body,
            else_body,
        });
        Ok(())
    }

    fn for_statement(&mut self, f: &ast::StmtFor, span: Span) -> DResult<()> {
        let targets: Vec<&ast::Expr> = match &*f.target {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            ast::Expr::List(t) => t.elts.iter().collect(),
            t => vec![t],
        };
        let mut names = Vec::new();
        for t in &targets {
            let ast::Expr::Name(n) = t else {
                return err(self.span(*t), "For loop target must be a name.");
            };
            names.push(n.id.to_string());
        }
        let ast::Expr::Call(c) = &*f.iter else {
            return self.not_loop(&f.iter);
        };
        let callee = self.expr(&c.func)?;
        if let Val::Method(base, m) = &callee {
            if let (Val::TaskMap(t), "on") = (&**base, m.as_str()) {
                let [w] = c.args.as_slice() else {
                    return err(span, "mapping.on(w) takes the worker index");
                };
                let w = self.expr(w)?;
                let t = t.clone();
                let mut bind_tuple = false;
                for k in &c.keywords {
                    if k.arg.as_deref() == Some("bind_tuple") {
                        bind_tuple = host_truth(&self.expr(&k.value)?).unwrap_or(false);
                    }
                }
                let stmt = self.mapping_loop(&t, w, &names, bind_tuple, &f.body, span)?;
                self.emit(stmt);
                self.after_loop();
                return Ok(());
            }
        }
        let extents: Vec<Val> = match &callee {
            Val::Path(p) if last(p) == "range" => {
                if c.args.len() != 1 || !c.keywords.is_empty() {
                    return Err(Diagnostic::new(
                        self.span(&*f.iter),
                        "Currently, we only support range(end) instead of range(start, end, step).",
                    )
                    .with_help("loop over range(end - start) and add start to the loop variable"));
                }
                vec![self.expr(&c.args[0])?]
            }
            Val::Path(p) if last(p) == "grid" => {
                let mut ext = Vec::new();
                for a in &c.args {
                    match self.expr(a)? {
                        Val::List(items) => ext.extend(items),
                        Val::Str(_) => {} // loop attributes ('u', 'p'): the order is the same
                        v => ext.push(v),
                    }
                }
                ext
            }
            _ => return self.not_loop(&f.iter),
        };
        let bind_tuple = c.keywords.iter().any(|k| {
            k.arg.as_deref() == Some("bind_tuple")
                && matches!(&k.value, ast::Expr::Constant(v) if matches!(v.value, Constant::Bool(true)))
        });
        let tuple_target = names.len() == 1 && (extents.len() > 1 || bind_tuple)
            || matches!(&callee, Val::Path(p) if last(p) == "grid")
                && c.args.len() == 1
                && matches!(&c.args[0], ast::Expr::List(_) | ast::Expr::Tuple(_));
        if !tuple_target && names.len() != extents.len() {
            return err(
                span,
                format!(
                    "Expect {} loop variables, but got {}.",
                    extents.len(),
                    names.len()
                ),
            );
        }
        let mut ends = Vec::new();
        for (k, x) in extents.into_iter().enumerate() {
            let (e, _) = self.scalar(x, span)?;
            if !dtype_of(&e).is_int() {
                return err(span, format!("loop extent {k} is not an integer"));
            }
            ends.push(self.temp(e));
        }
        self.frame().loops += 1;
        self.frame().scopes.push(HashMap::new());
        let r = self.nested_loops(&names, tuple_target, &ends, &f.body, span);
        self.frame().scopes.pop();
        self.frame().loops -= 1;
        let stmt = r?;
        self.emit(stmt);
        self.after_loop();
        Ok(())
    }

    fn while_statement(&mut self, w: &ast::StmtWhile, span: Span) -> DResult<()> {
        // the condition may need statements (short-circuit operators)
        let (cond, pre) = self.collect(|me| {
            let c = me.expr(&w.test)?;
            me.truth(c, span)
        });
        let cond = cond?;
        self.frame().loops += 1;
        let body = self.block_of(&w.body);
        self.frame().loops -= 1;
        self.emit(simt::while_loop(pre, cond, body?, span));
        self.after_loop();
        Ok(())
    }

    fn jump(&mut self, is_break: bool, _span: Span) -> DResult<()> {
        simt::jump(self, is_break)
    }

    fn return_statement(&mut self, r: &ast::StmtReturn, span: Span) -> DResult<()> {
        let v = r.value.as_deref().map(|e| self.expr(e)).transpose()?;
        let frame = self.frames.last().expect("a frame");
        let Some(inl) = &frame.inline else {
            match (v, self.ret_out) {
                (None | Some(Val::None), None) => {}
                (Some(v), Some((out, d))) if !matches!(v, Val::None) => {
                    let (e, _) = self.scalar(v, span)?;
                    let ptr = self.var_expr(out, span);
                    self.emit(Stmt::Store {
                        ptr,
                        value: convert(e, d),
                        mask: None,
                        span,
                    });
                }
                (_, Some(_)) => return err(span, "this function must return a value"),
                (Some(_), None) => {
                    return err(
                        span,
                        "a kernel returns nothing; store results into a tensor parameter",
                    )
                }
            }
            self.emit(Stmt::Return);
            return Ok(());
        };
        let (done, ret_ty, fname) = (inl.done, inl.more, frame.name.clone());
        match v {
            None | Some(Val::None) => {
                if ret_ty.is_some() {
                    return err(span, format!("`{fname}` must return a value"));
                }
            }
            Some(v) => {
                let Some(d) = ret_ty else {
                    return err(
                        span,
                        format!(
                            "`{fname}` returns void (give it a return annotation such as -> f32)"
                        ),
                    );
                };
                let (e, _) = self.scalar(v, span)?;
                let id = self.result_var(d);
                self.emit(Stmt::Let(id, convert(e, d)));
            }
        }
        self.leave_function(done, span);
        Ok(())
    }
}
