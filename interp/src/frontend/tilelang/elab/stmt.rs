//! Statements: `with T.Kernel`, assignments, loops of every kind, `if`,
//! `while`, and the statements the seed refuses (with its alternatives).

use super::*;

impl<'m> Elab<'m> {
    /// Elaborates one statement (the shared walker, `py/walk.rs`).
    pub(super) fn stmt(&mut self, s: &ast::Stmt) -> DResult<()> {
        py::walk::stmt(self, s)
    }

    /// A condition's truth: a Python value's while elaborating (as Python
    /// runs the kernel's builder), else the runtime value's.
    fn truth_of(&mut self, c: Val, span: Span) -> DResult<py::walk::Truth<Expr>> {
        if let Val::Py(c) = c {
            // Python's truth of the value (`py::value`)
            return match c.truthy() {
                Some(t) => Ok(py::walk::Truth::Known(t)),
                None => err(
                    span,
                    "this Python object has no truth value known at compile time",
                ),
            };
        }
        Ok(py::walk::Truth::Runtime(
            self.truth(self.num(c, span)?, span)?,
        ))
    }

    /// `if c:` … `else:` … where `body(true)` elaborates the first branch
    /// and `body(false)` the second: decided at compile time where `c` is
    /// a Python value (as Python runs the kernel's builder), else a runtime
    /// `if`; the names in `assigned` (those the branches assign) stop being
    /// compile-time values first.
    pub(super) fn if_with(
        &mut self,
        c: Val,
        assigned: &[String],
        body: &mut dyn FnMut(&mut Self, bool) -> DResult<()>,
        span: Span,
    ) -> DResult<()> {
        match self.truth_of(c, span)? {
            py::walk::Truth::Known(taken) => body(self, taken),
            py::walk::Truth::Runtime(c) => self.branches(c, assigned, body, span),
        }
    }

    /// A runtime `if` on `c`: the names in `assigned` become runtime
    /// variables, then `body(true)` and `body(false)` make the branches.
    fn branches(
        &mut self,
        c: Expr,
        assigned: &[String],
        body: &mut dyn FnMut(&mut Self, bool) -> DResult<()>,
        span: Span,
    ) -> DResult<()> {
        self.materialize(assigned, span)?;
        let (r, then_body) = self.collect(|me| body(me, true));
        r?;
        let (r, else_body) = self.collect(|me| body(me, false));
        r?;
        self.emit(Stmt::If {
            cond: c,
            then_body,
            else_body,
        });
        Ok(())
    }

    /// `with T.Kernel(gx, gy, threads=N) as (bx, by):`.
    pub(super) fn with_stmt(&mut self, w: &ast::StmtWith, span: Span) -> DResult<()> {
        let [item] = w.items.as_slice() else {
            return py::unsupported(
                span,
                "`with` of several items",
                DIALECT,
                "use one `with T.Kernel(…)`",
            );
        };
        let ast::Expr::Call(c) = &item.context_expr else {
            return py::unsupported(
                span,
                "this `with`",
                DIALECT,
                "only `with T.Kernel(…)` (and `T.ws`) are supported",
            );
        };
        let f = dotted(&c.func).unwrap_or_default();
        let is = |n: &str| self.m.lang.iter().any(|l| f == format!("{l}.{n}"));
        if is("ws") {
            return self.stmts(&w.body);
        }
        if !is("Kernel") {
            return py::unsupported(
                span,
                "this `with`",
                DIALECT,
                "only `with T.Kernel(…)` (and `T.ws`) are supported",
            );
        }
        // a grid size may use a scalar argument: the launch gives its value
        let sizes: Vec<(Option<i128>, Span)> = c
            .args
            .iter()
            .map(|a| {
                let n = self
                    .py_value(a)
                    .or_else(|_| self.py_value_at_launch(a))
                    .ok()
                    .and_then(|v| v.as_int());
                (n, self.span(a))
            })
            .collect();
        if let Some((_, a)) = sizes.iter().zip(&c.args).find(|((n, _), _)| n.is_none()) {
            return Err(self.not_known(a, "a grid dimension must be known at compile time"));
        }
        let mut threads = None;
        for k in &c.keywords {
            match k.arg.as_deref() {
                Some("threads") => {
                    let v = match self.py_value(&k.value) {
                        Ok(v) => v,
                        Err(_) => {
                            return Err(
                                self.not_known(&k.value, "`threads` must be known at compile time")
                            )
                        }
                    };
                    threads = Some((v, self.span(&k.value)));
                }
                Some("prelude") | Some("is_cpu") | Some("cluster_dims") => {}
                other => {
                    return err(
                        span,
                        format!("T.Kernel has no argument `{}`", other.unwrap_or("**")),
                    )
                }
            }
        }
        let mut names = Vec::new();
        if let Some(v) = &item.optional_vars {
            let items: Vec<&ast::Expr> = match &**v {
                ast::Expr::Tuple(t) => t.elts.iter().collect(),
                one => vec![one],
            };
            if items.len() > c.args.len() {
                return err(
                    self.span(&**v),
                    format!(
                        "T.Kernel has {} grid dimension(s) but binds {} names",
                        c.args.len(),
                        items.len()
                    ),
                );
            }
            for n in items {
                let ast::Expr::Name(n) = n else {
                    return err(self.span(n), "bind block indices to names");
                };
                names.push(n.id.to_string());
            }
        }
        if self.in_launch {
            return err(span, "a `with T.Kernel(…)` inside another one").map_err(|d| {
                d.with_help("write the launches one after the other at the top of the kernel")
            });
        }
        // names bound in the body are the body's alone (TVM's `with` frame)
        let outer = self.env.clone();
        self.bind_launch(&sizes, threads, &names, span)?;
        self.in_launch = true;
        let r = self.stmts(&w.body);
        self.in_launch = false;
        self.env = outer;
        r
    }

    /// The launch of `T.Kernel(g0, g1, …, threads=t) as (bx, by, …)`: the
    /// grid sizes (`None`: not known at compile time) with their spans, the
    /// `threads` value with its span, and the names bound to the block
    /// indices. A kernel's second (third …) launch ends the one before it
    /// and starts again from the kernel's prologue (its parameters).
    pub(super) fn bind_launch(
        &mut self,
        sizes: &[(Option<i128>, Span)],
        threads_arg: Option<(Const, Span)>,
        names: &[String],
        span: Span,
    ) -> DResult<()> {
        if let Some(grid) = self.grid {
            // a further launch: it runs after the ones before it
            if self.blocks.len() != 1 {
                return err(span, "a second `with T.Kernel(…)` inside a statement").map_err(|d| {
                    d.with_help("write the launches one after the other at the top of the kernel")
                });
            }
            let done = self.take_launch(grid);
            self.finished.push(done);
        } else if self.prologue.is_none() {
            let body = self.blocks.first().cloned().unwrap_or_default();
            self.prologue = Some((body, self.vars.len(), self.arrays.len()));
        }
        let mut grid = [1u32; 3];
        if sizes.is_empty() || sizes.len() > 3 {
            return err(span, "T.Kernel takes 1 to 3 grid dimensions");
        }
        for (i, &(n, a)) in sizes.iter().enumerate() {
            match n {
                Some(n) if (1..=u32::MAX as i128).contains(&n) => grid[i] = n as u32,
                Some(n) => {
                    return err(
                        a,
                        format!("grid dimension {i} is {n}: a launch needs at least one block"),
                    )
                }
                None => return err(a, "a grid dimension must be known at compile time"),
            }
        }
        if grid.iter().map(|&g| g as u64).product::<u64>() > crate::launch::MAX_PROGRAMS {
            return err(
                span,
                format!(
                    "grid {grid:?} has more than {} blocks",
                    crate::launch::MAX_PROGRAMS
                ),
            );
        }
        let mut threads = [128u32, 1, 1];
        if let Some((v, vspan)) = threads_arg {
            let items = match v {
                Const::Tuple(t) | Const::List(t) => t,
                one => vec![one],
            };
            if items.is_empty() || items.len() > 3 {
                return err(vspan, "`threads` has 1 to 3 dimensions");
            }
            threads = [1, 1, 1];
            for (i, t) in items.iter().enumerate() {
                match t.as_int() {
                    Some(n) if (1..=1024).contains(&n) => threads[i] = n as u32,
                    _ => {
                        return err(
                            vspan,
                            format!("threads = {t:?}: a block has 1 to 1024 threads"),
                        )
                    }
                }
            }
            if threads.iter().product::<u32>() > 1024 {
                return err(
                    vspan,
                    format!("threads {threads:?}: a block has at most 1024 threads"),
                );
            }
        }
        let dims = sizes.len();
        py::arity::count(span, names.len(), (0, dims), |n| {
            format!("T.Kernel has {dims} grid dimension(s) but binds {n} names")
        })?;
        self.grid = Some((grid, span));
        self.threads = Some((threads, span));
        for (i, n) in names.iter().enumerate() {
            let e = mk(ExprKind::BlockId(i as u8), Type::scalar(DType::I32), span);
            self.env.insert(n.clone(), Val::Num(e));
        }
        Ok(())
    }

    /// Names bound to Python numbers that `body` assigns become runtime
    /// variables first: a loop or a runtime branch may change them, so their
    /// value is no longer known at compile time.
    pub(super) fn materialize_assigned(&mut self, body: &[ast::Stmt], span: Span) -> DResult<()> {
        let mut names = Vec::new();
        assigned_names(body, &mut names);
        self.materialize(&names, span)
    }

    /// The names of `names` bound to Python numbers become runtime variables.
    pub(super) fn materialize(&mut self, names: &[String], span: Span) -> DResult<()> {
        for n in names.iter().cloned() {
            if let Some(Val::Py(
                c @ (Const::Num(PyNum::Int(_))
                | Const::Num(PyNum::Float(_))
                | Const::Num(PyNum::Bool(_))),
            )) = self.env.get(&n).cloned()
            {
                let e = self.literal(&c, span)?;
                let slot = self.new_var(&n, e.ty.clone());
                self.emit(Stmt::Let(slot, e));
                let ve = self.var_expr(slot, span);
                self.env.insert(n, Val::Num(ve));
            }
        }
        Ok(())
    }

    /// Assigns `v` to a name or a buffer element.
    pub(super) fn assign(&mut self, target: &ast::Expr, v: Val) -> DResult<()> {
        let span = self.span(target);
        match target {
            ast::Expr::Name(n) => self.assign_name_val(n.id.as_str(), v, span),
            ast::Expr::Subscript(s) => {
                let b = self.buffer_of(&s.value)?;
                let idx = self.indices(&s.slice)?;
                self.store_val(&b, idx, v, span)
            }
            ast::Expr::Tuple(_) | ast::Expr::List(_) => py::unsupported(
                span,
                "tuple unpacking (except in T.Parallel loops)",
                DIALECT,
                "assign each value separately",
            ),
            _ => py::unsupported(
                span,
                "this assignment target",
                DIALECT,
                "assign to a name or a buffer element",
            ),
        }
    }

    /// `b[idx] = v`: `v` converted to the buffer's dtype.
    pub(super) fn store_val(&mut self, b: &Buf, idx: Vec<Val>, v: Val, span: Span) -> DResult<()> {
        let e = self.num_in(v, b.dtype, span)?;
        let p = self.elem_ptr(b, idx, span)?;
        self.store(p, e, b.dtype, span);
        Ok(())
    }

    /// `name = v`: a store where `name` is a `T.alloc_var`, a new value of
    /// the variable (in its dtype) where it is one, else a new binding (a
    /// runtime value gets a variable; a Python value stays one).
    pub(super) fn assign_name_val(&mut self, name: &str, v: Val, span: Span) -> DResult<()> {
        let name = name.to_string();
        match (self.env.get(&name).cloned(), v) {
            (Some(Val::Buf(b)), v) if b.scalar => {
                let e = self.num_in(v, b.dtype, span)?;
                let p = self.elem_ptr(&b, vec![konst(DType::I64, 0, span)], span)?;
                self.store(p, e, b.dtype, span);
            }
            (Some(Val::Num(old)), v @ (Val::Num(_) | Val::Py(_)))
                if matches!(old.kind, ExprKind::Var(_)) =>
            {
                let ExprKind::Var(slot) = old.kind else {
                    unreachable!()
                };
                let d = dtype_of(&old);
                let e = self.num_in(v, d, span)?;
                self.emit(Stmt::Let(slot, convert(e, d)));
            }
            (_, Val::Num(e)) => {
                let slot = self.new_var(&name, e.ty.clone());
                self.emit(Stmt::Let(slot, e));
                let ve = self.var_expr(slot, span);
                self.env.insert(name, Val::Num(ve));
            }
            (_, v) => {
                self.env.insert(name, v);
            }
        }
        Ok(())
    }

    /// A loop of `kind` binding `names` (one per nested loop, outermost
    /// first) over `ranges` (start, end, step); `body` elaborates the body.
    /// The names in `assigned` (those the body assigns) stop being
    /// compile-time values first. `T.Parallel` loops are marked parallel,
    /// with the arrays their body allocates private to an iteration; the
    /// other kinds are the same sequential loop.
    pub(super) fn for_with(
        &mut self,
        kind: LoopKind,
        names: &[String],
        ranges: Vec<(Val, Val, Val)>,
        assigned: &[String],
        body: &mut dyn FnMut(&mut Self) -> DResult<()>,
        span: Span,
    ) -> DResult<()> {
        if names.len() != ranges.len() {
            return err(
                span,
                format!("{} loop indices for {} ranges", names.len(), ranges.len()),
            );
        }
        let mut loop_vars = Vec::new();
        let mut bounds = Vec::new();
        for (n, (s, e, st)) in names.iter().zip(ranges) {
            let (s, e, st) = (self.num(s, span)?, self.num(e, span)?, self.num(st, span)?);
            let d = [&s, &e, &st]
                .iter()
                .map(|x| dtype_of(x))
                .try_fold(DType::I32, types::promote)
                .filter(|d| d.is_int() && *d != DType::Bool);
            let Some(d) = d else {
                return err(span, "loop bounds must be integers");
            };
            if fold_int(&st) == Some(0) {
                return Err(py::walk::zero_step(span));
            }
            let v = self.new_var(n, Type::scalar(d));
            let ve = self.var_expr(v, span);
            self.env.insert(n.clone(), Val::Num(ve));
            loop_vars.push(v);
            bounds.push((convert(s, d), convert(e, d), convert(st, d)));
        }
        self.materialize(assigned, span)?;
        let outer = self.parallel.len();
        let is_parallel = kind == LoopKind::Parallel;
        if is_parallel {
            self.parallel.extend(loop_vars.iter().copied());
        }
        let first_array = self.arrays.len();
        self.loops += 1;
        self.blocks.push(Vec::new());
        let r = body(self);
        let body = self.blocks.pop().expect("pushed");
        self.loops -= 1;
        self.parallel.truncate(outer);
        r?;
        let mut body = body;
        // T.Parallel's iterations are independent: arrays allocated in its
        // body belong to one iteration each
        let parallel = is_parallel.then(|| Parallel {
            private: (first_array..self.arrays.len()).collect(),
        });
        for (v, (start, end, step)) in loop_vars.into_iter().zip(bounds).rev() {
            body = vec![Stmt::For {
                var: v,
                start,
                end,
                step,
                body,
                span,
                parallel: parallel.clone(),
            }];
        }
        for s in body {
            self.emit(s);
        }
        Ok(())
    }
}

impl Walk for Elab<'_> {
    type Cond = Expr;

    const DIALECT: &'static str = DIALECT;

    fn span_of(&self, node: &impl ast::Ranged) -> Span {
        self.span(node)
    }

    fn help(&self, r: py::walk::Refused) -> &'static str {
        use py::walk::Refused as R;
        match r {
            R::Import => "import at module level, not inside the kernel",
            R::Other => "see the TileLang seed's table of supported syntax",
            r => r.default_help(),
        }
    }

    fn in_loop(&self) -> bool {
        self.loops > 0
    }

    fn own_statement(&mut self, s: &ast::Stmt, span: Span) -> Option<DResult<()>> {
        match s {
            ast::Stmt::With(w) => Some(self.with_stmt(w, span)),
            // an assert on compile-time values is Python's (meta-programming)
            ast::Stmt::Assert(a) => {
                Some(match self.py_value(&a.test).ok().and_then(|c| c.truthy()) {
                    Some(true) => Ok(()),
                    Some(false) => err(span, "this assertion fails for these arguments"),
                    None => py::unsupported(
                        span,
                        "`assert`",
                        DIALECT,
                        "use T.device_assert or T.assert",
                    ),
                })
            }
            _ => None,
        }
    }

    fn expr_statement(&mut self, e: &ast::Expr, span: Span) -> DResult<()> {
        if let ast::Expr::Call(c) = e {
            if let Some(done) = self.statement_call(c, span)? {
                return Ok(done);
            }
        }
        self.expr(e).map(|_| ())
    }

    /// `t = v`: host Python before the kernel, an eager assignment, or a
    /// store or binding.
    fn assign_statement(&mut self, a: &ast::StmtAssign, span: Span) -> DResult<()> {
        if a.targets.len() > 1 && self.grid.is_none() {
            // host Python before the kernel: `x = y = 16`
            let v = self.py_value(&a.value)?;
            for t in &a.targets {
                let mut bound = HashMap::new();
                consts::bind(t, Some(&v), &mut bound);
                for (k, v) in bound {
                    self.env.insert(k, Val::Py(v));
                }
            }
            return Ok(());
        }
        if a.targets.len() > 1 {
            return err_help(
                span,
                "Consequential assignments like 'a = b = c' are not supported",
                "use separate assignment statements",
            );
        }
        if let Some(done) = self.eager_assign(&a.targets[0], &a.value, span)? {
            return Ok(done);
        }
        if let ast::Expr::Tuple(_) | ast::Expr::List(_) = &a.targets[0] {
            return self.assign(&a.targets[0], Val::Py(Const::None));
        }
        let v = self.expr(&a.value)?;
        self.assign(&a.targets[0], v)
    }

    /// `t: T = v`: the value converted to `T` where `T` is a dtype.
    fn ann_assign_statement(&mut self, a: &ast::StmtAnnAssign, span: Span) -> DResult<()> {
        match &a.value {
            Some(v) => {
                let v = self.expr(v)?;
                let v = match self.py_value(&a.annotation).ok().and_then(|c| c.as_dtype()) {
                    Some(d) => Val::Num(convert(self.num(v, span)?, d)),
                    None => v,
                };
                self.assign(&a.target, v)
            }
            None => err(
                span,
                "an annotation without a value declares nothing in a TileLang kernel",
            ),
        }
    }

    fn aug_assign_statement(&mut self, a: &ast::StmtAugAssign, span: Span) -> DResult<()> {
        // `t = t op v`: the target's value, then `v`, then the operation
        let cur = self.expr(&a.target)?;
        let rhs = self.expr(&a.value)?;
        let v = self.bin_val(Binary {
            op: a.op,
            l: cur,
            r: rhs,
            span,
        })?;
        self.assign(&a.target, v)
    }

    fn if_condition(&mut self, test: &ast::Expr, span: Span) -> DResult<py::walk::Truth<Expr>> {
        let c = self.expr(test)?;
        self.truth_of(c, span)
    }

    fn runtime_branches(&mut self, c: Expr, i: &ast::StmtIf, span: Span) -> DResult<()> {
        let mut assigned = Vec::new();
        assigned_names(&i.body, &mut assigned);
        assigned_names(&i.orelse, &mut assigned);
        self.branches(
            c,
            &assigned,
            &mut |me, then| me.stmts(if then { &i.body } else { &i.orelse }),
            span,
        )
    }

    /// `for` over `range`, `T.serial`, `T.unroll`, `T.Pipelined`, `T.Parallel`, `T.grid`.
    fn for_statement(&mut self, f: &ast::StmtFor, span: Span) -> DResult<()> {
        let not_loop = |me: &Self| {
            py::unsupported::<()>(me.span(&*f.iter), "iterating over a collection (Expect the for loop to be one of: range, T.serial, T.grid, T.Parallel, T.Pipelined, T.unroll)", DIALECT, "use range(), T.serial(), or T.Parallel() with an index")
        };
        let ast::Expr::Call(c) = &*f.iter else {
            return not_loop(self);
        };
        let fname = dotted(&c.func).unwrap_or_default();
        let kind = match fname.as_str() {
            "range" => "serial",
            p if p.ends_with(".Serial") => "serial",
            p => match p.rsplit_once('.') {
                Some((base, k)) if self.m.lang.iter().any(|l| l == base) => k,
                _ => return not_loop(self),
            },
        };
        let targets: Vec<&ast::Expr> = match &*f.target {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            one => vec![one],
        };
        // (start, end, step) per nested loop, outermost first
        let mut ranges: Vec<(Val, Val, Val)> = Vec::new();
        let zero = || Val::Py(Const::Num(PyNum::Int(0)));
        let one = || Val::Py(Const::Num(PyNum::Int(1)));
        let args: Vec<Val> = c
            .args
            .iter()
            .map(|a| self.expr(a))
            .collect::<DResult<_>>()?;
        match kind {
            // T.vectorized runs as T.serial: vectorising a loop of
            // independent iterations does not change what it computes;
            // TIR's lower-case T.parallel(start, stop) is the loop kind
            // T.Parallel makes (ForKind.PARALLEL), one dimension
            "serial" | "unroll" | "Pipelined" | "vectorized" | "parallel" => {
                let a = args;
                if kind == "Pipelined" && a.len() > 2 {
                    return err(
                        span,
                        "T.Pipelined takes an extent (or start, stop) and keyword options",
                    );
                }
                ranges.push(py::walk::range_args(&fname, a, zero, one, span)?);
            }
            "Parallel" | "grid" => {
                if args.is_empty() {
                    return err(span, format!("{fname} needs at least one extent"));
                }
                for a in args {
                    ranges.push((zero(), a, one()));
                }
            }
            _ => return not_loop(self),
        }
        if targets.len() != ranges.len() {
            return err(
                self.span(&*f.target),
                format!(
                    "{fname} makes {} loop indices but the loop binds {}",
                    ranges.len(),
                    targets.len()
                ),
            );
        }
        let mut names = Vec::new();
        for t in &targets {
            let ast::Expr::Name(n) = t else {
                return err(self.span(*t), "a loop index must be a name");
            };
            names.push(n.id.to_string());
        }
        let kind = match kind {
            "Parallel" | "parallel" => LoopKind::Parallel,
            "grid" => LoopKind::Grid,
            "unroll" => LoopKind::Unroll,
            "Pipelined" => LoopKind::Pipelined,
            _ if fname == "range" => LoopKind::Range,
            _ => LoopKind::Serial,
        };
        if kind == LoopKind::Parallel {
            self.block_level_op("T.Parallel", span)?;
        }
        let mut assigned = Vec::new();
        assigned_names(&f.body, &mut assigned);
        self.for_with(
            kind,
            &names,
            ranges,
            &assigned,
            &mut |me| me.stmts(&f.body),
            span,
        )
    }

    /// `while c:` with the names it assigns made runtime variables first:
    /// `while true { pre; if !c { break }; body }`.
    fn while_statement(&mut self, w: &ast::StmtWhile, span: Span) -> DResult<()> {
        self.materialize_assigned(&w.body, span)?;
        let (c, pre) = self.collect(|me| me.cond(&w.test));
        let c = c?;
        self.loops += 1;
        let body = self.block_of(&w.body);
        self.loops -= 1;
        let mut body = body?;
        let mut full = pre;
        full.push(Stmt::If {
            cond: unary(UnOp::LogicalNot, c, span),
            then_body: vec![Stmt::Break],
            else_body: vec![],
        });
        full.append(&mut body);
        let t = konst(DType::Bool, 1, span);
        self.emit(Stmt::While {
            cond: t,
            body: full,
            span,
        });
        Ok(())
    }

    fn jump(&mut self, is_break: bool, _span: Span) -> DResult<()> {
        simt::jump(self, is_break)
    }

    fn return_statement(&mut self, _r: &ast::StmtReturn, span: Span) -> DResult<()> {
        py::unsupported(
            span,
            "`return` in a kernel",
            DIALECT,
            "let the kernel's body end; guard the rest with `if`",
        )
    }
}
