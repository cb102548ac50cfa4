//! The eager style (`@tilelang.jit def f(A, B, block_M, …)`): parameters
//! from annotations and `"factory_args"`, `T.const`/`T.dynamic` sizes bound
//! from the tensors' shapes, `T.empty` outputs.

use super::*;

impl<'m> Elab<'m> {
    /// Elaborates an eager-style kernel (`@tilelang.jit def f(A, B,
    /// block_M, …)`): the parameters annotated in the body
    /// (`A: T.Tensor((M, N), dtype)`) are the launch's tensors, the others
    /// come from `"factory_args"` (or their defaults); `M, N =
    /// T.const("M, N")` are sizes bound from the tensors' shapes; `C =
    /// T.empty(shape, dtype)` makes an output reported under its name.
    pub fn eager(
        mut self,
        name: &str,
        f: &ast::StmtFunctionDef,
        launch: &Launch,
    ) -> DResult<Kernel> {
        let tensors: Vec<String> = f
            .body
            .iter()
            .filter_map(|s| match s {
                ast::Stmt::AnnAssign(a) if a.value.is_none() => match &*a.target {
                    ast::Expr::Name(n) => Some(n.id.to_string()),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let params = self.explicit_params(f)?;
        for p in &params {
            let pname = p.def.arg.to_string();
            if tensors.contains(&pname) {
                continue;
            }
            let span = self.span(&p.def);
            let v = match launch.factory_args.iter().find(|(n, _)| *n == pname) {
                Some((_, c)) => Const::from_arg(c),
                None => match &p.default {
                    Some(d) => {
                        let v = self.py_value(d)?;
                        consts::autotuned_default(self.m, f, &pname, v, span)?
                    }
                    None => {
                        return err(span, format!("`{name}` needs `{pname}`")).map_err(|d| {
                            d.with_help(format!(
                                "give it in the launch: \"factory_args\": {{\"{pname}\": …}}"
                            ))
                        })
                    }
                },
            };
            self.env.insert(pname, Val::Py(v));
        }
        for (fname, _) in &launch.factory_args {
            let known = params.iter().any(|p| p.def.arg.as_str() == fname);
            if !known || tensors.contains(fname) {
                return err(
                    self.span(f),
                    format!("`{name}` has no non-tensor parameter `{fname}`"),
                );
            }
        }
        // first the sizes: a T.const name takes its value from the shape of a
        // tensor whose annotation names it (a name may be used before that
        // annotation), read off the annotations without evaluating them;
        // then everything in order
        let mut shapes: HashMap<String, Vec<ast::Expr>> = HashMap::new();
        // other names of a size (`KH, KW = K, K`): a tensor's shape naming
        // one binds the size
        let mut aliases: HashMap<String, String> = HashMap::new();
        for s in &f.body {
            match s {
                ast::Stmt::Assign(a)
                    if self.is_lang_call(&a.value, "const")
                        || self.is_lang_call(&a.value, "dynamic") =>
                {
                    self.eager_assign(&a.targets[0], &a.value, self.span(s))?;
                }
                ast::Stmt::Assign(a) => {
                    for (t, v) in names_bound(&a.targets, &a.value) {
                        let of = aliases.get(&v).cloned().unwrap_or(v);
                        if self.symbols.contains(&of) {
                            aliases.insert(t, of);
                        }
                    }
                    // `shape = (M, K)`, or `(M, K) if not trans else (K, M)`
                    let mut value = &*a.value;
                    if let ast::Expr::IfExp(i) = value {
                        match self.py_value(&i.test).ok().and_then(|c| c.truthy()) {
                            Some(true) => value = &i.body,
                            Some(false) => value = &i.orelse,
                            None => {}
                        }
                    }
                    let elts = match value {
                        ast::Expr::Tuple(t) => Some(&t.elts),
                        ast::Expr::List(t) => Some(&t.elts),
                        _ => None,
                    };
                    if let ([ast::Expr::Name(n)], Some(elts)) = (a.targets.as_slice(), elts) {
                        shapes.insert(n.id.to_string(), elts.clone());
                    }
                }
                ast::Stmt::AnnAssign(an) if an.value.is_none() => {
                    let ast::Expr::Name(n) = &*an.target else {
                        unreachable!("collected above")
                    };
                    self.bind_sizes(n.id.as_str(), &an.annotation, &shapes, &aliases, launch);
                }
                _ => {}
            }
        }
        let mut in_kernel = false;
        for s in &f.body {
            match s {
                ast::Stmt::AnnAssign(an) if an.value.is_none() => {
                    let ast::Expr::Name(n) = &*an.target else {
                        unreachable!("collected above")
                    };
                    self.tensor_param(n.id.as_str(), &an.annotation, launch, self.span(s))?;
                }
                ast::Stmt::Assign(a)
                    if self.is_lang_call(&a.value, "const")
                        || self.is_lang_call(&a.value, "dynamic") => {}
                ast::Stmt::With(_) => {
                    in_kernel = true;
                    self.stmt(s)?;
                }
                // the prologue is host Python: asserts on constants and
                // tuple unpacking of constants are Python's
                ast::Stmt::Assert(a) if !in_kernel => {
                    if let Ok(c) = self.py_value(&a.test) {
                        if c.truthy() == Some(false) {
                            return err(
                                self.span(s),
                                "an assertion of the kernel fails for these arguments",
                            );
                        }
                    }
                }
                ast::Stmt::Assign(a)
                    if !in_kernel
                        && matches!(
                            a.targets.as_slice(),
                            [ast::Expr::Tuple(_) | ast::Expr::List(_)]
                        ) =>
                {
                    let v = self.py_value(&a.value).ok();
                    let mut bound: HashMap<String, Const> = HashMap::new();
                    consts::bind(&a.targets[0], v.as_ref(), &mut bound);
                    if bound.is_empty() {
                        return py::unsupported(
                            self.span(s),
                            "tuple unpacking of runtime values",
                            DIALECT,
                            "assign each value separately",
                        );
                    }
                    for (k, v) in bound {
                        self.env.insert(k, Val::Py(v));
                    }
                }
                ast::Stmt::Return(r) => {
                    let made = |e: &ast::Expr| matches!(e, ast::Expr::Name(n) if self.fresh.iter().any(|(f, _)| f == n.id.as_str()));
                    let ok = match r.value.as_deref() {
                        None => true,
                        Some(ast::Expr::Tuple(t)) => t.elts.iter().all(made),
                        Some(e) => made(e),
                    };
                    if !ok {
                        return err(
                            self.span(s),
                            "an eager kernel returns the outputs it made with T.empty",
                        );
                    }
                }
                other => self.stmt(other)?,
            }
        }
        for (n, _) in &launch.args {
            if !self.params.iter().any(|p| &p.name == n) {
                return err(self.span(f), format!("kernel `{name}` has no tensor `{n}`"));
            }
        }
        self.finish(name, f, launch)
    }

    /// Binds the unbound `T.const` names that annotation `ann` of tensor
    /// `name` uses as whole dimensions, from the launch tensor's shape
    /// (`shapes`: prologue names bound to shape lists).
    pub(super) fn bind_sizes(
        &mut self,
        name: &str,
        ann: &ast::Expr,
        shapes: &HashMap<String, Vec<ast::Expr>>,
        aliases: &HashMap<String, String>,
        launch: &Launch,
    ) {
        let call = tensor_call(ann);
        let Some(ast::Expr::Call(c)) = &call else {
            return;
        };
        let Some(shape_e) = c.args.first() else {
            return;
        };
        let items: Vec<ast::Expr> = match shape_e {
            ast::Expr::Tuple(t) => t.elts.clone(),
            ast::Expr::List(t) => t.elts.clone(),
            ast::Expr::Name(n) => match shapes.get(n.id.as_str()) {
                Some(v) => v.clone(),
                None => return,
            },
            one => vec![one.clone()],
        };
        let Some(actual) = super::super::consts::launch_shape(launch, name) else {
            return;
        };
        if items.len() != actual.len() {
            return;
        }
        for (it, &n) in items.iter().zip(&actual) {
            if let ast::Expr::Name(s) = it {
                let id = s.id.as_str();
                let size = aliases.get(id).map_or(id, String::as_str);
                if let Some(k) = self.symbols.iter().position(|x| x == size) {
                    self.symbols.remove(k);
                    self.env
                        .insert(size.to_string(), Val::Py(Const::Num(PyNum::Int(n as i128))));
                }
            }
        }
    }

    /// `A: T.Tensor((M, N), dtype)` in an eager kernel: the launch's tensor
    /// `A`, whose shape binds the sizes of `T.const`.
    pub(super) fn tensor_param(
        &mut self,
        name: &str,
        ann: &ast::Expr,
        launch: &Launch,
        span: Span,
    ) -> DResult<()> {
        let call = tensor_call(ann);
        let Some(ast::Expr::Call(c)) = &call else {
            return err(
                span,
                "Annotation should be Var: a tensor is annotated `T.Tensor(shape, dtype)`",
            );
        };
        let shape_e = c
            .args
            .first()
            .ok_or_else(|| Diagnostic::new(span, "T.Tensor needs a shape"))?;
        let d = match c.args.get(1) {
            Some(e) => self.dtype_arg(e)?,
            None => DType::F32,
        };
        let (count, given) = tensor_arg(launch.arg(name), name, d, span)?;
        let actual: Vec<usize> = given.clone().unwrap_or_else(|| vec![count]);
        if let (ast::Expr::Name(_), Ok(Const::Tuple(dims) | Const::List(dims))) =
            (shape_e, self.py_value(shape_e))
        {
            // a shape held in a name (`q_shape = [batch, heads, dim]`)
            let want: Option<Vec<usize>> = dims
                .iter()
                .map(|d| d.as_int().map(|n| n as usize))
                .collect();
            if want.as_deref() != Some(actual.as_slice()) {
                return err(
                    span,
                    format!("`{name}` has shape {want:?} but the launch passes {actual:?}"),
                );
            }
            return self.declare_tensor(name, d, actual, span);
        }
        let items: Vec<&ast::Expr> = match shape_e {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            ast::Expr::List(t) => t.elts.iter().collect(),
            one => vec![one],
        };
        let rank = actual.len();
        py::arity::count(span, items.len(), (rank, rank), |n| {
            format!("`{name}` has {n} dimension(s) but the launch passes shape {actual:?}")
        })
        .map_err(|d| d.with_help("give the buffer a \"shape\" in the launch"))?;
        for (it, &n) in items.iter().zip(&actual) {
            if let ast::Expr::Name(s) = it {
                if let Some(k) = self.symbols.iter().position(|x| x == s.id.as_str()) {
                    self.symbols.remove(k);
                    self.env
                        .insert(s.id.to_string(), Val::Py(Const::Num(PyNum::Int(n as i128))));
                    continue;
                }
            }
            match self.py_value(it).ok().and_then(|c| c.as_int()) {
                Some(v) if v == n as i128 => {}
                Some(v) => {
                    return err(
                        self.span(*it),
                        format!("`{name}` needs size {v} here but the launch passes {n}"),
                    )
                }
                None => {
                    return err(
                        self.span(*it),
                        "a tensor size must be a T.const name or a compile-time constant",
                    )
                }
            }
        }
        self.declare_tensor(name, d, actual, span)
    }

    /// The tensor parameter `name` of dtype `d` and shape `actual`.
    pub(super) fn declare_tensor(
        &mut self,
        name: &str,
        d: DType,
        actual: Vec<usize>,
        span: Span,
    ) -> DResult<()> {
        self.global_param(name, d, actual, false, span);
        Ok(())
    }

    /// `M, N = T.const("M, N")` (sizes bound later from tensor shapes) and
    /// `C = T.empty(shape, dtype)` (an output); `None` for other assignments.
    pub(super) fn eager_assign(
        &mut self,
        target: &ast::Expr,
        value: &ast::Expr,
        span: Span,
    ) -> DResult<Option<()>> {
        let ast::Expr::Call(c) = value else {
            return Ok(None);
        };
        let Some(f) = dotted(&c.func) else {
            return Ok(None);
        };
        let is = |n: &str| self.m.lang.iter().any(|l| f == format!("{l}.{n}"));
        if is("dynamic") || is("symbolic") {
            // symbolic sizes (`M = T.dynamic("m")`, `B, S = T.dynamic("B, S")`,
            // tilelang/language/symbolics.py): one launch fixes them, so
            // they are bound from the tensors' shapes like T.const sizes
            let names = super::super::consts::dynamic_targets(target).ok_or_else(|| {
                Diagnostic::new(span, "T.dynamic is bound to a name or a tuple of names")
            })?;
            for n in names {
                self.env.remove(n.as_str());
                self.symbols.push(n);
            }
            return Ok(Some(()));
        }
        if is("const") {
            let names: Vec<&ast::Expr> = match target {
                ast::Expr::Tuple(t) => t.elts.iter().collect(),
                one => vec![one],
            };
            let spelled = match c.args.first() {
                Some(ast::Expr::Constant(k)) => match &k.value {
                    Constant::Str(s) => s.clone(),
                    _ => String::new(),
                },
                _ => String::new(),
            };
            let listed: Vec<&str> = spelled
                .split([',', ' '])
                .filter(|x| !x.is_empty())
                .collect();
            let n = names.len();
            py::arity::count(span, listed.len(), (n, n), |l| {
                format!("T.const names {l} size(s) but {n} are assigned")
            })?;
            for n in names {
                let ast::Expr::Name(n) = n else {
                    return err(self.span(n), "T.const sizes are bound to names");
                };
                self.symbols.push(n.id.to_string());
                self.env.remove(n.id.as_str());
            }
            return Ok(Some(()));
        }
        if is("empty") {
            let ast::Expr::Name(n) = target else {
                return err(span, "T.empty(…) must be assigned to a name");
            };
            let name = n.id.to_string();
            let (shape, d) = self.shape_and_dtype(c, "T.empty", Some(DType::F32), span)?;
            self.global_param(&name, d, shape, true, span);
            return Ok(Some(()));
        }
        Ok(None)
    }

    /// Whether `e` is a call of `T.<name>`.
    pub(super) fn is_lang_call(&self, e: &ast::Expr, name: &str) -> bool {
        let ast::Expr::Call(c) = e else { return false };
        dotted(&c.func).is_some_and(|f| self.m.lang.iter().any(|l| f == format!("{l}.{name}")))
    }
}

/// The names an assignment of names binds to names: `KH, KW = K, K` gives
/// (KH, K), (KW, K); `KH = K` gives (KH, K).
fn names_bound(targets: &[ast::Expr], value: &ast::Expr) -> Vec<(String, String)> {
    let name = |e: &ast::Expr| match e {
        ast::Expr::Name(n) => Some(n.id.to_string()),
        _ => None,
    };
    let elts = |e: &ast::Expr| match e {
        ast::Expr::Tuple(t) => Some(t.elts.clone()),
        ast::Expr::List(t) => Some(t.elts.clone()),
        _ => None,
    };
    let [target] = targets else {
        return Vec::new();
    };
    match (name(target), name(value), elts(target), elts(value)) {
        (Some(t), Some(v), _, _) => vec![(t, v)],
        (_, _, Some(ts), Some(vs)) if ts.len() == vs.len() => ts
            .iter()
            .zip(&vs)
            .filter_map(|(t, v)| Some((name(t)?, name(v)?)))
            .collect(),
        _ => Vec::new(),
    }
}
