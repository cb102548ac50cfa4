//! Values during Triton elaboration: runtime tensors (typed expressions) and
//! compile-time Python values, with Python's semantics for constant folding.

use super::promote::PyNum;
use crate::dtype::DType;
use crate::ir::{Elem, Expr, NanMode};
use crate::ops::floor_div;
use rustpython_parser::ast::{CmpOp, Operator};

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
        }
    }
}

/// Python's `-n`: negation, not `0 - n` (`-0.0` is negative zero).
pub fn negate(n: PyNum) -> PyNum {
    match n {
        PyNum::Bool(b) => PyNum::Int(-(b as i128)),
        PyNum::Int(i) => PyNum::Int(-i),
        PyNum::Float(f) => PyNum::Float(-f),
    }
}

/// Python truthiness of a compile-time value.
pub fn truthy(v: &Value) -> Option<bool> {
    Some(match v {
        Value::Num(PyNum::Bool(b)) => *b,
        Value::Num(PyNum::Int(i)) => *i != 0,
        Value::Num(PyNum::Float(f)) => *f != 0.0,
        Value::None => false,
        Value::Str(s) => !s.is_empty(),
        Value::Tuple(t) => !t.is_empty(),
        Value::Tensor(_) => return None,
        _ => true,
    })
}

fn as_int(n: PyNum) -> Option<i128> {
    match n {
        PyNum::Bool(b) => Some(b as i128),
        PyNum::Int(i) => Some(i),
        PyNum::Float(_) => None,
    }
}

fn as_f64(n: PyNum) -> f64 {
    match n {
        PyNum::Bool(b) => b as u8 as f64,
        PyNum::Int(i) => i as f64,
        PyNum::Float(f) => f,
    }
}

fn checked(v: Option<i128>) -> Result<PyNum, String> {
    match v {
        Some(v) if v.unsigned_abs() < (1u128 << 100) => Ok(PyNum::Int(v)),
        _ => Err("integer constant too large for ksem (more than 100 bits)".into()),
    }
}

/// Python float modulo: result has the sign of the divisor.
fn py_fmod(x: f64, y: f64) -> f64 {
    let m = x % y;
    if m != 0.0 && ((m < 0.0) != (y < 0.0)) {
        m + y
    } else if m == 0.0 {
        0.0f64.copysign(y)
    } else {
        m
    }
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

/// Folds a binary operator on two Python numbers with Python's semantics.
pub fn fold_binop(op: Operator, a: PyNum, b: PyNum) -> Result<PyNum, String> {
    use Operator::*;
    if let (Some(x), Some(y)) = (as_int(a), as_int(b)) {
        let both_bool = matches!((a, b), (PyNum::Bool(_), PyNum::Bool(_)));
        return match op {
            Add => checked(x.checked_add(y)),
            Sub => checked(x.checked_sub(y)),
            Mult => checked(x.checked_mul(y)),
            Div => {
                if y == 0 {
                    Err("division by zero in a constant expression".into())
                } else {
                    Ok(PyNum::Float(x as f64 / y as f64))
                }
            }
            FloorDiv | Mod => {
                if y == 0 {
                    return Err(
                        "integer division or modulo by zero in a constant expression".into(),
                    );
                }
                let q = floor_div(x, y);
                Ok(PyNum::Int(if op == FloorDiv { q } else { x - q * y }))
            }
            Pow => {
                if y < 0 {
                    Ok(PyNum::Float((x as f64).powf(y as f64)))
                } else {
                    checked(u32::try_from(y).ok().and_then(|e| x.checked_pow(e)))
                }
            }
            BitAnd | BitOr | BitXor => {
                let r = match op {
                    BitAnd => x & y,
                    BitOr => x | y,
                    _ => x ^ y,
                };
                Ok(if both_bool {
                    PyNum::Bool(r != 0)
                } else {
                    PyNum::Int(r)
                })
            }
            LShift | RShift => {
                if y < 0 {
                    return Err("negative shift count".into());
                }
                if op == RShift {
                    Ok(PyNum::Int(if y >= 127 {
                        if x < 0 {
                            -1
                        } else {
                            0
                        }
                    } else {
                        x >> y
                    }))
                } else {
                    checked(if y > 100 {
                        None
                    } else {
                        x.checked_mul(1i128 << y)
                    })
                }
            }
            MatMult => Err("@ is not supported on constants".into()),
        };
    }
    let (x, y) = (as_f64(a), as_f64(b));
    Ok(PyNum::Float(match op {
        Add => x + y,
        Sub => x - y,
        Mult => x * y,
        Div => {
            if y == 0.0 {
                return Err("float division by zero in a constant expression".into());
            }
            x / y
        }
        FloorDiv => {
            if y == 0.0 {
                return Err("float floor division by zero in a constant expression".into());
            }
            ((x - py_fmod(x, y)) / y).round()
        }
        Mod => {
            if y == 0.0 {
                return Err("float modulo by zero in a constant expression".into());
            }
            py_fmod(x, y)
        }
        Pow => x.powf(y),
        _ => return Err(format!("unsupported operand types for {op:?}: float")),
    }))
}

/// Folds a comparison of two Python numbers.
pub fn fold_cmp(op: CmpOp, a: PyNum, b: PyNum) -> Result<bool, String> {
    let ord = match (as_int(a), as_int(b)) {
        (Some(x), Some(y)) => x.partial_cmp(&y),
        _ => as_f64(a).partial_cmp(&as_f64(b)),
    };
    use std::cmp::Ordering::*;
    Ok(match op {
        CmpOp::Eq => ord == Some(Equal),
        CmpOp::NotEq => ord != Some(Equal),
        CmpOp::Lt => ord == Some(Less),
        CmpOp::LtE => matches!(ord, Some(Less | Equal)),
        CmpOp::Gt => ord == Some(Greater),
        CmpOp::GtE => matches!(ord, Some(Greater | Equal)),
        _ => return Err("unsupported comparison on constants".into()),
    })
}

/// Python's `==` on two compile-time values (what a `tl.constexpr`'s
/// `__eq__` computes): numbers by value (`1 == 1.0 == True`), strings, None,
/// type objects and tuples by content; values of different kinds are never
/// equal. `None` when either side is a runtime tensor.
pub fn const_eq(a: &Value, b: &Value) -> Option<bool> {
    Some(match (a, b) {
        (Value::Tensor(_), _) | (_, Value::Tensor(_)) => return None,
        (Value::Num(x), Value::Num(y)) => fold_cmp(CmpOp::Eq, *x, *y).ok()?,
        (Value::Tuple(x), Value::Tuple(y)) => {
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
