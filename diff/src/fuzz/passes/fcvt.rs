//! Floats that convert to an integer without UB: where a conversion
//! declares [`Hazard::FloatToInt`], the float is clamped into the
//! declared hazard's exact bounds (`Hazard::float_bounds`: the widest
//! range whose truncation fits), NaN included (the builder's clamp sends
//! it to a bound). The bounds are exact in the operand's dtype and in the
//! dialect's float constants' dtype; a generator may narrow them further
//! (`limit`) for a documented reason of its dialect.

use super::{GuardBuilder, Known};
use ksem_interp::dtype::DType;
use ksem_interp::float::{Overflow, Rounding};
use ksem_interp::hazard::{self, Hazard};
use ksem_interp::ir::CastKind;

/// The value conversion a guard is for (the hazard does not depend on its
/// rounding).
const CONVERT: CastKind = CastKind::Convert(Rounding::NearestEven, Overflow::Infinity);

/// The bounds `[lo, hi]` a float of dtype `from` is clamped into before it
/// converts to `to`, with float constants of dtype `consts`, within
/// `±limit`; `None` where the conversion has no hazard.
pub fn bounds(from: DType, to: DType, consts: DType, limit: Option<f64>) -> Option<(f64, f64)> {
    let (lo, hi) = hazard::cast(CONVERT, from, to)
        .iter()
        .find_map(Hazard::float_bounds)?;
    let (clo, chi) = hazard::float_bounds(consts, to);
    let (lo, hi) = (lo.max(clo), hi.min(chi));
    Some(match limit {
        Some(l) => (lo.max(-l), hi.min(l)),
        None => (lo, hi),
    })
}

/// Float `x` made safe to convert to `to` (the generator then converts it).
pub fn guard<B: GuardBuilder>(
    b: &mut B,
    x: B::Val,
    to: DType,
    limit: Option<f64>,
) -> Result<B::Val, B::Err> {
    let from = b.dtype(&x);
    let Some((lo, hi)) = bounds(from, to, b.float_const_dtype(), limit) else {
        return Ok(x);
    };
    if let Some(Known::Float(f)) = b.known(&x) {
        // a constant stays a constant
        return if (lo..=hi).contains(&f) {
            Ok(x)
        } else {
            b.float(from, if f.is_nan() { lo } else { f.clamp(lo, hi) })
        };
    }
    b.clamp(x, lo, hi)
}

#[cfg(test)]
mod tests {
    use super::super::tiny::{Tiny, E};
    use super::*;
    use ksem_interp::float;
    use ksem_interp::ops;

    #[test]
    fn a_guarded_float_converts_to_every_integer() {
        let vals = [
            0.0,
            -0.0,
            1.5,
            -1.5,
            255.9,
            -1.0,
            3e9,
            -3e9,
            1e300,
            f64::INFINITY,
            f64::NAN,
        ];
        let ints = DType::ALL
            .into_iter()
            .filter(|d| d.is_int() && *d != DType::Bool);
        for to in ints {
            for from in [DType::F16, DType::BF16, DType::F32, DType::F64] {
                for consts in [DType::F32, DType::F64] {
                    for v in vals {
                        let bits =
                            float::from_f64(from, v, Rounding::NearestEven, Overflow::Infinity);
                        for x in [E::Input(from, bits), E::Const(from, bits)] {
                            let mut t = Tiny { consts };
                            let g = guard(&mut t, x, to, None).unwrap();
                            let (gd, gb) = (g.dtype(), g.eval());
                            let r = ops::cast(CONVERT, gd, to, gb);
                            assert!(r.is_ok(), "{from} {v} -> {to} (consts {consts})");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_bounds_are_the_hazards_within_the_constants_and_the_limit() {
        // float32 -> int32: -2^31 .. 2^31 - 128 (the largest float32 below 2^31)
        let b = |f, t, c, l| bounds(f, t, c, l);
        assert_eq!(
            b(DType::F32, DType::I32, DType::F32, None),
            Some((-2147483648.0, 2147483520.0))
        );
        // float64 against float32 constants: float32's bounds
        assert_eq!(
            b(DType::F64, DType::I32, DType::F32, None),
            Some((-2147483648.0, 2147483520.0))
        );
        assert_eq!(
            b(DType::F64, DType::I32, DType::F64, None),
            Some((-2147483648.0, 2147483647.0))
        );
        assert_eq!(
            b(DType::F16, DType::U8, DType::F32, Some(100.0)),
            Some((0.0, 100.0))
        );
        assert_eq!(b(DType::I32, DType::F32, DType::F32, None), None);
    }
}
