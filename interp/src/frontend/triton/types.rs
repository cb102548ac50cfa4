//! Triton's type objects as compile-time values: `x.dtype`, `x.type`,
//! `ptr.dtype.element_ty`, and their attributes and predicate methods
//! (`.primitive_bitwidth`, `.int_bitwidth`, `.is_fp16()`, …), with the names
//! and answers of Triton 3.6's `language/core.py` (`dtype`, `pointer_type`,
//! `block_type`).

use super::promote::PyNum;
use super::value::Value;
use crate::ir::Elem;

// Triton's classification lists (`dtype.SINT_TYPES`, …); int1 is unsigned.
const SINT: &[&str] = &["int8", "int16", "int32", "int64"];
const UINT: &[&str] = &["int1", "uint8", "uint16", "uint32", "uint64"];
const FP: &[&str] = &[
    "fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16", "fp16", "bf16", "fp32", "fp64",
];
const STANDARD_FP: &[&str] = &["fp16", "bf16", "fp32", "fp64"];

/// The value of element type `e` as a type object (`x.dtype` of a tile).
pub fn elem_value(e: Elem) -> Value {
    match e {
        Elem::Num(d) => Value::DType(d),
        Elem::Ptr(d, _) => Value::PtrDType(d),
    }
}

/// The `name` of a type object as Triton spells it.
fn type_name(v: &Value) -> Option<String> {
    Some(match v {
        Value::DType(d) => d.name().to_string(),
        Value::PtrDType(d) => format!("pointer<{}>", d.name()),
        Value::BlockType(e, shape) => {
            let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            let tuple = if dims.len() == 1 {
                format!("({},)", dims[0])
            } else {
                format!("({})", dims.join(", "))
            };
            let elem = type_name(&elem_value(*e))?;
            format!("<{tuple}, {elem}>")
        }
        _ => return None,
    })
}

/// Whether `v` is a type object.
pub fn is_type(v: &Value) -> bool {
    matches!(
        v,
        Value::DType(_) | Value::PtrDType(_) | Value::BlockType(..)
    )
}

/// The methods a type object has (all answer without arguments).
const METHODS: &[&str] = &[
    "is_fp8",
    "is_fp8e4nv",
    "is_fp8e4b8",
    "is_fp8e4b15",
    "is_fp8e5",
    "is_fp8e5b16",
    "is_fp16",
    "is_bf16",
    "is_fp32",
    "is_fp64",
    "is_int1",
    "is_int8",
    "is_int16",
    "is_int32",
    "is_int64",
    "is_uint8",
    "is_uint16",
    "is_uint32",
    "is_uint64",
    "is_floating",
    "is_standard_floating",
    "is_int_signed",
    "is_int_unsigned",
    "is_int",
    "is_bool",
    "is_block",
    "is_ptr",
    "is_const",
    "get_int_max_value",
    "get_int_min_value",
];

/// Attribute `attr` of type object `v`: `Ok(value)`, or `Err(message)`
/// where Triton has no such attribute for this type.
pub fn attribute(v: &Value, attr: &str) -> Result<Value, String> {
    let name = type_name(v).ok_or("not a type object")?;
    let int = |i: i128| Ok(Value::Num(PyNum::Int(i)));
    if METHODS.contains(&attr) {
        return Ok(Value::TypeMethod(Box::new(v.clone()), attr.to_string()));
    }
    match (v, attr) {
        (_, "name") => Ok(Value::Str(name)),
        (_, "value") => Ok(v.clone()),
        (Value::DType(_) | Value::PtrDType(_), "scalar") => Ok(v.clone()),
        (Value::DType(d), "primitive_bitwidth") => int(d.bits() as i128),
        (Value::DType(d), "itemsize") => int(d.bits() as i128 / 8),
        (Value::DType(d), "int_bitwidth") if d.is_int() => int(d.bits() as i128),
        (Value::DType(d), "fp_mantissa_width") if d.is_float() => {
            int(d.float_format().map_or(0, |f| f.man_bits) as i128)
        }
        (Value::DType(d), "exponent_bias") if d.is_float() => {
            int(d.float_format().map_or(0, |f| f.bias) as i128)
        }
        (Value::PtrDType(d), "element_ty") => Ok(Value::DType(*d)),
        (Value::PtrDType(_), "address_space") => int(1),
        (Value::PtrDType(_), "const") => Ok(Value::Num(PyNum::Bool(false))),
        (Value::BlockType(e, _), "element_ty" | "scalar") => Ok(elem_value(*e)),
        (Value::BlockType(_, shape), "shape") => Ok(Value::Tuple(
            shape
                .iter()
                .map(|&d| Value::Num(PyNum::Int(d as i128)))
                .collect(),
        )),
        (Value::BlockType(_, shape), "numel") => int(shape.iter().product::<usize>() as i128),
        _ => Err(format!("type `{name}` has no attribute `{attr}`")),
    }
}

/// Calls method `m` of type object `v` (no arguments), as Triton answers it.
pub fn call_method(v: &Value, m: &str) -> Result<Value, String> {
    let name = type_name(v).ok_or("not a type object")?;
    let n = name.as_str();
    let b = |x: bool| Ok(Value::Num(PyNum::Bool(x)));
    match m {
        // Triton tests the name, so `pointer<fp8e5>` is fp8 too
        "is_fp8" => b(n.contains("fp8")),
        "is_block" => b(matches!(v, Value::BlockType(..))),
        "is_ptr" => b(matches!(v, Value::PtrDType(_))),
        "is_const" => b(false),
        "is_floating" => b(FP.contains(&n)),
        "is_standard_floating" => b(STANDARD_FP.contains(&n)),
        "is_int_signed" => b(SINT.contains(&n)),
        "is_int_unsigned" => b(UINT.contains(&n)),
        "is_int" => b(SINT.contains(&n) || UINT.contains(&n)),
        "is_bool" => b(n == "int1"),
        "get_int_max_value" | "get_int_min_value" => {
            let Value::DType(d) = v else {
                return Err(format!("{m}() of `{name}`: not an integer type"));
            };
            let w = d.bits();
            let max = m == "get_int_max_value";
            let r = if SINT.contains(&n) {
                if max {
                    (1i128 << (w - 1)) - 1
                } else {
                    -(1i128 << (w - 1))
                }
            } else if UINT.contains(&n) {
                if max {
                    (1i128 << w) - 1
                } else {
                    0
                }
            } else {
                return Err(format!("{m}() of `{name}`: not an integer type"));
            };
            Ok(Value::Num(PyNum::Int(r)))
        }
        // is_fp16, is_int32, is_uint8, …: a comparison of the name
        other => match other.strip_prefix("is_") {
            Some(want) if METHODS.contains(&other) => b(n == want),
            _ => Err(format!("type `{name}` has no method `{other}`")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;

    fn call(v: Value, m: &str) -> Value {
        call_method(&v, m).unwrap()
    }
    fn t() -> Value {
        Value::Num(PyNum::Bool(true))
    }
    fn f() -> Value {
        Value::Num(PyNum::Bool(false))
    }

    #[test]
    fn predicates_follow_tritons_lists() {
        // int1 is an unsigned int in Triton's lists
        assert_eq!(call(Value::DType(DType::Bool), "is_int_unsigned"), t());
        assert_eq!(call(Value::DType(DType::Bool), "is_int_signed"), f());
        assert_eq!(call(Value::DType(DType::Bool), "is_bool"), t());
        assert_eq!(call(Value::DType(DType::F8E5), "is_fp8"), t());
        assert_eq!(call(Value::DType(DType::BF16), "is_standard_floating"), t());
        assert_eq!(call(Value::DType(DType::F16), "is_fp16"), t());
        assert_eq!(call(Value::DType(DType::U8), "is_uint8"), t());
        assert_eq!(call(Value::DType(DType::U8), "is_int8"), f());
        // a pointer type answers by its name (`pointer<fp32>`): not a float
        assert_eq!(call(Value::PtrDType(DType::F32), "is_floating"), f());
        assert_eq!(call(Value::PtrDType(DType::F32), "is_ptr"), t());
        let blk = Value::BlockType(Elem::Num(DType::F32), vec![4, 8]);
        assert_eq!(call(blk.clone(), "is_block"), t());
        assert_eq!(call(blk.clone(), "is_floating"), f());
        assert_eq!(
            attribute(&blk, "name"),
            Ok(Value::Str("<(4, 8), fp32>".into()))
        );
        assert_eq!(
            call(Value::DType(DType::I8), "get_int_min_value"),
            Value::Num(PyNum::Int(-128))
        );
        assert_eq!(
            call(Value::DType(DType::U64), "get_int_max_value"),
            Value::Num(PyNum::Int(u64::MAX as i128))
        );
        assert!(call_method(&Value::DType(DType::F32), "get_int_max_value").is_err());
    }

    #[test]
    fn attributes() {
        let int = |i| Ok(Value::Num(PyNum::Int(i)));
        assert_eq!(
            attribute(&Value::DType(DType::Bool), "primitive_bitwidth"),
            int(1)
        );
        assert_eq!(attribute(&Value::DType(DType::Bool), "itemsize"), int(0));
        assert_eq!(
            attribute(&Value::DType(DType::U16), "int_bitwidth"),
            int(16)
        );
        assert!(attribute(&Value::DType(DType::F32), "int_bitwidth").is_err());
        assert_eq!(
            attribute(&Value::DType(DType::BF16), "fp_mantissa_width"),
            int(7)
        );
        assert_eq!(
            attribute(&Value::DType(DType::F8E4Nv), "exponent_bias"),
            int(7)
        );
        // Triton's `core.py`: fp8e4b15 is e4m3 with bias 15, fp8e4b8 bias 8,
        // fp8e5b16 e5m2 with bias 16
        let f8 = |d, a| attribute(&Value::DType(d), a);
        assert_eq!(f8(DType::F8E4B15, "exponent_bias"), int(15));
        assert_eq!(f8(DType::F8E4B8, "exponent_bias"), int(8));
        assert_eq!(f8(DType::F8E5B16, "exponent_bias"), int(16));
        assert_eq!(f8(DType::F8E4B15, "fp_mantissa_width"), int(3));
        assert_eq!(f8(DType::F8E5B16, "fp_mantissa_width"), int(2));
        assert_eq!(
            attribute(&Value::PtrDType(DType::F16), "element_ty"),
            Ok(Value::DType(DType::F16))
        );
        assert!(attribute(&Value::PtrDType(DType::F16), "primitive_bitwidth").is_err());
    }
}
