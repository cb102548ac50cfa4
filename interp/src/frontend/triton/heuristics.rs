//! `@triton.heuristics({"META": lambda args: …, …})`: meta-parameters
//! computed on the host from the launch's arguments. Triton's `Heuristics`
//! runs each lambda in order on a dict of the arguments passed (the
//! autotune config's values and the heuristics computed before it
//! included) and sets the meta-parameter to what it returns, over any value
//! the caller passed. ksem evaluates the lambdas the same way, on Python
//! numbers: subscripts of the dict, arithmetic, comparisons, `and`/`or`/
//! `not`, conditional expressions, the numeric builtins and `math` functions
//! of `py::num` (`min`/`max`/`abs`/`int`/`float`/`round`/`bool`, …),
//! `triton.next_power_of_2` and `triton.cdiv`. A lambda that needs more
//! (a tensor's dtype or shape, a call ksem does not know) is an error that
//! names it; the launch can then give the value itself.

use super::module::{constant_value, Module};
use super::promote::PyNum;
use super::value::{fold_binop, next_power_of_2, Value};
use crate::frontend::py::num::PyError;
use crate::frontend::py::value::{compare, ops, Extra, PyValue};
use crate::launch::{ArgSpec, ConstArg};
use crate::span::{DResult, Diagnostic};
use rustpython_parser::ast::{self, Expr};

/// One heuristic: the meta-parameter it sets and the lambda computing it.
#[derive(Clone, Debug)]
pub struct Heuristic {
    pub name: String,
    pub lambda: ast::ExprLambda,
}

/// An argument as a heuristic sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgValue {
    /// A Python value (an int, float or bool scalar or constexpr, a string).
    Const(ConstArg),
    /// A tensor (a buffer argument): nothing of it can be read here.
    Tensor,
}

impl ArgValue {
    /// The value a launch argument passes.
    pub fn of(spec: &ArgSpec) -> ArgValue {
        match spec {
            ArgSpec::Constexpr(c) => ArgValue::Const(c.clone()),
            ArgSpec::Scalar { dtype, bits } => ArgValue::Const(scalar(*dtype, *bits)),
            ArgSpec::Buffer { .. } => ArgValue::Tensor,
        }
    }
}

/// A scalar argument's bits as the Python number the host passes.
fn scalar(d: crate::dtype::DType, bits: u64) -> ConstArg {
    if d.is_float() {
        ConstArg::Float(crate::float::to_f64(d, bits))
    } else if d == crate::dtype::DType::Bool {
        ConstArg::Bool(bits != 0)
    } else if d.is_signed_int() {
        let shift = 64 - d.bits();
        ConstArg::Int((((bits << shift) as i64) >> shift) as i128)
    } else {
        ConstArg::Int(bits as i128)
    }
}

/// The heuristics of a `triton.heuristics({...})` (or `values={...}`)
/// call: none where the dict is not written out (built at run time: the
/// launch gives the meta-parameters); `Err` where an entry is not a lambda
/// under a string name.
pub fn read(m: &Module, call: &ast::ExprCall) -> DResult<Vec<Heuristic>> {
    let span = |e: &Expr| m.span(e);

    let dict = call.args.first().or_else(|| {
        call.keywords
            .iter()
            .find(|k| k.arg.as_deref() == Some("values"))
            .map(|k| &k.value)
    });
    let Some(Expr::Dict(d)) = dict else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (k, v) in d.keys.iter().zip(&d.values) {
        let name = match k.as_ref() {
            Some(Expr::Constant(c)) => match constant_value(&c.value) {
                Some(Value::Str(s)) => s,
                _ => {
                    return Err(Diagnostic::new(
                        span(v),
                        "a heuristic's name must be a string",
                    ))
                }
            },
            _ => {
                return Err(Diagnostic::new(
                    span(v),
                    "a heuristic's name must be a string",
                ))
            }
        };
        let Expr::Lambda(l) = v else {
            return Err(Diagnostic::new(
                span(v),
                format!("heuristic `{name}` is not a lambda; ksem evaluates only lambdas"),
            )
            .with_help(format!("give \"{name}\" in the launch")));
        };
        if l.args.args.len() != 1 {
            return Err(Diagnostic::new(
                span(v),
                format!("heuristic `{name}` must take one argument (the dict of arguments)"),
            ));
        }
        out.push(Heuristic {
            name,
            lambda: l.clone(),
        });
    }
    Ok(out)
}

/// What a heuristic gave a meta-parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The lambda's value.
    Computed(ConstArg),
    /// The lambda cannot be evaluated here; the launch gives the value.
    Given(ConstArg),
}

/// Runs the heuristics in order on `args` (the launch's arguments and the
/// autotune config's values), each seeing those before it: the
/// meta-parameters they set, in order. A lambda ksem cannot evaluate takes
/// the value `given` has for its meta-parameter (the launch's), else is an
/// error.
pub fn evaluate(
    m: &Module,
    heuristics: &[Heuristic],
    mut args: Vec<(String, ArgValue)>,
    given: &dyn Fn(&str) -> Option<ConstArg>,
) -> DResult<Vec<(String, Outcome)>> {
    let mut out = Vec::new();
    for h in heuristics {
        let o = match run_one(m, h, &args) {
            Ok(c) => Outcome::Computed(c),
            Err(e) => Outcome::Given(given(&h.name).ok_or(e)?),
        };
        let c = match &o {
            Outcome::Computed(c) | Outcome::Given(c) => c.clone(),
        };
        args.retain(|(n, _)| *n != h.name);
        args.push((h.name.clone(), ArgValue::Const(c)));
        out.push((h.name.clone(), o));
    }
    Ok(out)
}

/// One heuristic's value on `args`.
fn run_one(m: &Module, h: &Heuristic, args: &[(String, ArgValue)]) -> DResult<ConstArg> {
    let param = h.lambda.args.args[0].def.arg.to_string();
    let ev = Eval {
        m,
        param: &param,
        args,
        heuristic: &h.name,
    };
    ev.eval(&h.lambda.body)?.to_arg().ok_or_else(|| {
        Diagnostic::new(
            m.span(&*h.lambda.body),
            format!("heuristic `{}` returns no Python value", h.name),
        )
    })
}

/// The objects a heuristic sees besides Python values.
#[derive(Clone, Debug, PartialEq)]
enum Arg {
    /// The dict of arguments.
    Args,
    /// A tensor argument, by name.
    Tensor(String),
}

impl Extra for Arg {
    fn type_name(&self) -> &'static str {
        match self {
            Arg::Args => "dict",
            Arg::Tensor(_) => "Tensor",
        }
    }
}

/// A value inside a heuristic: a Python value ([`PyValue`]) or an [`Arg`].
type V = PyValue<Arg>;

struct Eval<'a> {
    m: &'a Module,
    /// The lambda's parameter (the dict).
    param: &'a str,
    args: &'a [(String, ArgValue)],
    heuristic: &'a str,
}

impl Eval<'_> {
    fn fail(&self, e: &Expr, what: impl std::fmt::Display) -> Diagnostic {
        Diagnostic::new(
            self.m.span(e),
            format!("heuristic `{}`: {what}", self.heuristic),
        )
        .with_help(format!(
            "give \"{}\" in the launch (ksem then uses the launch's value)",
            self.heuristic
        ))
    }

    /// A Python value of the heuristic (a tensor argument is none).
    fn value(&self, e: &Expr) -> DResult<V> {
        match self.eval(e)? {
            V::Extra(Arg::Tensor(t)) => {
                Err(self.fail(e, format!("`{t}` is a tensor, which ksem cannot read here")))
            }
            v => Ok(v),
        }
    }

    fn truth(&self, e: &Expr) -> DResult<bool> {
        Ok(self.eval(e)?.truthy().unwrap_or(true))
    }

    /// A shared rule's answer, or the heuristic's error at `e`.
    fn rule<T>(&self, e: &Expr, r: Option<Result<T, PyError>>) -> DResult<T> {
        match r {
            Some(Ok(v)) => Ok(v),
            Some(Err(err)) => Err(self.fail(e, err)),
            None => Err(self.fail(e, "an operation ksem does not evaluate on the host")),
        }
    }

    fn eval(&self, e: &Expr) -> DResult<V> {
        Ok(match e {
            Expr::Constant(c) => match PyValue::literal(&c.value) {
                Some(Ok(v)) => v,
                _ => return Err(self.fail(e, "an unsupported constant")),
            },
            Expr::Name(n) if n.id.as_str() == self.param => V::Extra(Arg::Args),
            Expr::Name(n) => match self.m.const_value(e).and_then(|v| v.host().plain()) {
                Some(v) => v,
                _ => return Err(self.fail(e, format!("`{}` is not a module constant", n.id))),
            },
            Expr::Tuple(t) => V::Tuple(
                t.elts
                    .iter()
                    .map(|x| self.value(x))
                    .collect::<DResult<_>>()?,
            ),
            Expr::Subscript(s) => match self.eval(&s.value)? {
                V::Extra(Arg::Args) => self.arg(e, self.eval(&s.slice)?)?,
                v => {
                    let i = self.value(&s.slice)?;
                    self.rule(e, Some(ops::index(&v, &i)))?
                }
            },
            Expr::BinOp(b) => {
                let (x, y) = (self.value(&b.left)?, self.value(&b.right)?);
                self.rule(e, ops::binop(b.op, &x, &y))?
            }
            Expr::UnaryOp(u) => {
                let x = self.value(&u.operand)?;
                self.rule(e, ops::unary(u.op, &x).transpose())?
            }
            Expr::Compare(c) => {
                let mut left = self.value(&c.left)?;
                for (op, r) in c.ops.iter().zip(&c.comparators) {
                    let right = self.value(r)?;
                    if !self.rule(e, compare::compare(*op, &left, &right).transpose())? {
                        return Ok(V::bool(false));
                    }
                    left = right;
                }
                V::bool(true)
            }
            Expr::BoolOp(b) => {
                // Python: the first operand that decides, itself
                let last = b.values.len() - 1;
                for (i, v) in b.values.iter().enumerate() {
                    let t = self.truth(v)?;
                    let decides = match b.op {
                        ast::BoolOp::And => !t,
                        ast::BoolOp::Or => t,
                    };
                    if decides || i == last {
                        return self.eval(v);
                    }
                }
                unreachable!("a BoolOp has operands")
            }
            Expr::IfExp(i) => {
                if self.truth(&i.test)? {
                    self.eval(&i.body)?
                } else {
                    self.eval(&i.orelse)?
                }
            }
            Expr::Call(c) => self.call(e, c)?,
            _ => return Err(self.fail(e, "an expression ksem does not evaluate on the host")),
        })
    }

    /// `args[key]`: the launch's value of argument `key`.
    fn arg(&self, e: &Expr, key: V) -> DResult<V> {
        let V::Str(key) = key else {
            return Err(self.fail(e, "the dict's keys are argument names"));
        };
        match self.args.iter().find(|(n, _)| *n == key) {
            Some((_, ArgValue::Tensor)) => Ok(V::Extra(Arg::Tensor(key))),
            Some((_, ArgValue::Const(c))) => Ok(V::from_arg(c)),
            None => Err(self.fail(
                e,
                format!("the launch passes no `{key}` (Triton: KeyError)"),
            )),
        }
    }

    fn call(&self, e: &Expr, c: &ast::ExprCall) -> DResult<V> {
        if !c.keywords.is_empty() {
            return Err(self.fail(e, "keyword arguments"));
        }
        let name = match &*c.func {
            Expr::Name(n) => n.id.to_string(),
            Expr::Attribute(a) => format!("{}.{}", dotted(&a.value), a.attr),
            _ => String::new(),
        };
        if name == "bool" && c.args.len() == 1 {
            return Ok(V::bool(self.truth(&c.args[0])?));
        }
        let xs = c
            .args
            .iter()
            .map(|a| self.value(a))
            .collect::<DResult<Vec<_>>>()?;
        let int = |n: &V, what: &str| match n.as_int() {
            Some(i) => Ok(i),
            None => Err(self.fail(e, format!("{what} takes an int"))),
        };
        Ok(match (name.as_str(), xs.as_slice()) {
            ("triton.next_power_of_2" | "next_power_of_2", [n]) => {
                V::int(next_power_of_2(int(n, "triton.next_power_of_2")?))
            }
            ("triton.cdiv" | "cdiv", [x, d]) => {
                let (x, d) = (int(x, "triton.cdiv")?, int(d, "triton.cdiv")?);
                let s = fold_binop(ast::Operator::Add, PyNum::Int(x), PyNum::Int(d - 1))
                    .map_err(|m| self.fail(e, m))?;
                V::Num(
                    fold_binop(ast::Operator::FloorDiv, s, PyNum::Int(d))
                        .map_err(|m| self.fail(e, m))?,
                )
            }
            (f, xs) => {
                let r = match f.strip_prefix("math.") {
                    Some(m) => ops::math(m, xs),
                    None => ops::builtin(f, xs),
                };
                match r {
                    Some(r) => r.map_err(|m| self.fail(e, m))?,
                    None => {
                        return Err(
                            self.fail(e, format!("a call of `{name}` ksem does not evaluate"))
                        )
                    }
                }
            }
        })
    }
}

/// `a.b.c` of an attribute chain's base.
fn dotted(e: &Expr) -> String {
    match e {
        Expr::Name(n) => n.id.to_string(),
        Expr::Attribute(a) => format!("{}.{}", dotted(&a.value), a.attr),
        _ => String::new(),
    }
}
