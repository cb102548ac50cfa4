//! UB-neutralising rewrites and edge-biased values for generated programs.
//! Each rewrite turns an operand that could trigger undefined behaviour into
//! one that cannot, the way Csmith's safe math and Cranelift fuzzgen's
//! `int_divz`/`fcvt` passes do.

use super::gen::{tl_dtype, E};
use super::rng::Rng;
use ksem_interp::dtype::DType;
use ksem_interp::float::{self, Overflow, Rounding};
use ksem_interp::frontend::triton::promote::PyNum;

/// Converts `e` to dtype `t`; a float going to an integer is first mapped
/// NaN → 0 and clamped into the integer's range (no float→int UB).
pub fn convert(e: &E, t: DType) -> E {
    if e.d == t || e.lit.is_some() {
        return E {
            d: if e.lit.is_some() { e.d } else { t },
            ..e.clone()
        };
    }
    if convert_repeats_operand(e, t) {
        // tl.minimum/tl.maximum make a literal bound a float32 tensor (its
        // natural dtype), so a float64 operand's bounds must be float32-exact.
        let (lo, hi) = float_bounds(if e.d == DType::F64 { DType::F32 } else { e.d }, t);
        return E {
            code: format!(
                "tl.where({x} != {x}, 0, tl.minimum(tl.maximum({x}, {lo:?}), {hi:?})).to({})",
                tl_dtype(t),
                x = e.code
            ),
            d: t,
            shape: e.shape,
            lit: None,
        };
    }
    E {
        code: format!("{}.to({})", e.code, tl_dtype(t)),
        d: t,
        shape: e.shape,
        lit: None,
    }
}

/// Whether [`convert`] of `e` to `t` names `e` more than once (a float
/// tile going to an integer dtype).
pub fn convert_repeats_operand(e: &E, t: DType) -> bool {
    e.lit.is_none() && e.d != t && e.d.is_float() && t.is_int() && t != DType::Bool
}

/// The widest `[lo, hi]` of float dtype `f` whose values truncate into integer dtype `t`.
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

/// A divisor that is never 0 (nor -1 for signed types, avoiding MIN / -1).
pub fn divisor(b: &E, d: DType) -> E {
    if let Some(n) = b.lit {
        let v = match n {
            PyNum::Int(v) => v,
            PyNum::Bool(x) => x as i128,
            PyNum::Float(_) => 3,
        };
        let v = if v == 0 || v == -1 { 3 } else { v };
        return E {
            code: if v < 0 {
                format!("({v})")
            } else {
                v.to_string()
            },
            lit: Some(PyNum::Int(v)),
            ..b.clone()
        };
    }
    let code = if b.d.is_signed_int() {
        format!("tl.where(({x} == 0) | ({x} == -1), 3, {x})", x = b.code)
    } else {
        format!("tl.where({x} == 0, 3, {x})", x = b.code)
    };
    let _ = d;
    E {
        code,
        d: if b.d == DType::Bool { DType::I32 } else { b.d },
        shape: b.shape,
        lit: None,
    }
}

/// A shift amount in `0..width(d)` from `b`, a literal or an integer tile
/// (the generator converts a bool or float amount first).
pub fn shift_amount(b: &E, d: DType) -> String {
    let w = d.bits() as i128;
    if let Some(n) = b.lit {
        let v = match n {
            PyNum::Int(v) => v.rem_euclid(w),
            _ => 1,
        };
        return v.to_string();
    }
    format!("({} & {})", b.code, w - 1)
}

/// A literal that fits dtype `d` (text and value), biased to edge values.
pub fn literal(rng: &mut Rng, d: DType) -> (String, PyNum) {
    if d == DType::Bool {
        let b = rng.chance(0.5);
        return (if b { "True" } else { "False" }.into(), PyNum::Bool(b));
    }
    if d.is_float() {
        let choices = [
            "0.0",
            "-0.0",
            "1.5",
            "-2.25",
            "0.1",
            "1e-3",
            "1e4",
            "3.0e38",
            "float(\"inf\")",
            "float(\"nan\")",
            "-1.0",
        ];
        let c = *rng.pick(&choices);
        let v: f64 = match c {
            "float(\"inf\")" => f64::INFINITY,
            "float(\"nan\")" => f64::NAN,
            s => s.parse().expect("literal parses"),
        };
        let code = if c.starts_with('-') {
            format!("({c})")
        } else {
            c.to_string()
        };
        return (code, PyNum::Float(v));
    }
    let (lo, hi) = d.int_range();
    let edges = [0, 1, 2, 3, 7, -1, -7, lo, hi, 100, -100];
    let ok: Vec<i128> = edges
        .iter()
        .copied()
        .filter(|v| (lo..=hi).contains(v))
        .collect();
    let v = *rng.pick(&ok);
    (
        if v < 0 {
            format!("({v})")
        } else {
            v.to_string()
        },
        PyNum::Int(v),
    )
}

/// A bit pattern of dtype `d` biased to edge values: zeros, ±1, extremes,
/// NaN, infinities, -0.0, subnormals.
pub fn edge_bits(rng: &mut Rng, d: DType) -> u64 {
    if d == DType::Bool {
        return rng.next() & 1;
    }
    let m = d.mask();
    if d.is_int() {
        let (lo, hi) = d.int_range();
        let edges = [0i128, 1, -1, lo, hi, 2, -2, 7, -7, lo + 1, hi - 1];
        return match rng.below(3) {
            0 => rng.next() & m,
            1 => (rng.next() % 64) & m,
            _ => {
                let ok: Vec<i128> = edges
                    .iter()
                    .copied()
                    .filter(|v| (lo..=hi).contains(v))
                    .collect();
                (*rng.pick(&ok) as u64) & m
            }
        };
    }
    let f = d.float_format().expect("float");
    let sign = 1u64 << (f.exp_bits + f.man_bits);
    let one = float::from_f64(d, 1.0, Rounding::NearestEven, Overflow::Infinity);
    let min_normal = 1u64 << f.man_bits;
    let edges = [
        0,
        sign,
        one,
        one | sign,
        f.max_finite_bits(),
        f.max_finite_bits() | sign,
        f.inf_bits(),
        f.inf_bits() | sign,
        f.nan_bits(),
        1,
        min_normal,
        min_normal - 1,
        sign | 1,
    ];
    match rng.below(3) {
        0 => *rng.pick(&edges),
        _ => {
            // a moderate random value in [-4, 4)
            let v = ((rng.next() >> 40) as f64 * 2f64.powi(-21)) - 4.0;
            float::from_f64(d, v, Rounding::NearestEven, Overflow::Infinity)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_bounds_truncate_into_range() {
        // f32 -> int32: -2^31 is exact; the largest f32 below 2^31 is 2^31 - 128.
        assert_eq!(
            float_bounds(DType::F32, DType::I32),
            (-2147483648.0, 2147483520.0)
        );
        // f16 cannot reach int32's range: clamp at the largest finite f16.
        assert_eq!(float_bounds(DType::F16, DType::I32), (-65504.0, 65504.0));
        assert_eq!(float_bounds(DType::F32, DType::U8), (0.0, 255.0));
        // every bound converts without UB
        for f in [DType::F16, DType::BF16, DType::F32, DType::F64] {
            for t in [
                DType::I8,
                DType::I16,
                DType::I32,
                DType::I64,
                DType::U8,
                DType::U16,
                DType::U32,
                DType::U64,
            ] {
                let (lo, hi) = float_bounds(f, t);
                assert!(
                    float::to_int_trunc(lo, t).is_some() && float::to_int_trunc(hi, t).is_some(),
                    "{f} {t}"
                );
            }
        }
    }

    #[test]
    fn divisors_exclude_zero_and_minus_one() {
        let b = E {
            code: "b".into(),
            d: DType::I8,
            shape: super::super::gen::Shape::Full,
            lit: None,
        };
        assert_eq!(
            divisor(&b, DType::I32).code,
            "tl.where((b == 0) | (b == -1), 3, b)"
        );
        let u = E {
            d: DType::U16,
            ..b.clone()
        };
        assert_eq!(divisor(&u, DType::U16).code, "tl.where(b == 0, 3, b)");
        let lit = E {
            code: "0".into(),
            lit: Some(PyNum::Int(0)),
            ..b
        };
        assert_eq!(divisor(&lit, DType::I32).code, "3");
    }
}
