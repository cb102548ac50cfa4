//! Integer divisors that are never a hazard of the division: where the op
//! declares [`Hazard::ZeroDivisor`], the divisor's lowest bit is set
//! (`y | 1`: never 0); where it also declares [`Hazard::MinByMinusOne`],
//! its two lowest bits are made `01` (`(y & -4) | 1`: never 0 nor -1,
//! and still of either sign and any magnitude). Both hold after any
//! later widening or narrowing of the divisor, which keeps its low bits.
//! An op without these hazards (CUDA Python's defined division) keeps its
//! divisor.

use super::{GuardBuilder, Known};
use ksem_interp::dtype::DType;
use ksem_interp::hazard::{self, Hazard};
use ksem_interp::ir::BinOp;

/// The guard's value for a known divisor `v`.
fn guarded(v: i128, overflow: bool) -> i128 {
    if overflow {
        (v & -4) | 1
    } else {
        v | 1
    }
}

/// Divisor `y` of `op` computing in dtype `d`, guarded as `op` declares.
pub fn guard<B: GuardBuilder>(b: &mut B, op: BinOp, d: DType, y: B::Val) -> Result<B::Val, B::Err> {
    let hz = hazard::binary(op, d);
    if hz.find(|h| matches!(h, Hazard::ZeroDivisor(_))).is_none() {
        return Ok(y);
    }
    let overflow = hz.find(|h| *h == Hazard::MinByMinusOne).is_some();
    if let Some(Known::Int(v)) = b.known(&y) {
        // a literal stays a literal (`(v & -4) | 1` of a literal may not
        // fold in every dialect); one that is safe stays as it is
        let unsafe_value = v == 0 || (overflow && v == -1);
        return if unsafe_value {
            b.int(d, guarded(v, overflow))
        } else {
            Ok(y)
        };
    }
    if overflow {
        let m = b.int(d, -4)?;
        let low = b.bit_and(y, m)?;
        let one = b.int(d, 1)?;
        b.bit_or(low, one)
    } else {
        let one = b.int(d, 1)?;
        b.bit_or(y, one)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tiny::{Tiny, E};
    use super::*;
    use ksem_interp::ir::{DivRound, DivZero, IntDiv};

    const SAMPLES: [u64; 10] = [0, 1, 2, 3, 4, u64::MAX, 0x80, 0x8000_0000, 1 << 63, 0x7f];

    #[test]
    fn a_guarded_divisor_never_hits_the_division() {
        for d in DType::ALL
            .into_iter()
            .filter(|d| d.is_int() && *d != DType::Bool)
        {
            for op in [BinOp::IDiv(IntDiv::TRUNC), BinOp::IRem(IntDiv::FLOOR)] {
                let hz = hazard::binary(op, d);
                for x in SAMPLES.map(|x| x & d.mask()) {
                    for y in SAMPLES.map(|y| y & d.mask()) {
                        for known in [false, true] {
                            let v = if known {
                                E::Const(d, y)
                            } else {
                                E::Input(d, y)
                            };
                            let g = guard(&mut Tiny { consts: DType::F32 }, op, d, v).unwrap();
                            let g = g.eval();
                            assert_eq!(hazard::check(hz, d, x, g), Ok(()), "{op:?} {d} {x} {y}");
                            // a known divisor that is safe for every
                            // dividend (MIN the worst) is kept
                            let min = 1u64 << (d.bits() - 1);
                            if known && hazard::check(hz, d, min, y).is_ok() {
                                assert_eq!(g, y);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_guard_keeps_signs_and_the_low_bits_decide() {
        // int32 -8 -> (-8 & -4) | 1 = -7; 6 -> 5; -1 -> -3; 0 -> 1
        let d = DType::I32;
        let op = BinOp::IDiv(IntDiv::TRUNC);
        let g = |y: i128| {
            let v = E::Input(d, (y as u64) & d.mask());
            let r = guard(&mut Tiny { consts: DType::F32 }, op, d, v)
                .unwrap()
                .eval();
            ksem_interp::ops::int_value(d, r)
        };
        assert_eq!([g(-8), g(6), g(-1), g(0)], [-7, 5, -3, 1]);
        // unsigned: only zero is a hazard: y | 1
        let u = DType::U8;
        let v = E::Input(u, 0xfe);
        let r = guard(&mut Tiny { consts: DType::F32 }, op, u, v).unwrap();
        assert_eq!(r.eval(), 0xff);
    }

    #[test]
    fn a_defined_division_keeps_its_divisor() {
        let op = BinOp::IDiv(IntDiv {
            round: DivRound::Floor,
            zero: DivZero::Zero,
        });
        let r = guard(
            &mut Tiny { consts: DType::F32 },
            op,
            DType::I32,
            E::Input(DType::I32, 0),
        );
        assert!(matches!(r, Ok(E::Input(_, 0))));
    }
}
