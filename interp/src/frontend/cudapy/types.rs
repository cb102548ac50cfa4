//! The type rules of CUDA Python as its seed (NumbaPro 0.12) states them:
//! implicit coercion between ints and floats only; `+ - *` (and `%`,
//! comparisons, bitwise operators) compute in the more generic of the two
//! operand types; `//` gives an integer of the coerced type's width and at
//! least 32 bits; `/` computes in the float of the operands' larger width
//! and at least 32 bits. Where the seed is silent, `docs/semantics.md`
//! ("CUDA Python") records the decision and `docs/divergences.md` how
//! modern numba-cuda differs.

use crate::dtype::DType;
use crate::ir::{BinOp, DivRound, DivZero, IntArith, IntDiv};

/// Integer `//` and `%`: floor rounding (Python's, as numba-cuda computes
/// them); a zero divisor gives 0 (numba-cuda's default "numpy" error model,
/// measured: docs/numba-measured.md).
pub const INT_DIV: IntDiv = IntDiv {
    round: DivRound::Floor,
    zero: DivZero::Zero,
};

/// The op of a user's `a + b`, `a - b` or `a * b` computed in dtype `c`:
/// numba-cuda computes every signed integer result in 64 bits with LLVM's
/// `nsw` flag (`_int_arith_flags`), so an int64 overflow is poison there
/// and UB here; narrower signed results exist only by the seed's coercion
/// (numba computes them in int64, where they cannot overflow: divergence
/// N1) and wrap, as do unsigned results and floats' ops.
pub fn nsw_op(arith: IntArith, c: DType) -> BinOp {
    if c == DType::I64 {
        BinOp::NoSignedWrap(arith)
    } else {
        arith.op()
    }
}

/// The result dtype of integer `-x`, `+x` and `~x` (the seed gives no rule;
/// numba-cuda, measured): 64 bits of the operand's signedness.
pub fn int_unary_result(d: DType) -> DType {
    if d.is_signed_int() {
        DType::I64
    } else {
        DType::U64
    }
}

/// The float dtype a `math` function computes in: float32 stays float32,
/// every other argument computes in float64.
pub fn math_type(d: DType) -> DType {
    if d == DType::F32 {
        DType::F32
    } else {
        DType::F64
    }
}

/// The dtype two operands are compared (or joined by `a if c else b`) in:
/// the more generic one, except that two bools stay bool.
pub fn compare_type(a: DType, b: DType) -> DType {
    if a == DType::Bool && b == DType::Bool {
        DType::Bool
    } else {
        promote(a, b)
    }
}

/// Width in bits of a numeric dtype as NumbaPro counts it (bool: 1).
fn width(d: DType) -> u32 {
    if d == DType::Bool {
        1
    } else {
        d.bits()
    }
}

/// The signed or unsigned integer dtype of `bits` width.
pub fn int_of(bits: u32, signed: bool) -> DType {
    match (bits, signed) {
        (0..=8, true) => DType::I8,
        (0..=8, false) => DType::U8,
        (9..=16, true) => DType::I16,
        (9..=16, false) => DType::U16,
        (17..=32, true) => DType::I32,
        (17..=32, false) => DType::U32,
        (_, true) => DType::I64,
        (_, false) => DType::U64,
    }
}

/// The float dtype of at least `bits` width (float16, float32 or float64).
pub fn float_of(bits: u32) -> DType {
    match bits {
        0..=16 => DType::F16,
        17..=32 => DType::F32,
        _ => DType::F64,
    }
}

/// The more generic of two numeric dtypes: the seed coerces "to the most
/// generic type of the two", so the result is one of them: a float beats an
/// int (int64 with float32 is float32), the wider of two ints or two floats
/// wins; at equal width the signed int (the seed is silent; numba-cuda,
/// measured, computes uint64 + int64 in int64); bool with any type gives
/// that type, and bool with bool gives int64 (Python adds bools as ints).
/// numba-cuda itself widens (int32 + int32 is int64, float32 + int32 is
/// float64): docs/divergences.md.
pub fn promote(a: DType, b: DType) -> DType {
    if a == b && a != DType::Bool {
        return a;
    }
    match (a, b) {
        (DType::Bool, DType::Bool) => DType::I64,
        (DType::Bool, x) | (x, DType::Bool) => x,
        _ if a.is_float() != b.is_float() => {
            if a.is_float() {
                a
            } else {
                b
            }
        }
        _ => {
            let (wa, wb) = (width(a), width(b));
            if wa != wb {
                if wa > wb {
                    a
                } else {
                    b
                }
            } else if a.is_signed_int() || a.is_float() {
                a
            } else {
                b
            }
        }
    }
}

/// The result dtype of `//` whose operands were coerced to `c`: an integer
/// of `c`'s width, at least 32 bits; unsigned only for unsigned operands.
pub fn floordiv_result(c: DType) -> DType {
    let signed = c.is_float() || c.is_signed_int() || c == DType::Bool;
    int_of(width(c).max(32), signed)
}

/// The float dtype `/` computes in: the larger operand width, at least 32 bits.
pub fn truediv_type(a: DType, b: DType) -> DType {
    float_of(width(a).max(width(b)).max(32))
}

/// A dtype as CUDA Python names it in messages (`float32`, `bool`).
pub struct Named(pub DType);

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            DType::Bool => "bool",
            DType::F16 => "float16",
            DType::BF16 => "bfloat16",
            DType::F32 => "float32",
            DType::F64 => "float64",
            d => d.name(),
        })
    }
}

/// The dtype a type name of the dialect denotes (`int16`, `float32`,
/// `f4`, `intp`, `uint`, `float_`, `double`, …).
pub fn dtype_named(name: &str) -> Option<DType> {
    Some(match name {
        "bool_" | "boolean" | "b1" | "bool" => DType::Bool,
        "int8" | "i1" | "byte" | "char" => DType::I8,
        "int16" | "i2" | "short" => DType::I16,
        "int32" | "i4" | "intc" => DType::I32,
        "int64" | "i8" | "intp" | "int_" | "long_" | "longlong" => DType::I64,
        "uint8" | "u1" | "uchar" => DType::U8,
        "uint16" | "u2" | "ushort" => DType::U16,
        "uint32" | "u4" | "uintc" => DType::U32,
        "uint64" | "u8" | "uintp" | "uint" | "ulonglong" => DType::U64,
        "float32" | "f4" | "single" | "float" => DType::F32,
        "float64" | "f8" | "double" | "float_" => DType::F64,
        "float16" | "f2" | "half" => DType::F16,
        _ => return None,
    })
}

/// The part dtype of a complex type named `name` (`complex64`, `c8`, …):
/// float32 for complex64, float64 for complex128.
pub fn complex_named(name: &str) -> Option<DType> {
    match name {
        "complex64" | "c8" | "csingle" | "singlecomplex" => Some(DType::F32),
        "complex128" | "c16" | "cdouble" | "complex_" | "cfloat" => Some(DType::F64),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    #[test]
    fn the_seeds_coercion_rules() {
        // + - *: the more generic of the two.
        assert_eq!(promote(I32, I32), I32);
        assert_eq!(promote(I8, I16), I16);
        // "of the two": the float operand's type, however wide the int
        assert_eq!(promote(I32, F32), F32);
        assert_eq!(promote(I64, F32), F32);
        assert_eq!(promote(F16, I32), F16);
        assert_eq!(promote(F32, F64), F64);
        assert_eq!(promote(U8, I16), I16);
        assert_eq!(promote(Bool, F32), F32);
        assert_eq!(promote(Bool, Bool), I64);
        // equal-width signedness, where the seed is silent: numba-cuda's signed
        assert_eq!(promote(U64, I64), I64);
        assert_eq!(promote(U32, I32), I32);
        // //: integer of the coerced width, at least 32 bits.
        assert_eq!(floordiv_result(promote(I8, I8)), I32);
        assert_eq!(floordiv_result(promote(I64, I32)), I64);
        assert_eq!(floordiv_result(promote(F32, F32)), I32);
        assert_eq!(floordiv_result(promote(F64, I8)), I64);
        assert_eq!(floordiv_result(promote(U16, U16)), U32);
        // /: float of the larger width, at least 32 bits.
        assert_eq!(truediv_type(I8, I16), F32);
        assert_eq!(truediv_type(I32, I32), F32);
        assert_eq!(truediv_type(I64, I32), F64);
        assert_eq!(truediv_type(F32, I64), F64);
        assert_eq!(truediv_type(F32, F32), F32);
    }
}
