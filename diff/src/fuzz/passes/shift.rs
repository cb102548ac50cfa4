//! Shift amounts inside the range the shift declares
//! ([`Hazard::ShiftAmount`]): the amount is masked (`y & m`), `m` the
//! largest declared amount (the width less one; twice the width less one
//! where only negative amounts are UB), so the result is in `0..=m` of
//! either sign of the amount's dtype, and stays so when widened. A
//! generator may narrow `m` further (`cap`, a power of two less one) for a
//! documented reason of its dialect.

use super::{GuardBuilder, Known};
use ksem_interp::dtype::DType;
use ksem_interp::hazard::{self, Hazard};
use ksem_interp::ir::BinOp;

/// The mask of a shift `op` computing in dtype `d`, narrowed to `cap`;
/// `None` where the shift has no hazard.
pub fn mask(op: BinOp, d: DType, cap: Option<u32>) -> Option<u32> {
    let max = hazard::binary(op, d).iter().find_map(|h| match h {
        Hazard::ShiftAmount { max } => Some(max.unwrap_or(2 * d.bits() - 1)),
        _ => None,
    })?;
    Some(cap.map_or(max, |c| c.min(max)))
}

/// Shift amount `y` of `op` computing in dtype `d`, guarded as `op`
/// declares (and narrowed to `cap`).
pub fn guard<B: GuardBuilder>(
    b: &mut B,
    op: BinOp,
    d: DType,
    y: B::Val,
    cap: Option<u32>,
) -> Result<B::Val, B::Err> {
    let Some(m) = mask(op, d, cap) else {
        return Ok(y);
    };
    let yd = b.dtype(&y);
    if let Some(Known::Int(v)) = b.known(&y) {
        // a literal stays a literal
        return if (0..=m as i128).contains(&v) {
            Ok(y)
        } else {
            b.int(yd, v & m as i128)
        };
    }
    let m = b.int(yd, m as i128)?;
    b.bit_and(y, m)
}

#[cfg(test)]
mod tests {
    use super::super::tiny::{Tiny, E};
    use super::*;
    use ksem_interp::ir::{ShiftRange, ShrKind};
    use ksem_interp::ops;

    #[test]
    fn a_guarded_amount_never_hits_the_shift() {
        let samples = [0u64, 1, 7, 8, 31, 32, 63, 64, 0x80, u64::MAX, 1 << 63];
        for d in DType::ALL
            .into_iter()
            .filter(|d| d.is_int() && *d != DType::Bool)
        {
            for op in [
                BinOp::Shl(ShiftRange::Ub),
                BinOp::Shr(ShrKind::Arith, ShiftRange::Ub),
                BinOp::Shr(ShrKind::Logical, ShiftRange::Saturate),
            ] {
                for y in samples.map(|y| y & d.mask()) {
                    for v in [E::Input(d, y), E::Const(d, y)] {
                        let mut t = Tiny { consts: DType::F32 };
                        let g = guard(&mut t, op, d, v, None).unwrap().eval();
                        let hz = hazard::binary(op, d);
                        assert_eq!(hazard::check(hz, d, 1, g), Ok(()), "{op:?} {d} {y}");
                        assert!(ops::binary(op, d, 1, g).is_ok());
                    }
                }
            }
        }
    }

    #[test]
    fn the_mask_is_the_declared_range_or_the_cap() {
        let shl = BinOp::Shl(ShiftRange::Ub);
        assert_eq!(mask(shl, DType::I32, None), Some(31));
        assert_eq!(mask(shl, DType::U8, None), Some(7));
        assert_eq!(mask(shl, DType::I64, Some(7)), Some(7));
        let sat = BinOp::Shl(ShiftRange::Saturate);
        assert_eq!(mask(sat, DType::I16, None), Some(31));
        assert_eq!(mask(BinOp::Shl(ShiftRange::Mask), DType::I32, None), None);
        // a runtime amount is masked: -1 (all ones) & 31 = 31
        let mut t = Tiny { consts: DType::F32 };
        let g = guard(
            &mut t,
            shl,
            DType::I32,
            E::Input(DType::I32, 0xffff_ffff),
            None,
        );
        assert_eq!(g.unwrap().eval(), 31);
    }
}
