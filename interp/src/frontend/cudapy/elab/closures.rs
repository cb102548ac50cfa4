//! Nested functions (closures) inside kernels and device functions, and
//! how an inlined function's parameters are bound: positional arguments,
//! `*args`, defaults, keyword arguments, and `f(*t)` at the call.
//!
//! numba-cuda turns a nested `def` into a function that captures the
//! values its free variables hold (they must be constants to numba; ksem
//! captures the variables the enclosing function has when the `def` runs)
//! and may be called where it is defined or passed to a device function,
//! which calls it (`consumer(inner, 1)`). ksem inlines it at each call,
//! as it inlines device functions.

use super::*;
use std::rc::Rc;

/// A nested function: its definition, the enclosing function's bindings
/// when the `def` ran, and its defaults (evaluated then, as Python does).
#[derive(Debug)]
pub(super) struct Closure {
    /// A frame name of its own (`outer.<locals>.inner`).
    pub name: String,
    pub def: ast::StmtFunctionDef,
    pub env: HashMap<String, Val>,
    pub defaults: HashMap<String, Val>,
}

/// A function being inlined: a module-level device function or a closure.
pub(super) enum Callee<'a> {
    Module(&'a str),
    Closure(Rc<Closure>),
}

/// A parameter bound to its argument.
pub(super) struct Bound {
    pub name: String,
    pub span: Span,
    pub val: Val,
    /// Its position among the positional parameters (for a signature's
    /// type); `None` for `*args` and keyword-only parameters.
    pub pos: Option<usize>,
}

/// A call's arguments: positional ones (a `*t` spread), then keywords.
pub(super) struct CallArgs {
    pub pos: Vec<Val>,
    pub kw: Vec<(String, Val)>,
}

impl Elab<'_> {
    /// A nested `def`: binds its name to a closure.
    pub(super) fn def_closure(&mut self, f: &ast::StmtFunctionDef) -> DResult<()> {
        for d in &f.decorator_list {
            let callee = match d {
                ast::Expr::Call(c) => &*c.func,
                other => other,
            };
            let name = dotted(callee).map(|n| self.m.resolve_path(&n));
            if !matches!(
                name.as_deref(),
                Some("numba.cuda.jit" | "numba.jit" | "numba.njit")
            ) {
                return py::unsupported(
                    self.span(d),
                    "a decorator on a nested function other than cuda.jit",
                    DIALECT,
                    "leave the nested function undecorated",
                );
            }
        }
        if let Some(k) = f.args.kwarg.as_deref() {
            return py::unsupported(
                self.span(k),
                "`**kwargs`",
                DIALECT,
                "list every parameter by name",
            );
        }
        let mut defaults = HashMap::new();
        for p in f
            .args
            .posonlyargs
            .iter()
            .chain(&f.args.args)
            .chain(&f.args.kwonlyargs)
        {
            if let Some(d) = &p.default {
                let v = self.expr(d)?;
                defaults.insert(p.def.arg.to_string(), self.materialize(v));
            }
        }
        let frame = self.frames.last().expect("a frame");
        // a name the nested function assigns is its own local
        let env = frame
            .env
            .iter()
            .filter(|(n, _)| !assigns_name(&f.body, n))
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect();
        let c = Closure {
            name: format!("{}.<locals>.{}", frame.name, f.name),
            def: f.clone(),
            env,
            defaults,
        };
        self.frame()
            .env
            .insert(f.name.to_string(), Val::Closure(Rc::new(c)));
        Ok(())
    }

    /// The arguments of call `c`: `*t` spreads a tuple, keywords by name.
    pub(super) fn call_args(&mut self, c: &ast::ExprCall) -> DResult<CallArgs> {
        let mut pos: Vec<Val> = Vec::new();
        for a in &c.args {
            let mark = self.mark();
            let (v, spread) = match a {
                ast::Expr::Starred(s) => match self.expr(&s.value)? {
                    Val::Tuple(items) => (items, true),
                    _ => {
                        return err(
                            self.span(a),
                            "only a tuple can be spread with `*` in a call",
                        )
                    }
                },
                _ => (vec![self.expr(a)?], false),
            };
            let _ = spread;
            pos = pos
                .into_iter()
                .map(|x| self.keep_order_val(x, mark))
                .collect();
            pos.extend(v);
        }
        let mut kw = Vec::new();
        for k in &c.keywords {
            let Some(name) = k.arg.as_deref() else {
                return py::unsupported(
                    self.span(&k.value),
                    "`**` in a call",
                    DIALECT,
                    "pass the arguments by name",
                );
            };
            let v = self.expr(&k.value)?;
            kw.push((name.to_string(), v));
        }
        Ok(CallArgs { pos, kw })
    }

    /// Binds a call's arguments to the parameters of `def` as Python does:
    /// positional ones in order, the rest into `*args` (a tuple), keywords
    /// by name, defaults where none is given.
    pub(super) fn bind_params(
        &mut self,
        fname: &str,
        def: &ast::StmtFunctionDef,
        defaults: &HashMap<String, Val>,
        args: CallArgs,
        span: Span,
    ) -> DResult<Vec<Bound>> {
        let a = &def.args;
        if let Some(k) = a.kwarg.as_deref() {
            return py::unsupported(
                self.span(k),
                "`**kwargs`",
                DIALECT,
                "list every parameter by name",
            );
        }
        let positional: Vec<&ast::ArgWithDefault> = a.posonlyargs.iter().chain(&a.args).collect();
        let CallArgs { pos, mut kw } = args;
        let given = pos.len();
        let mut pos = pos.into_iter();
        let mut out = Vec::new();
        let mut take = |p: &ast::ArgWithDefault, me: &mut Self| -> DResult<Val> {
            let n = p.def.arg.as_str();
            if let Some(i) = kw.iter().position(|(k, _)| k == n) {
                return Ok(kw.remove(i).1);
            }
            if let Some(v) = defaults.get(n) {
                return Ok(v.clone());
            }
            if let Some(d) = &p.default {
                // a module-level function's default: a constant of the module
                return me.expr(d);
            }
            err(span, format!("`{fname}` is missing its argument `{n}`"))
        };
        for (i, p) in positional.iter().enumerate() {
            let pspan = self.span(&p.def);
            let v = match pos.next() {
                Some(v) => v,
                None => take(p, self)?,
            };
            out.push(Bound {
                name: p.def.arg.to_string(),
                span: pspan,
                val: v,
                pos: Some(i),
            });
        }
        let rest: Vec<Val> = pos.collect();
        match a.vararg.as_deref() {
            Some(v) => out.push(Bound {
                name: v.arg.to_string(),
                span: self.span(v),
                val: Val::Tuple(rest),
                pos: None,
            }),
            None if !rest.is_empty() => {
                let what = format!("`{fname}`");
                py::arity::check_args(span, &what, (0, positional.len()), given)?;
            }
            None => {}
        }
        for p in &a.kwonlyargs {
            let v = take(p, self)?;
            out.push(Bound {
                name: p.def.arg.to_string(),
                span: self.span(&p.def),
                val: v,
                pos: None,
            });
        }
        if let Some((k, _)) = kw.first() {
            return err(span, format!("`{fname}` has no parameter `{k}`"));
        }
        Ok(out)
    }

    /// Calls closure `c`: inlined like a device function, in the bindings
    /// it captured.
    pub(super) fn call_closure(
        &mut self,
        c: Rc<Closure>,
        args: CallArgs,
        span: Span,
    ) -> DResult<Val> {
        if self.frames.iter().any(|fr| fr.name == c.name) || self.frames.len() > 32 {
            return py::unsupported(span, "recursion", DIALECT, "write the recursion as a loop");
        }
        self.inline_callee(Callee::Closure(c), args, span)
    }
}
