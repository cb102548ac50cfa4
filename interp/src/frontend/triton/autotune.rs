//! `@triton.autotune(configs=[triton.Config({...}, num_warps=…), …], key=[…])`:
//! the configs a kernel can run with, read from the source, and the one a
//! launch runs (`"config"`: an index or the meta-parameter values; the first
//! config where the launch names none). Real Triton benchmarks the configs
//! and runs the fastest; the meaning of a program must not depend on that
//! choice, so ksem runs the one the launch names and says which.

use super::module::{constant_value, Module};
use super::promote::PyNum;
use super::value::Value;
use crate::launch::{ArgSpec, ConfigChoice, ConstArg, Launch};
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Expr};

/// One `triton.Config`.
#[derive(Clone, Debug)]
pub struct Config {
    /// The meta-parameters it sets (the dict), in source order.
    pub values: Vec<(String, Value)>,
    /// Its compile options (`num_warps`, `num_stages`, …): no effect on the
    /// meaning, reported only.
    pub options: Vec<(String, Value)>,
}

/// The configs of an autotuned kernel, or why they cannot be read.
#[derive(Clone, Debug)]
pub enum Configs {
    Known(Vec<Config>),
    /// `configs=` is not a literal list of `triton.Config(…)` with constant
    /// values (e.g. a function call): where, and what.
    Unknown(Span, String),
}

/// The config a launch runs: its position, how many there are, the config.
#[derive(Clone, Debug)]
pub struct Chosen {
    pub index: usize,
    pub count: usize,
    pub config: Config,
}

impl Chosen {
    /// `config 1 of 3: BLOCK_SIZE=256 (num_warps=8)`; `count` 0: the
    /// launch gave the values (configs built at run time).
    pub fn describe(&self) -> String {
        let show = |kv: &[(String, Value)]| {
            kv.iter()
                .map(|(k, v)| format!("{k}={}", value_text(v)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut s = if self.count == 0 {
            format!(
                "autotune config given by the launch: {}",
                show(&self.config.values)
            )
        } else {
            format!(
                "autotune config {} of {}: {}",
                self.index,
                self.count,
                show(&self.config.values)
            )
        };
        if !self.config.options.is_empty() {
            s.push_str(&format!(" ({})", show(&self.config.options)));
        }
        s
    }

    /// The launch argument a meta-parameter of the config gives.
    pub fn arg(&self, name: &str) -> Option<ArgSpec> {
        let (_, v) = self.config.values.iter().find(|(k, _)| k == name)?;
        Some(ArgSpec::Constexpr(match v {
            Value::Num(PyNum::Int(i)) => ConstArg::Int(*i),
            Value::Num(PyNum::Float(f)) => ConstArg::Float(*f),
            Value::Num(PyNum::Bool(b)) => ConstArg::Bool(*b),
            Value::Str(s) => ConstArg::Str(s.clone()),
            _ => ConstArg::None,
        }))
    }
}

/// A launch constant as a compile-time value.
fn const_value(c: &ConstArg) -> Value {
    match c {
        ConstArg::Int(i) => Value::Num(PyNum::Int(*i)),
        ConstArg::Float(f) => Value::Num(PyNum::Float(*f)),
        ConstArg::Bool(b) => Value::Num(PyNum::Bool(*b)),
        ConstArg::Str(s) => Value::Str(s.clone()),
        ConstArg::None => Value::None,
        ConstArg::Tuple(t) => Value::Tuple(t.iter().map(const_value).collect()),
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::Num(PyNum::Int(i)) => i.to_string(),
        Value::Num(PyNum::Float(f)) => format!("{f:?}"),
        Value::Num(PyNum::Bool(b)) => if *b { "True" } else { "False" }.into(),
        Value::Str(s) => format!("{s:?}"),
        other => other.describe(),
    }
}

/// Whether `e` names `triton.Config` (or `Config` imported from triton).
fn is_config(m: &Module, e: &Expr) -> bool {
    match e {
        Expr::Attribute(a) => a.attr.as_str() == "Config",
        Expr::Name(n) => {
            n.id.as_str() == "Config"
                || m.globals
                    .get(n.id.as_str())
                    .is_some_and(|v| *v == Value::Builtin("Config".into()))
        }
        _ => false,
    }
}

/// The configs of the `triton.autotune(…)` call `call`.
pub fn read_configs(m: &Module, call: &ast::ExprCall) -> Configs {
    fn at(m: &Module, e: &impl ast::Ranged) -> Span {
        m.span(e)
    }
    let list = call
        .keywords
        .iter()
        .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "configs"))
        .map(|k| &k.value)
        .or(call.args.first());
    let Some(list) = list else {
        return Configs::Unknown(at(m, call), "triton.autotune without configs".into());
    };
    let Expr::List(items) = list else {
        return Configs::Unknown(
            at(m, list),
            "the autotune configs are not a literal list of triton.Config(…)".into(),
        );
    };
    let mut configs = Vec::new();
    for item in &items.elts {
        let Expr::Call(c) = item else {
            return Configs::Unknown(
                at(m, item),
                "an autotune config that is not triton.Config(…)".into(),
            );
        };
        if !is_config(m, &c.func) {
            return Configs::Unknown(
                at(m, item),
                "an autotune config that is not triton.Config(…)".into(),
            );
        }
        let mut values = Vec::new();
        match c.args.first() {
            Some(Expr::Dict(d)) => {
                for (k, v) in d.keys.iter().zip(&d.values) {
                    let key = match k {
                        Some(Expr::Constant(kc)) => match &kc.value {
                            ast::Constant::Str(s) => s.clone(),
                            _ => {
                                return Configs::Unknown(
                                    at(m, item),
                                    "a config key that is not a string".into(),
                                )
                            }
                        },
                        _ => {
                            return Configs::Unknown(
                                at(m, item),
                                "a config key that is not a string".into(),
                            )
                        }
                    };
                    let Some(val) = m.const_value(v) else {
                        return Configs::Unknown(
                            at(m, v),
                            format!("the value of config key `{key}` is not a constant"),
                        );
                    };
                    values.push((key, val));
                }
            }
            Some(other) => {
                return Configs::Unknown(
                    at(m, other),
                    "triton.Config's first argument is not a literal dict".into(),
                )
            }
            None => {}
        }
        let options = c
            .keywords
            .iter()
            .filter_map(|k| {
                let name = k.arg.as_ref()?.to_string();
                let v = match &k.value {
                    Expr::Constant(x) => constant_value(&x.value)?,
                    _ => return None,
                };
                Some((name, v))
            })
            .collect();
        configs.push(Config { values, options });
    }
    Configs::Known(configs)
}

/// The config `launch` runs of kernel `name` (`None`: not autotuned, or an
/// empty config list); an error where the launch names a config the kernel
/// does not have, or a kernel that is not autotuned.
pub fn choose(m: &Module, name: &str, launch: &Launch, span: Span) -> DResult<Option<Chosen>> {
    let configs = match m.autotune.get(name) {
        None => {
            if launch.config.is_some() {
                return Err(Diagnostic::new(
                    span,
                    format!("the launch picks a \"config\" but `{name}` is not @triton.autotune'd"),
                ));
            }
            return Ok(None);
        }
        Some(Configs::Unknown(at, why)) => {
            // the configs are built at run time (a function, a comprehension):
            // the launch gives the meta-parameter values itself
            return match &launch.config {
                None => Ok(None),
                Some(ConfigChoice::Values(v)) => Ok(Some(Chosen {
                    index: 0,
                    count: 0,
                    config: Config {
                        values: v.iter().map(|(k, c)| (k.clone(), const_value(c))).collect(),
                        options: vec![],
                    },
                })),
                Some(ConfigChoice::Index(_)) => Err(Diagnostic::new(
                    *at,
                    format!("{why}: ksem cannot pick a \"config\" by position"),
                )
                .with_help("give its values: \"config\": {\"BLOCK_SIZE\": 64, …}")),
            };
        }
        Some(Configs::Known(c)) => c,
    };
    if configs.is_empty() {
        return Ok(None);
    }
    let index = match &launch.config {
        None => 0,
        Some(ConfigChoice::Index(i)) if *i < configs.len() => *i,
        Some(ConfigChoice::Index(i)) => {
            return Err(Diagnostic::new(
                span,
                format!(
                    "\"config\": {i}, but `{name}` has {} autotune configs",
                    configs.len()
                ),
            ))
        }
        Some(ConfigChoice::Values(want)) => {
            let same = |c: &Config| {
                c.values.len() == want.len()
                    && want.iter().all(|(k, v)| {
                        c.values
                            .iter()
                            .any(|(ck, cv)| ck == k && *cv == const_value(v))
                    })
            };
            match configs.iter().position(same) {
                Some(i) => i,
                None => {
                    return Err(Diagnostic::new(
                        span,
                        format!(
                        "no autotune config of `{name}` has exactly the launch's \"config\" values"
                    ),
                    )
                    .with_help("pick one by its position: \"config\": 0"))
                }
            }
        }
    };
    Ok(Some(Chosen {
        index,
        count: configs.len(),
        config: configs[index].clone(),
    }))
}
