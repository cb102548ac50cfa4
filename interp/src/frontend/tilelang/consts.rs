//! Compile-time Python values of a TileLang file: module constants, a
//! factory's arguments and the assignments of its body before the kernel,
//! evaluated with Python's semantics (ints are unbounded, `//` floors).

use super::{types, Module};
use crate::dtype::DType;
use crate::launch::{ConstArg, Launch};
use crate::span::{DResult, Diagnostic, Span};
use rustpython_parser::ast::{self, Constant};
use std::collections::HashMap;

/// A Python value known at compile time.
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
    Tuple(Vec<Const>),
    /// A dtype object (`T.float16`).
    Type(DType),
    None,
}

impl Const {
    /// The value as an integer (bools count as 0/1).
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Const::Int(i) => Some(*i),
            Const::Bool(b) => Some(*b as i128),
            _ => None,
        }
    }

    /// The dtype a value names: a dtype object or a dtype string.
    pub fn as_dtype(&self) -> Option<DType> {
        match self {
            Const::Type(d) => Some(*d),
            Const::Str(s) => types::dtype_named(s),
            _ => None,
        }
    }

    pub fn from_arg(a: &ConstArg) -> Const {
        match a {
            ConstArg::Int(i) => Const::Int(*i),
            ConstArg::Float(f) => Const::Float(*f),
            ConstArg::Bool(b) => Const::Bool(*b),
            ConstArg::Str(s) => Const::Str(s.clone()),
            ConstArg::None => Const::None,
        }
    }
}

/// Why an expression has no compile-time value.
fn not_const(span: Span) -> Diagnostic {
    Diagnostic::new(span, "this expression has no value at compile time")
}

/// The compile-time value of `e` under `env`; `lang` are the names of
/// `tilelang.language`. Errors carry no useful span (callers that need one
/// re-attach it).
pub fn eval(lang: &[String], env: &HashMap<String, Const>, e: &ast::Expr) -> DResult<Const> {
    let here = Span::default();
    Ok(match e {
        ast::Expr::Constant(c) => match &c.value {
            Constant::Int(i) => Const::Int(i128::try_from(i).map_err(|_| not_const(here))?),
            Constant::Float(f) => Const::Float(*f),
            Constant::Bool(b) => Const::Bool(*b),
            Constant::Str(s) => Const::Str(s.clone()),
            Constant::None => Const::None,
            _ => return Err(not_const(here)),
        },
        ast::Expr::Name(n) => env
            .get(n.id.as_str())
            .cloned()
            .ok_or_else(|| not_const(here))?,
        ast::Expr::Tuple(t) => Const::Tuple(
            t.elts
                .iter()
                .map(|x| eval(lang, env, x))
                .collect::<DResult<_>>()?,
        ),
        ast::Expr::List(t) => Const::Tuple(
            t.elts
                .iter()
                .map(|x| eval(lang, env, x))
                .collect::<DResult<_>>()?,
        ),
        ast::Expr::Attribute(_) => {
            let p = super::super::py::dotted(e).ok_or_else(|| not_const(here))?;
            let (base, last) = p.rsplit_once('.').ok_or_else(|| not_const(here))?;
            if lang.iter().any(|l| l == base) || base == "tilelang.language" {
                Const::Type(types::dtype_named(last).ok_or_else(|| not_const(here))?)
            } else {
                return Err(not_const(here));
            }
        }
        ast::Expr::UnaryOp(u) => match (u.op, eval(lang, env, &u.operand)?) {
            (ast::UnaryOp::USub, Const::Int(i)) => Const::Int(-i),
            (ast::UnaryOp::USub, Const::Float(f)) => Const::Float(-f),
            (ast::UnaryOp::UAdd, c @ (Const::Int(_) | Const::Float(_))) => c,
            (ast::UnaryOp::Not, Const::Bool(b)) => Const::Bool(!b),
            _ => return Err(not_const(here)),
        },
        ast::Expr::BinOp(b) => {
            let x = eval(lang, env, &b.left)?;
            let y = eval(lang, env, &b.right)?;
            binop(b.op, &x, &y).ok_or_else(|| not_const(here))?
        }
        ast::Expr::Call(c) => {
            let f = super::super::py::dotted(&c.func).unwrap_or_default();
            let args: Vec<Const> = c
                .args
                .iter()
                .map(|a| eval(lang, env, a))
                .collect::<DResult<_>>()?;
            let ints: Option<Vec<i128>> = args.iter().map(Const::as_int).collect();
            let is_lang = |name: &str| lang.iter().any(|l| f == format!("{l}.{name}"));
            match (ints.as_deref(), f.as_str()) {
                (Some([a, b]), _) if is_lang("ceildiv") && *b != 0 => Const::Int(ceil_div(*a, *b)),
                (Some([a, b]), "min") => Const::Int(*a.min(b)),
                (Some([a, b]), "max") => Const::Int(*a.max(b)),
                (Some([a]), "int") => Const::Int(*a),
                _ => return Err(not_const(here)),
            }
        }
        _ => return Err(not_const(here)),
    })
}

/// The seed's `T.ceildiv(a, b)`: ⌈a / b⌉ (`b` is not 0).
pub fn ceil_div(a: i128, b: i128) -> i128 {
    floor_div(a, b) + i128::from(a - b * floor_div(a, b) != 0)
}

/// Python's `a // b` (toward -inf); `b` is not 0.
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `x op y` on Python values (`None` where Python would raise).
pub fn binop(op: ast::Operator, x: &Const, y: &Const) -> Option<Const> {
    use ast::Operator as O;
    if let (Some(a), Some(b)) = (x.as_int(), y.as_int()) {
        return Some(Const::Int(match op {
            O::Add => a.checked_add(b)?,
            O::Sub => a.checked_sub(b)?,
            O::Mult => a.checked_mul(b)?,
            O::FloorDiv if b != 0 => floor_div(a, b),
            O::Mod if b != 0 => a - b * floor_div(a, b),
            O::Pow if (0..128).contains(&b) => a.checked_pow(b as u32)?,
            O::LShift if (0..64).contains(&b) => a.checked_shl(b as u32)?,
            O::RShift if b >= 0 => a >> b.min(127),
            O::BitAnd => a & b,
            O::BitOr => a | b,
            O::BitXor => a ^ b,
            O::Div if b != 0 => return Some(Const::Float(a as f64 / b as f64)),
            _ => return None,
        }));
    }
    let f = |c: &Const| match c {
        Const::Float(f) => Some(*f),
        other => other.as_int().map(|i| i as f64),
    };
    let (a, b) = (f(x)?, f(y)?);
    Some(Const::Float(match op {
        O::Add => a + b,
        O::Sub => a - b,
        O::Mult => a * b,
        O::Div if b != 0.0 => a / b,
        O::Pow => a.powf(b),
        _ => return None,
    }))
}

/// Calls a kernel factory: binds its parameters from the launch's
/// `factory_args` (or their defaults), runs the assignments of its body and
/// returns the `@T.prim_func` it defines with the names it can see.
pub fn call_factory(
    m: &Module,
    f: &ast::StmtFunctionDef,
    launch: &Launch,
) -> DResult<(ast::StmtFunctionDef, HashMap<String, Const>)> {
    let mut env = m.globals.clone();
    let a = &f.args;
    let positional: Vec<&ast::ArgWithDefault> = a
        .posonlyargs
        .iter()
        .chain(&a.args)
        .chain(&a.kwonlyargs)
        .collect();
    for p in &positional {
        let name = p.def.arg.to_string();
        let span = m.span(&p.def);
        let v = match launch.factory_args.iter().find(|(n, _)| *n == name) {
            Some((_, c)) => Const::from_arg(c),
            None => match &p.default {
                Some(d) => eval(&m.lang, &env, d).map_err(|_| {
                    Diagnostic::new(span, format!("the default of `{name}` is not a constant"))
                })?,
                None => {
                    return Err(Diagnostic::new(
                        span,
                        format!("kernel factory `{}` needs `{name}`", f.name),
                    )
                    .with_help(format!(
                        "give it in the launch: \"factory_args\": {{\"{name}\": …}}"
                    )))
                }
            },
        };
        env.insert(name, v);
    }
    for (name, _) in &launch.factory_args {
        if !positional.iter().any(|p| p.def.arg.as_str() == name) {
            return Err(Diagnostic::new(
                m.span(f),
                format!("kernel factory `{}` has no parameter `{name}`", f.name),
            ));
        }
    }
    for s in &f.body {
        match s {
            ast::Stmt::FunctionDef(inner)
                if inner.decorator_list.iter().any(|d| m.is_prim_func(d)) =>
            {
                return Ok((inner.clone(), env));
            }
            ast::Stmt::Assign(asg) => {
                let v = eval(&m.lang, &env, &asg.value);
                for t in &asg.targets {
                    match (t, &v) {
                        (ast::Expr::Name(n), Ok(v)) => {
                            env.insert(n.id.to_string(), v.clone());
                        }
                        (ast::Expr::Tuple(tt), Ok(Const::Tuple(vs)))
                            if tt.elts.len() == vs.len() =>
                        {
                            for (t, v) in tt.elts.iter().zip(vs) {
                                if let ast::Expr::Name(n) = t {
                                    env.insert(n.id.to_string(), v.clone());
                                }
                            }
                        }
                        // not a constant: a name the kernel cannot use
                        (ast::Expr::Name(n), Err(_)) => {
                            env.remove(n.id.as_str());
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    Err(Diagnostic::new(
        m.span(f),
        format!("kernel factory `{}` defines no @T.prim_func", f.name),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_floor_division_and_modulo_of_constants() {
        // the seed's comparison table, floordiv/floormod columns
        for (a, b, q, r) in [
            (7, 2, 3, 1),
            (-7, 2, -4, 1),
            (7, -2, -4, -1),
            (-7, -2, 3, -1),
        ] {
            let (x, y) = (Const::Int(a), Const::Int(b));
            assert_eq!(binop(ast::Operator::FloorDiv, &x, &y), Some(Const::Int(q)));
            assert_eq!(binop(ast::Operator::Mod, &x, &y), Some(Const::Int(r)));
        }
        assert_eq!(
            binop(ast::Operator::FloorDiv, &Const::Int(1), &Const::Int(0)),
            None
        );
    }
}
