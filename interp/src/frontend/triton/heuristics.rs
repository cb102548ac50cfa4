//! `@triton.heuristics({"META": lambda args: …, …})`: meta-parameters
//! computed on the host from the launch's arguments. Triton's `Heuristics`
//! runs each lambda in order on a dict of the arguments passed (the
//! autotune config's values and the heuristics computed before it
//! included) and sets the meta-parameter to what it returns, over any value
//! the caller passed. ksem evaluates the lambdas the same way, through
//! the shared host evaluator (`py::consts::eval_at`, CPython's rules on
//! `PyValue`s): subscripts of the dict, arithmetic, comparisons, `and`/
//! `or`/`not`, conditional expressions, the numeric builtins and `math`
//! functions of `py::num` (`min`/`max`/`abs`/`int`/`float`/`round`/`bool`,
//! …), and, as the heuristics' own, the dict and `triton.next_power_of_2`
//! and `triton.cdiv`. A lambda that needs more
//! (a tensor's dtype or shape, a call ksem does not know) is an error that
//! names it; the launch can then give the value itself.

use super::module::{constant_value, Module};
use super::promote::PyNum;
use super::value::{fold_binop, next_power_of_2, Value};
use crate::frontend::py::consts::{self, HostNames, NoValue};
use crate::frontend::py::value::{Extra, PyValue};
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
    let v = consts::eval_at(&h.lambda.body, &ev).map_err(|(why, at)| ev.failed(why, at))?;
    v.to_arg().ok_or_else(|| {
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
    /// A tensor's `==` is a tensor, which ksem does not read here.
    fn py_eq(&self, other: &PyValue<Self>) -> Option<bool> {
        match self {
            Arg::Tensor(_) => None,
            Arg::Args => Some(matches!(other, PyValue::Extra(o) if o == self)),
        }
    }
}

/// A value inside a heuristic: a Python value ([`PyValue`]) or an [`Arg`].
type V = PyValue<Arg>;

/// What a heuristic's lambda sees: the module's constants, its parameter
/// (the dict of arguments) and Triton's host helpers, on the shared rules
/// of `py::consts`.
struct Eval<'a> {
    m: &'a Module,
    /// The lambda's parameter (the dict).
    param: &'a str,
    args: &'a [(String, ArgValue)],
    heuristic: &'a str,
}

impl HostNames<Arg> for Eval<'_> {
    fn value(&self, name: &str) -> Option<V> {
        if name == self.param {
            return Some(V::Extra(Arg::Args));
        }
        self.m.globals.get(name).and_then(|v| v.host().plain())
    }

    fn callee(&self, dotted: &str) -> String {
        dotted.to_string()
    }

    /// `args[key]`, and `triton.next_power_of_2`/`triton.cdiv`.
    fn own(&self, e: &Expr) -> Option<Result<V, NoValue>> {
        match e {
            Expr::Subscript(s) => match consts::eval(&s.value, self) {
                Ok(V::Extra(Arg::Args)) => {
                    Some(consts::eval(&s.slice, self).and_then(|k| self.arg(k)))
                }
                _ => None,
            },
            Expr::Call(c) if c.keywords.is_empty() => {
                let name = dotted(&c.func);
                let helper = name.strip_prefix("triton.").unwrap_or(&name);
                if !matches!(helper, "next_power_of_2" | "cdiv") {
                    return None;
                }
                let args = c
                    .args
                    .iter()
                    .map(|a| consts::eval(a, self))
                    .collect::<Result<Vec<_>, _>>();
                Some(args.and_then(|xs| triton_helper(helper, &xs)))
            }
            _ => None,
        }
    }
}

/// `triton.next_power_of_2(n)` or `triton.cdiv(x, d)` (`helper`) of ints.
fn triton_helper(helper: &str, xs: &[V]) -> Result<V, NoValue> {
    let ints: Option<Vec<i128>> = xs.iter().map(V::as_int).collect();
    let takes_ints = || NoValue::Other(format!("triton.{helper} takes an int"));
    Ok(match (helper, ints.ok_or_else(takes_ints)?.as_slice()) {
        ("next_power_of_2", [n]) => V::int(next_power_of_2(*n)),
        ("cdiv", [x, d]) => {
            let s = fold_binop(ast::Operator::Add, PyNum::Int(*x), PyNum::Int(d - 1))
                .map_err(NoValue::Other)?;
            V::Num(fold_binop(ast::Operator::FloorDiv, s, PyNum::Int(*d)).map_err(NoValue::Other)?)
        }
        _ => return Err(NoValue::Unknown),
    })
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

    /// The heuristic's error where sub-expression `at` has no value
    /// (`why`): a tensor it reads is named first.
    fn failed(&self, why: NoValue, at: &Expr) -> Diagnostic {
        if let Some((t, operand)) = self.tensor_operand(at) {
            return self.fail(
                operand,
                format!("`{t}` is a tensor, which ksem cannot read here"),
            );
        }
        match why {
            NoValue::Located(d) => *d,
            NoValue::Raises(err) => self.fail(at, err),
            NoValue::Other(m) => self.fail(at, m),
            NoValue::Unknown => match at {
                Expr::Name(n) => self.fail(at, format!("`{}` is not a module constant", n.id)),
                Expr::Call(c) if !c.keywords.is_empty() => self.fail(at, "keyword arguments"),
                Expr::Call(c) => self.fail(
                    at,
                    format!("a call of `{}` ksem does not evaluate", dotted(&c.func)),
                ),
                _ => self.fail(at, "an expression ksem does not evaluate on the host"),
            },
        }
    }

    /// An operand of `e` that is a tensor argument (its name and the
    /// operand): what a heuristic cannot compute with.
    fn tensor_operand<'e>(&self, e: &'e Expr) -> Option<(String, &'e Expr)> {
        let operands: Vec<&Expr> = match e {
            Expr::BinOp(b) => vec![&b.left, &b.right],
            Expr::UnaryOp(u) => vec![&u.operand],
            Expr::Compare(c) => std::iter::once(&*c.left).chain(&c.comparators).collect(),
            Expr::Call(c) => c.args.iter().collect(),
            Expr::Subscript(s) => vec![&s.value, &s.slice],
            _ => vec![],
        };
        operands
            .into_iter()
            .find_map(|x| match consts::eval(x, self) {
                Ok(V::Extra(Arg::Tensor(t))) => Some((t, x)),
                _ => None,
            })
    }

    /// `args[key]`: the launch's value of argument `key`.
    fn arg(&self, key: V) -> Result<V, NoValue> {
        let V::Str(key) = key else {
            return Err(NoValue::Other("the dict's keys are argument names".into()));
        };
        match self.args.iter().find(|(n, _)| *n == key) {
            Some((_, ArgValue::Tensor)) => Ok(V::Extra(Arg::Tensor(key))),
            Some((_, ArgValue::Const(c))) => Ok(V::from_arg(c)),
            None => Err(NoValue::Other(format!(
                "the launch passes no `{key}` (Triton: KeyError)"
            ))),
        }
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
