//! The one host-side Python value of every front end: what a module-level
//! name, a factory or heuristic argument, or an expression a dialect's
//! compiler evaluates with Python holds. Numbers are [`PyNum`] (CPython's
//! arithmetic, `super::num`); strings, `None`, tuples, lists, dtype objects
//! and module paths are the other values every dialect has; a dialect's own
//! objects (CUDA Python's enum classes, TileLang's device properties, a
//! Triton tensor) are its [`Extra`] payload. The rules on these values
//! (truth, `==` and ordering, `in`, indexing, `len`, sequence `+`/`*`,
//! `int()`/`float()`/`bool()`) are CPython's, decided once in
//! [`compare`] and [`ops`].

pub mod compare;
pub mod ops;
#[cfg(test)]
mod tests;

use super::num::{PyError, PyNum};
use crate::dtype::DType;
use crate::launch::ConstArg;
use rustpython_parser::ast::Constant;
use std::fmt::Debug;

/// A host-side Python value, with a dialect's own objects as `X`.
#[derive(Clone, Debug, PartialEq)]
pub enum PyValue<X = NoExtra> {
    /// A `bool`, `int` or `float`.
    Num(PyNum),
    /// A `str`.
    Str(String),
    /// `None`.
    None,
    /// A tuple.
    Tuple(Vec<PyValue<X>>),
    /// A list (a list display in host code): a sequence of its own kind,
    /// never equal to a tuple, nor concatenated with one.
    List(Vec<PyValue<X>>),
    /// A dtype object (`numba.int16`, `T.float16`).
    Type(DType),
    /// A module or a name imported from one, by its full dotted path
    /// (`numba.cuda`, `hidet.lang.f32`).
    Path(String),
    /// An object only this dialect has.
    Extra(X),
}

/// A dialect's own host objects: how Python sees them where the shared
/// rules need them. The defaults are those of a plain Python object.
pub trait Extra: Clone + Debug + PartialEq {
    /// Python's name of the object's type, for messages.
    fn type_name(&self) -> &'static str {
        "object"
    }
    /// Its truth value (`None`: not known on the host, e.g. a runtime
    /// tensor); a plain object is true.
    fn truthy(&self) -> Option<bool> {
        Some(true)
    }
    /// `self == other` (`None`: not known on the host); a plain object is
    /// equal only to itself.
    fn py_eq(&self, other: &PyValue<Self>) -> Option<bool> {
        Some(matches!(other, PyValue::Extra(o) if o == self))
    }
    /// Whether the dialect's dtype object `d` equals the string `s` (a
    /// dtype object is no string in Python, unless the dialect's own type
    /// says so: TileLang's compares equal to its own name).
    fn dtype_eq_str(_d: DType, _s: &str) -> bool {
        false
    }
}

/// No dialect objects: the values every dialect has, only.
#[derive(Clone, Debug, PartialEq)]
pub enum NoExtra {}

impl Extra for NoExtra {}

impl<X> From<PyNum> for PyValue<X> {
    fn from(n: PyNum) -> Self {
        PyValue::Num(n)
    }
}

impl<X> PyValue<X> {
    /// An `int`.
    pub fn int(i: i128) -> Self {
        PyValue::Num(PyNum::Int(i))
    }
    /// A `float`.
    pub fn float(f: f64) -> Self {
        PyValue::Num(PyNum::Float(f))
    }
    /// A `bool`.
    pub fn bool(b: bool) -> Self {
        PyValue::Num(PyNum::Bool(b))
    }

    /// The number the value is, if it is one.
    pub fn number(&self) -> Option<PyNum> {
        match self {
            PyValue::Num(n) => Some(*n),
            _ => None,
        }
    }

    /// The value as an integer, where it is one (bools count as 0/1).
    pub fn as_int(&self) -> Option<i128> {
        self.number()?.as_int()
    }

    /// The items of a tuple or a list.
    pub fn items(&self) -> Option<&[PyValue<X>]> {
        match self {
            PyValue::Tuple(t) | PyValue::List(t) => Some(t),
            _ => None,
        }
    }

    /// The dotted path of a module value.
    pub fn path(&self) -> Option<&str> {
        match self {
            PyValue::Path(p) => Some(p),
            _ => None,
        }
    }

    /// The value with no dialect object in it, as a value of any dialect
    /// (`None` where it is, or holds, one).
    pub fn plain<Y>(&self) -> Option<PyValue<Y>> {
        Some(match self {
            PyValue::Num(n) => PyValue::Num(*n),
            PyValue::Str(s) => PyValue::Str(s.clone()),
            PyValue::None => PyValue::None,
            PyValue::Tuple(t) => {
                PyValue::Tuple(t.iter().map(PyValue::plain).collect::<Option<_>>()?)
            }
            PyValue::List(t) => PyValue::List(t.iter().map(PyValue::plain).collect::<Option<_>>()?),
            PyValue::Type(d) => PyValue::Type(*d),
            PyValue::Path(p) => PyValue::Path(p.clone()),
            PyValue::Extra(_) => return None,
        })
    }

    /// A launch's constant argument as the Python value the host passes.
    pub fn from_arg(a: &ConstArg) -> Self {
        match a {
            ConstArg::Int(i) => PyValue::int(*i),
            ConstArg::Float(f) => PyValue::float(*f),
            ConstArg::Bool(b) => PyValue::bool(*b),
            ConstArg::Str(s) => PyValue::Str(s.clone()),
            ConstArg::None => PyValue::None,
            ConstArg::Tuple(t) => PyValue::Tuple(t.iter().map(PyValue::from_arg).collect()),
        }
    }

    /// The launch's form of the value (`None` for a dtype, a module or a
    /// dialect object, which a launch cannot pass).
    pub fn to_arg(&self) -> Option<ConstArg> {
        Some(match self {
            PyValue::Num(PyNum::Int(i)) => ConstArg::Int(*i),
            PyValue::Num(PyNum::Float(f)) => ConstArg::Float(*f),
            PyValue::Num(PyNum::Bool(b)) => ConstArg::Bool(*b),
            PyValue::Str(s) => ConstArg::Str(s.clone()),
            PyValue::None => ConstArg::None,
            // (a launch passes a list as the sequence it knows)
            PyValue::Tuple(t) | PyValue::List(t) => {
                ConstArg::Tuple(t.iter().map(|v| v.to_arg()).collect::<Option<_>>()?)
            }
            _ => return None,
        })
    }

    /// A literal's value (`None` for a bytes or complex literal; ints
    /// beyond ksem's 128-bit limit give [`PyError::TooBig`]).
    pub fn literal(c: &Constant) -> Option<Result<Self, PyError>> {
        Some(Ok(match c {
            Constant::Int(i) => match i128::try_from(i) {
                Ok(i) => PyValue::int(i),
                Err(_) => return Some(Err(PyError::TooBig)),
            },
            Constant::Float(f) => PyValue::float(*f),
            Constant::Bool(b) => PyValue::bool(*b),
            Constant::Str(s) => PyValue::Str(s.clone()),
            Constant::None => PyValue::None,
            Constant::Tuple(t) => {
                let mut items = Vec::new();
                for c in t {
                    match Self::literal(c)? {
                        Ok(v) => items.push(v),
                        Err(e) => return Some(Err(e)),
                    }
                }
                PyValue::Tuple(items)
            }
            _ => return None,
        }))
    }
}

impl<X: Extra> PyValue<X> {
    /// Python's name of the value's type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            PyValue::Num(n) => n.type_name(),
            PyValue::Str(_) => "str",
            PyValue::None => "NoneType",
            PyValue::Tuple(_) => "tuple",
            PyValue::List(_) => "list",
            PyValue::Type(_) => "dtype",
            PyValue::Path(_) => "module",
            PyValue::Extra(x) => x.type_name(),
        }
    }

    /// Python's truth value (`None` where the host cannot know it).
    pub fn truthy(&self) -> Option<bool> {
        Some(match self {
            PyValue::Num(n) => n.truthy(),
            PyValue::Str(s) => !s.is_empty(),
            PyValue::None => false,
            PyValue::Tuple(t) | PyValue::List(t) => !t.is_empty(),
            PyValue::Type(_) | PyValue::Path(_) => true,
            PyValue::Extra(x) => return x.truthy(),
        })
    }
}
