//! TileLang's dtypes and the promotion of mixed operands (TVM's rules,
//! measured on tilelang 0.1.15's C target: tools/probes/tilelang/promote.py,
//! results in docs/tilelang-measured.md).

use crate::dtype::DType;

/// The dtype a TileLang spelling names: `"float16"`, `"float"` (float32),
/// `"int"` (int32), `"bool"`, and the `T.float16`-style attribute names
/// (`bfloat16`, `float8_e4m3`, `float8_e5m2` …).
pub fn dtype_named(name: &str) -> Option<DType> {
    Some(match name {
        "float" | "float32" | "fp32" => DType::F32,
        "double" | "float64" | "fp64" => DType::F64,
        "half" | "float16" | "fp16" => DType::F16,
        "bfloat16" | "bf16" => DType::BF16,
        "float8_e4m3" | "float8_e4m3fn" | "float8e4nv" => DType::F8E4Nv,
        "float8_e5m2" | "float8e5" => DType::F8E5,
        "int" | "int32" => DType::I32,
        "bool" => DType::Bool,
        other => DType::from_name(other).filter(|d| d.is_int())?,
    })
}

/// Whether `name` is the own name (`str(d)`) of a TileLang dtype that
/// ksem's `d` stands for: float8 e4m3 is both TileLang's `float8_e4m3` and
/// `float8_e4m3fn` (measured: each equals only its own name,
/// tools/probes/tilelang/dtype_str_eq.json; ksem computes both as one dtype).
pub fn is_own_name(d: DType, name: &str) -> bool {
    dtype_name(d) == name || (d == DType::F8E4Nv && name == "float8_e4m3fn")
}

/// TileLang's name of a dtype (as `str(x.dtype)` prints it).
pub fn dtype_name(d: DType) -> &'static str {
    match d {
        DType::F8E4Nv => "float8_e4m3",
        DType::F8E5 => "float8_e5m2",
        other => other.json_name(),
    }
}

/// The dtype both operands of a binary arithmetic operation are converted
/// to. Measured: a float beats an integer and keeps its own width (int32 +
/// float16 is float16, int64 + float32 is float32); of two floats the wider
/// wins; of two integers the wider wins, and at equal width the unsigned
/// (uint8 + int8 is uint8). A bool counts as the narrowest integer. `None`:
/// TileLang has no common type (float16 with bfloat16, fp8 with another float
/// of the same width).
pub fn promote(a: DType, b: DType) -> Option<DType> {
    if a == b {
        return Some(a);
    }
    match (a.is_float(), b.is_float()) {
        (true, false) => Some(a),
        (false, true) => Some(b),
        (true, true) => match a.bits().cmp(&b.bits()) {
            std::cmp::Ordering::Greater => Some(a),
            std::cmp::Ordering::Less => Some(b),
            std::cmp::Ordering::Equal => None,
        },
        (false, false) => {
            let width = |d: DType| if d == DType::Bool { 1 } else { d.bits() };
            Some(match width(a).cmp(&width(b)) {
                std::cmp::Ordering::Greater => a,
                std::cmp::Ordering::Less => b,
                std::cmp::Ordering::Equal if a.is_signed_int() => b,
                std::cmp::Ordering::Equal => a,
            })
        }
    }
}

/// The dtype of a Python int literal in an expression: int32, or int64 where
/// the value does not fit (measured: `x + 2**40` on an int32 is int64).
pub fn int_literal_dtype(v: i128) -> DType {
    if i32::try_from(v).is_ok() {
        DType::I32
    } else {
        DType::I64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_follows_the_measured_table() {
        // tools/probes/tilelang/promote.py on tilelang 0.1.15 (C target)
        let table = [
            (DType::I8, DType::I32, DType::I32),
            (DType::I32, DType::I64, DType::I64),
            (DType::I16, DType::I8, DType::I16),
            (DType::U8, DType::I8, DType::U8),
            (DType::U8, DType::I32, DType::I32),
            (DType::I32, DType::F16, DType::F16),
            (DType::I64, DType::F32, DType::F32),
            (DType::F16, DType::F32, DType::F32),
            (DType::F32, DType::F64, DType::F64),
            (DType::I8, DType::F16, DType::F16),
        ];
        for (a, b, want) in table {
            assert_eq!(promote(a, b), Some(want), "{a} + {b}");
            assert_eq!(promote(b, a), Some(want), "{b} + {a}");
        }
        assert_eq!(promote(DType::F16, DType::BF16), None);
    }
}
