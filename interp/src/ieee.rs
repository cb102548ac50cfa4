//! IEEE-754 arithmetic with an explicit rounding mode (TileLang's
//! `T.ieee_add(x, y, "rz")` …, CUDA's `__fadd_rz`): the exact result,
//! computed on integers, rounded once by [`float::round_exact`]. Operands
//! and results are float32 or float64. NaN and infinite operands give what
//! the round-to-nearest operation gives (no rounding happens there).

use crate::dtype::DType;
use crate::float::{self, Overflow, Rounding};

/// A binary operation with a rounding mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IeeeBinary {
    Add,
    Sub,
    Mul,
    Div,
}

/// A unary operation with a rounding mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IeeeUnary {
    Sqrt,
    /// `1 / x`.
    Rcp,
    /// `1 / sqrt(x)` correctly rounded (CUDA's `__frsqrt_rn`; TileLang's
    /// `T.ieee_frsqrt`, float32 and round-to-nearest only).
    Rsqrt,
}

/// A finite value `(-1)^neg * m * 2^e`.
#[derive(Clone, Copy, Debug)]
struct Exact {
    neg: bool,
    m: u128,
    e: i32,
}

fn decode(d: DType, bits: u64) -> Exact {
    let v = float::to_f64(d, bits);
    let (m, e) = float::decompose_f64(v.abs());
    Exact {
        neg: v.is_sign_negative(),
        m: m as u128,
        e,
    }
}

/// Whether `bits` of `d` is a NaN or an infinity.
fn special(d: DType, bits: u64) -> bool {
    !float::to_f64(d, bits).is_finite()
}

/// `m` shifted left by `k` bits where that keeps it below 2^126; further
/// shifts are folded into a sticky bit by the caller.
fn align(a: Exact, b: Exact) -> (u128, u128, i32) {
    // bring both to the smaller exponent, capping the distance: beyond
    // `cap` bits the smaller operand lies wholly below the rounding
    // position and only its being non-zero matters (a sticky bit)
    let cap = 72;
    let (hi, lo) = if a.e >= b.e { (a, b) } else { (b, a) };
    let dist = (hi.e - lo.e) as u32;
    if dist <= cap {
        let (ma, mb) = if a.e >= b.e {
            (a.m << dist, b.m)
        } else {
            (a.m, b.m << dist)
        };
        (ma, mb, lo.e)
    } else {
        let sticky = (lo.m != 0) as u128;
        let big = hi.m << cap;
        let e = hi.e - cap as i32;
        if a.e >= b.e {
            (big, sticky, e)
        } else {
            (sticky, big, e)
        }
    }
}

/// `a op b` of float `d` rounded by `r`.
pub fn binary(op: IeeeBinary, d: DType, r: Rounding, a: u64, b: u64) -> u64 {
    let rn = |op| crate::ops::binary(op, d, a, b).unwrap_or(0);
    let ir_op = match op {
        IeeeBinary::Add => crate::ir::BinOp::Add,
        IeeeBinary::Sub => crate::ir::BinOp::Sub,
        IeeeBinary::Mul => crate::ir::BinOp::Mul,
        IeeeBinary::Div => crate::ir::BinOp::FDiv,
    };
    if special(d, a) || special(d, b) || r == Rounding::NearestEven {
        return rn(ir_op);
    }
    let (x, mut y) = (decode(d, a), decode(d, b));
    if op == IeeeBinary::Sub {
        y.neg = !y.neg;
    }
    let round = |neg, m, e| float::round_exact(d, neg, m, e, r, Overflow::Infinity);
    match op {
        IeeeBinary::Add | IeeeBinary::Sub => {
            if x.m == 0 && y.m == 0 {
                // exact zeros: the sign of equal signs, else +0 (-0 rounding down)
                let neg = if x.neg == y.neg {
                    x.neg
                } else {
                    r == Rounding::Down
                };
                return round(neg, 0, 0);
            }
            let (mx, my, e) = align(x, y);
            if x.neg == y.neg {
                round(x.neg, mx + my, e)
            } else if mx == my {
                round(r == Rounding::Down, 0, 0)
            } else if mx > my {
                round(x.neg, mx - my, e)
            } else {
                round(y.neg, my - mx, e)
            }
        }
        IeeeBinary::Mul => round(x.neg != y.neg, x.m * y.m, x.e + y.e),
        IeeeBinary::Div => {
            if y.m == 0 || x.m == 0 {
                return rn(ir_op); // ±inf or NaN or a signed zero: no rounding
            }
            // normalise the divisor below 2^53 and the dividend to 2^125, so
            // the quotient has at least 72 bits; the remainder is a sticky bit
            let sx = 125 - (128 - x.m.leading_zeros() as i32);
            let num = x.m << sx;
            let q = num / y.m;
            let rem = num % y.m;
            round(
                x.neg != y.neg,
                (q << 1) | (rem != 0) as u128,
                x.e - sx - y.e - 1,
            )
        }
    }
}

/// `op(a)` of float `d` rounded by `r`.
pub fn unary(op: IeeeUnary, d: DType, r: Rounding, a: u64) -> u64 {
    match op {
        IeeeUnary::Rcp => {
            let one = float::from_f64(d, 1.0, Rounding::NearestEven, Overflow::Infinity);
            binary(IeeeBinary::Div, d, r, one, a)
        }
        IeeeUnary::Rsqrt => rsqrt(d, r, a),
        IeeeUnary::Sqrt => {
            let x = decode(d, a);
            let v = float::to_f64(d, a);
            if !v.is_finite() || x.m == 0 || x.neg || r == Rounding::NearestEven {
                let sq = crate::ir::UnOp::Math(crate::ir::MathFn::SqrtRn);
                return crate::ops::unary(sq, d, a);
            }
            // sqrt(m * 2^e) with an even exponent and m scaled to ~2^124:
            // the integer root has ~62 bits, the remainder is a sticky bit
            let mut m = x.m;
            let mut e = x.e;
            let shift = 124 - (128 - m.leading_zeros() as i32);
            let shift = if (e - shift) % 2 != 0 {
                shift - 1
            } else {
                shift
            };
            m <<= shift;
            e -= shift;
            let s = isqrt(m);
            let exact = s * s == m;
            float::round_exact(
                d,
                false,
                (s << 1) | (!exact) as u128,
                e / 2 - 1,
                r,
                Overflow::Infinity,
            )
        }
    }
}

/// `1 / sqrt(a)` of float32 `a` rounded once by `r`. Special values as
/// IEEE 754's rSqrt: ±0 gives ±inf, +inf gives +0, a negative number or a
/// NaN gives the NaN `sqrt` gives. The result of a finite positive float32
/// lies in [2^-64, 2^75], always a normal number.
fn rsqrt(d: DType, r: Rounding, a: u64) -> u64 {
    debug_assert_eq!(d, DType::F32, "rsqrt is computed for float32 only");
    let v = float::to_f64(d, a);
    let round = |neg, m, e| float::round_exact(d, neg, m, e, r, Overflow::Infinity);
    if v.is_nan() || v < 0.0 {
        let sq = crate::ir::UnOp::Math(crate::ir::MathFn::SqrtRn);
        return crate::ops::unary(sq, d, a);
    }
    if v == 0.0 {
        let inf = f64::INFINITY.copysign(v);
        return float::from_f64(d, inf, Rounding::NearestEven, Overflow::Infinity);
    }
    if v.is_infinite() {
        return 0;
    }
    // a = m * 2^e with e even; 1/sqrt(a) = sqrt(2^126 / m) * 2^(-63 - e/2).
    // m < 2^25, so q = floor(2^126 / m) > 2^101 and its integer root has
    // more than 50 bits; the division's remainder and the root's are a
    // sticky bit below them.
    let x = decode(d, a);
    let (m, e) = if x.e % 2 != 0 {
        (x.m << 1, x.e - 1)
    } else {
        (x.m, x.e)
    };
    let n: u128 = 1 << 126;
    let (q, rem) = (n / m, n % m);
    let s = isqrt(q);
    let exact = rem == 0 && s * s == q;
    round(false, (s << 1) | (!exact) as u128, -63 - e / 2 - 1)
}

/// `a * b + c` of float `d` (float32 or float64) with one rounding by `r`
/// (CUDA's `__fmaf_rz` …, TileLang's `T.ieee_fmaf(a, b, c, "rz")`). NaN and
/// infinite operands give what the round-to-nearest fma gives.
pub fn fma(d: DType, r: Rounding, a: u64, b: u64, c: u64) -> u64 {
    if r == Rounding::NearestEven || special(d, a) || special(d, b) || special(d, c) {
        return crate::ops::fma(d, a, b, c);
    }
    let (x, y, z) = (decode(d, a), decode(d, b), decode(d, c));
    let round = |neg, m, e| float::round_exact(d, neg, m, e, r, Overflow::Infinity);
    // the exact product: at most 106 bits
    let p = Exact {
        neg: x.neg != y.neg,
        m: x.m * y.m,
        e: x.e + y.e,
    };
    if p.m == 0 {
        if z.m == 0 {
            // exact zeros: the sign of equal signs, else +0 (-0 rounding down)
            let neg = if p.neg == z.neg {
                p.neg
            } else {
                r == Rounding::Down
            };
            return round(neg, 0, 0);
        }
        return c; // 0 + c is c exactly
    }
    if z.m == 0 {
        return round(p.neg, p.m, p.e);
    }
    // Put the larger operand's leading bit at bit 125 of a 126-bit window;
    // the smaller is shifted to the same scale, bits falling below the
    // window folded into a sticky bit at bit 0. The larger keeps all its
    // bits (at most 106), so at least 19 bits lie below them: when the
    // smaller lost bits it lies more than 19 bits below the larger, at most
    // one leading bit cancels, and the rounding position (53 bits below the
    // top at most) stays far above the sticky bit.
    let top = |v: &Exact| v.e + 128 - v.m.leading_zeros() as i32;
    let (big, small) = if top(&p) >= top(&z) { (p, z) } else { (z, p) };
    let e = top(&big) - 126;
    let scale = |v: &Exact| -> u128 {
        let k = v.e - e;
        if k >= 0 {
            v.m << k
        } else if -k >= 128 {
            (v.m != 0) as u128
        } else {
            let lost = v.m & ((1u128 << -k) - 1);
            (v.m >> -k) | (lost != 0) as u128
        }
    };
    let (mb, ms) = (scale(&big), scale(&small));
    if big.neg == small.neg {
        round(big.neg, mb + ms, e)
    } else if mb == ms {
        round(r == Rounding::Down, 0, 0)
    } else if mb > ms {
        round(big.neg, mb - ms, e)
    } else {
        round(small.neg, ms - mb, e)
    }
}

/// The integer square root of `n` (floor).
fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    let mut x = (n as f64).sqrt() as u128;
    // correct the float estimate (at most a few steps off)
    while x.checked_mul(x).is_none_or(|v| v > n) {
        x -= 1;
    }
    while (x + 1).checked_mul(x + 1).is_some_and(|v| v <= n) {
        x += 1;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32b(x: f32) -> u64 {
        x.to_bits() as u64
    }

    #[test]
    fn directed_rounding_of_float32_sums() {
        // 1 + 2^-30 is between 1 and 1 + 2^-23: rn and rz give 1, ru the next float up
        let (a, b) = (f32b(1.0), f32b(2f32.powi(-30)));
        let next = f32b(f32::from_bits(1.0f32.to_bits() + 1));
        assert_eq!(
            binary(IeeeBinary::Add, DType::F32, Rounding::NearestEven, a, b),
            a
        );
        assert_eq!(
            binary(IeeeBinary::Add, DType::F32, Rounding::TowardZero, a, b),
            a
        );
        assert_eq!(
            binary(IeeeBinary::Add, DType::F32, Rounding::Up, a, b),
            next
        );
        assert_eq!(binary(IeeeBinary::Add, DType::F32, Rounding::Down, a, b), a);
        // 1 - 2^-30: rz and rd give the float just below 1, ru gives 1
        let below = f32b(f32::from_bits(1.0f32.to_bits() - 1));
        assert_eq!(
            binary(IeeeBinary::Sub, DType::F32, Rounding::TowardZero, a, b),
            below
        );
        assert_eq!(
            binary(IeeeBinary::Sub, DType::F32, Rounding::Down, a, b),
            below
        );
        assert_eq!(binary(IeeeBinary::Sub, DType::F32, Rounding::Up, a, b), a);
        // x - x is +0 except rounding down (-0)
        assert_eq!(binary(IeeeBinary::Sub, DType::F32, Rounding::Up, a, a), 0);
        assert_eq!(
            binary(IeeeBinary::Sub, DType::F32, Rounding::Down, a, a),
            0x8000_0000
        );
        // an operand 2^-200 below: only its sign matters
        let tiny = f32b(2f32.powi(-126));
        assert_eq!(
            binary(IeeeBinary::Add, DType::F32, Rounding::Up, f32b(1e30), tiny),
            f32b(f32::from_bits(1e30f32.to_bits() + 1))
        );
    }

    #[test]
    fn directed_rounding_of_products_quotients_and_roots() {
        // 1/3 in float32: 0x3eaaaaab (rn, rounds up), 0x3eaaaaaa (rz, rd)
        let (one, three) = (f32b(1.0), f32b(3.0));
        assert_eq!(
            binary(
                IeeeBinary::Div,
                DType::F32,
                Rounding::NearestEven,
                one,
                three
            ),
            0x3eaa_aaab
        );
        assert_eq!(
            binary(
                IeeeBinary::Div,
                DType::F32,
                Rounding::TowardZero,
                one,
                three
            ),
            0x3eaa_aaaa
        );
        assert_eq!(
            binary(IeeeBinary::Div, DType::F32, Rounding::Up, one, three),
            0x3eaa_aaab
        );
        assert_eq!(
            binary(IeeeBinary::Div, DType::F32, Rounding::Down, one, three),
            0x3eaa_aaaa
        );
        // -1/3 rounds down in magnitude toward zero: rz 0xbeaaaaaa, rd 0xbeaaaaab
        let m1 = f32b(-1.0);
        assert_eq!(
            binary(IeeeBinary::Div, DType::F32, Rounding::TowardZero, m1, three),
            0xbeaa_aaaa
        );
        assert_eq!(
            binary(IeeeBinary::Div, DType::F32, Rounding::Down, m1, three),
            0xbeaa_aaab
        );
        // an exact quotient is the same in every mode
        assert_eq!(
            binary(IeeeBinary::Div, DType::F32, Rounding::Up, f32b(6.0), three),
            f32b(2.0)
        );
        // sqrt(2) = 1.41421356…: float32 0x3fb504f3 (rn, rounds down), ru 0x3fb504f4
        let two = f32b(2.0);
        assert_eq!(
            unary(IeeeUnary::Sqrt, DType::F32, Rounding::TowardZero, two),
            0x3fb5_04f3
        );
        assert_eq!(
            unary(IeeeUnary::Sqrt, DType::F32, Rounding::Up, two),
            0x3fb5_04f4
        );
        assert_eq!(
            unary(IeeeUnary::Sqrt, DType::F32, Rounding::Up, f32b(4.0)),
            f32b(2.0)
        );
        // the largest float32 times 2 overflows: rn/ru to inf, rz/rd to the largest finite
        let max = f32b(f32::MAX);
        assert_eq!(
            binary(IeeeBinary::Mul, DType::F32, Rounding::Up, max, two),
            f32b(f32::INFINITY)
        );
        assert_eq!(
            binary(IeeeBinary::Mul, DType::F32, Rounding::TowardZero, max, two),
            max
        );
        assert_eq!(
            binary(IeeeBinary::Mul, DType::F32, Rounding::Down, max, two),
            max
        );
        // float64: 0.1 + 0.2 is 0.30000000000000004 (rn); rz gives the double below
        let (p1, p2) = (0.1f64.to_bits(), 0.2f64.to_bits());
        let s = binary(IeeeBinary::Add, DType::F64, Rounding::TowardZero, p1, p2);
        assert_eq!(s, (0.1f64 + 0.2).to_bits() - 1);
        // rcp of 3 in every mode matches 1/3
        assert_eq!(
            unary(IeeeUnary::Rcp, DType::F32, Rounding::Down, three),
            0x3eaa_aaaa
        );
    }

    #[test]
    fn fused_multiply_add_rounds_once_in_each_mode() {
        let modes = [
            Rounding::NearestEven,
            Rounding::TowardZero,
            Rounding::Up,
            Rounding::Down,
        ];
        let all = |a: u64, b: u64, c: u64| modes.map(|r| fma(DType::F32, r, a, b, c));
        // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46 exactly: half an ulp of 2^-22
        // (2^-45) above it, a tie: rn to even 2^-22, ru to 2^-22 + 2^-45
        let p = 0x3f80_0001;
        assert_eq!(
            all(p, p, f32b(-1.0)),
            [0x3480_0000, 0x3480_0000, 0x3480_0001, 0x3480_0000]
        );
        // the negated product: rd goes away from zero, ru toward it
        assert_eq!(
            all(p | 0x8000_0000, p, f32b(1.0)),
            [0xb480_0000, 0xb480_0000, 0xb480_0000, 0xb480_0001]
        );
        // 2 * 3 - 6 = 0 exactly: +0 but rounding down (-0)
        assert_eq!(
            all(f32b(2.0), f32b(3.0), f32b(-6.0)),
            [0, 0, 0, 0x8000_0000]
        );
        // 2^-149 * 0.5 + 0 = 2^-150: a tie between 0 and the smallest
        // subnormal (rn to even 0); ru gives the subnormal
        assert_eq!(all(1, f32b(0.5), 0), [0, 0, 1, 0]);
        // 2^-149 * -2^-149 + 0 = -2^-298: far below; only rd leaves zero
        assert_eq!(
            all(1, 0x8000_0001, 0),
            [0x8000_0000, 0x8000_0000, 0x8000_0000, 0x8000_0001]
        );
        // a product far below the addend: 1 + 2^-149 * 2^-149
        assert_eq!(
            all(1, 1, f32b(1.0)),
            [f32b(1.0), f32b(1.0), 0x3f80_0001, f32b(1.0)]
        );
        // MAX * 1 + MAX overflows: rn/ru to inf, rz/rd to MAX
        let max = f32b(f32::MAX);
        assert_eq!(
            all(max, f32b(1.0), max),
            [0x7f80_0000, max, 0x7f80_0000, max]
        );
        // inf * 0 + 1 is a NaN in every mode; inf * 1 + 1 is inf
        for r in all(0x7f80_0000, 0, f32b(1.0)) {
            assert!(f32::from_bits(r as u32).is_nan(), "{r:#x}");
        }
        assert_eq!(all(0x7f80_0000, f32b(1.0), f32b(1.0)), [0x7f80_0000; 4]);
        // float64: (1 + 2^-52)^2 - 1 = 2^-51 + 2^-104, again a tie
        let q = 1.0f64.to_bits() + 1;
        let m1 = (-1.0f64).to_bits();
        let r64 = modes.map(|r| fma(DType::F64, r, q, q, m1));
        let t = 2f64.powi(-51).to_bits();
        assert_eq!(r64, [t, t, t + 1, t]);
    }

    #[test]
    fn reciprocal_square_root_is_correctly_rounded() {
        let rs = |x: u64| unary(IeeeUnary::Rsqrt, DType::F32, Rounding::NearestEven, x);
        // exact: 1/sqrt(4) = 0.5, 1/sqrt(0.25) = 2
        assert_eq!(rs(f32b(4.0)), f32b(0.5));
        assert_eq!(rs(f32b(0.25)), f32b(2.0));
        // 1/sqrt(2) = sqrt(2)/2: sqrt(2) to nearest is 0x3fb504f3, halved
        assert_eq!(rs(f32b(2.0)), 0x3f35_04f3);
        // 2^-149 (the smallest subnormal): 2^74 * sqrt(2)
        assert_eq!(rs(1), 0x64b5_04f3);
        // derived with Python's fractions: the float32 c whose two
        // midpoints m satisfy m_lo^2 * x < 1 < m_hi^2 * x
        assert_eq!(rs(f32b(3.0)), 0x3f13_cd3a);
        assert_eq!(rs(f32b(10.0)), 0x3ea1_e89b);
        assert_eq!(rs(f32b(f32::MAX)), 0x1f80_0000);
        // IEEE 754 rSqrt: ±0 gives ±inf, +inf gives +0, negatives NaN
        assert_eq!(rs(0), 0x7f80_0000);
        assert_eq!(rs(0x8000_0000), 0xff80_0000);
        assert_eq!(rs(0x7f80_0000), 0);
        assert!(f32::from_bits(rs(f32b(-1.0)) as u32).is_nan());
        assert!(f32::from_bits(rs(0x7fc0_0000) as u32).is_nan());
    }
}
