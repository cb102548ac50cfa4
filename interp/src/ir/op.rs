//! Operators of the IR, each with its exact meaning and its UB policy, so
//! that a dialect which defines a result (e.g. integer division by zero) is
//! not special-cased downstream. `crate::sem` computes them.

use crate::float::{Overflow, Rounding};
pub use crate::ieee::{IeeeBinary, IeeeUnary};

/// Integer division rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DivRound {
    /// C semantics: toward zero (remainder has the dividend's sign).
    Trunc,
    /// Python semantics: toward -inf (remainder has the divisor's sign).
    Floor,
}

/// What integer division or remainder by zero (and signed `MIN / -1`) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DivZero {
    /// Undefined behaviour, reported.
    Ub,
    /// A defined result: quotient and remainder by zero are 0; `MIN / -1`
    /// wraps to `MIN` and `MIN % -1` is 0.
    Zero,
}

/// Integer division or remainder: rounding plus the policy for a zero divisor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntDiv {
    pub round: DivRound,
    pub zero: DivZero,
}

impl IntDiv {
    /// C division, division by zero is UB (Triton tensors).
    pub const TRUNC: IntDiv = IntDiv {
        round: DivRound::Trunc,
        zero: DivZero::Ub,
    };
    /// Python floor division, division by zero is UB.
    pub const FLOOR: IntDiv = IntDiv {
        round: DivRound::Floor,
        zero: DivZero::Ub,
    };
}

/// An integer `+ - *` whose signed overflow is undefined: LLVM's
/// `add`/`sub`/`mul nsw`, which numba-cuda emits for every signed result
/// (`BinOp::NoSignedWrap`). Unsigned operands wrap as `BinOp::Add` etc. do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntArith {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
}

impl IntArith {
    /// The wrapping operation it checks.
    pub fn op(self) -> BinOp {
        match self {
            IntArith::Add => BinOp::Add,
            IntArith::Sub => BinOp::Sub,
            IntArith::Mul => BinOp::Mul,
        }
    }
}

/// Right-shift fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShrKind {
    /// Copies the top bit of the operand's width, whatever the dtype's
    /// signedness (Triton shifts arithmetically when the left operand's own
    /// dtype is signed, also where promotion made the operation unsigned).
    Arith,
    /// Fills with zeros.
    Logical,
}

/// What a shift by an amount < 0 or ≥ the width does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShiftRange {
    /// Undefined behaviour, reported.
    Ub,
    /// The amount is reduced modulo the width (the hardware's `shl`/`shr`
    /// on 32-bit registers takes the low bits).
    Mask,
    /// The mathematical result: amounts ≥ width shift everything out (0, or
    /// the sign for an arithmetic right shift); negative amounts are UB.
    Saturate,
}

/// NaN handling of float minimum/maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NanMode {
    /// IEEE minNum/maxNum: a NaN operand yields the other operand.
    Ignore,
    /// Any NaN operand yields NaN.
    Propagate,
}

/// Binary operations; both operands have the same type as each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Float division, correctly rounded.
    FDiv,
    /// Integer division.
    IDiv(IntDiv),
    /// Integer remainder matching `IDiv` of the same rounding.
    IRem(IntDiv),
    /// Float remainder: C `fmod` (sign of the dividend).
    FRem,
    And,
    Or,
    Xor,
    Shl(ShiftRange),
    Shr(ShrKind, ShiftRange),
    Min(NanMode),
    Max(NanMode),
    /// Comparisons produce bool; float comparisons are ordered (NaN: false) except `Ne`.
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Pointer plus integer offset (counted in elements).
    PtrAdd,
    /// Pointer plus integer offset counted in bytes (C's `(char *)p + n`
    /// of a `void *`). Memory holds typed numbers, so the result must
    /// address the start of an element of the pointer's dtype: an offset
    /// that is not a multiple of the dtype's size is UB (misaligned
    /// pointer); otherwise it is `PtrAdd` by `n / size` elements.
    PtrAddBytes,
    /// `p - q` of two pointers to one dtype in one address space: the
    /// number of elements from `q` to `p`, an `int64` (C's `ptrdiff_t`).
    /// UB unless both point into one buffer (C: into one array object).
    PtrDiff,
    /// Logical and/or of bools.
    LogicalAnd,
    LogicalOr,
    /// Float power `a ** b` (C `pow`; approximate on the GPU).
    Pow,
    /// Float `atan2(a, b)` (approximate on the GPU).
    Atan2,
    /// Float `hypot(a, b)`: `sqrt(a*a + b*b)` without overflow in between
    /// (approximate on the GPU; CUDA's `hypot`).
    Hypot,
    /// The magnitude of `a` with the sign of `b` (exact).
    CopySign,
    /// Float `+ - * /` rounded by the given mode (exact; `crate::ieee`).
    Ieee(IeeeBinary, Rounding),
    /// Integer `+ - *` whose signed overflow is UB, reported (CUDA Python:
    /// numba's `nsw`); otherwise the wrapping op.
    NoSignedWrap(IntArith),
}

impl BinOp {
    /// The op with its UB policy for signed overflow dropped
    /// (`NoSignedWrap(a)` is `a.op()`): what it computes where it is
    /// defined, which the lowerings emit.
    pub fn wrapping(self) -> BinOp {
        match self {
            BinOp::NoSignedWrap(a) => a.op(),
            op => op,
        }
    }

    /// Whether the operation moves a pointer (`PtrAdd`, `PtrAddBytes`).
    pub fn is_ptr_add(self) -> bool {
        matches!(self, BinOp::PtrAdd | BinOp::PtrAddBytes)
    }

    /// Whether the GPU approximates the result (compared within a ULP bound).
    pub fn is_inexact(self) -> bool {
        matches!(self, BinOp::Pow | BinOp::Atan2 | BinOp::Hypot)
    }

    /// Whether the result is a bool comparison.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// Math functions. The GPU approximates those marked inexact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    Exp,
    Exp2,
    Log,
    Log2,
    Sqrt,
    SqrtRn,
    Rsqrt,
    Sin,
    Cos,
    Sigmoid,
    Erf,
    Floor,
    Ceil,
    Abs,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Expm1,
    Log10,
    Log1p,
    /// The cube root.
    Cbrt,
    /// The complementary error function `1 - erf(x)`.
    Erfc,
    /// The gamma function (C's `tgamma`).
    Tgamma,
    /// The logarithm of the absolute value of the gamma function.
    Lgamma,
    /// `10 ** x`.
    Exp10,
}

impl MathFn {
    /// Every math function.
    pub const ALL: [MathFn; 32] = [
        MathFn::Exp,
        MathFn::Exp2,
        MathFn::Log,
        MathFn::Log2,
        MathFn::Sqrt,
        MathFn::SqrtRn,
        MathFn::Rsqrt,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Sigmoid,
        MathFn::Erf,
        MathFn::Floor,
        MathFn::Ceil,
        MathFn::Abs,
        MathFn::Tan,
        MathFn::Asin,
        MathFn::Acos,
        MathFn::Atan,
        MathFn::Sinh,
        MathFn::Cosh,
        MathFn::Tanh,
        MathFn::Asinh,
        MathFn::Acosh,
        MathFn::Atanh,
        MathFn::Expm1,
        MathFn::Log10,
        MathFn::Log1p,
        MathFn::Cbrt,
        MathFn::Erfc,
        MathFn::Tgamma,
        MathFn::Lgamma,
        MathFn::Exp10,
    ];

    /// The function of name `name` ([`MathFn::name`]): the names the
    /// kernel languages' math libraries give these functions, for each front
    /// end to look up among the functions its language has.
    pub fn named(name: &str) -> Option<MathFn> {
        MathFn::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Whether the result is an approximation on the GPU (compared within a ULP bound).
    pub fn is_inexact(self) -> bool {
        !matches!(
            self,
            MathFn::SqrtRn | MathFn::Floor | MathFn::Ceil | MathFn::Abs | MathFn::Sqrt
        )
    }
    /// The function's name in the printed IR.
    pub fn name(self) -> &'static str {
        match self {
            MathFn::Exp => "exp",
            MathFn::Exp2 => "exp2",
            MathFn::Log => "log",
            MathFn::Log2 => "log2",
            MathFn::Sqrt => "sqrt",
            MathFn::SqrtRn => "sqrt_rn",
            MathFn::Rsqrt => "rsqrt",
            MathFn::Sin => "sin",
            MathFn::Cos => "cos",
            MathFn::Sigmoid => "sigmoid",
            MathFn::Erf => "erf",
            MathFn::Floor => "floor",
            MathFn::Ceil => "ceil",
            MathFn::Abs => "abs",
            MathFn::Tan => "tan",
            MathFn::Asin => "asin",
            MathFn::Acos => "acos",
            MathFn::Atan => "atan",
            MathFn::Sinh => "sinh",
            MathFn::Cosh => "cosh",
            MathFn::Tanh => "tanh",
            MathFn::Asinh => "asinh",
            MathFn::Acosh => "acosh",
            MathFn::Atanh => "atanh",
            MathFn::Expm1 => "expm1",
            MathFn::Log10 => "log10",
            MathFn::Log1p => "log1p",
            MathFn::Cbrt => "cbrt",
            MathFn::Erfc => "erfc",
            MathFn::Tgamma => "tgamma",
            MathFn::Lgamma => "lgamma",
            MathFn::Exp10 => "exp10",
        }
    }
}

/// Unary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Bitwise not (`~`).
    Not,
    /// Logical not of a bool.
    LogicalNot,
    /// Negation: integers wrap (`0 - x`), floats flip the sign bit (NaNs too).
    Neg,
    Math(MathFn),
    /// Float square root or reciprocal rounded by the given mode (exact).
    Ieee(IeeeUnary, Rounding),
}

/// How a matrix product treats its float32 operands (Triton's
/// `input_precision`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DotPrecision {
    /// The operands as they are.
    Ieee,
    /// Each float32 operand rounded to tf32 first: 10 mantissa bits, to
    /// nearest even, float32's exponent range (a NaN is left as it is).
    Tf32,
}

/// Kinds of conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastKind {
    /// Value conversion: ints wrap/extend, float→int truncates (UB when out of
    /// range or NaN), to float rounds as given, to bool is `!= 0`.
    Convert(Rounding, Overflow),
    /// Reinterpret the bits (same width). Between a 0-d pointer and a
    /// `uint64` it is the pointer's 64-bit representation, unchanged: how
    /// a pointer is held in memory (a pointer to a pointer addresses
    /// `uint64` cells; `is_pointer_bits`).
    Bitcast,
}

impl CastKind {
    /// Whether a cast of `from` to `to` moves a pointer into or out of its
    /// `uint64` representation (a `Bitcast` with a pointer on one side).
    pub fn is_pointer_bits(self, from: &super::Type, to: &super::Type) -> bool {
        use crate::dtype::DType;
        self == CastKind::Bitcast
            && ((from.is_ptr() && to.elem == super::Elem::Num(DType::U64))
                || (to.is_ptr() && from.elem == super::Elem::Num(DType::U64)))
    }
}

/// Read-modify-write operations of an atomic; each returns the old value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// `val + old` as the hardware's atomic add computes it: float64 passes
    /// a NaN through unquieted, the operand's before memory's; float32
    /// flushes subnormal inputs and results to zeros of their sign (PTX
    /// `atom.add`; measured on sm_90 through Triton and numba-cuda:
    /// `docs/triton-measured.md` (n), `tools/probes/numba/atomic_add_float_edges.py`).
    Add,
    Sub,
    /// The operand replaces the old value when it is strictly greater
    /// (less): for floats a NaN in memory stays, a NaN operand is ignored
    /// and equal zeros keep the old value (numba-cuda, measured).
    Max,
    Min,
    /// As `Max`/`Min`, except that a NaN in memory is replaced by the operand.
    NanMax,
    NanMin,
    /// Exchange: store the operand.
    Exch,
    /// Compare and swap: store the operand where the old value equals `cmp`.
    Cas,
    And,
    Or,
    Xor,
    /// CUDA `atomicInc`: `old >= val ? 0 : old + 1` (unsigned).
    Inc,
    /// CUDA `atomicDec`: `(old == 0 || old > val) ? val : old - 1` (unsigned).
    Dec,
    /// Triton's float `atomic_max`: where the operand's sign bit is clear,
    /// the larger of the two bit patterns read as signed integers; where it
    /// is set, the smaller read as unsigned integers. So -0 < +0, and NaNs
    /// order by their bits (a positive NaN beats everything, a negative NaN
    /// operand never replaces a non-negative value).
    BitsMax,
    /// Triton's float `atomic_min`: signed-integer min of the bits where the
    /// operand's sign bit is clear, unsigned-integer max where it is set.
    BitsMin,
}

impl AtomicOp {
    /// Every atomic operation.
    pub const ALL: [AtomicOp; 15] = [
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::Max,
        AtomicOp::Min,
        AtomicOp::NanMax,
        AtomicOp::NanMin,
        AtomicOp::Exch,
        AtomicOp::Cas,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::Inc,
        AtomicOp::Dec,
        AtomicOp::BitsMax,
        AtomicOp::BitsMin,
    ];

    /// The operation's name in the printed IR and in reports.
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::Max => "max",
            AtomicOp::Min => "min",
            AtomicOp::NanMax => "nanmax",
            AtomicOp::NanMin => "nanmin",
            AtomicOp::Exch => "exch",
            AtomicOp::Cas => "cas",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
            AtomicOp::Inc => "inc",
            AtomicOp::Dec => "dec",
            AtomicOp::BitsMax => "bitsmax",
            AtomicOp::BitsMin => "bitsmin",
        }
    }
}
