//! Element types of the typed program and their bit-level properties.

use std::fmt;

/// An element type. Names and widths follow Triton's dtypes; every program
/// dialect elaborates into these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    /// float8 e4m3 "fn" variant: no infinities, NaN is S.1111.111, max 448.
    F8E4Nv,
    /// float8 e5m2: IEEE-like, with infinities and NaNs.
    F8E5,
    /// Triton's float8e4b15: e4m3 with exponent bias 15, no infinities and
    /// no NaN (every pattern finite, max 1.875).
    F8E4B15,
    /// Triton's float8e4b8 (e4m3 "fnuz"): bias 8, no infinities, no -0;
    /// 0x80 is the one NaN, max 240.
    F8E4B8,
    /// Triton's float8e5b16 (e5m2 "fnuz"): bias 16, no infinities, no -0;
    /// 0x80 is the one NaN, max 57344.
    F8E5B16,
    F16,
    BF16,
    F32,
    F64,
}

/// The kind hierarchy used by promotion: bool < integral < floating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Bool,
    Int,
    Float,
}

/// Which bit patterns of a float format are infinities and NaNs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Specials {
    /// IEEE: exponent all ones is infinity (mantissa 0) or NaN.
    Ieee,
    /// e4m3fn: no infinities; S.1111.111 is NaN.
    MaxIsNan,
    /// "fnuz": no infinities and no -0; the negative-zero pattern is the one NaN.
    NegZeroIsNan,
    /// No infinities and no NaN: every pattern is a finite number.
    AllFinite,
}

/// Binary floating-point format parameters of a float dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatFormat {
    pub exp_bits: u32,
    pub man_bits: u32,
    /// The exponent bias (IEEE formats: 2^(exp_bits-1) - 1).
    pub bias: i32,
    /// Where the format's infinities and NaNs are.
    pub specials: Specials,
}

impl FloatFormat {
    /// True for formats with infinities (the IEEE ones).
    pub fn has_inf(self) -> bool {
        self.specials == Specials::Ieee
    }
}

impl DType {
    pub const ALL: [DType; 18] = [
        DType::Bool,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U64,
        DType::F8E4Nv,
        DType::F8E5,
        DType::F8E4B15,
        DType::F8E4B8,
        DType::F8E5B16,
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
    ];

    /// Parses a dtype name as written in launch specs (Triton names and short forms).
    pub fn from_name(s: &str) -> Option<DType> {
        Some(match s {
            "bool" | "int1" | "i1" => DType::Bool,
            "int8" | "i8" => DType::I8,
            "int16" | "i16" => DType::I16,
            "int32" | "i32" => DType::I32,
            "int64" | "i64" => DType::I64,
            "uint8" | "u8" => DType::U8,
            "uint16" | "u16" => DType::U16,
            "uint32" | "u32" => DType::U32,
            "uint64" | "u64" => DType::U64,
            "float8e4nv" | "fp8e4nv" => DType::F8E4Nv,
            "float8e5" | "fp8e5" => DType::F8E5,
            "float8e4b15" | "fp8e4b15" => DType::F8E4B15,
            "float8e4b8" | "fp8e4b8" => DType::F8E4B8,
            "float8e5b16" | "fp8e5b16" => DType::F8E5B16,
            "float16" | "fp16" | "f16" => DType::F16,
            "bfloat16" | "bf16" => DType::BF16,
            "float32" | "fp32" | "f32" => DType::F32,
            "float64" | "fp64" | "f64" => DType::F64,
            _ => return None,
        })
    }

    /// The canonical (Triton) name.
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "int1",
            DType::I8 => "int8",
            DType::I16 => "int16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::U8 => "uint8",
            DType::U16 => "uint16",
            DType::U32 => "uint32",
            DType::U64 => "uint64",
            DType::F8E4Nv => "fp8e4nv",
            DType::F8E5 => "fp8e5",
            DType::F8E4B15 => "fp8e4b15",
            DType::F8E4B8 => "fp8e4b8",
            DType::F8E5B16 => "fp8e5b16",
            DType::F16 => "fp16",
            DType::BF16 => "bf16",
            DType::F32 => "fp32",
            DType::F64 => "fp64",
        }
    }

    /// The dtype whose [`DType::json_name`] is `n` (`bool`, `int8`, …,
    /// `bfloat16`, `float32`): NumPy's names and Triton's, bool aside.
    pub fn from_json_name(n: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.json_name() == n)
    }

    /// The name used in launch and result JSON.
    pub fn json_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::F8E4Nv => "float8e4nv",
            DType::F8E5 => "float8e5",
            DType::F8E4B15 => "float8e4b15",
            DType::F8E4B8 => "float8e4b8",
            DType::F8E5B16 => "float8e5b16",
            DType::F16 => "float16",
            DType::BF16 => "bfloat16",
            DType::F32 => "float32",
            DType::F64 => "float64",
            d => d.name(),
        }
    }

    /// Width in bits of the value (bool: 1).
    pub fn bits(self) -> u32 {
        match self {
            DType::Bool => 1,
            DType::I8 | DType::U8 => 8,
            DType::F8E4Nv | DType::F8E5 | DType::F8E4B15 | DType::F8E4B8 | DType::F8E5B16 => 8,
            DType::I16 | DType::U16 | DType::F16 | DType::BF16 => 16,
            DType::I32 | DType::U32 | DType::F32 => 32,
            DType::I64 | DType::U64 | DType::F64 => 64,
        }
    }

    /// Width in bits of the stored form (bool is stored as one byte).
    pub fn storage_bits(self) -> u32 {
        if self == DType::Bool {
            8
        } else {
            self.bits()
        }
    }

    pub fn kind(self) -> Kind {
        match self {
            DType::Bool => Kind::Bool,
            d if d.is_float() => Kind::Float,
            _ => Kind::Int,
        }
    }

    pub fn is_float(self) -> bool {
        self.is_fp8() || matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }

    /// Integer dtypes, bool included (bool is the 1-bit unsigned integer).
    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    pub fn is_signed_int(self) -> bool {
        matches!(self, DType::I8 | DType::I16 | DType::I32 | DType::I64)
    }

    pub fn is_unsigned_int(self) -> bool {
        matches!(
            self,
            DType::Bool | DType::U8 | DType::U16 | DType::U32 | DType::U64
        )
    }

    pub fn is_fp8(self) -> bool {
        matches!(
            self,
            DType::F8E4Nv | DType::F8E5 | DType::F8E4B15 | DType::F8E4B8 | DType::F8E5B16
        )
    }

    /// Bit mask covering the value's width.
    pub fn mask(self) -> u64 {
        let b = self.bits();
        if b == 64 {
            u64::MAX
        } else {
            (1u64 << b) - 1
        }
    }

    /// The float format of a float dtype.
    pub fn float_format(self) -> Option<FloatFormat> {
        use Specials::*;
        let (e, m, specials) = match self {
            DType::F8E4Nv => (4, 3, MaxIsNan),
            DType::F8E5 => (5, 2, Ieee),
            DType::F8E4B15 => (4, 3, AllFinite),
            DType::F8E4B8 => (4, 3, NegZeroIsNan),
            DType::F8E5B16 => (5, 2, NegZeroIsNan),
            DType::F16 => (5, 10, Ieee),
            DType::BF16 => (8, 7, Ieee),
            DType::F32 => (8, 23, Ieee),
            DType::F64 => (11, 52, Ieee),
            _ => return None,
        };
        let bias = match self {
            DType::F8E4B15 => 15,
            DType::F8E4B8 => 8,
            DType::F8E5B16 => 16,
            _ => (1 << (e - 1)) - 1,
        };
        Some(FloatFormat {
            exp_bits: e,
            man_bits: m,
            bias,
            specials,
        })
    }

    /// Smallest and largest value of an integer dtype.
    pub fn int_range(self) -> (i128, i128) {
        let b = self.bits();
        if self.is_signed_int() {
            (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
        } else {
            (0, (1i128 << b) - 1)
        }
    }

    /// The signed or unsigned integer dtype of a given width.
    pub fn int_of(bits: u32, signed: bool) -> DType {
        match (bits, signed) {
            (1, _) => DType::Bool,
            (8, true) => DType::I8,
            (16, true) => DType::I16,
            (32, true) => DType::I32,
            (64, true) => DType::I64,
            (8, false) => DType::U8,
            (16, false) => DType::U16,
            (32, false) => DType::U32,
            _ => DType::U64,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
