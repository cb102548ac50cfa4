//! Elaboration of Triton kernels into the typed program: name resolution,
//! constexpr evaluation, helper inlining, control flow, and the unsupported
//! Python subset with the supported alternative for each construct.

use super::builtins::Args;
use super::module::{constant_value, member, Module};
use super::promote::{self, Operand, PyNum};
use super::types;
use super::value::{const_eq, fold_binop, fold_cmp, truthy, Value};
use super::version::Rule;
use crate::dtype::DType;
use crate::float::{self, Overflow, Rounding};
use crate::frontend::py::num;
use crate::frontend::py::value::{compare, ops};
use crate::frontend::py::walk::{self, Walk};
use crate::ir::*;
use crate::launch::{ArgSpec, ConstArg, Launch};
pub use crate::span::err;
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Ranged};
use std::collections::{HashMap, HashSet};

mod constexpr_fn;

/// Largest number of elements of one tile.
pub const MAX_TILE_ELEMS: usize = 1 << 22;

/// State of the elaboration of one kernel.
pub struct Elab<'m> {
    pub m: &'m Module,
    pub vars: Vec<(String, Type)>,
    pub out: Vec<Stmt>,
    pub env: HashMap<String, Value>,
    calls: Vec<String>,
    /// Loop-carried variables of each enclosing runtime loop.
    loops: Vec<Vec<(String, VarId)>>,
    /// Loop depth at entry of the function being inlined.
    loop_base: usize,
    /// The current block ended (break, continue, return).
    terminated: bool,
    /// The value returned by the helper being inlined.
    ret: Option<Value>,
    /// Current nesting of expressions and statements being elaborated.
    depth: usize,
    /// While a helper of an imported module is inlined: the call in the
    /// kernel's own file that every node of it is reported at (spans are
    /// positions in the kernel's file).
    call_site: Option<Span>,
    /// The bool variable "the helper being inlined has returned", where
    /// its body returns inside a runtime `if` (`early_return`).
    returned: Option<VarId>,
    /// A runtime `if` just elaborated may have returned from the helper:
    /// the statements after it run only where it did not.
    may_have_returned: bool,
    /// The Triton release whose rules apply (the launch's `target.triton`).
    pub version: super::version::Version,
    /// Names of the function being elaborated declared `x: tl.constexpr`
    /// without a value: what they are later given stays compile-time
    /// (`d0: tl.constexpr` then `d0, d1 = shape`).
    declared_constexpr: HashSet<String>,
    /// Inside a `@triton.constexpr_function`: the code is Python run
    /// while compiling (an assignment keeps a Python value, a `range` loop
    /// unrolls).
    compile_time: bool,
    /// Compile-time loops (a constexpr_function's) around the statement
    /// being elaborated, in the constexpr_function being run.
    ct_loops: usize,
    /// The `break` (`true`) or `continue` that ended a compile-time loop's
    /// iteration early.
    ct_jump: Option<bool>,
}

/// Deepest nesting of expressions and statements ksem elaborates.
pub const MAX_NESTING: usize = 256;

/// `op e` element-wise: the result has `e`'s type (a tensor keeps its
/// shape; `not` of a bool tensor is a bool tensor).
pub(super) fn elementwise_unary(op: UnOp, e: Expr, span: Span) -> Expr {
    let ty = e.ty.clone();
    Expr {
        kind: ExprKind::Unary(op, Box::new(e)),
        ty,
        span,
    }
}

/// Refuses operands `a` and `b` of `what` that differ in `property` (their
/// shape, element type or dtype: `same` says whether they agree), in one
/// message form: "{what} needs operands of one {property}, got A and B".
pub(super) fn operands_agree(
    what: &str,
    property: &str,
    same: bool,
    (a, b): (&Type, &Type),
    span: Span,
) -> DResult<()> {
    if same {
        return Ok(());
    }
    err(
        span,
        format!("{what} needs operands of one {property}, got {a} and {b}"),
    )
}

/// A tile may hold at most [`MAX_TILE_ELEMS`] elements.
pub fn check_tile_size(shape: &[usize], span: Span) -> DResult<()> {
    let n = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
    match n {
        Some(n) if n <= MAX_TILE_ELEMS => Ok(()),
        _ => err(
            span,
            format!("a tile of shape {shape:?} exceeds ksem's limit of {MAX_TILE_ELEMS} elements"),
        ),
    }
}

fn unsupported<T>(span: Span, what: &str, alternative: &str) -> DResult<T> {
    crate::frontend::py::unsupported(span, what, "Triton", alternative)
}

impl<'m> Elab<'m> {
    pub fn new(m: &'m Module) -> Elab<'m> {
        Elab {
            m,
            vars: Vec::new(),
            out: Vec::new(),
            env: HashMap::new(),
            calls: Vec::new(),
            loops: Vec::new(),
            loop_base: 0,
            terminated: false,
            ret: None,
            depth: 0,
            call_site: None,
            returned: None,
            may_have_returned: false,
            version: super::version::Version(crate::launch::TRITON_BASE_VERSION),
            declared_constexpr: HashSet::new(),
            compile_time: false,
            ct_loops: 0,
            ct_jump: None,
        }
    }

    /// The position of a node of the module being elaborated (inside an
    /// imported module's helper: the kernel file's call of it).
    pub fn span(&self, node: &impl Ranged) -> Span {
        self.call_site.unwrap_or_else(|| self.m.span(node))
    }

    pub fn new_var(&mut self, name: &str, ty: Type) -> VarId {
        self.vars.push((name.to_string(), ty));
        self.vars.len() - 1
    }

    pub fn var_expr(&self, id: VarId, span: Span) -> Expr {
        Expr {
            kind: ExprKind::Var(id),
            ty: self.vars[id].1.clone(),
            span,
        }
    }

    /// Binds a runtime expression to a fresh variable and returns a reference to it.
    pub fn bind(&mut self, name: &str, e: Expr) -> Expr {
        let span = e.span;
        let id = self.new_var(name, e.ty.clone());
        self.out.push(Stmt::Let(id, e));
        self.var_expr(id, span)
    }

    // ----- kernel entry ---------------------------------------------------

    /// Elaborates kernel `name` of the module for the arguments of `launch`.
    pub fn kernel(mut self, name: &str, launch: &Launch) -> DResult<Kernel> {
        let f = self
            .m
            .funcs
            .get(name)
            .expect("caller checked the kernel exists");
        let fspan = self.span(f);
        self.version = super::version::Version(launch.target.triton);
        let args = &f.args;
        self.reject_star_args(args)?;
        let chosen = super::autotune::choose(self.m, name, launch, fspan)?;
        let heuristics = self.heuristic_values(name, launch, chosen.as_ref())?;
        let mut params = Vec::new();
        let mut seen = HashSet::new();
        for a in args
            .posonlyargs
            .iter()
            .chain(&args.args)
            .chain(&args.kwonlyargs)
        {
            let pname = a.def.arg.to_string();
            seen.insert(pname.clone());
            let pspan = self.span(&a.def);
            let is_constexpr = a
                .def
                .annotation
                .as_deref()
                .is_some_and(|t| self.is_constexpr_annotation(t));
            let from_heuristic = heuristics
                .iter()
                .find(|(n, _)| *n == pname)
                .map(|(_, c)| ArgSpec::Constexpr(c.clone()));
            let from_config = chosen.as_ref().and_then(|c| c.arg(&pname));
            // a heuristic's value was checked against the launch's already
            if from_heuristic.is_none() && from_config.is_some() && launch.arg(&pname).is_some() {
                return Err(Diagnostic::new(
                    pspan,
                    format!("`{pname}` is set by the autotune config and by the launch (Triton: \"Conflicting meta-parameters\")"),
                )
                .with_help(format!("leave \"{pname}\" out of the launch, or pick another \"config\"")));
            }
            let meta = from_heuristic.or(from_config);
            let p = self.bind_param(
                &pname,
                is_constexpr || meta.is_some(),
                meta.as_ref().or(launch.arg(&pname)),
                a.default.as_deref(),
                pspan,
            )?;
            params.push(p);
        }
        for (n, _) in &launch.args {
            if !seen.contains(n) {
                return err(
                    fspan,
                    format!(
                        "the launch spec passes `{n}`, which kernel `{name}` has no parameter for"
                    ),
                );
            }
        }
        self.calls.push(name.to_string());
        self.stmts(&f.body)?;
        if self.ret.as_ref().is_some_and(|v| *v != Value::None) {
            return err(
                fspan,
                format!("kernel `{name}` returns a value; a kernel must return None"),
            );
        }
        self.finish(name, params, launch)
    }

    /// The meta-parameters kernel `name`'s `@triton.heuristics` set for
    /// `launch` (and the autotune config `chosen`), as Triton computes them
    /// on the host. Where the launch also gives one, the two must agree
    /// (Triton would silently use the heuristic's); where ksem cannot
    /// evaluate a lambda, the launch's value stands in.
    fn heuristic_values(
        &self,
        name: &str,
        launch: &Launch,
        chosen: Option<&super::autotune::Chosen>,
    ) -> DResult<Vec<(String, ConstArg)>> {
        use super::heuristics::{evaluate, ArgValue, Outcome};
        let hs = match self.m.heuristics.get(name) {
            None => return Ok(vec![]),
            Some(Err(e)) => return Err(e.clone()),
            Some(Ok(hs)) => hs,
        };
        let mut args: Vec<(String, ArgValue)> = launch
            .args
            .iter()
            .map(|(n, a)| (n.clone(), ArgValue::of(a)))
            .collect();
        if let Some(c) = chosen {
            for (k, _) in &c.config.values {
                if let Some(a) = c.arg(k) {
                    args.push((k.clone(), ArgValue::of(&a)));
                }
            }
        }
        let given = |n: &str| match launch.arg(n) {
            Some(ArgSpec::Constexpr(c)) => Some(c.clone()),
            _ => None,
        };
        let mut out = Vec::new();
        for (n, o) in evaluate(self.m, hs, args, &given)? {
            let h = hs.iter().find(|h| h.name == n).expect("evaluated");
            let c = match o {
                Outcome::Given(c) => c,
                Outcome::Computed(c) => {
                    if let Some(g) = given(&n).filter(|g| *g != c) {
                        return Err(Diagnostic::new(
                            self.m.span(&h.lambda),
                            format!(
                                "the launch gives {n}={}, but @triton.heuristics computes {n}={} (Triton would use the heuristic's)",
                                const_text(&g),
                                const_text(&c)
                            ),
                        )
                        .with_help(format!("leave \"{n}\" out of the launch")));
                    }
                    c
                }
            };
            out.push((n, c));
        }
        Ok(out)
    }

    /// Starts elaborating kernel `name`'s body (statements built by a caller
    /// rather than read from source: the fuzzer's generator).
    pub fn begin_kernel(&mut self, name: &str) {
        self.calls.push(name.to_string());
    }

    /// The kernel `name` with parameters `params` whose body is the
    /// statements elaborated so far, for `launch`'s grid.
    pub fn finish(self, name: &str, params: Vec<Param>, launch: &Launch) -> DResult<Kernel> {
        let (grid, _) = crate::frontend::geometry(launch, None, None)?;
        Ok(Kernel {
            name: name.to_string(),
            model: Model::Tile,
            grid,
            block: [1, 1, 1],
            params,
            fresh: vec![],
            arrays: vec![],
            vars: self.vars,
            body: self.out,
            then: vec![],
        })
    }

    /// Binds kernel parameter `pname` to the launch's argument `spec` (or,
    /// where the launch has none, its `default`): a buffer becomes a
    /// pointer variable, a scalar a 0-d variable, a constexpr a
    /// compile-time value.
    pub fn bind_param(
        &mut self,
        pname: &str,
        is_constexpr: bool,
        spec: Option<&ArgSpec>,
        default: Option<&ast::Expr>,
        pspan: Span,
    ) -> DResult<Param> {
        let pname = pname.to_string();
        match spec {
            Some(ArgSpec::Buffer { complex: true, .. }) => err(
                pspan,
                format!("argument `{pname}`: Triton has no complex dtype; pass the real and imaginary parts as float buffers"),
            ),
            Some(ArgSpec::Buffer { dtype, .. }) => {
                if is_constexpr {
                    return err(
                        pspan,
                        format!(
                            "parameter `{pname}` is tl.constexpr but the launch passes a buffer"
                        ),
                    );
                }
                let ty = Type {
                    elem: Elem::Ptr(*dtype, AddrSpace::Global),
                    shape: vec![],
                };
                Ok(self.runtime_param(pname, ty, ParamKind::Pointer(*dtype), pspan))
            }
            Some(ArgSpec::Scalar { dtype, .. }) => {
                if is_constexpr {
                    return Err(Diagnostic::new(pspan, format!("parameter `{pname}` is tl.constexpr but the launch passes a runtime scalar"))
                        .with_help(format!("pass it as \"{pname}\": {{\"constexpr\": VALUE}}")));
                }
                let ty = Type::scalar(*dtype);
                Ok(self.runtime_param(pname, ty, ParamKind::Scalar(*dtype), pspan))
            }
            Some(ArgSpec::Constexpr(c)) => {
                self.env.insert(pname.clone(), launch_const(c));
                Ok(Param {
                    name: pname,
                    kind: ParamKind::Constexpr,
                    var: None,
                })
            }
            None => match default {
                Some(d) => {
                    let v = self.expr(d)?;
                    self.env.insert(pname.clone(), v);
                    Ok(Param {
                        name: pname,
                        kind: ParamKind::Constexpr,
                        var: None,
                    })
                }
                None => Err(Diagnostic::new(
                    pspan,
                    format!("the launch spec has no argument for parameter `{pname}`"),
                )
                .with_help(format!("add \"{pname}\" to the launch's \"args\""))),
            },
        }
    }

    fn is_constexpr_annotation(&self, t: &ast::Expr) -> bool {
        match t {
            ast::Expr::Attribute(a) => a.attr.as_str() == "constexpr",
            ast::Expr::Name(n) => n.id.as_str() == "constexpr",
            ast::Expr::Constant(c) => {
                matches!(&c.value, ast::Constant::Str(s) if s.ends_with("constexpr"))
            }
            _ => false,
        }
    }

    /// Runtime parameter `pname` (a pointer or a scalar of type `ty`): a
    /// variable of the kernel, bound to its name.
    fn runtime_param(&mut self, pname: String, ty: Type, kind: ParamKind, pspan: Span) -> Param {
        let var = self.new_var(&pname, ty);
        let v = Value::Tensor(self.var_expr(var, pspan));
        self.env.insert(pname.clone(), v);
        Param {
            name: pname,
            kind,
            var: Some(var),
        }
    }

    fn reject_star_args(&self, args: &ast::Arguments) -> DResult<()> {
        let help = "use explicit parameters";
        crate::frontend::py::plain_params(args, |v| self.span(v), "Triton", help).map(|_| ())
    }

    // ----- statements -----------------------------------------------------

    pub fn stmts(&mut self, body: &[ast::Stmt]) -> DResult<()> {
        for (i, s) in body.iter().enumerate() {
            if self.terminated {
                break;
            }
            self.stmt(s)?;
            if self.may_have_returned {
                // a helper's `return` under a runtime `if`: the rest runs
                // only where the helper has not returned (and what encloses
                // this block is guarded the same way)
                let rest = &body[i + 1..];
                if let (Some(flag), false) = (self.returned, rest.is_empty()) {
                    self.may_have_returned = false;
                    let span = self.span(&rest[0]);
                    let live = build::unary(UnOp::LogicalNot, self.var_expr(flag, span), span);
                    self.runtime_if(
                        live,
                        span,
                        |s, then| if then { s.stmts(rest) } else { Ok(()) },
                    )?;
                    self.may_have_returned = true;
                }
                break;
            }
        }
        Ok(())
    }

    fn stmt(&mut self, s: &ast::Stmt) -> DResult<()> {
        self.deeper("statements", |me| me.span(s), |me| walk::stmt(me, s))
    }

    /// Runs `f` one nesting level deeper; past [`MAX_NESTING`] levels,
    /// `what` is refused at `span` (a deep program must not overflow the
    /// stack).
    fn deeper<T>(
        &mut self,
        what: &str,
        span: impl FnOnce(&Self) -> Span,
        f: impl FnOnce(&mut Self) -> DResult<T>,
    ) -> DResult<T> {
        self.depth += 1;
        let r = if self.depth > MAX_NESTING {
            err(
                span(self),
                format!("{what} nested more than {MAX_NESTING} levels deep"),
            )
        } else {
            f(self)
        };
        self.depth -= 1;
        r
    }

    /// Assigns a value to a target (a name, or a tuple of names for unpacking).
    /// As in Triton's code generator, a plain assignment turns a Python number
    /// into a 0-d tensor; only `x: tl.constexpr = …` keeps it compile-time.
    fn assign(&mut self, target: &ast::Expr, v: Value) -> DResult<()> {
        self.assign_as(target, v, false)
    }

    fn assign_as(&mut self, target: &ast::Expr, v: Value, constexpr: bool) -> DResult<()> {
        let span = self.span(target);
        match target {
            ast::Expr::Name(n) => self.assign_name(n.id.as_str(), v, constexpr, span),
            ast::Expr::Tuple(t) => {
                let items = match v {
                    Value::Tuple(items) | Value::Named(_, items) => items,
                    other => {
                        return err(
                            span,
                            format!(
                                "cannot unpack {} into {} names",
                                other.describe(),
                                t.elts.len()
                            ),
                        )
                    }
                };
                walk::unpack(items.len(), t.elts.len(), span)?;
                for (e, v) in t.elts.iter().zip(items) {
                    self.assign_as(e, v, constexpr)?;
                }
                Ok(())
            }
            ast::Expr::Subscript(_) => unsupported(
                span,
                "assignment into a tensor element",
                "compute the whole tile and use tl.where, or tl.store to memory",
            ),
            ast::Expr::Attribute(_) => {
                unsupported(span, "assignment to an attribute", "use a local variable")
            }
            ast::Expr::Starred(_) => {
                unsupported(span, "starred assignment", "unpack into explicit names")
            }
            _ => err(span, "cannot assign to this expression"),
        }
    }

    /// `name = v` (`constexpr`: `name: tl.constexpr = v`): a runtime value
    /// is bound to a fresh variable of that name; a Python number becomes a
    /// 0-d tensor unless `constexpr`.
    pub fn assign_name(
        &mut self,
        name: &str,
        v: Value,
        constexpr: bool,
        span: Span,
    ) -> DResult<()> {
        let declared = self.declared_constexpr.contains(name);
        if declared && matches!(v, Value::Tensor(_)) {
            return err(
                span,
                format!("`{name}` is declared tl.constexpr and must be given a compile-time value"),
            );
        }
        let constexpr = constexpr || declared || self.compile_time;
        let v = match v {
            Value::Tensor(e) => Value::Tensor(self.bind(name, e)),
            Value::Num(_) if !constexpr => {
                let e = self.to_tensor(v, span)?;
                Value::Tensor(self.bind(name, e))
            }
            other => other,
        };
        self.env.insert(name.to_string(), v);
        Ok(())
    }

    /// Converts a compile-time number to a 0-d tensor (Triton's `to_tensor`).
    pub fn to_tensor(&self, v: Value, span: Span) -> DResult<Expr> {
        match v {
            Value::Tensor(e) => Ok(e),
            Value::Num(n) => {
                let d = n.natural_dtype().map_err(|m| Diagnostic::new(span, m))?;
                Ok(self.num_const(n, d, span))
            }
            other => err(
                span,
                format!("expected a tensor or number, got {}", other.describe()),
            ),
        }
    }

    /// A 0-d constant of dtype `d` holding Python number `n` (converted exactly
    /// or rounded to nearest even).
    pub fn num_const(&self, n: PyNum, d: DType, span: Span) -> Expr {
        let bits = match n {
            PyNum::Bool(b) => {
                if d.is_float() {
                    float::from_int(d, b as i128, Rounding::NearestEven)
                } else {
                    b as u64
                }
            }
            PyNum::Int(i) => {
                if d.is_float() {
                    float::from_int(d, i, Rounding::NearestEven)
                } else if d == DType::Bool {
                    (i != 0) as u64
                } else {
                    (i as u64) & d.mask()
                }
            }
            PyNum::Float(f) => {
                if d.is_float() {
                    float::from_f64(d, f, Rounding::NearestEven, Overflow::Infinity)
                } else if d == DType::Bool {
                    (f != 0.0) as u64
                } else {
                    (f.trunc() as i128 as u64) & d.mask()
                }
            }
        };
        Expr {
            kind: ExprKind::Const(bits),
            ty: Type::scalar(d),
            span,
        }
    }

    fn cond_of(&mut self, v: Value, span: Span) -> DResult<Result<bool, Expr>> {
        if let Some(b) = truthy(&v) {
            return Ok(Ok(b));
        }
        let e = self.to_tensor(v, span)?;
        if !e.ty.shape.is_empty() && e.ty.numel() != 1 {
            return err(
                span,
                format!("a condition must be a scalar, got a tile of type {}", e.ty),
            );
        }
        let e = if e.ty.shape.is_empty() {
            e
        } else {
            self.reshape(e, vec![], span)
        };
        Ok(Err(self.to_bool(e, span)?))
    }

    /// `x != 0` for a non-bool 0-d value.
    pub fn to_bool(&mut self, e: Expr, span: Span) -> DResult<Expr> {
        if e.ty.elem == Elem::Num(DType::Bool) {
            return Ok(e);
        }
        if e.ty.is_ptr() {
            return err(span, "a pointer cannot be used as a condition");
        }
        Ok(self.cast(
            e,
            DType::Bool,
            CastKind::Convert(Rounding::NearestEven, Overflow::Infinity),
        ))
    }

    /// An `if` on a runtime condition: a helper's `return` inside it is
    /// joined or refused; the environments of the branches are merged.
    fn runtime_if_stmt(&mut self, cond: Expr, i: &ast::StmtIf, span: Span) -> DResult<()> {
        let returns = self.loops.len() == self.loop_base
            && self.calls.len() > 1
            && contains_return(&i.body, &i.orelse);
        if returns && both_return_a_value_last(&i.body, &i.orelse) {
            return self.if_returning_in_both(cond, i, span);
        }
        if returns && (self.returned.is_none() || returns_value(&i.body, &i.orelse)) {
            return unsupported(
                span,
                "`return` of a value inside a runtime `if` of a helper",
                "assign the result to a variable in both branches and return it after the `if`",
            );
        }
        self.runtime_if(cond, span, |s, then| {
            s.stmts(if then { &i.body } else { &i.orelse })
        })?;
        self.may_have_returned |= returns;
        Ok(())
    }

    /// `a if c else b` as a statement (Triton's
    /// `test_if[if_exp_dynamic_void]`: `tl.store(…) if pid % 2 == 0 else
    /// tl.store(…)`): the branch `c` picks is evaluated for its effects, at
    /// compile time where `c` is a Python value, else as a runtime `if`.
    fn if_expression_statement(&mut self, x: &ast::ExprIfExp) -> DResult<()> {
        let span = self.span(x);
        let c = self.expr(&x.test)?;
        match self.cond_of(c, span)? {
            Ok(true) => self.expr(&x.body).map(drop),
            Ok(false) => self.expr(&x.orelse).map(drop),
            Err(cond) => self.runtime_if(cond, span, |s, then| {
                s.expr(if then { &x.body } else { &x.orelse }).map(drop)
            }),
        }
    }

    /// A helper's runtime `if` whose branches both end in `return VALUE`
    /// (and return nowhere else): the helper returns the value of the branch
    /// taken, joined as a variable both branches set (Triton's
    /// `test_if_call[jit_if]`: `if pid == 0: return x + 1 else: return x + 2`).
    fn if_returning_in_both(&mut self, cond: Expr, i: &ast::StmtIf, span: Span) -> DResult<()> {
        const RESULT: &str = "__ksem_if_result";
        self.runtime_if(cond, span, |s, then| {
            let body = if then { &i.body } else { &i.orelse };
            let Some((
                ast::Stmt::Return(ast::StmtReturn {
                    value: Some(value), ..
                }),
                init,
            )) = body.split_last()
            else {
                return err(span, "a branch that does not end in `return VALUE`");
            };
            s.stmts(init)?;
            let v = s.expr(value)?;
            s.assign_name(RESULT, v, false, span)
        })?;
        let v = self
            .env
            .remove(RESULT)
            .ok_or_else(|| Diagnostic::new(span, "the branches of the `if` returned nothing"))?;
        self.ret = Some(v);
        self.terminated = true;
        Ok(())
    }

    /// An `if` on the runtime 0-d bool `cond`: `branch(self, true)`
    /// elaborates the `if` branch, `branch(self, false)` the `else` branch;
    /// names the branches give different values are joined into fresh
    /// variables set last in each branch.
    pub fn runtime_if(
        &mut self,
        cond: Expr,
        span: Span,
        mut branch: impl FnMut(&mut Self, bool) -> DResult<()>,
    ) -> DResult<()> {
        let before = self.env.clone();
        let (tb, tenv, tterm) = self.sub_block(|s| branch(s, true))?;
        self.env = before.clone();
        let (eb, eenv, eterm) = self.sub_block(|s| branch(s, false))?;
        let (mut tb, mut eb) = (tb, eb);
        self.env = self.merge(
            &before,
            (&mut tb, &tenv, tterm),
            (&mut eb, &eenv, eterm),
            span,
        )?;
        self.out.push(Stmt::If {
            cond,
            then_body: tb,
            else_body: eb,
        });
        self.terminated = tterm && eterm;
        Ok(())
    }

    /// Runs `f` collecting its statements into a fresh block; returns the
    /// block, the environment after it and whether it terminated.
    pub fn sub_block(
        &mut self,
        f: impl FnOnce(&mut Self) -> DResult<()>,
    ) -> DResult<(Block, HashMap<String, Value>, bool)> {
        let saved_out = std::mem::take(&mut self.out);
        let saved_term = self.terminated;
        self.terminated = false;
        let r = f(self);
        let block = std::mem::replace(&mut self.out, saved_out);
        let term = self.terminated;
        self.terminated = saved_term;
        r?;
        Ok((block, self.env.clone(), term))
    }

    /// Joins the environments after the two branches of a runtime `if`.
    fn merge(
        &mut self,
        before: &HashMap<String, Value>,
        t: (&mut Block, &HashMap<String, Value>, bool),
        e: (&mut Block, &HashMap<String, Value>, bool),
        span: Span,
    ) -> DResult<HashMap<String, Value>> {
        if t.2 && e.2 {
            return Ok(before.clone());
        }
        if t.2 {
            return Ok(e.1.clone());
        }
        if e.2 {
            return Ok(t.1.clone());
        }
        let mut out = HashMap::new();
        let mut names: Vec<&String> = t.1.keys().filter(|k| e.1.contains_key(*k)).collect();
        names.sort();
        for name in names {
            let (tv, ev) = (&t.1[name], &e.1[name]);
            if tv == ev {
                out.insert(name.clone(), tv.clone());
                continue;
            }
            let te = self.to_tensor(tv.clone(), span);
            let ee = self.to_tensor(ev.clone(), span);
            let (te, ee) = match (te, ee) {
                (Ok(a), Ok(b)) => (a, b),
                _ => {
                    if before.contains_key(name) {
                        return err(span, format!("`{name}` is given different compile-time values in the branches of a runtime `if`"));
                    }
                    continue;
                }
            };
            if te.ty != ee.ty {
                return err(span, format!("`{name}` has type {} in the `if` branch but {} in the `else` branch; Triton requires the same type", te.ty, ee.ty));
            }
            let id = self.new_var(name, te.ty.clone());
            t.0.push(Stmt::Let(id, te));
            e.0.push(Stmt::Let(id, ee));
            out.insert(name.clone(), Value::Tensor(self.var_expr(id, span)));
        }
        Ok(out)
    }

    /// Makes the loop-carried variables of a loop whose body is `body`.
    fn carry_in(&mut self, assigned: Vec<String>, span: Span) -> DResult<Vec<(String, VarId)>> {
        let mut carried = Vec::new();
        for name in assigned {
            let Some(v) = self.env.get(&name).cloned() else {
                continue;
            };
            let e = match v {
                Value::Tensor(e) => e,
                Value::Num(_) => self.to_tensor(v, span)?,
                Value::BlockPtr(mut bp) => {
                    // a block pointer advanced in the loop: its offsets are
                    // carried, as `name` + NUL + the dimension
                    for (i, o) in bp.offsets.iter_mut().enumerate() {
                        let id = self.new_var(&name, o.ty.clone());
                        self.out.push(Stmt::Let(id, o.clone()));
                        *o = self.var_expr(id, span);
                        carried.push((format!("{name}\0{i}"), id));
                    }
                    self.env.insert(name.clone(), Value::BlockPtr(bp));
                    continue;
                }
                _ => continue,
            };
            let id = self.new_var(&name, e.ty.clone());
            self.out.push(Stmt::Let(id, e));
            self.env
                .insert(name.clone(), Value::Tensor(self.var_expr(id, span)));
            carried.push((name, id));
        }
        Ok(carried)
    }

    /// Writes the current values of the innermost loop's carried variables back.
    fn write_carried(&mut self, span: Span) -> DResult<()> {
        let carried = self.loops.last().cloned().unwrap_or_default();
        for (name, id) in carried {
            let v = match name.split_once('\0') {
                Some((base, i)) => match self.env.get(base) {
                    Some(Value::BlockPtr(bp)) => i.parse::<usize>().ok().and_then(|i| bp.offsets.get(i)).cloned().map(Value::Tensor),
                    Some(_) => return err(span, format!("loop-carried block pointer `{base}` is given another kind of value in the loop")),
                    None => None,
                },
                None => self.env.get(&name).cloned(),
            };
            let Some(v) = v else {
                return err(
                    span,
                    format!("loop-carried variable `{name}` is undefined here"),
                );
            };
            if let Value::Tensor(Expr {
                kind: ExprKind::Var(cur),
                ..
            }) = &v
            {
                if *cur == id {
                    continue;
                }
            }
            let e = self.to_tensor(v, span)?;
            let want = &self.vars[id].1;
            if &e.ty != want {
                return err(span, format!("loop-carried variable `{name}` has type {want} before the loop but {} inside it; Triton requires the same type", e.ty));
            }
            self.out.push(Stmt::Let(id, e));
        }
        Ok(())
    }

    fn loop_body(
        &mut self,
        carried: Vec<(String, VarId)>,
        body: impl FnOnce(&mut Self) -> DResult<()>,
        span: Span,
    ) -> DResult<Block> {
        self.loops.push(carried.clone());
        let r = self.sub_block(|s| {
            body(s)?;
            if !s.terminated {
                s.write_carried(span)?;
            }
            Ok(())
        });
        self.loops.pop();
        let (block, _, _) = r?;
        Ok(block)
    }

    fn after_loop(
        &mut self,
        before: HashMap<String, Value>,
        carried: &[(String, VarId)],
        span: Span,
    ) {
        self.env = before;
        for (name, id) in carried {
            let v = self.var_expr(*id, span);
            match name.split_once('\0') {
                Some((base, i)) => {
                    if let (Some(Value::BlockPtr(bp)), Ok(i)) =
                        (self.env.get_mut(base), i.parse::<usize>())
                    {
                        bp.offsets[i] = v;
                    }
                }
                None => {
                    self.env.insert(name.clone(), Value::Tensor(v));
                }
            }
        }
    }

    fn for_stmt(&mut self, f: &ast::StmtFor) -> DResult<()> {
        if self.compile_time {
            return self.compile_time_for(f);
        }
        let span = self.span(f);
        let ast::Expr::Name(target) = &*f.target else {
            return unsupported(
                self.span(&*f.target),
                "unpacking in a `for` target",
                "loop over an index with range()",
            );
        };
        let ast::Expr::Call(call) = &*f.iter else {
            return unsupported(
                self.span(&*f.iter),
                "`for` over a non-range iterable",
                "use `for i in range(n)`, tl.range or tl.static_range and index",
            );
        };
        let func = self.expr(&call.func)?;
        let kind = match &func {
            Value::Builtin(b) if b == "range" || b == "static_range" => b.clone(),
            Value::Builtin(b) if b == "py:range" => "range".to_string(),
            _ => {
                return unsupported(
                    self.span(&*f.iter),
                    "`for` over a non-range iterable",
                    "use `for i in range(n)`, tl.range or tl.static_range and index",
                )
            }
        };
        let mut bounds = self.positional_args(&call.args)?;
        for k in &call.keywords {
            let ok = matches!(
                k.arg.as_ref().map(|a| a.as_str()),
                Some(
                    "num_stages"
                        | "loop_unroll_factor"
                        | "disallow_acc_multi_buffer"
                        | "flatten"
                        | "warp_specialize"
                        | "step"
                )
            );
            if !ok {
                return err(self.span(k), "unknown keyword argument of range()");
            }
            if k.arg.as_ref().map(|a| a.as_str()) == Some("step") {
                bounds.push(self.expr(&k.value)?);
            }
        }
        let (start, end, step) = range_bounds(bounds, span)?;
        let name = target.id.to_string();
        let all_const = [&start, &end, &step]
            .iter()
            .all(|v| matches!(v, Value::Num(PyNum::Int(_))));
        if kind == "static_range" {
            let (a, s, n) = counted_range(
                [&start, &end, &step],
                span,
                "tl.static_range bounds must be compile-time integers",
            )?;
            if n > 4096 {
                return err(span, "tl.static_range unrolls more than 4096 iterations");
            }
            for k in 0..n as i128 {
                let i = a + k * s;
                self.env.insert(name.clone(), Value::Num(PyNum::Int(i)));
                self.stmts(&f.body)?;
                if self.terminated {
                    return err(
                        span,
                        "`break`/`continue`/`return` in a tl.static_range loop is not supported",
                    );
                }
            }
            return Ok(());
        }
        if all_const {
            if let Value::Num(PyNum::Int(0)) = step {
                return Err(walk::zero_step(span));
            }
        }
        let mut assigned = Vec::new();
        assigned_names(&f.body, &mut assigned);
        self.range_loop(&name, [start, end, step], assigned, span, |s| {
            s.stmts(&f.body)
        })
    }

    /// A runtime `for name in range(start, end, step)` whose body (`body_f`)
    /// assigns the names `assigned` (in order of first assignment): those
    /// already bound are carried through the loop.
    pub fn range_loop(
        &mut self,
        name: &str,
        [start, end, step]: [Value; 3],
        assigned: Vec<String>,
        span: Span,
        body_f: impl FnOnce(&mut Self) -> DResult<()>,
    ) -> DResult<()> {
        let lo = self.to_tensor(start, span)?;
        let hi = self.to_tensor(end, span)?;
        let st = self.to_tensor(step, span)?;
        for e in [&lo, &hi, &st] {
            if !e.ty.shape.is_empty()
                || !e.ty.dtype().is_int()
                || e.ty.is_ptr()
                || e.ty.dtype() == DType::Bool
            {
                return err(
                    span,
                    format!("range() bounds must be scalar integers, got {}", e.ty),
                );
            }
        }
        let ivd = promote::integer_promote(
            promote::integer_promote(lo.ty.dtype(), hi.ty.dtype()),
            st.ty.dtype(),
        );
        let conv = CastKind::Convert(Rounding::NearestEven, Overflow::Infinity);
        let (lo, hi, st) = (
            self.cast(lo, ivd, conv),
            self.cast(hi, ivd, conv),
            self.cast(st, ivd, conv),
        );
        let before = self.env.clone();
        let carried = self.carry_in(assigned, span)?;
        let iv = self.new_var(name, Type::scalar(ivd));
        self.env
            .insert(name.to_string(), Value::Tensor(self.var_expr(iv, span)));
        let body = self.loop_body(carried.clone(), body_f, span)?;
        self.out.push(Stmt::For {
            var: iv,
            start: lo,
            end: hi,
            step: st,
            body,
            span,
            parallel: None,
        });
        self.after_loop(before, &carried, span);
        Ok(())
    }

    fn while_stmt(&mut self, w: &ast::StmtWhile) -> DResult<()> {
        if self.compile_time {
            return self.compile_time_while(w);
        }
        let span = self.span(w);
        let mut assigned = Vec::new();
        assigned_names(&w.body, &mut assigned);
        self.while_loop(assigned, span, |s| s.expr(&w.test), |s| s.stmts(&w.body))
    }

    /// A `while` loop: `cond_f` elaborates the condition once the names
    /// `assigned` (those the body `body_f` assigns, in order) that are
    /// already bound are carried into the loop.
    pub fn while_loop(
        &mut self,
        assigned: Vec<String>,
        span: Span,
        cond_f: impl FnOnce(&mut Self) -> DResult<Value>,
        body_f: impl FnOnce(&mut Self) -> DResult<()>,
    ) -> DResult<()> {
        let before = self.env.clone();
        let carried = self.carry_in(assigned, span)?;
        let c = cond_f(self)?;
        let cond = match self.cond_of(c, span)? {
            Ok(b) => self.num_const(PyNum::Bool(b), DType::Bool, span),
            Err(e) => e,
        };
        let body = self.loop_body(carried.clone(), body_f, span)?;
        self.out.push(Stmt::While { cond, body, span });
        self.after_loop(before, &carried, span);
        Ok(())
    }

    // ----- expressions ----------------------------------------------------

    pub fn expr(&mut self, e: &ast::Expr) -> DResult<Value> {
        self.deeper("expression", |me| me.span(e), |me| me.expr_inner(e))
    }

    fn expr_inner(&mut self, e: &ast::Expr) -> DResult<Value> {
        use ast::Expr as E;
        let span = self.span(e);
        match e {
            E::Constant(c) => constant_value(&c.value).ok_or_else(|| {
                Diagnostic::new(
                    span,
                    "unsupported literal (integers must fit in 127 bits; no bytes or complex)",
                )
            }),
            E::Name(n) => match self.lookup(n.id.as_str(), span)? {
                // a variable reference points at its use, not its definition
                Value::Tensor(mut e) if matches!(e.kind, ExprKind::Var(_)) => {
                    e.span = span;
                    Ok(Value::Tensor(e))
                }
                v => Ok(v),
            },
            E::Attribute(a) => {
                let base = self.expr(&a.value)?;
                self.attribute(base, a.attr.as_str(), span)
            }
            E::BinOp(b) => {
                let l = self.expr(&b.left)?;
                let r = self.expr(&b.right)?;
                self.binop(b.op, l, r, span)
            }
            E::UnaryOp(u) => {
                let v = self.expr(&u.operand)?;
                self.unaryop(u.op, v, span)
            }
            E::BoolOp(b) => self.boolop(b, span),
            E::Compare(c) => {
                if c.ops.len() != 1 {
                    return unsupported(
                        span,
                        "chained comparison `a < b < c`",
                        "write `(a < b) & (b < c)`",
                    );
                }
                let l = self.expr(&c.left)?;
                let r = self.expr(&c.comparators[0])?;
                self.compare(c.ops[0], l, r, span)
            }
            E::Call(c) => self.call_expr(c, span),
            E::Subscript(s) => self.subscript(s, span),
            // a list and a tuple make the same tuple value
            E::Tuple(ast::ExprTuple { elts, .. }) | E::List(ast::ExprList { elts, .. }) => {
                let items = elts.iter().map(|x| self.expr(x));
                Ok(Value::Tuple(items.collect::<DResult<_>>()?))
            }
            E::IfExp(i) => self.if_exp(i, span),
            E::Slice(s) => {
                // a bound that is None (`x[None:]`, `x[::None]`) is no bound,
                // as `slice(None, None, None)` in Triton's `__getitem__`
                let mut bounded = false;
                for b in [&s.lower, &s.upper, &s.step].into_iter().flatten() {
                    bounded |= !matches!(self.expr(b)?, Value::None);
                }
                if bounded {
                    // Triton refuses it as an "unsupported tensor index"
                    return unsupported(
                        span,
                        "an unsupported tensor index: slicing with bounds or a step",
                        "only `:` and `None` are allowed in tensor subscripts (x[:, None])",
                    );
                }
                Ok(Value::Slice)
            }
            // comprehensions, lambdas, dicts, sets, f-strings, `:=`, …
            _ => crate::frontend::py::exprs::refuse(e, span, "Triton", refused_help),
        }
    }

    fn lookup(&self, name: &str, span: Span) -> DResult<Value> {
        if let Some(v) = self.env.get(name) {
            return Ok(v.clone());
        }
        if self.m.funcs.contains_key(name) {
            return Ok(Value::Func(name.to_string()));
        }
        if let Some(v) = self.m.globals.get(name) {
            return Ok(v.clone());
        }
        if self.m.plain_funcs.contains_key(name) {
            return Err(Diagnostic::new(
                span,
                format!("`{name}` is a plain Python function: a Triton kernel can call only @triton.jit functions"),
            )
            .with_help(format!("decorate it with @triton.jit, or wrap it at module level: {name} = triton.jit({name})")));
        }
        Ok(match name {
            "range" => Value::Builtin("py:range".into()),
            "min" | "max" | "abs" | "int" | "float" | "bool" | "getattr" | "hasattr"
            | "isinstance" | "tuple" => Value::Builtin(format!("py:{name}")),
            "len" => return unsupported(span, "`len()`", "use the constexpr size (e.g. BLOCK) or x.shape[0]"),
            "type" => return unsupported(span, "`type()`", "use isinstance(x, tl.tensor) or x.dtype comparisons with tl.constexpr values"),
            "print" => return unsupported(span, "`print()`", "use tl.static_print (compile time) or tl.device_print (run time)"),
            "enumerate" | "zip" | "iter" | "list" | "dict" | "set" | "sorted" | "map" | "filter" => {
                return unsupported(span, &format!("`{name}()`"), "use index-based loops over range()")
            }
            _ => return err(span, format!("name `{name}` is not defined (kernels see their parameters, local variables, @triton.jit functions and module-level constants)")),
        })
    }

    pub(super) fn attribute(&mut self, base: Value, attr: &str, span: Span) -> DResult<Value> {
        match base {
            Value::Foreign { module, name: None } => {
                let m = &self.m.imports[module];
                super::imports::member(m, module, attr).ok_or_else(|| {
                    Diagnostic::new(
                        span,
                        format!(
                            "`{attr}` is not a @triton.jit function or constant of {}",
                            m.file
                        ),
                    )
                })
            }
            Value::Module(p) => match member(p, attr) {
                Value::Builtin(b) if b.starts_with('?') => {
                    err(span, format!("unknown attribute `{attr}`"))
                }
                v => Ok(v),
            },
            Value::Tensor(e) => match attr {
                "dtype" => Ok(types::elem_value(e.ty.elem)),
                // a 0-d value's type is its scalar type; a tile's a block_type
                "type" if e.ty.shape.is_empty() => Ok(types::elem_value(e.ty.elem)),
                "type" => Ok(Value::BlockType(e.ty.elem, e.ty.shape.clone())),
                "numel" => Ok(Value::Num(PyNum::Int(e.ty.numel() as i128))),
                "shape" => Ok(Value::Tuple(
                    e.ty.shape
                        .iter()
                        .map(|&d| Value::Num(PyNum::Int(d as i128)))
                        .collect(),
                )),
                "T" => self.call_builtin("trans", vec![Value::Tensor(e)], span),
                _ => Ok(Value::Method(Box::new(e), attr.to_string())),
            },
            t if types::is_type(&t) => {
                types::attribute(&t, attr).map_err(|m| Diagnostic::new(span, m))
            }
            // `tl.random.rand(…)`: the random builtins through their module
            Value::Builtin(b)
                if b == "random"
                    && super::builtins::signature(super::random::BUILTINS, attr).is_some() =>
            {
                Ok(Value::Builtin(attr.to_string()))
            }
            Value::Named(c, items) => super::named::field(&c, &items, attr, span),
            // `c.value` of a constexpr is the value itself
            v @ (Value::Num(_) | Value::Str(_) | Value::None | Value::NanMode(_))
                if attr == "value" =>
            {
                Ok(v)
            }
            other => err(
                span,
                format!("{} has no attribute `{attr}`", other.describe()),
            ),
        }
    }

    fn if_exp(&mut self, i: &ast::ExprIfExp, span: Span) -> DResult<Value> {
        let c = self.expr(&i.test)?;
        match self.cond_of(c, span)? {
            Ok(true) => self.expr(&i.body),
            Ok(false) => self.expr(&i.orelse),
            Err(cond) => {
                let (mut tb, tv) = self.value_block(&i.body)?;
                let (mut eb, ev) = self.value_block(&i.orelse)?;
                let te = self.to_tensor(tv, span)?;
                let ee = self.to_tensor(ev, span)?;
                if te.ty != ee.ty {
                    return err(span, format!("the branches of a runtime conditional expression have types {} and {}; Triton requires the same type", te.ty, ee.ty));
                }
                let id = self.new_var("ifexp", te.ty.clone());
                tb.push(Stmt::Let(id, te));
                eb.push(Stmt::Let(id, ee));
                self.out.push(Stmt::If {
                    cond,
                    then_body: tb,
                    else_body: eb,
                });
                Ok(Value::Tensor(self.var_expr(id, span)))
            }
        }
    }

    fn value_block(&mut self, e: &ast::Expr) -> DResult<(Block, Value)> {
        let mut v = Value::None;
        let env = self.env.clone();
        let (b, _, _) = self.sub_block(|s| {
            v = s.expr(e)?;
            Ok(())
        })?;
        self.env = env;
        Ok((b, v))
    }

    fn boolop(&mut self, b: &ast::ExprBoolOp, span: Span) -> DResult<Value> {
        let is_and = b.op == ast::BoolOp::And;
        let mut tensors: Vec<Expr> = Vec::new();
        let mut last = Value::None;
        for sub in &b.values {
            let v = self.expr(sub)?;
            match truthy(&v) {
                Some(t) => {
                    if t != is_and {
                        return Ok(v); // short-circuit on a constant
                    }
                    last = v;
                }
                None => {
                    let e = self.to_tensor(v, span)?;
                    if e.ty.dtype() != DType::Bool || e.ty.is_ptr() {
                        return Err(Diagnostic::new(
                            span,
                            format!(
                                "`and`/`or` on a tensor of type {} (Triton requires int1)",
                                e.ty
                            ),
                        )
                        .with_help("compare first (`x != 0`), or use & and |"));
                    }
                    tensors.push(e);
                }
            }
        }
        let Some(mut acc) = tensors.pop() else {
            return Ok(last);
        };
        while let Some(lhs) = tensors.pop() {
            let (l, r) = self.broadcast_pair(lhs, acc, span)?;
            let op = if is_and {
                BinOp::LogicalAnd
            } else {
                BinOp::LogicalOr
            };
            let ty = l.ty.clone();
            acc = Expr {
                kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
                ty,
                span,
            };
        }
        Ok(Value::Tensor(acc))
    }

    /// A unary operator (`-x`, `~x`, `not x`, `+x`) with Triton's rules.
    pub fn unaryop(&mut self, op: ast::UnaryOp, v: Value, span: Span) -> DResult<Value> {
        use ast::UnaryOp as U;
        if let Value::Num(n) = v {
            // Python's own unary operators on a number (`py::num`)
            return num::unary(op, n)
                .map(Value::Num)
                .or_else(|e| err(span, e.to_string()));
        }
        if let Some(b) = truthy(&v) {
            if op == U::Not {
                return Ok(Value::Num(PyNum::Bool(!b)));
            }
            return err(
                span,
                format!("bad operand for unary operator: {}", v.describe()),
            );
        }
        let e = self.to_tensor(v, span)?;
        if e.ty.is_ptr() {
            return err(
                span,
                format!("wrong type argument to unary operator ({})", e.ty),
            );
        }
        let d = e.ty.dtype();
        Ok(Value::Tensor(match op {
            U::UAdd => e,
            U::USub if d.is_float() && self.version.has(Rule::FloatNegFlipsSign) => {
                elementwise_unary(UnOp::Neg, e, span)
            }
            U::USub => self.zero_minus(e, span)?,
            U::Invert => {
                if d.is_float() {
                    return err(span, format!("unary ~ is not defined for {d}"));
                }
                elementwise_unary(UnOp::Not, e, span)
            }
            U::Not => {
                if d != DType::Bool {
                    return Err(Diagnostic::new(
                        span,
                        format!("`not` on a tensor of type {}", e.ty),
                    )
                    .with_help("use `x == 0`"));
                }
                elementwise_unary(UnOp::LogicalNot, e, span)
            }
        }))
    }

    /// Triton's minus of an integer (and, before the sign-flip rule, of a
    /// float): `0 - x` in `x`'s type.
    fn zero_minus(&mut self, e: Expr, span: Span) -> DResult<Expr> {
        let zero = self.num_const(PyNum::Int(0), e.ty.dtype(), span);
        let zero = self.broadcast_to(zero, &e.ty.shape, span)?;
        let ty = e.ty.clone();
        Ok(Expr {
            kind: ExprKind::Binary(BinOp::Sub, Box::new(zero), Box::new(e)),
            ty,
            span,
        })
    }

    fn operand(&self, v: &Value, span: Span) -> DResult<Operand> {
        match v {
            Value::Tensor(e) => Ok(Operand::Tensor(e.ty.dtype())),
            Value::Num(n) => Ok(Operand::Scalar(*n)),
            other => err(span, format!("unsupported operand: {}", other.describe())),
        }
    }

    /// Converts both operands to dtype `d` (literals exactly or by rounding,
    /// tensors with explicit casts) and broadcasts them to a common shape.
    fn coerce_pair(&mut self, a: Value, b: Value, d: DType, span: Span) -> DResult<(Expr, Expr)> {
        let conv = CastKind::Convert(Rounding::NearestEven, Overflow::Infinity);
        let side = |v: Value| -> DResult<Expr> {
            Ok(match v {
                Value::Num(n) => self.num_const(n, d, span),
                Value::Tensor(e) => self.cast(e, d, conv),
                other => return err(span, format!("unsupported operand: {}", other.describe())),
            })
        };
        let (x, y) = (side(a)?, side(b)?);
        self.broadcast_pair(x, y, span)
    }

    /// A binary operator (`+ - * / // % & | ^ << >>`) with Triton's rules.
    pub fn binop(
        &mut self,
        op: ast::Operator,
        mut a: Value,
        mut b: Value,
        span: Span,
    ) -> DResult<Value> {
        use ast::Operator as O;
        if let (Value::Num(x), Value::Num(y)) = (&a, &b) {
            return fold_binop(op, *x, *y)
                .map(Value::Num)
                .map_err(|m| Diagnostic::new(span, m));
        }
        match (a, b) {
            // Python's tuple concatenation (`tl.tuple.__add__`); a
            // NamedTuple instance's items make a plain tuple
            (
                Value::Tuple(mut x) | Value::Named(_, mut x),
                Value::Tuple(y) | Value::Named(_, y),
            ) if op == O::Add => {
                x.extend(y);
                return Ok(Value::Tuple(x));
            }
            (Value::Tuple(_) | Value::Named(..), _) | (_, Value::Tuple(_) | Value::Named(..)) => {
                return err(
                    span,
                    "arithmetic on tuples other than `+` of two tuples is not supported",
                );
            }
            (x, y) => {
                a = x;
                b = y;
            }
        }
        let a_ptr = matches!(&a, Value::Tensor(e) if e.ty.is_ptr());
        let b_ptr = matches!(&b, Value::Tensor(e) if e.ty.is_ptr());
        if a_ptr || b_ptr {
            return self.ptr_arith(op, a, b, a_ptr, b_ptr, span);
        }
        let div_or_mod = matches!(op, O::Div | O::FloorDiv | O::Mod);
        let (oa, ob) = (self.operand(&a, span)?, self.operand(&b, span)?);
        let d =
            promote::computation_type(oa, ob, div_or_mod).map_err(|m| Diagnostic::new(span, m))?;
        let (binop, result_d) = match op {
            O::Add => (BinOp::Add, d),
            O::Sub => (BinOp::Sub, d),
            O::Mult => (BinOp::Mul, d),
            O::Div => {
                if d.is_int() {
                    // int / int divides in float32
                    let (x, y) = self.coerce_pair(a, b, d, span)?;
                    let conv = CastKind::Convert(Rounding::NearestEven, Overflow::Infinity);
                    let (x, y) = (
                        self.cast(x, DType::F32, conv),
                        self.cast(y, DType::F32, conv),
                    );
                    return Ok(Value::Tensor(self.mk_binary(
                        BinOp::FDiv,
                        x,
                        y,
                        DType::F32,
                        span,
                    )));
                }
                (BinOp::FDiv, d)
            }
            O::FloorDiv => {
                if d.is_float() {
                    return Err(Diagnostic::new(
                        span,
                        format!("`//` is not defined for {d} tensors (Triton 3.6 rejects it)"),
                    )
                    .with_help("use tl.floor(a / b) or integer operands"));
                }
                (BinOp::IDiv(IntDiv::TRUNC), d)
            }
            O::Mod => (
                if d.is_float() {
                    BinOp::FRem
                } else {
                    BinOp::IRem(IntDiv::TRUNC)
                },
                d,
            ),
            O::BitAnd | O::BitOr | O::BitXor | O::LShift | O::RShift => {
                if d.is_float() {
                    // Triton's IncompatibleTypeErrorImpl words it so
                    let name = |o: &promote::Operand| match o {
                        promote::Operand::Tensor(t) => t.to_string(),
                        // a Python number takes its natural dtype first
                        promote::Operand::Scalar(n) => n
                            .natural_dtype()
                            .map_or_else(|_| n.type_name().to_string(), |d| d.to_string()),
                    };
                    return Err(Diagnostic::new(
                        span,
                        format!(
                            "invalid operands of type {} and {} for a bitwise operator: Triton accepts only integer operands",
                            name(&oa),
                            name(&ob)
                        ),
                    )
                    .with_help("reinterpret the bits first: x.to(tl.int32, bitcast=True)"));
                }
                let bop = match op {
                    O::BitAnd => BinOp::And,
                    O::BitOr => BinOp::Or,
                    O::BitXor => BinOp::Xor,
                    O::LShift => BinOp::Shl(ShiftRange::Ub),
                    _ => BinOp::Shr(
                        if shifts_arithmetically(&a, &b) {
                            ShrKind::Arith
                        } else {
                            ShrKind::Logical
                        },
                        ShiftRange::Ub,
                    ),
                };
                (bop, d)
            }
            O::Pow => {
                return Err(
                    Diagnostic::new(span, "`**` on tensors is not supported by Triton")
                        .with_help("multiply explicitly (x * x) or use tl.exp2/tl.log2"),
                )
            }
            // Triton 3.6's code generator has no method for `@` (its
            // `_method_name_for_bin_op` lacks ast.MatMult) and refuses it
            O::MatMult => {
                return Err(Diagnostic::new(
                    span,
                    "`@` is not supported by Triton 3.6 (\"AST binary operator 'MatMult' is not (currently) implemented\")",
                )
                .with_help("use tl.dot(a, b)"))
            }
        };
        let (x, y) = self.coerce_pair(a, b, d, span)?;
        Ok(Value::Tensor(self.mk_binary(binop, x, y, result_d, span)))
    }

    pub fn mk_binary(&self, op: BinOp, x: Expr, y: Expr, d: DType, span: Span) -> Expr {
        let ty = Type::num(
            if op.is_comparison() { DType::Bool } else { d },
            x.ty.shape.clone(),
        );
        Expr {
            kind: ExprKind::Binary(op, Box::new(x), Box::new(y)),
            ty,
            span,
        }
    }

    fn ptr_arith(
        &mut self,
        op: ast::Operator,
        a: Value,
        b: Value,
        a_ptr: bool,
        b_ptr: bool,
        span: Span,
    ) -> DResult<Value> {
        let (p, off) = match (op, a_ptr, b_ptr) {
            (ast::Operator::Add, true, false) => (a, b),
            (ast::Operator::Add, false, true) => (b, a),
            (ast::Operator::Sub, true, false) => (a, b),
            _ => {
                return err(
                    span,
                    "only pointer + integer and pointer - integer are allowed on pointers",
                )
            }
        };
        let p = self.to_tensor(p, span)?;
        let off = match off {
            Value::Num(PyNum::Int(i)) => self.num_const(
                PyNum::Int(i),
                PyNum::Int(i)
                    .natural_dtype()
                    .map_err(|m| Diagnostic::new(span, m))?,
                span,
            ),
            Value::Tensor(e) if e.ty.dtype().is_int() && !e.ty.is_ptr() => e,
            other => {
                return err(
                    span,
                    format!("pointer offsets must be integers, got {}", other.describe()),
                )
            }
        };
        let off = if op == ast::Operator::Sub {
            self.zero_minus(off, span)?
        } else {
            off
        };
        let (p, off) = self.broadcast_pair(p, off, span)?;
        let ty = p.ty.clone();
        Ok(Value::Tensor(Expr {
            kind: ExprKind::Binary(BinOp::PtrAdd, Box::new(p), Box::new(off)),
            ty,
            span,
        }))
    }

    /// A comparison (`== != < <= > >=`, `is`) with Triton's promotion.
    pub fn compare(&mut self, op: ast::CmpOp, a: Value, b: Value, span: Span) -> DResult<Value> {
        use ast::CmpOp as C;
        match op {
            C::Is | C::IsNot => {
                let same = match (&a, &b) {
                    (Value::Tensor(_), _) | (_, Value::Tensor(_)) => false,
                    (x, y) => x == y,
                };
                return Ok(Value::Num(PyNum::Bool(same == (op == C::Is))));
            }
            C::In | C::NotIn => {
                return unsupported(
                    span,
                    "membership test `in`",
                    "compare explicitly with == and combine with |",
                )
            }
            _ => {}
        }
        if let (Value::Num(x), Value::Num(y)) = (&a, &b) {
            return fold_cmp(op, *x, *y)
                .map(|r| Value::Num(PyNum::Bool(r)))
                .map_err(|m| Diagnostic::new(span, m));
        }
        if !matches!(
            (&a, &b),
            (
                Value::Tensor(_) | Value::Num(_),
                Value::Tensor(_) | Value::Num(_)
            )
        ) {
            // compile-time values other than numbers: strings, None, types, tuples
            if matches!(a, Value::Tensor(_)) || matches!(b, Value::Tensor(_)) {
                return err(
                    span,
                    format!("cannot compare {} with {}", a.describe(), b.describe()),
                );
            }
            let r = match (op, &a, &b) {
                (C::Eq, ..) | (C::NotEq, ..) => {
                    let Some(eq) = const_eq(&a, &b) else {
                        return err(span, "cannot compare tuples that hold runtime values");
                    };
                    eq == (op == C::Eq)
                }
                // strings order by code point, as in Python (`py::value`)
                (_, Value::Str(_), Value::Str(_)) => {
                    compare::compare(op, &a.host(), &b.host()) == Ok(Some(true))
                }
                _ => {
                    return err(
                        span,
                        format!(
                            "cannot order {} and {} (only == and != compare them)",
                            a.describe(),
                            b.describe()
                        ),
                    )
                }
            };
            return Ok(Value::Num(PyNum::Bool(r)));
        }
        let (oa, ob) = (self.operand(&a, span)?, self.operand(&b, span)?);
        if matches!(&a, Value::Tensor(e) if e.ty.is_ptr())
            || matches!(&b, Value::Tensor(e) if e.ty.is_ptr())
        {
            return err(span, "comparing pointers is not supported by ksem");
        }
        let d = promote::computation_type(oa, ob, false).map_err(|m| Diagnostic::new(span, m))?;
        let bop = crate::frontend::py::value_cmp(op).unwrap_or(BinOp::Ge);
        let (x, y) = self.coerce_pair(a, b, d, span)?;
        Ok(Value::Tensor(self.mk_binary(bop, x, y, d, span)))
    }

    fn subscript(&mut self, s: &ast::ExprSubscript, span: Span) -> DResult<Value> {
        let base = self.expr(&s.value)?;
        let idx = self.expr(&s.slice)?;
        match base {
            // Python's indexing (`py::value`; a NamedTuple instance is a tuple)
            Value::Tuple(_) | Value::Named(..) => match idx {
                Value::Num(PyNum::Int(_) | PyNum::Bool(_)) => ops::index(&base.host(), &idx.host())
                    .map(Value::from_host)
                    .map_err(|e| Diagnostic::new(span, e.to_string())),
                _ => err(span, "tuple indices must be compile-time integers"),
            },
            Value::Tensor(e) => {
                let items = match idx {
                    Value::Tuple(t) => t,
                    v => vec![v],
                };
                let mut shape = Vec::new();
                let mut dim = 0;
                for it in &items {
                    match it {
                        Value::None => shape.push(1),
                        Value::Slice => {
                            if dim >= e.ty.shape.len() {
                                return err(span, format!("too many `:` for a tensor of rank {}", e.ty.shape.len()));
                            }
                            shape.push(e.ty.shape[dim]);
                            dim += 1;
                        }
                        _ => return unsupported(span, "indexing a tensor with a value", "tensors take only `:` and `None` subscripts; use tl.where, a reduction, or load from memory"),
                    }
                }
                if dim != e.ty.shape.len() {
                    shape.extend_from_slice(&e.ty.shape[dim..]);
                }
                Ok(Value::Tensor(self.reshape(e, shape, span)))
            }
            other => err(span, format!("{} is not subscriptable", other.describe())),
        }
    }

    // ----- calls ----------------------------------------------------------

    /// The values of a call's positional arguments, in order, a tuple's
    /// items in the place of `*t`.
    fn positional_args(&mut self, args: &[ast::Expr]) -> DResult<Vec<Value>> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            if let ast::Expr::Starred(st) = a {
                // `f(*t)` of a tuple: its items, as Triton's `visit_Call`
                // spreads a `tl.tuple` (anything else fails its assert)
                match self.expr(&st.value)? {
                    Value::Tuple(items) | Value::Named(_, items) => out.extend(items),
                    other => {
                        return err(
                            self.span(a),
                            format!("`*` in a call needs a tuple, got {}", other.describe()),
                        )
                    }
                }
                continue;
            }
            out.push(self.expr(a)?);
        }
        Ok(out)
    }

    fn call_expr(&mut self, c: &ast::ExprCall, span: Span) -> DResult<Value> {
        let func = self.expr(&c.func)?;
        let mut args = Args {
            pos: self.positional_args(&c.args)?,
            kw: Vec::new(),
        };
        for k in &c.keywords {
            let Some(name) = &k.arg else {
                return unsupported(
                    self.span(k),
                    "`**kwargs` in a call",
                    "pass keyword arguments explicitly",
                );
            };
            args.kw.push((name.to_string(), self.expr(&k.value)?));
        }
        match func {
            Value::Func(name) => self.call_jit(&name, args, span),
            Value::Foreign {
                module,
                name: Some(name),
            } => self.call_foreign(module, &name, args, span),
            Value::Builtin(b) => self.call_builtin(&b, args, span),
            Value::NamedClass(c) => super::named::construct(&c, args.pos, args.kw, span),
            Value::ConstexprFunc(name) => self.call_constexpr_function(&name, args, span),
            Value::Method(recv, m) => {
                args.pos.insert(0, Value::Tensor(*recv));
                self.call_builtin(&m, args, span)
            }
            Value::TypeMethod(recv, m) => {
                if !args.pos.is_empty() || !args.kw.is_empty() {
                    return err(span, format!("{m}() takes no arguments"));
                }
                types::call_method(&recv, &m).map_err(|msg| Diagnostic::new(span, msg))
            }
            Value::DType(d) => err(span, format!("dtype {d} is not callable; use x.to({d})")),
            other => err(span, format!("{} is not callable", other.describe())),
        }
    }

    /// Inlines a call of jit function (or runs constexpr_function) `name` of
    /// imported module `module`:
    /// its body is elaborated against its own module's names and reported
    /// at this call (an error says which helper of which file it came from).
    fn call_foreign(
        &mut self,
        module: usize,
        name: &str,
        args: Args,
        span: Span,
    ) -> DResult<Value> {
        let home = self.m;
        let callee = &home.imports[module];
        self.m = callee;
        let outermost = self.call_site.is_none();
        if outermost {
            self.call_site = Some(span);
        }
        let r = if callee.constexpr_funcs.contains_key(name) {
            self.call_constexpr_function(name, args, span)
        } else {
            self.call_jit(name, args, span)
        };
        self.m = home;
        if outermost {
            self.call_site = None;
        }
        r.map_err(|mut d| {
            let within = format!("in `{name}` of {}", callee.file);
            d.help = Some(match d.help {
                Some(h) if h.contains(&callee.file) => h,
                Some(h) => format!("{h} ({within})"),
                None => within,
            });
            d
        })
    }

    /// Inlines a call of a `@triton.jit` helper.
    pub fn call_jit(&mut self, name: &str, args: Args, span: Span) -> DResult<Value> {
        let m = self.m;
        let f = m.funcs.get(name).expect("jit function exists");
        self.inline_call(name, f, args, span)
    }

    /// Inlines function `f` (named `name`) called with `args`.
    fn inline_call(
        &mut self,
        name: &str,
        f: &ast::StmtFunctionDef,
        args: Args,
        span: Span,
    ) -> DResult<Value> {
        if self.calls.iter().any(|c| c == name) {
            return Err(Diagnostic::new(
                span,
                format!("recursive call of `{name}`: Triton kernels cannot recurse"),
            )
            .with_help("rewrite the recursion as a loop"));
        }
        if self.calls.len() > 64 {
            return err(span, "helper calls nested more than 64 deep");
        }
        self.reject_star_args(&f.args)?;
        let params = crate::frontend::py::params(&f.args);
        let takes = (0, params.len());
        crate::frontend::py::arity::check_args(span, &format!("`{name}`"), takes, args.pos.len())?;
        let mut env = HashMap::new();
        let mut given: Vec<Option<Value>> = vec![None; params.len()];
        for (i, a) in args.pos.into_iter().enumerate() {
            given[i] = Some(a);
        }
        for (k, v) in args.kw {
            let Some(i) = params.iter().position(|p| p.def.arg.as_str() == k) else {
                return err(span, format!("`{name}` has no parameter `{k}`"));
            };
            if given[i].is_some() {
                return err(span, format!("`{name}` got two values for `{k}`"));
            }
            given[i] = Some(v);
        }
        for (i, p) in params.iter().enumerate() {
            let v = match given[i].take() {
                Some(v) => v,
                None => match &p.default {
                    Some(d) => self.expr(d)?,
                    None => {
                        return err(
                            span,
                            format!("`{name}` is missing argument `{}`", p.def.arg),
                        )
                    }
                },
            };
            // A helper's `tl.constexpr` annotation does not constrain its
            // arguments: Triton 3.6's `call_JitFunction` binds a tensor passed
            // there as an ordinary runtime value (the fused-attention tutorial
            // passes `offs_m: tl.constexpr` a tl.arange tile), and a Python
            // number stays compile-time whatever the annotation.
            env.insert(p.def.arg.to_string(), v);
        }
        let saved_env = std::mem::replace(&mut self.env, env);
        let saved_declared = std::mem::take(&mut self.declared_constexpr);
        let saved_ret = self.ret.take();
        let saved_base = self.loop_base;
        let saved_term = self.terminated;
        self.loop_base = self.loops.len();
        self.calls.push(name.to_string());
        // a helper that may return under a runtime `if` (with no value)
        // gets a "returned" flag, cleared here
        let saved_returned = self.returned.take();
        if !self.compile_time
            && f.body
                .iter()
                .any(|s| matches!(s, ast::Stmt::If(i) if contains_return(&i.body, &i.orelse)))
        {
            let flag = self.new_var("_returned", Type::scalar(DType::Bool));
            self.out
                .push(Stmt::Let(flag, build::konst(DType::Bool, 0, span)));
            self.returned = Some(flag);
        }
        let r = self.stmts(&f.body);
        self.returned = saved_returned;
        self.may_have_returned = false;
        self.calls.pop();
        let ret = std::mem::replace(&mut self.ret, saved_ret);
        self.env = saved_env;
        self.declared_constexpr = saved_declared;
        self.loop_base = saved_base;
        self.terminated = saved_term;
        r?;
        Ok(ret.unwrap_or(Value::None))
    }

    // ----- shape and type plumbing -----------------------------------------

    pub fn cast(&self, e: Expr, d: DType, kind: CastKind) -> Expr {
        if e.ty.elem == Elem::Num(d) {
            return e;
        }
        let ty = e.ty.with_elem(Elem::Num(d));
        let span = e.span;
        Expr {
            kind: ExprKind::Cast(Box::new(e), kind),
            ty,
            span,
        }
    }

    pub fn reshape(&self, e: Expr, shape: Vec<usize>, span: Span) -> Expr {
        if e.ty.shape == shape {
            return e;
        }
        let ty = e.ty.with_shape(shape);
        Expr {
            kind: ExprKind::Reshape(Box::new(e)),
            ty,
            span,
        }
    }

    /// The broadcast of two shapes (seed: pad on the left with ones, then
    /// dimensions must be equal or 1).
    pub fn broadcast_shape(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
        let n = a.len().max(b.len());
        let pad = |s: &[usize]| -> Vec<usize> {
            std::iter::repeat_n(1, n - s.len())
                .chain(s.iter().copied())
                .collect()
        };
        let (pa, pb) = (pad(a), pad(b));
        pa.iter()
            .zip(&pb)
            .map(|(&x, &y)| {
                if x == y || y == 1 {
                    Some(x)
                } else if x == 1 {
                    Some(y)
                } else {
                    None
                }
            })
            .collect()
    }

    pub fn broadcast_to(&self, e: Expr, shape: &[usize], span: Span) -> DResult<Expr> {
        if e.ty.shape == shape {
            return Ok(e);
        }
        check_tile_size(shape, span)?;
        let ok = Self::broadcast_shape(&e.ty.shape, shape).is_some_and(|s| s == shape);
        if !ok || e.ty.shape.len() > shape.len() {
            return err(
                span,
                format!("cannot broadcast shape {:?} to {:?}", e.ty.shape, shape),
            );
        }
        let padded: Vec<usize> = std::iter::repeat_n(1, shape.len() - e.ty.shape.len())
            .chain(e.ty.shape.iter().copied())
            .collect();
        let e = if e.ty.shape.is_empty() {
            e
        } else {
            self.reshape(e, padded, span)
        };
        let ty = e.ty.with_shape(shape.to_vec());
        Ok(Expr {
            kind: ExprKind::Broadcast(Box::new(e)),
            ty,
            span,
        })
    }

    pub fn broadcast_pair(&self, a: Expr, b: Expr, span: Span) -> DResult<(Expr, Expr)> {
        if a.ty.shape == b.ty.shape {
            return Ok((a, b));
        }
        let Some(s) = Self::broadcast_shape(&a.ty.shape, &b.ty.shape) else {
            return err(
                span,
                format!(
                    "incompatible shapes for broadcasting: {:?} and {:?}",
                    a.ty.shape, b.ty.shape
                ),
            );
        };
        Ok((
            self.broadcast_to(a, &s, span)?,
            self.broadcast_to(b, &s, span)?,
        ))
    }
}

/// Whether `a >> b` fills with the sign: as Triton 3.6's `tensor.__rshift__`
/// decides, by the left operand's own dtype before promotion (measured:
/// int32(-100) >> uint64(1) is 0xffffffffffffffce, `tools/probes/
/// triton_features/shift_signedness.py`); a literal on the left is decided
/// by the tensor on the right (`__rrshift__`).
/// Whether `v` is, or holds, a runtime value (a tensor, a block pointer,
/// a tensor's method).
/// `range(*bounds)`'s start, end and step (CPython's argument forms).
fn range_bounds(bounds: Vec<Value>, span: Span) -> DResult<(Value, Value, Value)> {
    walk::range_args(
        "range",
        bounds,
        || Value::Num(PyNum::Int(0)),
        || Value::Num(PyNum::Int(1)),
        span,
    )
}

/// The start, step and trip count of a range of Python integers that
/// runs while compiling (bounds not all integers: `not_ints`; a zero step:
/// CPython's ValueError).
fn counted_range(
    [start, end, step]: [&Value; 3],
    span: Span,
    not_ints: &str,
) -> DResult<(i128, i128, u128)> {
    let (Value::Num(PyNum::Int(a)), Value::Num(PyNum::Int(b)), Value::Num(PyNum::Int(s))) =
        (start, end, step)
    else {
        return err(span, not_ints);
    };
    if *s == 0 {
        return Err(walk::zero_step(span));
    }
    Ok((*a, *s, walk::trip_count(*a, *b, *s)))
}

fn holds_runtime(v: &Value) -> bool {
    match v {
        Value::Tensor(_) | Value::BlockPtr(_) | Value::Method(..) => true,
        Value::Tuple(t) | Value::Named(_, t) => t.iter().any(holds_runtime),
        Value::TypeMethod(recv, _) => holds_runtime(recv),
        _ => false,
    }
}

fn shifts_arithmetically(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Tensor(e), _) | (Value::Num(_), Value::Tensor(e)) => e.ty.dtype().is_signed_int(),
        _ => true,
    }
}

/// Whether a `return` with a value appears in either block (nested ones too).
fn returns_value(a: &[ast::Stmt], b: &[ast::Stmt]) -> bool {
    fn walk(s: &[ast::Stmt]) -> bool {
        s.iter().any(|st| match st {
            ast::Stmt::Return(r) => r.value.is_some(),
            ast::Stmt::If(i) => walk(&i.body) || walk(&i.orelse),
            ast::Stmt::For(f) => walk(&f.body),
            ast::Stmt::While(w) => walk(&w.body),
            _ => false,
        })
    }
    walk(a) || walk(b)
}

/// Both branches end in `return VALUE` and return nowhere before it.
fn both_return_a_value_last(a: &[ast::Stmt], b: &[ast::Stmt]) -> bool {
    let ends = |s: &[ast::Stmt]| match s.split_last() {
        Some((ast::Stmt::Return(r), init)) => r.value.is_some() && !contains_return(init, &[]),
        _ => false,
    };
    ends(a) && ends(b)
}

fn contains_return(a: &[ast::Stmt], b: &[ast::Stmt]) -> bool {
    fn walk(s: &[ast::Stmt]) -> bool {
        s.iter().any(|st| match st {
            ast::Stmt::Return(_) => true,
            ast::Stmt::If(i) => walk(&i.body) || walk(&i.orelse),
            ast::Stmt::For(f) => walk(&f.body),
            ast::Stmt::While(w) => walk(&w.body),
            _ => false,
        })
    }
    walk(a) || walk(b)
}

/// Names assigned anywhere in a loop body (nested blocks included), in order.
fn assigned_names(body: &[ast::Stmt], out: &mut Vec<String>) {
    fn target(e: &ast::Expr, out: &mut Vec<String>) {
        match e {
            ast::Expr::Name(n) if !out.iter().any(|x| x == n.id.as_str()) => {
                out.push(n.id.to_string())
            }
            ast::Expr::Tuple(t) => t.elts.iter().for_each(|x| target(x, out)),
            _ => {}
        }
    }
    for s in body {
        match s {
            ast::Stmt::Assign(a) => a.targets.iter().for_each(|t| target(t, out)),
            ast::Stmt::AugAssign(a) => target(&a.target, out),
            ast::Stmt::AnnAssign(a) => target(&a.target, out),
            ast::Stmt::If(i) => {
                assigned_names(&i.body, out);
                assigned_names(&i.orelse, out);
            }
            ast::Stmt::For(f) => {
                target(&f.target, out);
                assigned_names(&f.body, out);
            }
            ast::Stmt::While(w) => assigned_names(&w.body, out),
            _ => {}
        }
    }
}

/// A launch constant as Python writes it.
fn const_text(c: &ConstArg) -> String {
    match c {
        ConstArg::Int(i) => i.to_string(),
        ConstArg::Float(f) => format!("{f:?}"),
        ConstArg::Bool(b) => if *b { "True" } else { "False" }.into(),
        ConstArg::Str(s) => format!("{s:?}"),
        ConstArg::None => "None".into(),
        ConstArg::Tuple(t) => {
            let items: Vec<String> = t.iter().map(const_text).collect();
            match items.as_slice() {
                [one] => format!("({one},)"),
                _ => format!("({})", items.join(", ")),
            }
        }
    }
}

/// A launch's `tl.constexpr` value as the kernel sees it: a string naming
/// a dtype is that dtype (`tools/triton_run.py`'s rule), an array a tuple.
fn launch_const(c: &ConstArg) -> Value {
    match c {
        ConstArg::Int(i) => Value::Num(PyNum::Int(*i)),
        ConstArg::Float(f) => Value::Num(PyNum::Float(*f)),
        ConstArg::Bool(b) => Value::Num(PyNum::Bool(*b)),
        ConstArg::None => Value::None,
        ConstArg::Str(s) => match super::module::constexpr_dtype(s) {
            Some(d) => Value::DType(d),
            None => Value::Str(s.clone()),
        },
        ConstArg::Tuple(t) => Value::Tuple(t.iter().map(launch_const).collect()),
    }
}

impl Walk for Elab<'_> {
    type Cond = Expr;

    const DIALECT: &'static str = "Triton";

    fn span_of(&self, node: &impl Ranged) -> Span {
        self.span(node)
    }

    fn help(&self, r: walk::Refused) -> &'static str {
        use walk::Refused as R;
        match r {
            R::Try => "check conditions with `if` (kernels cannot raise)",
            R::With => "write the body without the context manager",
            R::NestedDef => "define the helper at module level with @triton.jit and call it",
            R::Global => "pass values as parameters",
            R::Delete => "let the variable go out of use",
            R::Raise => "use tl.static_assert for compile-time checks",
            R::Assert => {
                "use tl.static_assert(cond, msg) for compile-time checks or tl.device_assert"
            }
            R::Other => "see docs for the supported subset",
            r => r.default_help(),
        }
    }

    fn in_loop(&self) -> bool {
        self.loops.len() > self.loop_base || self.ct_loops > 0
    }

    fn loop_help(&self) -> Option<&'static str> {
        Some("only a runtime loop can be left: tl.static_range loops are unrolled while compiling")
    }

    fn stmts(&mut self, body: &[ast::Stmt]) -> DResult<()> {
        Elab::stmts(self, body)
    }

    fn expr_statement(&mut self, e: &ast::Expr, _span: Span) -> DResult<()> {
        match e {
            // `f(a) if c else g(b)` as a statement: an `if` whose
            // branches evaluate one expression each, values unused
            ast::Expr::IfExp(x) => self.if_expression_statement(x),
            other => self.expr(other).map(drop),
        }
    }

    fn assign_statement(&mut self, a: &ast::StmtAssign, span: Span) -> DResult<()> {
        if a.targets.len() > 1 {
            return unsupported(
                span,
                "chained assignment `a = b = c`",
                "use separate assignment statements",
            );
        }
        let v = self.expr(&a.value)?;
        self.assign(&a.targets[0], v)
    }

    fn ann_assign_statement(&mut self, a: &ast::StmtAnnAssign, span: Span) -> DResult<()> {
        let cx = self.is_constexpr_annotation(&a.annotation);
        let v = match (&a.value, &*a.target) {
            (Some(v), _) => self.expr(v)?,
            (None, ast::Expr::Name(n)) if cx => {
                self.declared_constexpr.insert(n.id.to_string());
                return Ok(());
            }
            (None, _) => {
                return unsupported(
                    span,
                    "a declaration without a value other than `name: tl.constexpr`",
                    "assign a value: `x: tl.constexpr = 4`",
                )
            }
        };
        if cx && matches!(v, Value::Tensor(_)) {
            return err(
                span,
                "a tl.constexpr variable must be given a compile-time value",
            );
        }
        self.assign_as(&a.target, v, cx)
    }

    fn aug_assign_statement(&mut self, a: &ast::StmtAugAssign, span: Span) -> DResult<()> {
        walk::desugar_aug_assign(self, a, span)
    }

    fn if_condition(&mut self, test: &ast::Expr, span: Span) -> DResult<walk::Truth<Expr>> {
        let c = self.expr(test)?;
        Ok(match self.cond_of(c, span)? {
            Ok(b) => walk::Truth::Known(b),
            Err(cond) => walk::Truth::Runtime(cond),
        })
    }

    fn runtime_branches(&mut self, c: Expr, i: &ast::StmtIf, span: Span) -> DResult<()> {
        self.runtime_if_stmt(c, i, span)
    }

    fn for_statement(&mut self, f: &ast::StmtFor, _span: Span) -> DResult<()> {
        self.for_stmt(f)
    }

    fn while_statement(&mut self, w: &ast::StmtWhile, _span: Span) -> DResult<()> {
        self.while_stmt(w)
    }

    fn jump(&mut self, is_break: bool, span: Span) -> DResult<()> {
        if self.ct_loops > 0 {
            self.compile_time_jump(is_break);
            return Ok(());
        }
        self.write_carried(span)?;
        self.out.push(if is_break {
            Stmt::Break
        } else {
            Stmt::Continue
        });
        self.terminated = true;
        Ok(())
    }

    fn return_statement(&mut self, r: &ast::StmtReturn, span: Span) -> DResult<()> {
        if self.loops.len() > self.loop_base {
            return unsupported(
                span,
                "`return` inside a loop",
                "assign the result to a variable and return it after the loop",
            );
        }
        let v = match &r.value {
            Some(e) => self.expr(e)?,
            None => Value::None,
        };
        if self.calls.len() <= 1 {
            // The kernel itself returns: the instance stops here,
            // also where a runtime `if` decided it.
            self.out.push(Stmt::Return);
        } else if let Some(flag) = self.returned {
            // a helper returning under a runtime `if`
            self.out
                .push(Stmt::Let(flag, build::konst(DType::Bool, 1, span)));
        }
        self.ret = Some(v);
        self.terminated = true;
        Ok(())
    }
}

impl walk::Desugar for Elab<'_> {
    type Value = Value;

    fn eval(&mut self, e: &ast::Expr) -> DResult<Value> {
        self.expr(e)
    }

    fn binary(&mut self, op: ast::Operator, a: Value, b: Value, span: Span) -> DResult<Value> {
        self.binop(op, a, b, span)
    }

    fn assign_to(&mut self, target: &ast::Expr, v: Value) -> DResult<()> {
        self.assign(target, v)
    }
}

/// Triton's alternative to an expression form it refuses.
fn refused_help(form: Option<crate::frontend::py::exprs::Form>) -> &'static str {
    use crate::frontend::py::exprs::Form as F;
    match form {
        Some(F::Walrus) => "assign in a separate statement",
        Some(F::Lambda) => "define a named @triton.jit function",
        Some(F::ListComp | F::SetComp | F::DictComp | F::GeneratorExp) => "use an explicit loop",
        Some(F::DictLiteral | F::SetLiteral) => "use separate variables",
        Some(F::Starred) => "pass arguments explicitly",
        Some(F::FString) => "use tl.static_print / tl.device_print with a plain string prefix",
        Some(F::AwaitYield) => "kernels are plain functions",
        _ => "use tensors, numbers, tuples and calls",
    }
}
