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
use super::value::{fold_binop, fold_cmp, next_power_of_2, Value};
use crate::frontend::py::num;
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
    match ev.eval(&h.lambda.body)? {
        V::Num(PyNum::Int(i)) => Ok(ConstArg::Int(i)),
        V::Num(PyNum::Float(f)) => Ok(ConstArg::Float(f)),
        V::Num(PyNum::Bool(b)) => Ok(ConstArg::Bool(b)),
        V::Str(s) => Ok(ConstArg::Str(s)),
        V::None => Ok(ConstArg::None),
        V::Args | V::Tensor(_) => Err(Diagnostic::new(
            m.span(&*h.lambda.body),
            format!("heuristic `{}` returns no Python value", h.name),
        )),
    }
}

/// A value inside a heuristic.
#[derive(Clone, Debug)]
enum V {
    Num(PyNum),
    Str(String),
    None,
    /// The dict of arguments.
    Args,
    /// A tensor argument, by name.
    Tensor(String),
}

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

    fn num(&self, e: &Expr) -> DResult<PyNum> {
        match self.eval(e)? {
            V::Num(n) => Ok(n),
            V::Tensor(t) => {
                Err(self.fail(e, format!("`{t}` is a tensor, which ksem cannot read here")))
            }
            other => Err(self.fail(e, format!("{other:?} is not a number"))),
        }
    }

    fn truth(&self, e: &Expr) -> DResult<bool> {
        Ok(match self.eval(e)? {
            V::Num(PyNum::Bool(b)) => b,
            V::Num(PyNum::Int(i)) => i != 0,
            V::Num(PyNum::Float(f)) => f != 0.0,
            V::Str(s) => !s.is_empty(),
            V::None => false,
            V::Args | V::Tensor(_) => true,
        })
    }

    fn eval(&self, e: &Expr) -> DResult<V> {
        Ok(match e {
            Expr::Constant(c) => match constant_value(&c.value) {
                Some(Value::Num(n)) => V::Num(n),
                Some(Value::Str(s)) => V::Str(s),
                Some(Value::None) => V::None,
                _ => return Err(self.fail(e, "an unsupported constant")),
            },
            Expr::Name(n) if n.id.as_str() == self.param => V::Args,
            Expr::Name(n) => match self.m.const_value(e) {
                Some(Value::Num(x)) => V::Num(x),
                Some(Value::Str(s)) => V::Str(s),
                _ => return Err(self.fail(e, format!("`{}` is not a module constant", n.id))),
            },
            Expr::Subscript(s) => {
                if !matches!(self.eval(&s.value)?, V::Args) {
                    return Err(self.fail(e, "only the arguments' dict can be subscripted"));
                }
                let V::Str(key) = self.eval(&s.slice)? else {
                    return Err(self.fail(e, "the dict's keys are argument names"));
                };
                match self.args.iter().find(|(n, _)| *n == key) {
                    Some((_, ArgValue::Tensor)) => V::Tensor(key),
                    Some((_, ArgValue::Const(c))) => match c {
                        ConstArg::Int(i) => V::Num(PyNum::Int(*i)),
                        ConstArg::Float(f) => V::Num(PyNum::Float(*f)),
                        ConstArg::Bool(b) => V::Num(PyNum::Bool(*b)),
                        ConstArg::Str(s) => V::Str(s.clone()),
                        ConstArg::None => V::None,
                        ConstArg::Tuple(_) => {
                            return Err(self.fail(
                                e,
                                format!("`{key}` is a tuple: heuristics on tuple arguments are not supported"),
                            ))
                        }
                    },
                    None => {
                        return Err(self.fail(
                            e,
                            format!("the launch passes no `{key}` (Triton: KeyError)"),
                        ))
                    }
                }
            }
            Expr::BinOp(b) => {
                let (x, y) = (self.num(&b.left)?, self.num(&b.right)?);
                V::Num(fold_binop(b.op, x, y).map_err(|m| self.fail(e, m))?)
            }
            Expr::UnaryOp(u) => match u.op {
                ast::UnaryOp::Not => V::Num(PyNum::Bool(!self.truth(&u.operand)?)),
                op => {
                    let x = self.num(&u.operand)?;
                    V::Num(num::unary(op, x).map_err(|m| self.fail(e, m.to_string()))?)
                }
            },
            Expr::Compare(c) => {
                let mut left = self.num(&c.left)?;
                for (op, r) in c.ops.iter().zip(&c.comparators) {
                    let right = self.num(r)?;
                    if !fold_cmp(*op, left, right).map_err(|m| self.fail(e, m))? {
                        return Ok(V::Num(PyNum::Bool(false)));
                    }
                    left = right;
                }
                V::Num(PyNum::Bool(true))
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

    fn call(&self, e: &Expr, c: &ast::ExprCall) -> DResult<V> {
        if !c.keywords.is_empty() {
            return Err(self.fail(e, "keyword arguments"));
        }
        let name = match &*c.func {
            Expr::Name(n) => n.id.to_string(),
            Expr::Attribute(a) => format!("{}.{}", dotted(&a.value), a.attr),
            _ => String::new(),
        };
        let nums = || {
            c.args
                .iter()
                .map(|a| self.num(a))
                .collect::<DResult<Vec<_>>>()
        };
        let int = |n: PyNum, what: &str| match n {
            PyNum::Int(i) => Ok(i),
            PyNum::Bool(b) => Ok(b as i128),
            PyNum::Float(_) => Err(self.fail(e, format!("{what} takes an int"))),
        };
        Ok(V::Num(match (name.as_str(), nums()?.as_slice()) {
            ("triton.next_power_of_2" | "next_power_of_2", [n]) => {
                PyNum::Int(next_power_of_2(int(*n, "triton.next_power_of_2")?))
            }
            ("triton.cdiv" | "cdiv", [x, d]) => {
                let (x, d) = (int(*x, "triton.cdiv")?, int(*d, "triton.cdiv")?);
                let s = fold_binop(ast::Operator::Add, PyNum::Int(x), PyNum::Int(d - 1))
                    .map_err(|m| self.fail(e, m))?;
                fold_binop(ast::Operator::FloorDiv, s, PyNum::Int(d))
                    .map_err(|m| self.fail(e, m))?
            }
            ("bool", [_]) => PyNum::Bool(self.truth(&c.args[0])?),
            (f, xs) => {
                let r = match f.strip_prefix("math.") {
                    Some(m) => num::math_call(m, xs),
                    None => num::builtin_call(f, xs),
                };
                match r {
                    Some(r) => r.map_err(|m| self.fail(e, m.to_string()))?,
                    None => {
                        return Err(
                            self.fail(e, format!("a call of `{name}` ksem does not evaluate"))
                        )
                    }
                }
            }
        }))
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
