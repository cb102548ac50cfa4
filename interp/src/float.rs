//! Exact conversions between numbers and the bit patterns of every float
//! format: decoding, and rounding an exact value once into a format.

use crate::dtype::{DType, FloatFormat, Specials};

/// How a value is rounded into a narrower format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// Round to nearest, ties to even.
    NearestEven,
    /// Round toward zero.
    TowardZero,
    /// Round toward +infinity.
    Up,
    /// Round toward -infinity.
    Down,
}

/// What a finite value beyond the format's largest finite value becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Overflow {
    /// IEEE behaviour: infinity (NaN for formats without infinities).
    Infinity,
    /// Clamp to the largest finite value of the same sign.
    Saturate,
}

impl FloatFormat {
    fn bias(self) -> i32 {
        self.bias
    }
    fn exp_all_ones(self) -> u64 {
        (1u64 << self.exp_bits) - 1
    }
    fn sign_bit(self) -> u64 {
        1u64 << (self.exp_bits + self.man_bits)
    }
    fn man_mask(self) -> u64 {
        (1u64 << self.man_bits) - 1
    }
    /// Largest finite bit pattern (positive).
    pub fn max_finite_bits(self) -> u64 {
        let top = self.exp_all_ones() << self.man_bits;
        match self.specials {
            Specials::Ieee => ((self.exp_all_ones() - 1) << self.man_bits) | self.man_mask(),
            // e4m3fn: S.1111.110
            Specials::MaxIsNan => top | (self.man_mask() - 1),
            Specials::NegZeroIsNan | Specials::AllFinite => top | self.man_mask(),
        }
    }
    /// The NaN arithmetic produces: every exponent and mantissa bit set; a
    /// "fnuz" format's one NaN (the negative-zero pattern); for a format
    /// without NaN (float8e4b15) what Triton's conversion makes of a NaN,
    /// -max (docs/semantics.md, "Triton's other fp8 formats").
    pub fn nan_bits(self) -> u64 {
        match self.specials {
            Specials::Ieee | Specials::MaxIsNan => {
                (self.exp_all_ones() << self.man_bits) | self.man_mask()
            }
            Specials::NegZeroIsNan => self.sign_bit(),
            Specials::AllFinite => self.sign_bit() | self.max_finite_bits(),
        }
    }
    /// Positive infinity; a NaN for formats with NaN but no infinities, the
    /// largest finite value for a format with neither.
    pub fn inf_bits(self) -> u64 {
        match self.specials {
            Specials::Ieee => self.exp_all_ones() << self.man_bits,
            Specials::MaxIsNan | Specials::NegZeroIsNan => self.nan_bits(),
            Specials::AllFinite => self.max_finite_bits(),
        }
    }
    /// Whether `bits` encodes a NaN.
    pub fn is_nan(self, bits: u64) -> bool {
        let exp = (bits >> self.man_bits) & self.exp_all_ones();
        let man = bits & self.man_mask();
        match self.specials {
            Specials::Ieee => exp == self.exp_all_ones() && man != 0,
            Specials::MaxIsNan => exp == self.exp_all_ones() && man == self.man_mask(),
            Specials::NegZeroIsNan => bits == self.sign_bit(),
            Specials::AllFinite => false,
        }
    }
    /// Whether the format has no negative zero (a zero result is +0).
    fn unsigned_zero(self) -> bool {
        self.specials == Specials::NegZeroIsNan
    }
}

fn fmt_of(d: DType) -> FloatFormat {
    d.float_format().expect("float dtype")
}

/// Decodes the bits of a float dtype to the (exactly representable) f64 value.
#[inline]
pub fn to_f64(d: DType, bits: u64) -> f64 {
    match d {
        DType::F64 => f64::from_bits(bits),
        DType::F32 => f32::from_bits(bits as u32) as f64,
        // exact widenings (the general rule below gives the same values)
        DType::F16 if !half::f16::from_bits(bits as u16).is_nan() => {
            half::f16::from_bits(bits as u16).to_f64()
        }
        DType::BF16 if !half::bf16::from_bits(bits as u16).is_nan() => {
            half::bf16::from_bits(bits as u16).to_f64()
        }
        _ => decoded(d, bits),
    }
}

/// `to_f64` by the format's fields, for every float dtype narrower than
/// float32 (the rule the fast paths for float16/bfloat16 must agree with).
fn decoded(d: DType, bits: u64) -> f64 {
    let f = fmt_of(d);
    let sign = bits & f.sign_bit() != 0;
    let exp = ((bits >> f.man_bits) & f.exp_all_ones()) as i32;
    let man = bits & ((1u64 << f.man_bits) - 1);
    let mag = if f.is_nan(bits) {
        f64::NAN
    } else if f.has_inf() && exp as u64 == f.exp_all_ones() {
        f64::INFINITY
    } else if exp == 0 {
        man as f64 * 2f64.powi(1 - f.bias() - f.man_bits as i32)
    } else {
        (man | (1u64 << f.man_bits)) as f64 * 2f64.powi(exp - f.bias() - f.man_bits as i32)
    };
    if sign {
        -mag
    } else {
        mag
    }
}

/// Rounds the exact value `(-1)^neg * m * 2^e` once into float dtype `d`.
pub fn round_exact(
    d: DType,
    neg: bool,
    m: u128,
    e: i32,
    rounding: Rounding,
    overflow: Overflow,
) -> u64 {
    if d == DType::F8E4B15 {
        let h = round_exact(DType::F16, neg, m, e, rounding, Overflow::Infinity);
        return e4b15_from_f16(h);
    }
    let f = fmt_of(d);
    let sign = if neg { f.sign_bit() } else { 0 };
    // a zero of a format without -0 is +0
    let zero = if f.unsigned_zero() { 0 } else { sign };
    if m == 0 {
        return zero;
    }
    let bias = f.bias();
    let emin = 1 - bias;
    let mb = f.man_bits as i32;
    let p = 128 - m.leading_zeros() as i32;
    let x = e + p - 1; // unbiased exponent of the leading bit
    let qexp = if x < emin { emin - mb } else { x - mb };
    // q = m * 2^(e - qexp), rounded to an integer.
    let shift = qexp - e;
    let mut q: u128 = if shift <= 0 {
        m << (-shift) as u32
    } else if shift >= 128 {
        // 0 < m < 2^128 <= 2^(shift-1): below half a quantum, so zero but
        // where the rounding is away from zero (one quantum, the smallest
        // subnormal)
        let away = match rounding {
            Rounding::Up => !neg,
            Rounding::Down => neg,
            Rounding::TowardZero | Rounding::NearestEven => false,
        };
        away as u128
    } else {
        let kept = m >> shift;
        let rem = m & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        let up = match rounding {
            Rounding::TowardZero => false,
            Rounding::NearestEven => rem > half || (rem == half && kept & 1 == 1),
            Rounding::Up => rem != 0 && !neg,
            Rounding::Down => rem != 0 && neg,
        };
        kept + up as u128
    };
    let mut biased = if x < emin { 0 } else { x + bias };
    // q now has at most mb+1 bits (a normal's hidden bit), or mb+2 after a carry.
    if q >> (mb + 1) != 0 {
        q >>= 1;
        biased += 1;
    } else if biased == 0 && q >> mb != 0 {
        biased = 1; // subnormal rounded up into the normal range
    }
    let frac = (q as u64) & ((1u64 << mb) - 1);
    let bits = ((biased as u64) << mb) | frac;
    let overflowed = if f.has_inf() {
        biased as u64 >= f.exp_all_ones()
    } else {
        biased as u64 > f.exp_all_ones() || bits > f.max_finite_bits()
    };
    if overflowed {
        let to_max = overflow == Overflow::Saturate
            || rounding == Rounding::TowardZero
            || (rounding == Rounding::Up && neg)
            || (rounding == Rounding::Down && !neg);
        return sign
            | if to_max {
                f.max_finite_bits()
            } else {
                f.inf_bits()
            };
    }
    if bits == 0 {
        return zero;
    }
    sign | bits
}

/// float16 bits to float8e4b15 as Triton's conversion does (its only one,
/// for either rounding mode): the magnitude clamped to 1.875 (infinities
/// too), then its top 7 bits past the sign rounded half away from zero; a
/// NaN becomes -1.875 (the clamp's `max(x, -1.875)` drops it). Other
/// sources reach it through float16 (docs/semantics.md).
pub fn e4b15_from_f16(h: u64) -> u64 {
    let sign = (h >> 8) & 0x80;
    let mag = h & 0x7fff;
    if mag > 0x7c00 {
        return 0xff;
    }
    sign | ((mag.min(0x3f80) + 0x40) >> 7)
}

/// Rounds an f64 into float dtype `d`; a NaN becomes the standard quiet NaN
/// of `d` (what a NaN literal or a `"nan"` in a launch spec denotes).
pub fn from_f64(d: DType, v: f64, rounding: Rounding, overflow: Overflow) -> u64 {
    if d == DType::F64 {
        return if v.is_nan() {
            qnan_bits(d)
        } else {
            v.to_bits()
        };
    }
    let f = fmt_of(d);
    if d == DType::F32
        && rounding == Rounding::NearestEven
        && overflow == Overflow::Infinity
        && !v.is_nan()
    {
        // Rust's f64 -> f32 conversion rounds to nearest even and overflows to inf.
        return (v as f32).to_bits() as u64;
    }
    if v.is_nan() {
        return qnan_bits(d);
    }
    let neg = v.is_sign_negative();
    if v.is_infinite() {
        let s = if neg { f.sign_bit() } else { 0 };
        let mag = match overflow {
            Overflow::Infinity => f.inf_bits(),
            Overflow::Saturate => f.max_finite_bits(),
        };
        return s | mag;
    }
    let (m, e) = decompose_f64(v.abs());
    round_exact(d, neg, m as u128, e, rounding, overflow)
}

/// `v = m * 2^e` exactly, for finite non-negative v.
pub fn decompose_f64(v: f64) -> (u64, i32) {
    let b = v.to_bits();
    let exp = ((b >> 52) & 0x7ff) as i32;
    let man = b & ((1u64 << 52) - 1);
    if exp == 0 {
        (man, -1074)
    } else {
        (man | (1u64 << 52), exp - 1075)
    }
}

/// Rounds an integer into float dtype `d` exactly once.
pub fn from_int(d: DType, v: i128, rounding: Rounding) -> u64 {
    round_exact(d, v < 0, v.unsigned_abs(), 0, rounding, Overflow::Infinity)
}

/// The NaN that arithmetic produces on the GPU (measured on sm_90, see
/// docs/semantics.md): every bit of exponent and mantissa set for float32
/// and narrower; float64's default NaN is 0xfff8000000000000.
pub fn nan_bits(d: DType) -> u64 {
    if d == DType::F64 {
        F64_DEFAULT_NAN
    } else {
        fmt_of(d).nan_bits()
    }
}

/// float64's default NaN on the GPU (produced by 0/0, inf - inf, …).
pub const F64_DEFAULT_NAN: u64 = 0xfff8_0000_0000_0000;

/// The standard quiet NaN of `d`: positive, only the top mantissa bit set
/// (e4m3fn has one NaN encoding per sign).
pub fn qnan_bits(d: DType) -> u64 {
    let f = fmt_of(d);
    if f.has_inf() {
        (f.exp_all_ones() << f.man_bits) | (1u64 << (f.man_bits - 1))
    } else {
        f.nan_bits()
    }
}

/// A float64 arithmetic result as the GPU produces it: a NaN operand
/// propagates (quieted, with its sign and payload; the first NaN operand
/// wins), otherwise an invalid operation gives the default NaN.
pub fn f64_result(r: f64, operands: &[u64]) -> u64 {
    if !r.is_nan() {
        return r.to_bits();
    }
    match operands.iter().find(|&&x| f64::from_bits(x).is_nan()) {
        Some(&x) => x | F64_QUIET,
        None => F64_DEFAULT_NAN,
    }
}

const F64_QUIET: u64 = 1 << 51;

/// The NaN a float-to-float conversion of NaN `bits` produces on the GPU:
/// bfloat16 -> float32 keeps the bits; float32 -> float64 and float64 ->
/// float32 keep sign and payload, quieted; everything else gives the
/// target's arithmetic NaN (narrower paths go through float32 as Triton does).
pub fn convert_nan(from: DType, to: DType, bits: u64) -> u64 {
    match (from, to) {
        (DType::BF16, DType::F32) => bits << 16,
        (DType::F32, DType::F64) => {
            let sign = (bits >> 31) & 1;
            (sign << 63) | (0x7ffu64 << 52) | ((bits & 0x7f_ffff) << 29) | F64_QUIET
        }
        (DType::F64, DType::F32) => {
            let sign = bits >> 63;
            (sign << 31) | (0xffu64 << 23) | ((bits >> 29) & 0x7f_ffff) | (1 << 22)
        }
        (DType::BF16, DType::F64) => convert_nan(DType::F32, DType::F64, bits << 16),
        (f, DType::F64) if f == DType::F16 || f.is_fp8() => {
            convert_nan(DType::F32, DType::F64, nan_bits(DType::F32))
        }
        (_, to) => nan_bits(to),
    }
}

/// The hardware's float32 flush-to-zero (PTX `.ftz`, and `atom.add.f32`
/// always): a float32 subnormal becomes a zero of its sign; every other
/// value, and every other dtype, is kept.
pub fn flush_subnormal_f32(d: DType, bits: u64) -> u64 {
    if d == DType::F32 && bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// Whether bits of float dtype `d` encode a NaN.
pub fn is_nan(d: DType, bits: u64) -> bool {
    fmt_of(d).is_nan(bits)
}

/// Converts a float to an integer dtype by truncation toward zero; `None`
/// when the value is NaN or outside the integer's range (undefined behaviour).
pub fn to_int_trunc(v: f64, d: DType) -> Option<u64> {
    if v.is_nan() {
        return None;
    }
    let t = v.trunc();
    let (lo, hi) = d.int_range();
    if t < lo as f64 || t > hi as f64 || t >= 2f64.powi(d.bits() as i32 - d.is_signed_int() as i32)
    {
        return None;
    }
    Some((t as i128 as u64) & d.mask())
}

/// Distance in units in the last place between two values of float dtype `d`
/// (0 for equal bits or two NaNs; `u64::MAX` when exactly one is NaN).
pub fn ulp_distance(d: DType, a: u64, b: u64) -> u64 {
    let f = fmt_of(d);
    match (f.is_nan(a), f.is_nan(b)) {
        (true, true) => return 0,
        (true, false) | (false, true) => return u64::MAX,
        _ => {}
    }
    let ord = |x: u64| -> i128 {
        let mag = (x & (f.sign_bit() - 1)) as i128;
        if x & f.sign_bit() != 0 {
            -mag
        } else {
            mag
        }
    };
    (ord(a) - ord(b)).unsigned_abs() as u64
}

/// The float32 `bits` rounded to tf32 (1 sign, 8 exponent and 10 mantissa
/// bits: the low 13 mantissa bits cleared), to nearest even; a carry moves
/// into the exponent (the largest finite values round to infinity). NaNs and
/// infinities are returned as they are. The result is again float32 bits.
pub fn round_tf32(bits: u64) -> u64 {
    let b = bits as u32;
    if b & 0x7f80_0000 == 0x7f80_0000 {
        return b as u64;
    }
    let low = b & 0x1fff;
    let mut r = b & !0x1fff;
    if low > 0x1000 || (low == 0x1000 && r & 0x2000 != 0) {
        r += 0x2000;
    }
    r as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rne(d: DType, v: f64) -> u64 {
        from_f64(d, v, Rounding::NearestEven, Overflow::Infinity)
    }

    #[test]
    fn float16_and_bfloat16_fast_decoding_agrees_with_the_fields_rule() {
        for d in [DType::F16, DType::BF16] {
            for b in 0..=u16::MAX as u64 {
                let (fast, rule) = (to_f64(d, b), decoded(d, b));
                assert!(
                    fast.to_bits() == rule.to_bits() || (fast.is_nan() && rule.is_nan()),
                    "{d} {b:#06x}: {fast:e} vs {rule:e}"
                );
            }
        }
    }

    #[test]
    fn f32_matches_native_cast() {
        for v in [
            1.0,
            0.1,
            1e-40,
            3.4e38,
            3.5e38,
            -2.5e-45,
            1.4e-45,
            0.7e-45,
            1.0 + 2f64.powi(-24),
        ] {
            assert_eq!(rne(DType::F32, v), (v as f32).to_bits() as u64, "{v}");
        }
    }

    #[test]
    fn f16_rounding_by_hand() {
        // 1 + 2^-11 is halfway between 1 and 1+2^-10: ties to even gives 1.0 (0x3c00).
        assert_eq!(rne(DType::F16, 1.0 + 2f64.powi(-11)), 0x3c00);
        // 1 + 3*2^-11 is halfway between 1+2^-10 (odd) and 1+2^-9: rounds up to 0x3c02.
        assert_eq!(rne(DType::F16, 1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        // 65520 is halfway between 65504 (max) and 65536 (overflow): ties to even overflows to inf.
        assert_eq!(rne(DType::F16, 65520.0), 0x7c00);
        assert_eq!(rne(DType::F16, 65519.0), 0x7bff);
        // smallest subnormal 2^-24 = 0x0001; 2^-25 ties to even -> 0.
        assert_eq!(rne(DType::F16, 2f64.powi(-24)), 0x0001);
        assert_eq!(rne(DType::F16, 2f64.powi(-25)), 0x0000);
        assert_eq!(rne(DType::F16, -2f64.powi(-25) * 1.5), 0x8001);
    }

    #[test]
    fn bf16_rounding_by_hand() {
        // 257 = 1.00000001b * 2^8: bf16 keeps 7 fraction bits, 257 is halfway between 256 and 258 -> 256.
        assert_eq!(rne(DType::BF16, 257.0), 0x4380);
        assert_eq!(rne(DType::BF16, 259.0), 0x4382);
        // 1.00390625 = 1 + 2^-8: halfway between 1.0 and 1+2^-7 -> 1.0 (0x3f80)
        assert_eq!(rne(DType::BF16, 1.00390625), 0x3f80);
    }

    #[test]
    fn fp8_formats_by_hand() {
        // e4m3fn: 448 = 1.110b * 2^8 -> 0x7e; 464 halfway to (nonexistent) 480 overflows.
        assert_eq!(rne(DType::F8E4Nv, 448.0), 0x7e);
        assert_eq!(rne(DType::F8E4Nv, 1.0), 0x38);
        assert_eq!(rne(DType::F8E4Nv, 2f64.powi(-9)), 0x01);
        assert_eq!(
            from_f64(
                DType::F8E4Nv,
                1e6,
                Rounding::NearestEven,
                Overflow::Saturate
            ),
            0x7e
        );
        assert_eq!(rne(DType::F8E4Nv, 1e6), 0x7f);
        // e5m2: 57344 = 1.11b * 2^15 -> 0x7b; 1.0 -> 0x3c; inf 0x7c.
        assert_eq!(rne(DType::F8E5, 57344.0), 0x7b);
        assert_eq!(rne(DType::F8E5, 1.0), 0x3c);
        assert_eq!(rne(DType::F8E5, f64::INFINITY), 0x7c);
        assert_eq!(rne(DType::F8E5, f64::NAN), 0x7e);
        for b in 0..256u64 {
            for d in [DType::F8E4Nv, DType::F8E5] {
                let v = to_f64(d, b);
                if !v.is_nan() {
                    assert_eq!(rne(d, v), b, "{d} {b:#x}");
                }
            }
        }
    }

    #[test]
    fn nan_conversions_as_measured_on_sm90() {
        // docs/triton-measured.md (g): bf16 -> f32 keeps the bits; f32 -> f64 keeps
        // sign and payload, quieted; f64 -> f32 keeps sign and top payload bits.
        assert_eq!(convert_nan(DType::BF16, DType::F32, 0x7f81), 0x7f81_0000);
        assert_eq!(
            convert_nan(DType::F32, DType::F64, 0x7f80_0001),
            0x7ff8_0000_2000_0000
        );
        assert_eq!(
            convert_nan(DType::F32, DType::F64, 0xffbf_ffff),
            0xffff_ffff_e000_0000
        );
        assert_eq!(
            convert_nan(DType::F64, DType::F32, 0x7ff4_0000_0000_0000),
            0x7fe0_0000
        );
        assert_eq!(
            convert_nan(DType::F64, DType::F32, 0x7ff8_0000_e000_0000),
            0x7fc0_0007
        );
        assert_eq!(
            convert_nan(DType::F64, DType::F32, 0xfff0_0000_0000_0001),
            0xffc0_0000
        );
        assert_eq!(convert_nan(DType::F32, DType::F16, 0x7fc0_0000), 0x7fff);
        assert_eq!(convert_nan(DType::F16, DType::F32, 0x7e00), 0x7fff_ffff);
        assert_eq!(convert_nan(DType::F32, DType::F8E4Nv, 0x7fc0_0000), 0x7f);
        assert_eq!(convert_nan(DType::F32, DType::F8E5, 0x7fc0_0000), 0x7f);
        // f64 arithmetic: 0/0 -> 0xfff8000000000000; NaN operands propagate quieted
        assert_eq!(f64_result(f64::NAN, &[0, 0]), 0xfff8_0000_0000_0000);
        assert_eq!(
            f64_result(f64::NAN, &[0x7ff0_0000_0000_0001, 0]),
            0x7ff8_0000_0000_0001
        );
        assert_eq!(
            f64_result(f64::NAN, &[0, 0xfff8_0000_0000_0000]),
            0xfff8_0000_0000_0000
        );
    }

    #[test]
    fn ints_round_once() {
        assert_eq!(
            from_int(DType::F32, 16777217, Rounding::NearestEven),
            0x4b80_0000
        );
        // 2^60 + 2^52 + 1 : bf16 must see the +1 (above halfway) even though f64 would drop it.
        let v: i128 = (1 << 60) + (1 << 52) + 1;
        assert_eq!(from_int(DType::BF16, v, Rounding::NearestEven), 0x5d81);
    }

    /// tf32 keeps 10 mantissa bits: 1 + 2^-11 is a tie that goes to even
    /// (1.0), 1 + 3·2^-11 a tie that goes up (1 + 2^-9), 1 + 2^-11 + 2^-23 is
    /// above the tie (1 + 2^-10); the largest float32 rounds to infinity, a
    /// subnormal rounds on the same bit grid, NaN and infinity are kept.
    #[test]
    fn tf32_rounding() {
        assert_eq!(round_tf32(0x3f80_1000), 0x3f80_0000);
        assert_eq!(round_tf32(0x3f80_3000), 0x3f80_4000);
        assert_eq!(round_tf32(0x3f80_1001), 0x3f80_2000);
        assert_eq!(round_tf32(0xbf80_0fff), 0xbf80_0000);
        assert_eq!(round_tf32(0x7f7f_ffff), 0x7f80_0000);
        assert_eq!(round_tf32(0x0000_1001), 0x0000_2000);
        assert_eq!(round_tf32(0x7fc0_0001), 0x7fc0_0001);
        assert_eq!(round_tf32(0x7f80_0001), 0x7f80_0001);
        assert_eq!(round_tf32(0xff80_0000), 0xff80_0000);
    }
}
