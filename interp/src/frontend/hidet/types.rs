//! Hidet script's scalar types and its two typing rules.
//!
//! Hidet types an expression with its own promotion table
//! (`hidet/ir/dtypes/promotion.py`): that type is what a variable defined
//! by the expression gets, and it decides the narrowing casts Hidet's code
//! generator writes. The value itself is computed by the C code Hidet
//! generates, so by C's usual arithmetic conversions (an `int8` sum is an
//! `int`, `uint32 + int32` is `unsigned`). Where the two disagree the
//! generated code, which is what runs, decides the value (DESIGN.md "Which
//! rule wins"; docs/hidet-measured.md).

use crate::dtype::DType;
use std::fmt;

/// A Hidet scalar type name that ksem does not run yet.
pub const UNSUPPORTED_SCALARS: &[&str] = &[
    "float8_e4m3",
    "float8_e5m2",
    "i1",
    "u1",
    "i2",
    "u2",
    "i4",
    "u4",
    "i4x8",
    "u4x8",
];

/// What one element of a Hidet tensor or pointer is. Memory holds every
/// element as `width()` consecutive numbers of its component dtype: a
/// complex number as its real then its imaginary part (C++'s
/// `std::complex` layout), a vector as its lanes in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elt {
    Real(DType),
    /// `complex64` (float32 parts) or `complex128` (float64 parts).
    Complex(DType),
    /// A vector type of `lanes` numbers (`f32x4`: float32, 4).
    Vector(DType, u8),
    /// A pointer to numbers of the dtype (the element of a `~(~f16)`):
    /// memory holds it as its 64-bit representation, a `uint64`.
    Ptr(DType),
}

impl Elt {
    /// The dtype of the numbers memory holds for the element.
    pub fn comp(self) -> DType {
        match self {
            Elt::Real(d) | Elt::Complex(d) | Elt::Vector(d, _) => d,
            Elt::Ptr(_) => DType::U64,
        }
    }

    /// How many numbers of the component dtype one element takes.
    pub fn width(self) -> i64 {
        match self {
            Elt::Real(_) | Elt::Ptr(_) => 1,
            Elt::Complex(_) => 2,
            Elt::Vector(_, n) => n as i64,
        }
    }

    /// The complex or vector type a Hidet type name stands for.
    pub fn compound_named(name: &str) -> Option<Elt> {
        Some(match name {
            "c64" | "complex64" => Elt::Complex(DType::F32),
            "c128" | "complex128" => Elt::Complex(DType::F64),
            "f16x2" | "float16x2" => Elt::Vector(DType::F16, 2),
            "bf16x2" | "bfloat16x2" => Elt::Vector(DType::BF16, 2),
            "f32x2" | "float32x2" => Elt::Vector(DType::F32, 2),
            "f32x4" | "float32x4" => Elt::Vector(DType::F32, 4),
            "f32x8" | "float32x8" => Elt::Vector(DType::F32, 8),
            "i8x4" | "int8x4" => Elt::Vector(DType::I8, 4),
            "u8x4" | "uint8x4" => Elt::Vector(DType::U8, 4),
            _ => return None,
        })
    }
}

impl fmt::Display for Elt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Elt::Real(d) => write!(f, "{}", Named(*d)),
            Elt::Complex(DType::F32) => f.write_str("complex64"),
            Elt::Complex(_) => f.write_str("complex128"),
            Elt::Vector(d, n) => write!(f, "{}x{n}", Named(*d)),
            Elt::Ptr(d) => write!(f, "(~{})", Named(*d)),
        }
    }
}

/// The dtype a Hidet type name (`i32`, `int32`, `f32`, `float32`, `boolean`)
/// stands for.
pub fn scalar_named(name: &str) -> Option<DType> {
    Some(match name {
        "i8" | "int8" => DType::I8,
        "i16" | "int16" => DType::I16,
        "i32" | "int32" => DType::I32,
        "i64" | "int64" => DType::I64,
        "u8" | "uint8" => DType::U8,
        "u16" | "uint16" => DType::U16,
        "u32" | "uint32" => DType::U32,
        "u64" | "uint64" => DType::U64,
        "f16" | "float16" => DType::F16,
        "bf16" | "bfloat16" => DType::BF16,
        "f32" | "float32" => DType::F32,
        // measured: Hidet's tfloat32 is C's float (`typedef float
        // tfloat32_t`, on the CPU and in its CUDA code): no rounding on
        // conversion, float arithmetic; only tensor-core instructions
        // round to tf32. Its promotion rank (above bf16, below f32) gives
        // the same values as float's.
        "tf32" | "tfloat32" => DType::F32,
        "f64" | "float64" => DType::F64,
        "boolean" => DType::Bool,
        _ => return None,
    })
}

/// A dtype as Hidet spells it (`i32`, `f32`, `bool`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Named(pub DType);

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.0 {
            DType::Bool => "bool",
            DType::I8 => "i8",
            DType::I16 => "i16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::U8 => "u8",
            DType::U16 => "u16",
            DType::U32 => "u32",
            DType::U64 => "u64",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::F8E4Nv => "float8_e4m3",
            DType::F8E5 => "float8_e5m2",
            // not Hidet dtypes (Triton's): their Triton names
            DType::F8E4B15 | DType::F8E4B8 | DType::F8E5B16 => self.0.name(),
        };
        f.write_str(s)
    }
}

fn int_bits(d: DType) -> u32 {
    d.bits()
}

/// Hidet's promotion of two scalar types (`promote_type`), the type an
/// expression of them has; `None` where Hidet refuses the pair.
///
/// Integer with float gives the float; bool with bool is bool, bool with an
/// integer the integer; two floats the wider, with bfloat16 above float16;
/// two integers of one signedness the wider. A signed with an unsigned
/// integer gives a signed integer as wide as the first operand or twice the
/// second, whichever is wider (at most 64 bits): Hidet's table is not
/// symmetric (`i8, u16 → i32` but `u16, i8 → i16`).
pub fn promote(a: DType, b: DType) -> Option<DType> {
    use DType::*;
    let float_rank = |d: DType| match d {
        F16 => 1,
        BF16 => 2,
        F32 => 3,
        F64 => 4,
        _ => 0,
    };
    Some(match (a, b) {
        _ if a.is_int() && b.is_float() => b,
        _ if a.is_float() && b.is_int() => a,
        (Bool, Bool) => Bool,
        (Bool, _) if b.is_int() => b,
        (_, Bool) if a.is_int() => a,
        _ if a.is_float() && b.is_float() => {
            if float_rank(a) == 0 || float_rank(b) == 0 {
                return None;
            }
            if float_rank(a) >= float_rank(b) {
                a
            } else {
                b
            }
        }
        _ if a.is_int() && b.is_int() => {
            let (sa, sb) = (a.is_signed_int(), b.is_signed_int());
            let (wa, wb) = (int_bits(a), int_bits(b));
            if sa == sb {
                if wa >= wb {
                    a
                } else {
                    b
                }
            } else {
                signed_of(wa.max(wb * 2).min(64))
            }
        }
        _ => return None,
    })
}

/// The signed integer dtype of `bits` bits.
pub fn signed_of(bits: u32) -> DType {
    match bits {
        8 => DType::I8,
        16 => DType::I16,
        32 => DType::I32,
        _ => DType::I64,
    }
}

/// C's integer promotion: every integer type narrower than `int` becomes `int`.
pub fn c_promote(d: DType) -> DType {
    if d == DType::Bool || (d.is_int() && d.bits() < 32) {
        DType::I32
    } else {
        d
    }
}

/// C's usual arithmetic conversions (LP64, as g++ and nvcc compile Hidet's
/// code): the type a binary operator computes in.
pub fn c_arith(a: DType, b: DType) -> DType {
    if a == DType::F64 || b == DType::F64 {
        return DType::F64;
    }
    if a.is_float() || b.is_float() {
        return DType::F32;
    }
    let (a, b) = (c_promote(a), c_promote(b));
    if a == b {
        return a;
    }
    let (sa, sb) = (a.is_signed_int(), b.is_signed_int());
    if sa == sb {
        return if a.bits() >= b.bits() { a } else { b };
    }
    let (u, s) = if sa { (b, a) } else { (a, b) };
    if u.bits() >= s.bits() {
        u
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    /// Rows of Hidet 0.6.1's `_promotion_table` (hidet/ir/dtypes/promotion.py),
    /// copied by hand as the independent reference for the rule above.
    #[test]
    fn promotion_matches_hidets_table() {
        let rows = [
            (I8, U8, I16),
            (I8, U16, I32),
            (I8, U32, I64),
            (I8, U64, I64),
            (I16, U8, I16),
            (I16, U16, I32),
            (I16, U32, I64),
            (I16, U64, I64),
            (I32, U8, I32),
            (I32, U16, I32),
            (I32, U32, I64),
            (I32, U64, I64),
            (I64, U8, I64),
            (I64, U64, I64),
            (U8, I8, I16),
            (U8, I16, I32),
            (U8, I32, I64),
            (U8, I64, I64),
            (U16, I8, I16),
            (U16, I16, I32),
            (U16, I32, I64),
            (U16, I64, I64),
            (U32, I8, I32),
            (U32, I16, I32),
            (U32, I32, I64),
            (U32, I64, I64),
            (U64, I8, I64),
            (U64, I16, I64),
            (U64, I32, I64),
            (U64, I64, I64),
            (I8, I16, I16),
            (U32, U8, U32),
            (F16, BF16, BF16),
            (BF16, F16, BF16),
            (F16, F32, F32),
            (F64, F32, F64),
            (I64, F16, F16),
            (F32, U64, F32),
            (Bool, I8, I8),
            (Bool, Bool, Bool),
        ];
        for (a, b, want) in rows {
            assert_eq!(promote(a, b), Some(want), "{a} with {b}");
        }
    }

    /// C's usual arithmetic conversions, by the C standard's rules (6.3.1.8).
    #[test]
    fn c_arithmetic_conversions() {
        assert_eq!(c_arith(I8, I8), I32);
        assert_eq!(c_arith(U8, U16), I32);
        assert_eq!(c_arith(U32, I32), U32);
        assert_eq!(c_arith(U32, I64), I64);
        assert_eq!(c_arith(U64, I64), U64);
        assert_eq!(c_arith(I64, F32), F32);
        assert_eq!(c_arith(F32, F64), F64);
        assert_eq!(c_arith(Bool, Bool), I32);
    }
}
