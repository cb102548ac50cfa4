//! The hazards of each element operation: per (op, operand dtypes), the
//! operand conditions under which the operation is undefined (MLIR's
//! per-op speculatability, Cranelift fuzzgen's `int_divz`/`fcvt`). The
//! matches below name every op, so a new op does not compile until its
//! hazards are declared here.
//!
//! The evaluator decides UB of an element operation by asking these
//! declarations (`ops::binary`, `ops::cast`); the fuzz generators' guard
//! passes (`diff/src/fuzz/passes/`) ask them what to guard and take the
//! safe ranges from them.

use crate::dtype::DType;
use crate::float::{self, Overflow, Rounding};
use crate::ir::{AtomicOp, BinOp, CastKind, DivZero, IntArith, ShiftRange, UnOp};
use crate::ops::{fval, int_value};
use crate::ub::UbKind;

/// One operand condition that makes an element operation undefined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hazard {
    /// The right operand (the divisor) is 0; `kind` is
    /// [`UbKind::DivisionByZero`] or [`UbKind::RemainderByZero`].
    ZeroDivisor(UbKind),
    /// A signed `MIN / -1` or `MIN % -1`.
    MinByMinusOne,
    /// A signed `+ - *` whose exact result lies outside the dtype's range.
    SignedOverflow(IntArith),
    /// The right operand (a shift amount) is below 0 or above `max`
    /// (`None`: no upper bound).
    ShiftAmount {
        /// The largest defined amount, if any.
        max: Option<u32>,
    },
    /// A float→int conversion of NaN or of a value whose truncation lies
    /// outside the target's range.
    FloatToInt {
        /// The float dtype converted from.
        from: DType,
        /// The integer dtype converted to.
        to: DType,
    },
    /// A pointer moved by a number of bytes that is not a whole number of
    /// its elements (checked by the evaluator, which knows the dtype's size).
    MisalignedOffset,
    /// The difference of pointers into different buffers (checked by the
    /// evaluator, which knows the buffers).
    UnrelatedPointers,
}

/// The operand whose value alone decides a hazard, where one does: its
/// use is UB when it is undefined (`eval::undef`), since an undefined value
/// may be the one that hits the hazard and the other operand cannot make it
/// defined (LLVM: `sdiv x, undef` is UB).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecidingOperand {
    /// The right operand of a division or remainder.
    Divisor,
    /// The right operand of a shift.
    ShiftAmount,
}

/// The hazards of one operation: at most two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hazards([Option<Hazard>; 2]);

impl Hazards {
    /// No hazard: the operation is defined for every operand.
    pub const NONE: Hazards = Hazards([None, None]);

    fn one(h: Hazard) -> Hazards {
        Hazards([Some(h), None])
    }

    /// The hazards, in the order they are checked.
    pub fn iter(&self) -> impl Iterator<Item = Hazard> + '_ {
        self.0.iter().flatten().copied()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0[0].is_none()
    }

    /// The first hazard that satisfies `f`.
    pub fn find(&self, f: impl Fn(&Hazard) -> bool) -> Option<Hazard> {
        self.iter().find(|h| f(h))
    }
}

impl Hazard {
    /// The kind of UB the hazard is.
    pub fn kind(self) -> UbKind {
        match self {
            Hazard::ZeroDivisor(k) => k,
            Hazard::MinByMinusOne => UbKind::DivisionOverflow,
            Hazard::SignedOverflow(_) => UbKind::SignedOverflow,
            Hazard::ShiftAmount { .. } => UbKind::ShiftOutOfRange,
            Hazard::FloatToInt { .. } => UbKind::FloatToIntOutOfRange,
            Hazard::MisalignedOffset => UbKind::MisalignedPointer,
            Hazard::UnrelatedPointers => UbKind::UnrelatedPointers,
        }
    }

    /// The operand whose value alone decides the hazard, if one does. A
    /// hazard of both operands (`MIN / -1`) or of a value computed with
    /// (a float→int conversion) gives an undefined result on an undefined
    /// operand instead, as LLVM's poison does; the pointer hazards are the
    /// evaluator's, which gives an undefined result too.
    pub fn deciding_operand(self) -> Option<DecidingOperand> {
        match self {
            Hazard::ZeroDivisor(_) => Some(DecidingOperand::Divisor),
            Hazard::ShiftAmount { .. } => Some(DecidingOperand::ShiftAmount),
            Hazard::MinByMinusOne
            | Hazard::SignedOverflow(_)
            | Hazard::FloatToInt { .. }
            | Hazard::MisalignedOffset
            | Hazard::UnrelatedPointers => None,
        }
    }

    /// Whether operands `a` and `b` (bits of dtype `d`; `b` is unused by a
    /// conversion) hit the hazard. The pointer hazards are decided by the
    /// evaluator (false here).
    pub fn hit(self, d: DType, a: u64, b: u64) -> bool {
        match self {
            Hazard::ZeroDivisor(_) => b & d.mask() == 0,
            Hazard::MinByMinusOne => {
                d.is_signed_int() && int_value(d, b) == -1 && int_value(d, a) == d.int_range().0
            }
            Hazard::SignedOverflow(op) => {
                let (x, y) = (int_value(d, a), int_value(d, b));
                // i128 holds every exact sum, difference and product of two
                // 64-bit values
                let exact = match op {
                    IntArith::Add => x + y,
                    IntArith::Sub => x - y,
                    IntArith::Mul => x * y,
                };
                let (lo, hi) = d.int_range();
                d.is_signed_int() && !(lo..=hi).contains(&exact)
            }
            Hazard::ShiftAmount { max } => {
                let y = int_value(d, b);
                y < 0 || max.is_some_and(|m| y > m as i128)
            }
            Hazard::FloatToInt { from, to } => float::to_int_trunc(fval(from, a), to).is_none(),
            Hazard::MisalignedOffset | Hazard::UnrelatedPointers => false,
        }
    }

    /// The float bounds `[lo, hi]` of a [`Hazard::FloatToInt`]: the widest
    /// range of `from`'s values whose truncation fits `to` (`None` for the
    /// other hazards).
    pub fn float_bounds(self) -> Option<(f64, f64)> {
        match self {
            Hazard::FloatToInt { from, to } => Some(float_bounds(from, to)),
            _ => None,
        }
    }
}

/// The widest `[lo, hi]` of float dtype `f` whose values truncate into
/// integer dtype `t`: the range a float→int conversion is defined on.
pub fn float_bounds(f: DType, t: DType) -> (f64, f64) {
    let (lo, hi) = t.int_range();
    let toward_zero = |v: i128| {
        float::to_f64(
            f,
            float::round_exact(
                f,
                v < 0,
                v.unsigned_abs(),
                0,
                Rounding::TowardZero,
                Overflow::Saturate,
            ),
        )
    };
    (toward_zero(lo), toward_zero(hi))
}

/// The first of `hz`'s hazards that operands `a`, `b` of dtype `d` hit, as
/// its kind of UB.
#[inline]
pub fn check(hz: Hazards, d: DType, a: u64, b: u64) -> Result<(), UbKind> {
    match hz.iter().find(|h| h.hit(d, a, b)) {
        Some(h) => Err(h.kind()),
        None => Ok(()),
    }
}

/// The hazards of binary `op` on operands of dtype `d`.
pub fn binary(op: BinOp, d: DType) -> Hazards {
    match op {
        BinOp::IDiv(r) | BinOp::IRem(r) => {
            let zero = match op {
                BinOp::IDiv(_) => UbKind::DivisionByZero,
                _ => UbKind::RemainderByZero,
            };
            match r.zero {
                DivZero::Zero => Hazards::NONE,
                DivZero::Ub if d.is_signed_int() => {
                    Hazards([Some(Hazard::ZeroDivisor(zero)), Some(Hazard::MinByMinusOne)])
                }
                DivZero::Ub => Hazards::one(Hazard::ZeroDivisor(zero)),
            }
        }
        BinOp::Shl(range) | BinOp::Shr(_, range) => match range {
            ShiftRange::Ub => Hazards::one(Hazard::ShiftAmount {
                max: Some(d.bits() - 1),
            }),
            ShiftRange::Saturate => Hazards::one(Hazard::ShiftAmount { max: None }),
            ShiftRange::Mask => Hazards::NONE,
        },
        BinOp::NoSignedWrap(a) if d.is_signed_int() => Hazards::one(Hazard::SignedOverflow(a)),
        BinOp::NoSignedWrap(_) => Hazards::NONE,
        BinOp::PtrAddBytes => Hazards::one(Hazard::MisalignedOffset),
        BinOp::PtrDiff => Hazards::one(Hazard::UnrelatedPointers),
        BinOp::Add
        | BinOp::Sub
        | BinOp::Mul
        | BinOp::FDiv
        | BinOp::FRem
        | BinOp::And
        | BinOp::Or
        | BinOp::Xor
        | BinOp::Min(_)
        | BinOp::Max(_)
        | BinOp::Eq
        | BinOp::Ne
        | BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge
        | BinOp::PtrAdd
        | BinOp::LogicalAnd
        | BinOp::LogicalOr
        | BinOp::Pow
        | BinOp::Atan2
        | BinOp::Hypot
        | BinOp::CopySign
        | BinOp::Ieee(..) => Hazards::NONE,
    }
}

/// The hazards of unary `op` on an operand of dtype `d`: none (integer
/// negation and `abs` wrap; float functions give NaN or infinities).
pub fn unary(op: UnOp, _d: DType) -> Hazards {
    match op {
        UnOp::Not | UnOp::LogicalNot | UnOp::Neg | UnOp::Math(_) | UnOp::Ieee(..) => Hazards::NONE,
    }
}

/// The hazards of a conversion of `from` to `to`.
pub fn cast(kind: CastKind, from: DType, to: DType) -> Hazards {
    match kind {
        CastKind::Convert(..) if from.is_float() && to.is_int() && to != DType::Bool => {
            Hazards::one(Hazard::FloatToInt { from, to })
        }
        CastKind::Convert(..) | CastKind::Bitcast => Hazards::NONE,
    }
}

/// The hazards of an atomic read-modify-write of dtype `d`: none (integer
/// arithmetic wraps).
pub fn atomic(op: AtomicOp, _d: DType) -> Hazards {
    match op {
        // exchanges, bitwise and counting operations
        AtomicOp::Exch
        | AtomicOp::Cas
        | AtomicOp::And
        | AtomicOp::Or
        | AtomicOp::Xor
        | AtomicOp::Inc
        | AtomicOp::Dec => Hazards::NONE,
        // arithmetic and orderings
        AtomicOp::Add
        | AtomicOp::Sub
        | AtomicOp::Min
        | AtomicOp::Max
        | AtomicOp::NanMin
        | AtomicOp::NanMax
        | AtomicOp::BitsMin
        | AtomicOp::BitsMax => Hazards::NONE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{DivRound, IntDiv, ShrKind};

    #[test]
    fn division_declares_zero_and_overflow_by_policy() {
        let ub = BinOp::IDiv(IntDiv::TRUNC);
        let kinds = |op, d| binary(op, d).iter().map(Hazard::kind).collect::<Vec<_>>();
        assert_eq!(
            kinds(ub, DType::I32),
            [UbKind::DivisionByZero, UbKind::DivisionOverflow]
        );
        assert_eq!(kinds(ub, DType::U32), [UbKind::DivisionByZero]);
        assert_eq!(
            kinds(BinOp::IRem(IntDiv::FLOOR), DType::I8),
            [UbKind::RemainderByZero, UbKind::DivisionOverflow]
        );
        // CUDA Python's policy: defined results, no hazard
        let zero = IntDiv {
            round: DivRound::Floor,
            zero: DivZero::Zero,
        };
        assert!(binary(BinOp::IDiv(zero), DType::I32).is_empty());
    }

    #[test]
    fn the_hazards_are_hit_exactly_at_their_operands() {
        let d = DType::I8;
        let hz = binary(BinOp::IDiv(IntDiv::TRUNC), d);
        assert_eq!(check(hz, d, 5, 0), Err(UbKind::DivisionByZero));
        assert_eq!(check(hz, d, 0x80, 0xff), Err(UbKind::DivisionOverflow));
        assert_eq!(check(hz, d, 0x81, 0xff), Ok(()));
        assert_eq!(check(hz, d, 0x80, 1), Ok(()));
        let shl = binary(BinOp::Shl(ShiftRange::Ub), DType::U16);
        assert_eq!(check(shl, DType::U16, 1, 15), Ok(()));
        assert_eq!(check(shl, DType::U16, 1, 16), Err(UbKind::ShiftOutOfRange));
        let sat = binary(BinOp::Shr(ShrKind::Arith, ShiftRange::Saturate), DType::I32);
        assert_eq!(check(sat, DType::I32, 1, 100), Ok(()));
        assert_eq!(
            check(sat, DType::I32, 1, 0xffff_ffff),
            Err(UbKind::ShiftOutOfRange)
        );
        assert!(binary(BinOp::Shl(ShiftRange::Mask), DType::I32).is_empty());
    }

    /// A zero divisor and a shift amount are decided by the right operand
    /// alone; `MIN / -1` by both, a float→int conversion by the value: an
    /// op declares an undefined right operand UB exactly where it has one
    /// of the first two.
    #[test]
    fn the_deciding_operand_of_each_hazard() {
        let deciding = |op, d| {
            binary(op, d)
                .iter()
                .filter_map(Hazard::deciding_operand)
                .collect::<Vec<_>>()
        };
        use DecidingOperand::*;
        assert_eq!(deciding(BinOp::IDiv(IntDiv::TRUNC), DType::I32), [Divisor]);
        assert_eq!(deciding(BinOp::IRem(IntDiv::FLOOR), DType::U8), [Divisor]);
        let cudapy = IntDiv {
            round: DivRound::Floor,
            zero: DivZero::Zero,
        };
        assert_eq!(deciding(BinOp::IDiv(cudapy), DType::I32), []);
        assert_eq!(
            deciding(BinOp::Shl(ShiftRange::Ub), DType::I32),
            [ShiftAmount]
        );
        let sat = BinOp::Shr(ShrKind::Logical, ShiftRange::Saturate);
        assert_eq!(deciding(sat, DType::U32), [ShiftAmount]);
        assert_eq!(deciding(BinOp::Shl(ShiftRange::Mask), DType::I32), []);
        assert_eq!(Hazard::MinByMinusOne.deciding_operand(), None);
        let cv = CastKind::Convert(Rounding::NearestEven, Overflow::Infinity);
        let h = cast(cv, DType::F32, DType::I32)
            .iter()
            .next()
            .expect("hazard");
        assert_eq!(h.deciding_operand(), None);
        assert_eq!(deciding(BinOp::PtrAddBytes, DType::I64), []);
    }

    /// CUDA Python's `+ - *` (numba's `nsw`): UB exactly where the
    /// mathematical result leaves the signed dtype's range; unsigned wraps.
    #[test]
    fn signed_overflow_is_hit_exactly_outside_the_range() {
        let d = DType::I64;
        let max = i64::MAX as u64;
        let min = i64::MIN as u64;
        let add = binary(BinOp::NoSignedWrap(IntArith::Add), d);
        assert_eq!(check(add, d, max, 0), Ok(()));
        assert_eq!(check(add, d, max, 1), Err(UbKind::SignedOverflow));
        assert_eq!(
            check(add, d, min, -1i64 as u64),
            Err(UbKind::SignedOverflow)
        );
        assert_eq!(check(add, d, min, max), Ok(())); // -1
        let sub = binary(BinOp::NoSignedWrap(IntArith::Sub), d);
        assert_eq!(check(sub, d, 0, min), Err(UbKind::SignedOverflow)); // 2^63
        assert_eq!(check(sub, d, -1i64 as u64, min), Ok(())); // 2^63 - 1
        assert_eq!(check(sub, d, min, 1), Err(UbKind::SignedOverflow));
        let mul = binary(BinOp::NoSignedWrap(IntArith::Mul), d);
        // 2^32 * 2^31 = 2^63 overflows; 2^32 * -2^31 = -2^63 is MIN
        assert_eq!(check(mul, d, 1 << 32, 1 << 31), Err(UbKind::SignedOverflow));
        assert_eq!(check(mul, d, 1 << 32, (-(1i64 << 31)) as u64), Ok(()));
        assert_eq!(
            check(mul, d, min, -1i64 as u64),
            Err(UbKind::SignedOverflow)
        );
        assert_eq!(check(mul, d, min, 1), Ok(()));
        // narrower signed dtypes by their own range; unsigned never
        let i8add = binary(BinOp::NoSignedWrap(IntArith::Add), DType::I8);
        assert_eq!(
            check(i8add, DType::I8, 0x7f, 1),
            Err(UbKind::SignedOverflow)
        );
        assert!(binary(BinOp::NoSignedWrap(IntArith::Mul), DType::U64).is_empty());
        assert_eq!(
            Hazard::SignedOverflow(IntArith::Add).deciding_operand(),
            None
        );
    }

    #[test]
    fn float_to_int_bounds_are_exact() {
        let cv = CastKind::Convert(Rounding::NearestEven, Overflow::Infinity);
        let h = cast(cv, DType::F32, DType::I32)
            .iter()
            .next()
            .expect("hazard");
        // -2^31 is exact; the largest float32 below 2^31 is 2^31 - 128
        assert_eq!(h.float_bounds(), Some((-2147483648.0, 2147483520.0)));
        // float16 cannot reach int32's range: its largest finite value
        assert_eq!(float_bounds(DType::F16, DType::I32), (-65504.0, 65504.0));
        assert_eq!(float_bounds(DType::F32, DType::U8), (0.0, 255.0));
        let f = |v: f32| v.to_bits() as u64;
        assert!(!h.hit(DType::F32, f(2147483520.0), 0));
        assert!(h.hit(DType::F32, f(2147483648.0), 0));
        assert!(h.hit(DType::F32, f(f32::NAN), 0));
        assert!(cast(cv, DType::F32, DType::Bool).is_empty());
        assert!(cast(CastKind::Bitcast, DType::F32, DType::I32).is_empty());
        assert!(cast(cv, DType::I32, DType::F32).is_empty());
        // every bound of every pair converts without UB
        for f in [DType::F16, DType::BF16, DType::F32, DType::F64] {
            for t in DType::ALL
                .into_iter()
                .filter(|t| t.is_int() && *t != DType::Bool)
            {
                let (lo, hi) = float_bounds(f, t);
                assert!(
                    float::to_int_trunc(lo, t).is_some() && float::to_int_trunc(hi, t).is_some(),
                    "{f} {t}"
                );
            }
        }
    }
}
