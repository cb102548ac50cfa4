//! Statements: assignments and their typing rule, `if`/`for`/`while`,
//! `break`/`continue`/`return` (also out of inlined device functions).

use super::*;

impl Elab<'_> {
    /// Whether `test` is a condition numba's dead-branch pruning decides
    /// before typing: a name of a module-level constant, or one comparison
    /// of it with another or with a constant (`if FLAG is True:` with `FLAG` a global
    /// or a closed-over variable, which the plugin binds as a module
    /// constant); a semantic constant counts as such a name.
    fn prunable(&self, test: &ast::Expr) -> bool {
        let leaf = |e: &ast::Expr| match e {
            e if self.semantic_constant(e) => true,
            ast::Expr::Constant(_) => true,
            ast::Expr::Name(n) => {
                !self
                    .frames
                    .iter()
                    .any(|f| f.env.contains_key(n.id.as_str()))
                    && matches!(self.m.globals.get(n.id.as_str()), Some(PyValue::Num(_)))
            }
            _ => false,
        };
        // (a condition of literals alone stays a branch: it computes the
        // same, and the fuzzer's printed programs keep their shape)
        let named = |e: &ast::Expr| matches!(e, ast::Expr::Name(_)) || self.semantic_constant(e);
        match test {
            ast::Expr::Compare(c) => {
                c.ops.len() == 1
                    && leaf(&c.left)
                    && leaf(&c.comparators[0])
                    && (named(&c.left) || named(&c.comparators[0]))
            }
            e => named(e) && leaf(e),
        }
    }

    /// Whether `e` is a value numba's `rewrite_semantic_constants` makes a
    /// constant before pruning branches: `len(t)` of a tuple parameter and
    /// `a.ndim` of an array parameter, where the function never assigns the
    /// parameter (`def f(*z): if len(z) == 1: …` compiles one branch per
    /// number of arguments).
    fn semantic_constant(&self, e: &ast::Expr) -> bool {
        let Some(frame) = self.frames.last() else {
            return false;
        };
        let param = |x: &ast::Expr| match x {
            ast::Expr::Name(n) if frame.args.contains(n.id.as_str()) => {
                frame.env.get(n.id.as_str())
            }
            _ => None,
        };
        match e {
            ast::Expr::Call(c) if c.args.len() == 1 && c.keywords.is_empty() => {
                matches!(&*c.func, ast::Expr::Name(f) if f.id.as_str() == "len" && !frame.env.contains_key("len"))
                    && matches!(param(&c.args[0]), Some(Val::Tuple(_)))
            }
            ast::Expr::Attribute(a) if a.attr.as_str() == "ndim" => {
                matches!(param(&a.value), Some(Val::Array(_)))
            }
            _ => false,
        }
    }

    /// `value` with numbers of a tuple held in fresh variables (a tuple bound to
    /// a name keeps the values it had when it was made).
    pub(super) fn materialize(&mut self, v: Val) -> Val {
        match v {
            Val::Tuple(items) => {
                Val::Tuple(items.into_iter().map(|i| self.materialize(i)).collect())
            }
            Val::Num(e) => Val::Num(self.temp(e)),
            Val::Complex(z) => Val::Complex(self.hold(z)),
            Val::Member(_, v) => self.materialize(*v),
            other => other,
        }
    }

    /// Assigns `v` to an assignment target.
    pub(super) fn assign(&mut self, target: &ast::Expr, v: Val) -> DResult<()> {
        let span = self.span(target);
        match target {
            ast::Expr::Name(n) => self.assign_name(n.id.as_str(), v, span),
            ast::Expr::Tuple(t) => {
                let items = match v {
                    Val::Tuple(items) => items,
                    Val::Array(_) => {
                        return py::unsupported(
                            span,
                            "unpacking an array",
                            DIALECT,
                            "arrays cannot be unpacked: read each element with a[i]",
                        )
                    }
                    _ => return err(span, "cannot unpack a non-tuple value"),
                };
                walk::unpack(items.len(), t.elts.len(), span)?;
                for (e, v) in t.elts.iter().zip(items) {
                    self.assign(e, v)?;
                }
                Ok(())
            }
            ast::Expr::Subscript(s) => {
                let arr = match self.expr(&s.value)? {
                    Val::Array(a) => a,
                    Val::Record(r) => return self.record_set(&r, FieldAt::Key(&s.slice), v, span),
                    Val::Bytes(b) => return self.byte_array_store(&b, Index::of(s, span), v),
                    Val::TimeArray(t) => return self.time_store(&t, Index::of(s, span), v),
                    _ => return err(span, "only arrays can be indexed"),
                };
                if arr.pairs == Pairs::Complex {
                    let ptrs = self.complex_ptrs(&arr, Index::of(s, span))?;
                    return self.store_complex(ptrs, v, arr.dtype, span);
                }
                let ptr = self.elem_ptr(&arr, Index::of(s, span))?;
                if matches!(v, Val::Complex(_)) {
                    return err(span, format!("a complex number cannot be stored into a {} array (numba: no conversion from complex to a real type); store .real or abs()", Named(arr.dtype)));
                }
                let value = self.num(v, span)?;
                self.store(ptr, value, arr.dtype, span);
                Ok(())
            }
            ast::Expr::Attribute(a) => {
                match self.expr(&a.value) {
                    Ok(Val::Array(_)) => {
                        return err(span, format!("array attribute `{}` is read-only", a.attr))
                    }
                    Ok(Val::Record(r)) => {
                        return self.record_set(&r, FieldAt::Attr(a.attr.as_str()), v, span)
                    }
                    _ => {}
                }
                py::unsupported(
                    span,
                    "assigning to an attribute",
                    DIALECT,
                    "assign to a variable",
                )
            }
            ast::Expr::Starred(_) => py::unsupported(
                span,
                "starred assignment",
                DIALECT,
                "unpack into one name per value",
            ),
            _ => err(span, "cannot assign to this expression"),
        }
    }

    /// Binds `name` to complex `z`: its two part variables, reused (the
    /// value converted to their dtype) where the name already holds a
    /// complex of that dtype or the assignment is inside a loop or branch.
    pub(super) fn assign_complex(
        &mut self,
        name: &str,
        z: crate::complex::Cx,
        span: Span,
    ) -> DResult<()> {
        let depth = self.frame().depth;
        let d = dtype_of(&z.re);
        let z = self.hold(z);
        let existing = match self.frame().env.get(name) {
            Some(Val::Complex(crate::complex::Cx { re, im })) => match (&re.kind, &im.kind) {
                (ExprKind::Var(r), ExprKind::Var(i)) if re.ty.dtype() == d || depth > 0 => {
                    Some((*r, *i))
                }
                _ => None,
            },
            Some(_) if depth > 0 => {
                return err(span, format!("`{name}` is not a complex number before this loop or branch; a variable keeps its kind inside loops and branches"))
            }
            _ => None,
        };
        let (re, im) = match existing {
            Some(p) => p,
            None => {
                let re = self.new_var(&format!("{name}.real"), Type::scalar(d));
                let im = self.new_var(&format!("{name}.imag"), Type::scalar(d));
                let v = Val::Complex(crate::complex::Cx {
                    re: self.var_expr(re, span),
                    im: self.var_expr(im, span),
                });
                self.frame().env.insert(name.to_string(), v);
                (re, im)
            }
        };
        let pd = self.vars[re].1.dtype();
        self.emit(Stmt::Let(re, convert(z.re, pd)));
        self.emit(Stmt::Let(im, convert(z.im, pd)));
        Ok(())
    }

    /// Whether `name` sizes a shared or local array of the current function.
    pub(super) fn sizes_an_array_here(&self, name: &str) -> bool {
        let fname = &self.frames.last().expect("a frame").name;
        self.m
            .funcs
            .get(fname)
            .is_some_and(|f| sizes_an_array(&f.def.body, name))
    }

    /// How many statements of the current function assign `name`.
    pub(super) fn assignments_in_function(&self, name: &str) -> usize {
        let fname = &self.frames.last().expect("a frame").name;
        self.m
            .funcs
            .get(fname)
            .map_or(usize::MAX, |f| assignment_count(&f.def.body, name))
    }

    /// Whether the assignment of `name` at `span` reaches every read of
    /// `name` in the current function (`names::rebinding_reaches_every_read`).
    fn rebinding_reaches_every_read(&self, name: &str, span: Span) -> bool {
        let fname = &self.frames.last().expect("a frame").name;
        let Some(f) = self.m.funcs.get(fname) else {
            return false;
        };
        let is_target = |t: &ast::Expr| {
            matches!(t, ast::Expr::Name(n) if n.id.as_str() == name) && self.m.src.span(t) == span
        };
        rebinding_reaches_every_read(&f.def.body, name, &is_target)
    }

    /// Binds `name` to `v` by the seed's typing rule.
    pub(super) fn assign_name(&mut self, name: &str, v: Val, span: Span) -> DResult<()> {
        match v {
            Val::Num(e) => {
                let id = self.slot_for(name, dtype_of(&e), span)?;
                let d = self.vars[id].1.dtype();
                self.emit(Stmt::Let(id, convert(e, d)));
                Ok(())
            }
            Val::Complex(z) => self.assign_complex(name, z, span),
            Val::None => err(span, "`None` cannot be assigned in the no-Python mode"),
            Val::Tuple(new) => {
                let depth = self.frame().depth;
                match self.frame().env.get(name).cloned() {
                    Some(Val::Num(_)) if depth > 0 && !self.rebinding_reaches_every_read(name, span) => {
                        err(span, format!("`{name}` is a number before this loop or branch; it cannot become another kind of value there"))
                    }
                    // rebinding inside a loop or branch writes the tuple's
                    // own variables (as numba's tuple variable is written),
                    // so that the new value holds only where the branch runs
                    Some(Val::Tuple(old)) if depth > 0 => {
                        let new = self.own(Val::Tuple(new), true);
                        self.write_slots(name, &old, &new, span)
                    }
                    _ => {
                        // a tuple bound to a name owns its numbers' variables;
                        // its constants stay constants (a shape) unless a
                        // loop or branch of the function rebinds the name
                        let fname = self.frame().name.clone();
                        let rebound = self
                            .m
                            .funcs
                            .get(&fname)
                            .is_some_and(|f| rebinds_in_nested_block(&f.def.body, name));
                        let v = self.own(Val::Tuple(new), !rebound);
                        self.frame().env.insert(name.to_string(), v);
                        Ok(())
                    }
                }
            }
            other => {
                let depth = self.frame().depth;
                if depth > 0
                    && matches!(self.frame().env.get(name), Some(Val::Num(_)))
                    && !self.rebinding_reaches_every_read(name, span)
                {
                    return err(span, format!("`{name}` is a number before this loop or branch; it cannot become another kind of value there"));
                }
                // a new shared or local array takes the name it is bound to
                if let Val::Array(ArrayVal { base, .. }) = &other {
                    if let ExprKind::ArrayBase(id) = base.kind {
                        let a = &mut self.arrays[id];
                        if a.name.starts_with(a.space.name())
                            && a.name[a.space.name().len()..].parse::<usize>().is_ok()
                        {
                            a.name = name.to_string();
                        }
                    }
                }
                self.frame().env.insert(name.to_string(), other);
                Ok(())
            }
        }
    }

    /// `v` with each number held in a fresh variable of its own (a copy even
    /// of a variable: a tuple's element is not the variable it was made
    /// from); with `keep_consts`, constants stay constants (shapes such as
    /// `(4, 4)`).
    pub(super) fn own(&mut self, v: Val, keep_consts: bool) -> Val {
        match v {
            Val::Tuple(items) => Val::Tuple(
                items
                    .into_iter()
                    .map(|i| self.own(i, keep_consts))
                    .collect(),
            ),
            Val::Complex(z) => {
                let re = self.own(Val::Num(z.re), false);
                let im = self.own(Val::Num(z.im), false);
                match (re, im) {
                    (Val::Num(re), Val::Num(im)) => Val::Complex(crate::complex::Cx { re, im }),
                    _ => unreachable!("numbers stay numbers"),
                }
            }
            Val::Num(e) if !(keep_consts && matches!(e.kind, ExprKind::Const(_))) => {
                let span = e.span;
                let id = self.new_var("_t", e.ty.clone());
                self.emit(Stmt::Let(id, e));
                Val::Num(self.var_expr(id, span))
            }
            other => other,
        }
    }

    /// Writes the numbers of tuple `new` into the variables of tuple `old`
    /// (bound to `name` before the loop or branch), each converted to its
    /// variable's type; both must have the same shape.
    pub(super) fn write_slots(
        &mut self,
        name: &str,
        old: &[Val],
        new: &Val,
        span: Span,
    ) -> DResult<()> {
        let mismatch = || {
            err(
                span,
                format!("`{name}` is rebound inside a loop or branch to a tuple of another shape or kind; a tuple variable keeps its type"),
            )
        };
        let Val::Tuple(new) = new else {
            return mismatch();
        };
        if old.len() != new.len() {
            return mismatch();
        }
        for (o, n) in old.iter().zip(new) {
            match (o, n) {
                (
                    Val::Num(Expr {
                        kind: ExprKind::Var(id),
                        ty,
                        ..
                    }),
                    Val::Num(e),
                ) => {
                    let d = ty.dtype();
                    self.emit(Stmt::Let(*id, convert(e.clone(), d)));
                }
                (Val::Tuple(o), n @ Val::Tuple(_)) => self.write_slots(name, o, n, span)?,
                // a constant element stays what it is
                (Val::Num(o), Val::Num(n)) if o.kind == n.kind && o.ty == n.ty => {}
                (Val::Num(_), Val::Num(_)) => {
                    return err(
                        span,
                        format!("`{name}` holds a constant before this loop or branch and another value inside it; make the tuple from variables before the branch"),
                    )
                }
                _ => return mismatch(),
            }
        }
        Ok(())
    }

    /// The variable that an assignment of a `d` value to `name` writes: the
    /// existing one if it has type `d` or the assignment is inside a loop or
    /// branch (the value is then converted to its type), else a new one.
    pub(super) fn slot_for(&mut self, name: &str, d: DType, span: Span) -> DResult<VarId> {
        let depth = self.frame().depth;
        match self.frame().env.get(name) {
            Some(Val::Num(Expr {
                kind: ExprKind::Var(id),
                ty,
                ..
            })) if ty.dtype() == d || depth > 0 => return Ok(*id),
            Some(Val::Num(_)) | None => {}
            Some(_) if depth > 0 => {
                return err(span, format!(
                    "`{name}` is not a number before this loop or branch; a variable keeps its kind inside loops and branches"
                ))
            }
            Some(_) => {}
        }
        let id = self.new_var(name, Type::scalar(d));
        let var = self.var_expr(id, span);
        self.frame().env.insert(name.to_string(), Val::Num(var));
        Ok(id)
    }

    /// An element pointer whose indices are held in variables, so that it can
    /// be used twice (load, then store) with its indices evaluated once.
    pub(super) fn hold_indices(&mut self, mut ptr: Expr) -> Expr {
        if let ExprKind::ElemPtr { indices, .. } = &mut ptr.kind {
            let held = std::mem::take(indices).into_iter().map(|i| self.temp(i));
            *indices = held.collect();
        }
        ptr
    }

    /// The arguments of `range(…)` as (start, end, step), each held in a
    /// variable, of the dtype they promote to (int64 for bools).
    pub(super) fn range_bounds(
        &mut self,
        range_args: &[ast::Expr],
        span: Span,
    ) -> DResult<(Expr, Expr, Expr)> {
        let mut vals = Vec::new();
        for a in range_args {
            let v = self.expr(a)?;
            let e = self.num(v, self.span(a))?;
            if !dtype_of(&e).is_int() && dtype_of(&e) != DType::Bool {
                return err(
                    self.span(a),
                    format!("range() takes integers, not {}", Named(dtype_of(&e))),
                );
            }
            vals.push(e);
        }
        let d = vals
            .iter()
            .map(dtype_of)
            .reduce(types::promote)
            .unwrap_or(DType::I64);
        let d = if d == DType::Bool { DType::I64 } else { d };
        let zero = || int_const(d, 0, span);
        let one = || int_const(d, 1, span);
        let (start, end, step) = walk::range_args("range", vals, zero, one, span)?;
        if let ExprKind::Const(0) = step.kind {
            return Err(walk::zero_step(span));
        }
        let (start, end, step) = (convert(start, d), convert(end, d), convert(step, d));
        Ok((self.temp(start), self.temp(end), self.temp(step)))
    }

    pub(super) fn not_range<T>(&self, iter: &ast::Expr) -> DResult<T> {
        py::unsupported(
            self.span(iter),
            "a for loop over this value",
            DIALECT,
            "loop over range(), a 1-d array, a tuple of numbers, enumerate() or zip() of these",
        )
    }

    /// Elaborates a loop body with `prologue` at its start.
    pub(super) fn loop_body(
        &mut self,
        body: &[ast::Stmt],
        prologue: impl FnOnce(&mut Self),
    ) -> DResult<Block> {
        self.frame().depth += 1;
        self.frame().loops += 1;
        self.blocks.push(Vec::new());
        prologue(self);
        let r = self.stmts(body);
        let b = self.blocks.pop().expect("pushed above");
        self.frame().depth -= 1;
        self.frame().loops -= 1;
        r.map(|()| b)
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
            R::Try => "the no-Python mode catches no exceptions: test the condition with `if`",
            R::Class => "the no-Python mode has no objects: use scalars and arrays",
            R::NestedDef => "define a device function at module level with @cuda.jit(device=True)",
            R::Global => {
                "pass the value as a parameter; module-level constants can be read directly"
            }
            R::AnnAssign => {
                "assign without an annotation; force a type with a type object: x = int16(0)"
            }
            R::Other => "use assignments, if, for over range, while, break, continue and return",
            r => r.default_help(),
        }
    }

    fn in_loop(&self) -> bool {
        self.loop_open()
    }

    fn own_statement(&mut self, s: &ast::Stmt, span: Span) -> Option<DResult<()>> {
        match s {
            ast::Stmt::Raise(r) => Some(self.raise_stmt(r, span)),
            ast::Stmt::Assert(a) => Some(self.assert_stmt(a, span)),
            ast::Stmt::FunctionDef(f) => Some(self.def_closure(f)),
            _ => None,
        }
    }

    fn expr_statement(&mut self, e: &ast::Expr, _span: Span) -> DResult<()> {
        self.expr(e).map(|_| ())
    }

    /// `t = v` (and `a = b = v`): see the comments for the two names
    /// numba folds.
    fn assign_statement(&mut self, a: &ast::StmtAssign, _span: Span) -> DResult<()> {
        let v = self.expr(&a.value)?;
        // `c = Color.red`, the only assignment of c, in the
        // function's entry block: c is that member (its class kept
        // for comparisons, `enums.rs`); elsewhere its value
        if let ([ast::Expr::Name(n)], Val::Member(..)) = (a.targets.as_slice(), &v) {
            let name = n.id.as_str();
            if self.frame().depth == 0
                && !self.frame().env.contains_key(name)
                && self.assignments_in_function(name) == 1
            {
                self.frame().env.insert(name.to_string(), v);
                return Ok(());
            }
        }
        // `N = 100`, the only assignment of N, in the function's
        // entry block, N sizing an array: N is that constant (numba
        // folds it, so `cuda.shared.array(N, int32)` compiles);
        // elsewhere a variable, as before
        if let ([ast::Expr::Name(n)], Val::Num(e)) = (a.targets.as_slice(), &v) {
            let name = n.id.as_str();
            if matches!(e.kind, ExprKind::Const(_))
                && self.frame().depth == 0
                && !self.frame().env.contains_key(name)
                && self.assignments_in_function(name) == 1
                && self.sizes_an_array_here(name)
            {
                self.frame().env.insert(name.to_string(), v);
                return Ok(());
            }
        }
        let v = self.materialize(v);
        for t in &a.targets {
            self.assign(t, v.clone())?;
        }
        Ok(())
    }

    fn aug_assign_statement(&mut self, a: &ast::StmtAugAssign, span: Span) -> DResult<()> {
        match &*a.target {
            ast::Expr::Name(n) => {
                let cur = self.lookup(n.id.as_str(), span)?;
                let mark = self.mark();
                let rhs = self.expr(&a.value)?;
                let r = self.binary(a.op, cur, rhs, mark, span)?;
                self.assign_name(n.id.as_str(), r, span)
            }
            ast::Expr::Subscript(s)
                if matches!(
                    self.expr(&s.value)?,
                    Val::Array(ArrayVal {
                        pairs: Pairs::Complex,
                        ..
                    })
                ) =>
            {
                let arr = self.array_of(&s.value)?;
                let ptrs = self.complex_ptrs(&arr, Index::of(s, span))?;
                let cur = self.load_complex(ptrs.clone(), arr.dtype, span);
                let cur = self.materialize(cur);
                let mark = self.mark();
                let rhs = self.expr(&a.value)?;
                let r = self.binary(a.op, cur, rhs, mark, span)?;
                self.store_complex(ptrs, r, arr.dtype, span)
            }
            ast::Expr::Subscript(s) => {
                let arr = self.array_of(&s.value)?;
                let ptr = self.elem_ptr(&arr, Index::of(s, span))?;
                let ptr = self.hold_indices(ptr);
                let cur = load(ptr.clone(), arr.dtype, span);
                let rhs = self.expr(&a.value)?;
                let rhs = self.num(rhs, span)?;
                let r = self.arith(a.op, cur, rhs, span)?;
                self.store(ptr, r, arr.dtype, span);
                Ok(())
            }
            _ => err(span, "cannot assign to this expression"),
        }
    }

    fn if_condition(&mut self, test: &ast::Expr, _span: Span) -> DResult<walk::Truth<Expr>> {
        let cond = self.cond(test)?;
        if self.prunable(test) {
            if let Some(b) = fold(&cond) {
                // numba's dead-branch pruning: only the branch taken is
                // compiled (and typed)
                return Ok(walk::Truth::Known(b != 0));
            }
        }
        Ok(walk::Truth::Runtime(cond))
    }

    /// A runtime `if`: both branches, one level deeper.
    fn runtime_branches(&mut self, cond: Expr, i: &ast::StmtIf, _span: Span) -> DResult<()> {
        self.frame().depth += 1;
        let then_body = self.block_of(&i.body);
        let else_body = then_body.and_then(|t| Ok((t, self.block_of(&i.orelse)?)));
        self.frame().depth -= 1;
        let (then_body, else_body) = else_body?;
        self.emit(Stmt::If {
            cond,
            then_body,
            else_body,
        });
        Ok(())
    }

    fn for_statement(&mut self, f: &ast::StmtFor, span: Span) -> DResult<()> {
        let range_args = match (&*f.iter, &*f.target) {
            (ast::Expr::Call(c), ast::Expr::Name(_))
                if c.keywords.is_empty()
                    && matches!(&*c.func, ast::Expr::Name(n) if matches!(n.id.as_str(), "range" | "xrange")) =>
            {
                match self.expr(&c.func)? {
                    Val::Builtin("range") => &c.args,
                    _ => return self.for_each(f, span),
                }
            }
            _ => return self.for_each(f, span),
        };
        let ast::Expr::Name(target) = &*f.target else {
            unreachable!("matched above");
        };
        let (start, end, step) = self.range_bounds(range_args, span)?;
        let d = dtype_of(&start);
        // The loop variable follows the assignment rule of the enclosing block.
        let user = self.slot_for(target.id.as_str(), d, span)?;
        let iv = self.new_var("_i", Type::scalar(d));
        let body = self.loop_body(&f.body, |me| {
            let e = me.var_expr(iv, span);
            let d = me.vars[user].1.dtype();
            me.emit(Stmt::Let(user, convert(e, d)));
        })?;
        self.emit(Stmt::For {
            var: iv,
            start,
            end,
            step,
            body,
            span,
            parallel: None,
        });
        self.after_loop();
        Ok(())
    }

    fn while_statement(&mut self, w: &ast::StmtWhile, span: Span) -> DResult<()> {
        // the condition may need statements (short-circuit operators)
        let (cond, pre) = self.collect(|me| me.cond(&w.test));
        let cond = cond?;
        let body = self.loop_body(&w.body, |_| {})?;
        self.emit(simt::while_loop(pre, cond, body, span));
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
            if let Some(v) = v {
                if !matches!(v, Val::None) {
                    return err(
                        span,
                        "a kernel cannot return a value; store results into an array argument",
                    );
                }
            }
            self.emit(Stmt::Return);
            return Ok(());
        };
        let (done, sig_ret, is_none) = (inl.done, inl.sig_ret, inl.is_none);
        match v {
            None | Some(Val::None) => {
                if let Some(inl) = &mut self.frame().inline {
                    inl.none_ret = true;
                }
            }
            Some(t @ Val::Tuple(_)) => {
                let old = frame.inline.as_ref().and_then(|i| i.tret.clone());
                match old {
                    Some(Val::Tuple(old)) => {
                        let name = frame.name.clone();
                        self.write_slots(&format!("the result of `{name}`"), &old, &t, span)?
                    }
                    _ => {
                        let owned = self.own(t, false);
                        if let Some(inl) = &mut self.frame().inline {
                            inl.tret = Some(owned);
                        }
                    }
                }
            }
            Some(Val::Record(r)) => {
                // a record is its bytes' place: the pointer is the result
                let old = frame.inline.as_ref().and_then(|i| i.rret.clone());
                let id = match old {
                    Some((id, layout)) => {
                        if layout != r.layout || self.vars[id].1 != r.base.ty {
                            return err(
                                span,
                                "a device function returns records of different dtypes or memories",
                            );
                        }
                        id
                    }
                    None => {
                        let name = format!("{}.ret", frame.name);
                        let id = self.new_var(&name, r.base.ty.clone());
                        if let Some(inl) = &mut self.frame().inline {
                            inl.rret = Some((id, r.layout.clone()));
                        }
                        id
                    }
                };
                self.emit(Stmt::Let(id, r.base));
            }
            Some(Val::Complex(z)) => {
                let cret = frame.inline.as_ref().and_then(|i| i.cret);
                let (re, im) = match cret {
                    Some(p) => p,
                    None => {
                        let d = sig_ret.unwrap_or(dtype_of(&z.re));
                        let name = frame.name.clone();
                        let re = self.new_var(&format!("{name}.ret.real"), Type::scalar(d));
                        let im = self.new_var(&format!("{name}.ret.imag"), Type::scalar(d));
                        if let Some(inl) = &mut self.frame().inline {
                            inl.cret = Some((re, im));
                        }
                        (re, im)
                    }
                };
                let d = self.vars[re].1.dtype();
                let z = self.hold(z);
                self.emit(Stmt::Let(re, convert(z.re, d)));
                self.emit(Stmt::Let(im, convert(z.im, d)));
            }
            Some(v) => {
                let e = self.num(v, span)?;
                let id = self.result_var(sig_ret.unwrap_or(dtype_of(&e)));
                let d = self.vars[id].1.dtype();
                self.emit(Stmt::Let(id, convert(e, d)));
                self.emit(Stmt::Let(is_none, konst(DType::Bool, 0, span)));
            }
        }
        self.leave_function(done, span);
        Ok(())
    }
}
