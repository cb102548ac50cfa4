//! Python's operators and builtins on host values beyond numbers: sequence
//! concatenation and repetition, `not`, indexing, `len`, and the
//! conversions `int()`/`float()`/`bool()`/`str()` of CPython; the numbers
//! themselves go to [`crate::frontend::py::num`].

use super::{Extra, PyValue};
use crate::frontend::py::num::{self, PyError, PyNum, PyResult};
use rustpython_parser::ast::{Operator, UnaryOp};

/// The most elements a repeated sequence gets here (a longer one is no
/// value a kernel language takes: ksem does not build it).
const MAX_REPEAT: usize = 1 << 16;

/// Python's `x op y`: numbers by CPython's arithmetic; tuples, lists and
/// strings concatenate with `+` (each with its own kind) and repeat with
/// `*` by an int (a count below one
/// gives the empty sequence). `None`: an operand is a dialect's object
/// (a dtype, a module, an extra), whose operators are the dialect's.
pub fn binop<X: Extra>(
    op: Operator,
    x: &PyValue<X>,
    y: &PyValue<X>,
) -> Option<PyResult<PyValue<X>>> {
    use PyValue as V;
    Some(match (op, x, y) {
        (_, V::Type(_) | V::Path(_) | V::Extra(_), _)
        | (_, _, V::Type(_) | V::Path(_) | V::Extra(_)) => return None,
        (_, V::Num(a), V::Num(b)) => num::binop(op, *a, *b).map(V::Num),
        (Operator::Add, V::Tuple(a), V::Tuple(b)) => {
            Ok(V::Tuple(a.iter().chain(b).cloned().collect()))
        }
        (Operator::Add, V::List(a), V::List(b)) => {
            Ok(V::List(a.iter().chain(b).cloned().collect()))
        }
        (Operator::Add, V::Str(a), V::Str(b)) => Ok(V::Str(format!("{a}{b}"))),
        (Operator::Mult, seq @ (V::Tuple(_) | V::List(_) | V::Str(_)), V::Num(n))
        | (Operator::Mult, V::Num(n), seq @ (V::Tuple(_) | V::List(_) | V::Str(_))) => {
            match n.as_int() {
                Some(n) => repeat(seq, n),
                None => Err(PyError::Type(format!(
                    "can't multiply sequence by non-int of type '{}'",
                    n.type_name()
                ))),
            }
        }
        (Operator::Add, V::Tuple(_) | V::List(_) | V::Str(_), other) => {
            Err(PyError::Type(format!(
                "can only concatenate {0} (not \"{1}\") to {0}",
                x.type_name(),
                other.type_name()
            )))
        }
        _ => Err(PyError::Type(format!(
            "unsupported operand type(s) for {}: '{}' and '{}'",
            op_symbol(op),
            x.type_name(),
            y.type_name()
        ))),
    })
}

/// `seq * n` for a tuple, a list or a string.
fn repeat<X: Extra>(seq: &PyValue<X>, n: i128) -> PyResult<PyValue<X>> {
    let n = usize::try_from(n.max(0)).unwrap_or(usize::MAX);
    let len = match seq {
        PyValue::Tuple(t) | PyValue::List(t) => t.len(),
        PyValue::Str(s) => s.len(),
        _ => 0,
    };
    if len.saturating_mul(n) > MAX_REPEAT {
        return Err(PyError::TooBig);
    }
    Ok(match seq {
        PyValue::Tuple(t) => PyValue::Tuple(t.iter().cloned().cycle().take(t.len() * n).collect()),
        PyValue::List(t) => PyValue::List(t.iter().cloned().cycle().take(t.len() * n).collect()),
        PyValue::Str(s) => PyValue::Str(s.repeat(n)),
        other => other.clone(),
    })
}

fn op_symbol(op: Operator) -> &'static str {
    match op {
        Operator::Add => "+",
        Operator::Sub => "-",
        Operator::Mult => "*",
        Operator::MatMult => "@",
        Operator::Div => "/",
        Operator::Mod => "%",
        Operator::Pow => "** or pow()",
        Operator::LShift => "<<",
        Operator::RShift => ">>",
        Operator::BitOr => "|",
        Operator::BitXor => "^",
        Operator::BitAnd => "&",
        Operator::FloorDiv => "//",
    }
}

/// Python's unary operators: `not` of any value with a truth value, the
/// others on numbers. `Ok(None)`: the truth is not known on the host, or
/// the operand is a dialect's object, whose operators are the dialect's.
pub fn unary<X: Extra>(op: UnaryOp, x: &PyValue<X>) -> PyResult<Option<PyValue<X>>> {
    match (op, x) {
        (UnaryOp::Not, v) => Ok(v.truthy().map(|t| PyValue::bool(!t))),
        (op, PyValue::Num(n)) => num::unary(op, *n).map(|n| Some(PyValue::Num(n))),
        (_, PyValue::Type(_) | PyValue::Path(_) | PyValue::Extra(_)) => Ok(None),
        (op, v) => Err(PyError::Type(format!(
            "bad operand type for unary {}: '{}'",
            match op {
                UnaryOp::USub => "-",
                UnaryOp::UAdd => "+",
                _ => "~",
            },
            v.type_name()
        ))),
    }
}

/// Python's `len(x)` of a tuple, a list or a string (in code points).
pub fn len<X: Extra>(x: &PyValue<X>) -> PyResult<i128> {
    match x {
        PyValue::Tuple(t) | PyValue::List(t) => Ok(t.len() as i128),
        PyValue::Str(s) => Ok(s.chars().count() as i128),
        other => Err(PyError::Type(format!(
            "object of type '{}' has no len()",
            other.type_name()
        ))),
    }
}

/// Python's `x[i]` of a tuple, a list or a string by an int (a negative
/// index counts from the end).
pub fn index<X: Extra>(x: &PyValue<X>, i: &PyValue<X>) -> PyResult<PyValue<X>> {
    let (what, n) = match x {
        PyValue::Tuple(t) => ("tuple", t.len()),
        PyValue::List(t) => ("list", t.len()),
        PyValue::Str(s) => ("string", s.chars().count()),
        other => {
            return Err(PyError::Type(format!(
                "'{}' object is not subscriptable",
                other.type_name()
            )))
        }
    };
    let Some(k) = i.as_int() else {
        return Err(PyError::Type(format!(
            "{what} indices must be integers or slices, not {}",
            i.type_name()
        )));
    };
    let k = if k < 0 { k + n as i128 } else { k };
    let k = usize::try_from(k).ok().filter(|k| *k < n);
    let Some(k) = k else {
        return Err(PyError::Index(match what {
            "tuple" => "tuple index out of range",
            "list" => "list index out of range",
            _ => "string index out of range",
        }));
    };
    Ok(match x {
        PyValue::Tuple(t) | PyValue::List(t) => t[k].clone(),
        PyValue::Str(s) => PyValue::Str(s.chars().nth(k).map(String::from).unwrap_or_default()),
        _ => unreachable!("only tuples, lists and strings have an index here"),
    })
}

/// CPython's `repr` of a string: in single quotes, or in double quotes
/// where it holds a single quote and no double quote.
pub fn repr(s: &str) -> String {
    if s.contains('\'') && !s.contains('"') {
        return format!("\"{}\"", s.replace('\\', "\\\\"));
    }
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// Python's `int(s)` of a string: an optionally signed decimal, with
/// surrounding whitespace and `_` between digits allowed.
fn int_of_str(s: &str) -> PyResult<PyNum> {
    let t = s.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    let ok = !digits.is_empty()
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__")
        && digits.chars().all(|c| c.is_ascii_digit() || c == '_');
    if !ok {
        return Err(PyError::Value(format!(
            "invalid literal for int() with base 10: {}",
            repr(s)
        )));
    }
    t.replace('_', "")
        .parse::<i128>()
        .map(PyNum::Int)
        .map_err(|_| PyError::TooBig)
}

/// Python's `float(s)` of a string: a decimal literal or `inf`/`nan`
/// (either case, optionally signed), with surrounding whitespace.
fn float_of_str(s: &str) -> PyResult<PyNum> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let body = lower.strip_prefix(['+', '-']).unwrap_or(&lower);
    let neg = lower.starts_with('-');
    let special = match body {
        "inf" | "infinity" => Some(f64::INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    };
    if let Some(v) = special {
        return Ok(PyNum::Float(if neg { -v } else { v }));
    }
    let plain = !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-' | '_'));
    match t.replace('_', "").parse::<f64>() {
        Ok(v) if plain && !t.contains("__") => Ok(PyNum::Float(v)),
        _ => Err(PyError::Value(format!(
            "could not convert string to float: {}",
            repr(s)
        ))),
    }
}

/// A builtin of Python's on host values, by name: `len`, `bool` of any
/// value with a truth value, `int`/`float` of a number or a string, `str`
/// of a string, `min`/`max` of one tuple or list, and the numeric builtins of
/// [`num::builtin_call`] on numbers. `None`: a builtin or an argument form
/// this module does not evaluate (or a truth the host cannot know).
pub fn builtin<X: Extra>(name: &str, args: &[PyValue<X>]) -> Option<PyResult<PyValue<X>>> {
    Some(match (name, args) {
        ("len", [x]) => len(x).map(PyValue::int),
        ("bool", [x]) => Ok(PyValue::bool(x.truthy()?)),
        ("bool", []) => Ok(PyValue::bool(false)),
        ("int", []) => Ok(PyValue::int(0)),
        ("float", []) => Ok(PyValue::float(0.0)),
        ("int", [PyValue::Str(s)]) => int_of_str(s).map(PyValue::Num),
        ("float", [PyValue::Str(s)]) => float_of_str(s).map(PyValue::Num),
        ("str", [PyValue::Str(s)]) => Ok(PyValue::Str(s.clone())),
        ("min" | "max", [PyValue::Tuple(items) | PyValue::List(items)]) => {
            if items.is_empty() {
                return Some(Err(PyError::Value(format!(
                    "{name}() arg is an empty sequence"
                ))));
            }
            return builtin(name, items);
        }
        _ => {
            let nums: Option<Vec<PyNum>> = args.iter().map(PyValue::number).collect();
            num::builtin_call(name, &nums?)?.map(PyValue::Num)
        }
    })
}

/// A `math` function on numbers ([`num::math_call`]).
pub fn math<X: Extra>(name: &str, args: &[PyValue<X>]) -> Option<PyResult<PyValue<X>>> {
    let nums: Option<Vec<PyNum>> = args.iter().map(PyValue::number).collect();
    Some(num::math_call(name, &nums?)?.map(PyValue::Num))
}
