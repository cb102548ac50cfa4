//! Values during Triton elaboration: runtime tensors (typed expressions) and
//! compile-time Python values, with Python's semantics for constant folding.

use super::named::NamedClass;
use super::promote::PyNum;
use crate::dtype::DType;
use crate::frontend::py::num;
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
    /// `imports`), or a jit function `name` of it.
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

/// Python truthiness of a compile-time value.
pub fn truthy(v: &Value) -> Option<bool> {
    Some(match v {
        Value::Num(n) => n.truthy(),
        Value::None => false,
        Value::Str(s) => !s.is_empty(),
        Value::Tuple(t) | Value::Named(_, t) => !t.is_empty(),
        Value::Tensor(_) => return None,
        _ => true,
    })
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
/// `__eq__` computes): numbers by value (`1 == 1.0 == True`), strings, None,
/// type objects and tuples by content; values of different kinds are never
/// equal. `None` when either side is a runtime tensor.
pub fn const_eq(a: &Value, b: &Value) -> Option<bool> {
    Some(match (a, b) {
        (Value::Tensor(_), _) | (_, Value::Tensor(_)) => return None,
        (Value::Num(x), Value::Num(y)) => fold_cmp(CmpOp::Eq, *x, *y).ok()?,
        // a NamedTuple instance equals any tuple of equal items (Python's
        // tuple `==`)
        (Value::Tuple(x) | Value::Named(_, x), Value::Tuple(y) | Value::Named(_, y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            for (p, q) in x.iter().zip(y) {
                if !const_eq(p, q)? {
                    return Some(false);
                }
            }
            true
        }
        (x, y) => x == y,
    })
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
