//! Nudges: other results a real system may give for an operation of a
//! documented divergence, written as IR around the operation's node.
//!
//! Triage reruns a kernel with every divergent node nudged and calls the
//! elements that change *reached* (`divergence.rs`). One kind of nudge is
//! not enough: a result one unit in the last place (ulp) off reaches an
//! integer only where a comparison or a float→int conversion sits right at
//! its boundary, and a NaN whose sign or payload differs reaches one only
//! through a bitcast or `copysign`. So each row lists the nudges that span
//! what its real system computes:
//!
//! - a divergence of at most `k` ulp: ±1, ±2 and ±`k` ulp. A comparison or
//!   conversion downstream is monotone in the value for the arithmetic
//!   between them, so if the real result, within `k` ulp, changes its
//!   outcome, so does one of the two extremes. Every node is nudged the
//!   same way in one rerun, so a comparison of two of them (`x / y < z / w`)
//!   would keep its outcome; [`Nudge::Apart`] moves them by turns up and
//!   down, both ways round;
//! - an unbounded one (a reduction's order):
//!   also the sign flipped, ±inf (the extremes of any comparison), +0 and
//!   ±2^30 (values a float→int conversion still holds, ±inf being UB
//!   there);
//! - one whose instruction sequence is known (float `%`, the flush of
//!   `floor`/`ceil`'s input): that sequence
//!   ([`Nudge::Model`], `crate::models`), which reaches exactly the
//!   elements the real result changes;
//! - one in a NaN's bits only: the NaN's sign flipped or its payload
//!   changed, every other value left as it is, so that no element a NaN did
//!   not reach is called reached.

use ksem_interp::dtype::DType;
use ksem_interp::ir::build::{self, konst, mk, select};
use ksem_interp::ir::{BinOp, CastKind, Elem, Expr, ExprKind, Type};

/// How a nudge changes a float result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nudge {
    /// `k` ulp up (the bits plus `k`).
    Up(u64),
    /// `k` ulp down (the bits minus `k`).
    Down(u64),
    /// `|k|` ulp at each node the rows match, up and down by turns
    /// ([`Nudge::at`]; the first node up where `k` > 0, down where `k` < 0):
    /// two results nudged the same way keep their order, a comparison of
    /// two of them flips where they move apart.
    Apart(i64),
    /// The top mantissa bit flipped.
    FlipTop,
    /// The sign flipped.
    FlipSign,
    /// Replaced by +inf.
    PosInf,
    /// Replaced by -inf.
    NegInf,
    /// Replaced by +0.
    Zero,
    /// Replaced by a large value that most integer types still hold:
    /// 2^30 (float16: 2^15).
    Big,
    /// Replaced by minus that value.
    NegBig,
    /// A NaN's sign flipped; other values unchanged.
    NanSign,
    /// A NaN's payload bits below the quiet bit flipped; other values
    /// unchanged (a quiet NaN stays a NaN).
    NanPayload,
    /// Replaced by what the real system computes, where the row has a
    /// model of it (`crate::models`; [`apply`] leaves the node as it is).
    Model,
}

impl Nudge {
    /// The nudge of the `i`-th node a row matches (in the order the
    /// kernel's expressions are visited): [`Nudge::Apart`] resolved to up
    /// or down, any other as it is.
    pub fn at(self, i: usize) -> Nudge {
        match self {
            Nudge::Apart(k) if i.is_multiple_of(2) == (k > 0) => Nudge::Up(k.unsigned_abs()),
            Nudge::Apart(k) => Nudge::Down(k.unsigned_abs()),
            n => n,
        }
    }
}

/// A divergence of at most 2 ulp (float32 `/`).
pub const ULP2: &[Nudge] = &[
    Nudge::Up(1),
    Nudge::Down(1),
    Nudge::Up(2),
    Nudge::Down(2),
    Nudge::Apart(2),
    Nudge::Apart(-2),
    Nudge::FlipTop,
];

/// A divergence of at most 64 ulp (approximate math: `tl.exp` up to 63).
pub const ULP64: &[Nudge] = &[
    Nudge::Up(1),
    Nudge::Down(1),
    Nudge::Up(2),
    Nudge::Down(2),
    Nudge::Up(64),
    Nudge::Down(64),
    Nudge::Apart(64),
    Nudge::Apart(-64),
    Nudge::FlipTop,
];

/// A divergence with no bound on the value.
pub const ANY: &[Nudge] = &[
    Nudge::Up(1),
    Nudge::Down(1),
    Nudge::Up(2),
    Nudge::Down(2),
    Nudge::Up(64),
    Nudge::Down(64),
    Nudge::Apart(64),
    Nudge::Apart(-64),
    Nudge::FlipTop,
    Nudge::FlipSign,
    Nudge::PosInf,
    Nudge::NegInf,
    Nudge::Zero,
    Nudge::Big,
    Nudge::NegBig,
];

/// A divergence whose real result a model gives (float `%`, `floor`),
/// with a few ulp both ways besides in case the model misses a rounding.
pub const MODEL_ULP2: &[Nudge] = &[
    Nudge::Model,
    Nudge::Up(1),
    Nudge::Down(1),
    Nudge::Up(2),
    Nudge::Down(2),
    Nudge::Apart(2),
    Nudge::Apart(-2),
];

/// A divergence in the bits of NaN results only.
pub const NAN_BITS: &[Nudge] = &[Nudge::NanSign, Nudge::NanPayload];

/// The same-width unsigned integer dtype of a float dtype.
fn bits_of(d: DType) -> Option<DType> {
    Some(match d {
        DType::F16 | DType::BF16 => DType::U16,
        DType::F32 => DType::U32,
        DType::F64 => DType::U64,
        _ => return None,
    })
}

fn exponent_bits(d: DType) -> u32 {
    match d {
        DType::F16 => 5,
        DType::BF16 | DType::F32 => 8,
        _ => 11,
    }
}

/// The masks of a float dtype's fields: (sign, exponent, mantissa).
fn fields(d: DType) -> (u64, u64, u64) {
    let w = d.bits();
    let m = w - 1 - exponent_bits(d);
    let mant = (1u64 << m) - 1;
    let sign = 1u64 << (w - 1);
    let exp = (sign - 1) & !mant;
    (sign, exp, mant)
}

/// The bits of [`Nudge::Big`]'s value in `d`: 2^30 (float16: 2^15), a
/// biased exponent with an empty mantissa.
fn big(d: DType) -> u64 {
    let (_, _, mant) = fields(d);
    let (e, bias) = if d == DType::F16 {
        (15, 15)
    } else {
        (30, (1u64 << (exponent_bits(d) - 1)) - 1)
    };
    (e + bias) * (mant + 1)
}

/// The most nodes a nudge that reads its node (or the node's operands)
/// more than once copies: nested nudged nodes multiply the program each;
/// beyond this the node is left as it is (the elements it reaches then
/// stay unexplained, never wrongly explained).
const COPY_LIMIT: usize = 4096;

/// Whether a nudge may copy `e` ([`COPY_LIMIT`]).
pub fn may_copy(e: &Expr) -> bool {
    let mut n = 0;
    e.for_each(&mut |_| n += 1);
    n <= COPY_LIMIT
}

/// `e` (a float node) with its result changed by `n` (an unresolved
/// [`Nudge::Apart`] as the first node's); any other node as it is.
pub fn apply(e: Expr, n: Nudge) -> Expr {
    if let Nudge::Apart(_) = n {
        return apply(e, n.at(0));
    }
    let d = e.ty.dtype();
    let Some(u) = bits_of(d) else { return e };
    if n == Nudge::Model || matches!(n, Nudge::NanSign | Nudge::NanPayload) && !may_copy(&e) {
        return e;
    }
    let span = e.span;
    let fty = e.ty.clone();
    let uty = Type {
        elem: Elem::Num(u),
        shape: fty.shape.clone(),
    };
    // a constant of `uty`'s shape
    let c = |k: u64| {
        let c = konst(u, k, span);
        if uty.shape.is_empty() {
            c
        } else {
            mk(ExprKind::Broadcast(Box::new(c)), uty.clone(), span)
        }
    };
    let bin = |op, a, b| build::bin(op, a, b, span);
    let bits = mk(
        ExprKind::Cast(Box::new(e), CastKind::Bitcast),
        uty.clone(),
        span,
    );
    let (sign, exp, mant) = fields(d);
    let top = (mant + 1) >> 1;
    let changed = match n {
        Nudge::Up(k) => bin(BinOp::Add, bits, c(k)),
        Nudge::Down(k) => bin(BinOp::Sub, bits, c(k)),
        // (resolved above)
        Nudge::Apart(_) | Nudge::Model => bits,
        Nudge::FlipTop => bin(BinOp::Xor, bits, c(top)),
        Nudge::FlipSign => bin(BinOp::Xor, bits, c(sign)),
        Nudge::PosInf | Nudge::NegInf | Nudge::Zero | Nudge::Big | Nudge::NegBig => {
            let k = match n {
                Nudge::PosInf => exp,
                Nudge::NegInf => sign | exp,
                Nudge::Big => big(d),
                Nudge::NegBig => sign | big(d),
                _ => 0,
            };
            // (the operation still runs: its UB, if any, still shows)
            bin(BinOp::Or, bin(BinOp::And, bits, c(0)), c(k))
        }
        Nudge::NanSign | Nudge::NanPayload => {
            let flip = if n == Nudge::NanSign { sign } else { mant >> 1 };
            // NaN: the magnitude's bits above the infinity's
            let magnitude = bin(BinOp::And, bits.clone(), c(sign - 1));
            let is_nan = bin(BinOp::Gt, magnitude, c(exp));
            bin(BinOp::Xor, bits, select(is_nan, c(flip), c(0), span))
        }
    };
    mk(
        ExprKind::Cast(Box::new(changed), CastKind::Bitcast),
        fty,
        span,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ksem_interp::ir::build::{dtype_of, float_const};
    use ksem_interp::ops;

    /// The bits of a nudged constant, computed by the interpreter's element
    /// rules.
    fn fold(e: &Expr) -> u64 {
        match &e.kind {
            ExprKind::Const(b) => *b,
            ExprKind::Cast(x, k) => ops::cast(*k, dtype_of(x), dtype_of(e), fold(x)).unwrap(),
            ExprKind::Binary(op, a, b) => ops::binary(*op, dtype_of(a), fold(a), fold(b)).unwrap(),
            ExprKind::Select(c, a, b) if fold(c) != 0 => fold(a),
            ExprKind::Select(_, _, b) => fold(b),
            k => panic!("not a constant: {k:?}"),
        }
    }

    /// Each nudge's bits on a few float32 and float64 values, worked out by
    /// hand from the IEEE-754 layouts (float32: sign 0x80000000, exponent
    /// 0x7f800000; float64: sign 1 << 63, exponent 0x7ff << 52).
    #[test]
    fn nudged_bits() {
        let eval = |d: DType, x: u64, n: Nudge| fold(&apply(konst(d, x, Default::default()), n));
        let f = DType::F32;
        assert_eq!(eval(f, 0x3f80_0000, Nudge::Up(2)), 0x3f80_0002);
        assert_eq!(eval(f, 0x3f80_0000, Nudge::Down(64)), 0x3f7f_ffc0);
        assert_eq!(eval(f, 0x3f80_0000, Nudge::FlipTop), 0x3fc0_0000);
        assert_eq!(eval(f, 0x3f80_0000, Nudge::FlipSign), 0xbf80_0000);
        assert_eq!(eval(f, 0x3f80_0000, Nudge::NegInf), 0xff80_0000);
        assert_eq!(eval(f, 0x3f80_0000, Nudge::PosInf), 0x7f80_0000);
        assert_eq!(eval(f, 0x3f80_0000, Nudge::Zero), 0);
        // 2^30: biased exponent 157 = 0x9d
        assert_eq!(eval(f, 0x3f80_0000, Nudge::Big), 0x4e80_0000);
        assert_eq!(eval(f, 0x3f80_0000, Nudge::NegBig), 0xce80_0000);
        // float64 2^30: 1023 + 30 = 0x41d; float16 2^15: 15 + 15 = 30
        assert_eq!(eval(DType::F64, 0, Nudge::Big), 0x41d0_0000_0000_0000);
        assert_eq!(eval(DType::F16, 0, Nudge::Big), 0x7800);
        // NaN nudges leave numbers and infinities alone
        for x in [0x3f80_0000, 0xff80_0000, 0x7f80_0000, 0x8000_0000] {
            assert_eq!(eval(f, x, Nudge::NanSign), x);
            assert_eq!(eval(f, x, Nudge::NanPayload), x);
        }
        assert_eq!(eval(f, 0x7fc0_0000, Nudge::NanSign), 0xffc0_0000);
        assert_eq!(eval(f, 0x7fc0_0000, Nudge::NanPayload), 0x7fff_ffff);
        assert_eq!(eval(f, 0x7fff_ffff, Nudge::NanPayload), 0x7fc0_0000);
        let g = DType::F64;
        let qnan = 0xfff8_0000_0000_0000;
        assert_eq!(eval(g, qnan, Nudge::NanSign), 0x7ff8_0000_0000_0000);
        assert_eq!(eval(g, qnan, Nudge::NanPayload), 0xffff_ffff_ffff_ffff);
        let one = float_const(g, 1.0, Default::default());
        let ExprKind::Const(one) = one.kind else {
            unreachable!()
        };
        assert_eq!(eval(g, one, Nudge::NanSign), one);
        assert_eq!(eval(g, one, Nudge::FlipSign), one | 1 << 63);
    }

    /// A NaN nudge copies the node it nudges; a node of more than
    /// `COPY_LIMIT` nodes is left as it is, any other nudge still applies.
    #[test]
    fn nan_nudges_leave_huge_nodes_alone() {
        let neg = |depth: usize| {
            let mut e = konst(DType::F32, 0x7fc0_0000, Default::default());
            for _ in 0..depth {
                e = build::unary(ksem_interp::ir::UnOp::Neg, e, Default::default());
            }
            e
        };
        let nudged = |e: Expr, n| matches!(apply(e, n).kind, ExprKind::Cast(..));
        assert!(nudged(neg(10), Nudge::NanSign));
        assert!(!nudged(neg(COPY_LIMIT), Nudge::NanSign));
        assert!(!nudged(neg(COPY_LIMIT), Nudge::NanPayload));
        assert!(nudged(neg(COPY_LIMIT), Nudge::Up(1)));
    }

    /// `Apart` takes turns by node, starting up for a positive `k`.
    #[test]
    fn apart_takes_turns() {
        let turns = |n: Nudge| (0..3).map(|i| n.at(i)).collect::<Vec<_>>();
        use Nudge::{Down, Up};
        assert_eq!(turns(Nudge::Apart(2)), [Up(2), Down(2), Up(2)]);
        assert_eq!(turns(Nudge::Apart(-64)), [Down(64), Up(64), Down(64)]);
        assert_eq!(turns(Nudge::FlipTop), [Nudge::FlipTop; 3]);
    }
}
