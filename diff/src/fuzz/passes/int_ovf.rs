//! Operands of a signed `+ - *` whose overflow is UB
//! ([`Hazard::SignedOverflow`]: CUDA Python's int64 arithmetic, numba's
//! `nsw`): each operand is clamped into `[-m, m]`, with `m = 2^(w-2) - 1`
//! for `+` and `-` and `m = 2^((w-2)/2) - 1` for `*` (`w` the width), so
//! that the exact result lies inside the dtype's range whatever the
//! operands were: `|x ± y| ≤ 2^(w-1) - 2`, `|x·y| < 2^(w-2)`. A clamp
//! (`min(max(y, -m), m)`) reads its operand once and keeps every value
//! already inside, as the campaigns' small inputs are; a known operand
//! inside stays as it is, one outside becomes the clamped literal. An op
//! without the hazard (unsigned, or a dialect whose `+` wraps) keeps its
//! operands.

use super::{GuardBuilder, Known};
use ksem_interp::dtype::DType;
use ksem_interp::hazard::{self, Hazard};
use ksem_interp::ir::{BinOp, IntArith};

/// A builder that can clamp an integer (the generators whose dialect has
/// the hazard).
pub trait IntClamp: GuardBuilder {
    /// Integer `x` clamped into `[lo, hi]` (`min(max(x, lo), hi)`).
    fn int_clamp(&mut self, x: Self::Val, lo: i128, hi: i128) -> Result<Self::Val, Self::Err>;
}

/// The bound `m` an operand of `op` computing in dtype `d` is clamped
/// into (`[-m, m]`); `None` where `op` has no overflow hazard.
pub fn bound(op: BinOp, d: DType) -> Option<i128> {
    let arith = hazard::binary(op, d).iter().find_map(|h| match h {
        Hazard::SignedOverflow(a) => Some(a),
        _ => None,
    })?;
    let w = d.bits();
    Some(match arith {
        IntArith::Add | IntArith::Sub => (1i128 << (w - 2)) - 1,
        IntArith::Mul => (1i128 << ((w - 2) / 2)) - 1,
    })
}

/// Operand `y` of `op` computing in dtype `d`, guarded as `op` declares.
pub fn guard<B: IntClamp>(b: &mut B, op: BinOp, d: DType, y: B::Val) -> Result<B::Val, B::Err> {
    let Some(m) = bound(op, d) else {
        return Ok(y);
    };
    if let Some(Known::Int(v)) = b.known(&y) {
        // a literal stays a literal
        return if (-m..=m).contains(&v) {
            Ok(y)
        } else {
            b.int(d, v.clamp(-m, m))
        };
    }
    b.int_clamp(y, -m, m)
}

#[cfg(test)]
mod tests {
    use super::super::tiny::{Tiny, E};
    use super::*;
    use ksem_interp::ir::NanMode;
    use ksem_interp::ops;

    impl IntClamp for Tiny {
        fn int_clamp(&mut self, x: E, lo: i128, hi: i128) -> Result<E, ()> {
            let d = x.dtype();
            let (lo, hi) = (self.int(d, lo)?, self.int(d, hi)?);
            let m = E::Bin(BinOp::Max(NanMode::Ignore), Box::new(x), Box::new(lo));
            Ok(E::Bin(
                BinOp::Min(NanMode::Ignore),
                Box::new(m),
                Box::new(hi),
            ))
        }
    }

    /// Every signed dtype's edges, both operands guarded: the operation is
    /// defined, and a value inside the bound is kept.
    #[test]
    fn guarded_operands_never_overflow() {
        for d in [DType::I8, DType::I16, DType::I32, DType::I64] {
            let min = 1u64 << (d.bits() - 1);
            let samples = [
                0,
                1,
                2,
                7,
                20,
                min - 1,
                min,
                min + 1,
                u64::MAX,
                u64::MAX - 19,
            ];
            for a in [IntArith::Add, IntArith::Sub, IntArith::Mul] {
                let op = BinOp::NoSignedWrap(a);
                let hz = hazard::binary(op, d);
                let m = bound(op, d).expect("a signed dtype has the hazard");
                for x in samples.map(|x| x & d.mask()) {
                    for y in samples.map(|y| y & d.mask()) {
                        for known in [false, true] {
                            let v = |b: u64| {
                                let mut t = Tiny { consts: DType::F32 };
                                let e = if known {
                                    E::Const(d, b)
                                } else {
                                    E::Input(d, b)
                                };
                                guard(&mut t, op, d, e).unwrap().eval()
                            };
                            let (gx, gy) = (v(x), v(y));
                            assert_eq!(hazard::check(hz, d, gx, gy), Ok(()), "{op:?} {d} {x} {y}");
                            if (-m..=m).contains(&ops::int_value(d, x)) {
                                assert_eq!(gx, x);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_bounds_and_the_ops_without_the_hazard() {
        let add = BinOp::NoSignedWrap(IntArith::Add);
        let mul = BinOp::NoSignedWrap(IntArith::Mul);
        assert_eq!(bound(add, DType::I64), Some((1 << 62) - 1));
        assert_eq!(bound(mul, DType::I64), Some((1 << 31) - 1));
        assert_eq!(bound(mul, DType::I8), Some(7));
        // unsigned and the wrapping ops: no guard, the operand kept
        assert_eq!(bound(mul, DType::U64), None);
        assert_eq!(bound(BinOp::Add, DType::I64), None);
        let r = guard(
            &mut Tiny { consts: DType::F32 },
            BinOp::Mul,
            DType::I64,
            E::Input(DType::I64, u64::MAX >> 1),
        );
        assert!(matches!(r, Ok(E::Input(_, b)) if b == u64::MAX >> 1));
    }
}
