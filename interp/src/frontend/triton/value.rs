//! Values during Triton elaboration: runtime tensors (typed expressions) and
//! compile-time Python values, with Python's semantics for constant folding.

use super::named::NamedClass;
use super::promote::PyNum;
use crate::dtype::DType;
use crate::frontend::py::num;
use crate::frontend::py::value::{compare, Extra, PyValue};
use crate::ir::{Elem, Expr, NanMode};
use rustpython_parser::ast::{CmpOp, Operator};
use std::sync::Arc;

/// Modules a kernel can reach by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModPath {
    Triton,
    Language,
    Math,
    /// `tl.PropagateNan`
    PropagateNan,
    /// `triton.language.extra` and `triton.language.extra.cuda`.
    Extra,
    /// `libdevice` (`triton.language.extra[.cuda].libdevice`).
    Libdevice,
    /// `torch`, for the host constants a module computes from it
    /// (`torch.finfo(torch.float32).min`).
    Torch,
    /// ksem's Python package (`import ksem`), whose `triton` stands in for Triton.
    Ksem,
}

/// A value bound to a name or produced by an expression during elaboration.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A runtime value: a typed expression (a 0-d tensor or a tile).
    Tensor(Expr),
    /// A Python number: a literal, a constexpr, or a combination of these.
    Num(PyNum),
    None,
    Str(String),
    DType(DType),
    /// `pointer_type<dtype>`, e.g. `x_ptr.dtype`.
    PtrDType(DType),
    /// `block_type`: the type of a tile (`x.type`), its element type and shape.
    BlockType(Elem, Vec<usize>),
    /// A method of a type object bound to it (`x.dtype.is_fp16`).
    TypeMethod(Box<Value>, String),
    Tuple(Vec<Value>),
    /// A `@triton.jit` function of the module.
    Func(String),
    /// A module the current one imports from the project (index into its
    /// `imports`), or a jit function or constexpr_function `name` of it.
    Foreign {
        module: usize,
        name: Option<String>,
    },
    Module(ModPath),
    /// A `tl.*` / `tl.math.*` builtin, by canonical name.
    Builtin(String),
    /// A tensor method bound to its receiver (`x.to`, `x.sum`, …).
    Method(Box<Expr>, String),
    NanMode(NanMode),
    /// `:` inside a subscript.
    Slice,
    /// A block pointer (`tl.make_block_ptr`; `super::block_ptr`).
    BlockPtr(Box<BlockPtr>),
    /// A NamedTuple class of the module (`super::named`).
    NamedClass(Arc<NamedClass>),
    /// An instance of a NamedTuple class: a tuple whose items are also
    /// read by field name (`super::named`).
    Named(Arc<NamedClass>, Vec<Value>),
    /// A `@triton.constexpr_function` of the module, by name: a Python
    /// function run while compiling, on compile-time values.
    ConstexprFunc(String),
}

/// A block pointer: a `block` shaped window at `offsets` into a tensor of
/// `shape` and `strides` (in elements) starting at `base`.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockPtr {
    /// The 0-d pointer to the tensor's element (0, …, 0).
    pub base: Expr,
    /// The tensor's size along each dimension (int64 0-d values).
    pub shape: Vec<Expr>,
    /// The element stride of each dimension (int64 0-d values).
    pub strides: Vec<Expr>,
    /// The window's first index along each dimension (int32 0-d values).
    pub offsets: Vec<Expr>,
    /// The window's size along each dimension.
    pub block: Vec<usize>,
}

impl Value {
    /// Python's name for the value's type, for error messages.
    pub fn describe(&self) -> String {
        match self {
            Value::Tensor(e) => format!("tensor {}", e.ty),
            Value::Num(PyNum::Bool(b)) => {
                format!("bool constant {}", if *b { "True" } else { "False" })
            }
            Value::Num(PyNum::Int(v)) => format!("int constant {v}"),
            Value::Num(PyNum::Float(v)) => format!("float constant {v}"),
            Value::None => "None".into(),
            Value::Str(s) => format!("string {s:?}"),
            Value::DType(d) => format!("dtype {d}"),
            Value::PtrDType(d) => format!("pointer type *{d}"),
            Value::BlockType(e, shape) => format!("block type {e:?}{shape:?}"),
            Value::TypeMethod(_, m) => format!("type method {m}"),
            Value::Tuple(_) => "tuple".into(),
            Value::Func(n) => format!("function {n}"),
            Value::Foreign { name: Some(n), .. } => format!("function {n}"),
            Value::Foreign { name: None, .. } => "module".into(),
            Value::Module(_) => "module".into(),
            Value::Builtin(n) => format!("builtin {n}"),
            Value::Method(_, n) => format!("method {n}"),
            Value::NanMode(_) => "PropagateNan".into(),
            Value::Slice => "slice".into(),
            Value::BlockPtr(_) => "block pointer".into(),
            Value::NamedClass(c) => format!("class {}", c.name),
            Value::Named(c, _) => format!("{} tuple", c.name),
            Value::ConstexprFunc(n) => format!("constexpr function {n}"),
        }
    }

    /// The items of a tuple or of a NamedTuple instance.
    pub fn tuple_items(&self) -> Option<&[Value]> {
        match self {
            Value::Tuple(t) | Value::Named(_, t) => Some(t),
            _ => None,
        }
    }
}

impl Value {
    /// The value as the shared host value: numbers, strings, `None`, dtypes
    /// and tuples as those kinds; every other value (a runtime tensor, a
    /// module, a builtin, …) as Triton's own object.
    pub fn host(&self) -> PyValue<Value> {
        match self {
            Value::Num(n) => PyValue::Num(*n),
            Value::Str(s) => PyValue::Str(s.clone()),
            Value::None => PyValue::None,
            Value::DType(d) => PyValue::Type(*d),
            // a NamedTuple instance is a tuple to Python's truth and `==`
            Value::Tuple(t) | Value::Named(_, t) => {
                PyValue::Tuple(t.iter().map(Value::host).collect())
            }
            other => PyValue::Extra(other.clone()),
        }
    }

    /// The Triton value of a shared host value ([`Value::host`]'s inverse).
    pub fn from_host(v: PyValue<Value>) -> Value {
        match v {
            PyValue::Num(n) => Value::Num(n),
            PyValue::Str(s) => Value::Str(s),
            PyValue::None => Value::None,
            PyValue::Type(d) => Value::DType(d),
            // (Triton's host values hold no list: none is made from one)
            PyValue::Tuple(t) | PyValue::List(t) => {
                Value::Tuple(t.into_iter().map(Value::from_host).collect())
            }
            PyValue::Path(p) => Value::Builtin(format!("?{p}")),
            PyValue::Extra(v) => v,
        }
    }
}

/// Triton's own objects as host values: a runtime tensor has no truth or
/// equality on the host; the others (modules, builtins, functions, type
/// objects of pointers and blocks) are plain objects, equal to themselves.
impl Extra for Value {
    fn type_name(&self) -> &'static str {
        match self {
            Value::Tensor(_) => "tensor",
            _ => "object",
        }
    }
    fn truthy(&self) -> Option<bool> {
        match self {
            Value::Tensor(_) => None,
            _ => Some(true),
        }
    }
    fn py_eq(&self, other: &PyValue<Value>) -> Option<bool> {
        match (self, other) {
            (Value::Tensor(_), _) | (_, PyValue::Extra(Value::Tensor(_))) => None,
            (x, PyValue::Extra(y)) => Some(x == y),
            _ => Some(false),
        }
    }
}

/// Python truthiness of a compile-time value (`None` for a runtime tensor).
pub fn truthy(v: &Value) -> Option<bool> {
    v.host().truthy()
}

/// `triton.next_power_of_2(n)` as Triton's host helper computes it: n - 1
/// with the bits below its top one set by shifts up to 32, plus 1 (the
/// smallest power of 2 >= n for n < 2^64; 0 for n = 0).
pub fn next_power_of_2(n: i128) -> i128 {
    let mut m = n - 1;
    for s in [1, 2, 4, 8, 16, 32] {
        m |= m >> s;
    }
    m + 1
}

/// Folds a binary operator on two Python numbers: CPython's value
/// (`py::num`), or its exception as the message.
pub fn fold_binop(op: Operator, a: PyNum, b: PyNum) -> Result<PyNum, String> {
    num::binop(op, a, b).map_err(|e| e.to_string())
}

/// Folds a comparison of two Python numbers (`py::num`).
pub fn fold_cmp(op: CmpOp, a: PyNum, b: PyNum) -> Result<bool, String> {
    num::compare(op, a, b).map_err(|e| e.to_string())
}

/// Python's `==` on two compile-time values (what a `tl.constexpr`'s
/// `__eq__` computes; `py::value`'s rule): numbers by value (`1 == 1.0 ==
/// True`), strings, None, type objects and tuples by content; values of
/// different kinds are never equal. `None` when either side is (or holds)
/// a runtime tensor.
pub fn const_eq(a: &Value, b: &Value) -> Option<bool> {
    compare::py_eq(&a.host(), &b.host())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_floor_semantics_for_constants() {
        let i = PyNum::Int;
        assert_eq!(fold_binop(Operator::FloorDiv, i(-7), i(2)), Ok(i(-4)));
        assert_eq!(fold_binop(Operator::Mod, i(-7), i(2)), Ok(i(1)));
        assert_eq!(fold_binop(Operator::FloorDiv, i(7), i(-2)), Ok(i(-4)));
        assert_eq!(fold_binop(Operator::Mod, i(7), i(-2)), Ok(i(-1)));
        assert_eq!(fold_binop(Operator::Mod, i(-7), i(-2)), Ok(i(-1)));
        assert_eq!(fold_binop(Operator::Div, i(7), i(2)), Ok(PyNum::Float(3.5)));
        let f = PyNum::Float;
        assert_eq!(fold_binop(Operator::Mod, f(-7.5), f(2.0)), Ok(f(0.5)));
        assert_eq!(fold_binop(Operator::FloorDiv, f(-7.5), f(2.0)), Ok(f(-4.0)));
        assert!(fold_binop(Operator::FloorDiv, i(1), i(0)).is_err());
    }
}
