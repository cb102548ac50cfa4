//! What a real system computes for an operation of a documented
//! divergence, where its instruction sequence is known: the IR that
//! replaces ksem's node in triage's [`crate::nudge::Nudge::Model`] rerun.
//! A model reaches exactly the elements the real result changes, where an
//! unbounded nudge (±inf, ±2^30) would reach every element the value flows
//! into.

use ksem_interp::dtype::DType;
use ksem_interp::float::Rounding;
use ksem_interp::ir::build::{bin, konst, mk, select, unary};
use ksem_interp::ir::{BinOp, Expr, ExprKind, MathFn, Type, UnOp};
use ksem_interp::span::Span;

/// A float constant of `like`'s type (broadcast where it has a shape).
fn constant(like: &Type, bits: u64, span: Span) -> Expr {
    let c = konst(like.dtype(), bits, span);
    if like.shape.is_empty() {
        c
    } else {
        mk(ExprKind::Broadcast(Box::new(c)), like.clone(), span)
    }
}

/// The bits of +inf in float dtype `d`.
fn infinity(d: DType) -> u64 {
    match d {
        DType::F16 => 0x7c00,
        DType::BF16 => 0x7f80,
        DType::F32 => 0x7f80_0000,
        _ => 0x7ff0_0000_0000_0000,
    }
}

fn math(f: MathFn, x: Expr, span: Span) -> Expr {
    unary(UnOp::Math(f), x, span)
}

/// `a * b + c` rounded once, to nearest even.
fn fma(a: Expr, b: Expr, c: Expr, span: Span) -> Expr {
    let ty = c.ty.clone();
    mk(
        ExprKind::Fma(Box::new(a), Box::new(b), Box::new(c), Rounding::NearestEven),
        ty,
        span,
    )
}

/// The operands of a float remainder node.
fn rem_operands(e: &Expr) -> Option<(Expr, Expr)> {
    match &e.kind {
        ExprKind::Binary(BinOp::FRem, x, y) if e.ty.dtype().is_float() => {
            Some(((**x).clone(), (**y).clone()))
        }
        _ => None,
    }
}

/// Triton 3.6's float `%` (divergence #6, `docs/triton-measured.md`:
/// the PTX is `q = div.rn(x, y); t = cvt.rzi(q); r = fma(-t, y, x);
/// r = isinf(y) ? x : r`, checked bit-exactly on 24 cases).
pub fn triton_rem(e: Expr) -> Expr {
    let Some((x, y)) = rem_operands(&e) else {
        return e;
    };
    let (span, ty) = (e.span, e.ty.clone());
    let zero = constant(&ty, 0, span);
    let q = bin(BinOp::FDiv, x.clone(), y.clone(), span);
    // trunc: toward zero (ceil below zero, floor above)
    let negative = bin(BinOp::Lt, q.clone(), zero, span);
    let t = select(
        negative,
        math(MathFn::Ceil, q.clone(), span),
        math(MathFn::Floor, q, span),
        span,
    );
    let r = fma(unary(UnOp::Neg, t, span), y.clone(), x.clone(), span);
    let inf = constant(&ty, infinity(ty.dtype()), span);
    let y_inf = bin(BinOp::Eq, math(MathFn::Abs, y, span), inf, span);
    select(y_inf, x, r, span)
}

/// numba-cuda 0.30.4's float remainder (divergence N6): NVPTX's `frem`,
/// `sign(x) * fma(-floor(|x| / |y|), |y|, |x|)` with the division
/// correctly rounded (`tools/probes/numba/divmod_model.py`, checked bit for
/// bit against 8,260 measured `//` and `%` results). CPython's
/// `float_divmod` steps around it are ksem's own.
pub fn numba_rem(e: Expr) -> Expr {
    let Some((x, y)) = rem_operands(&e) else {
        return e;
    };
    let (span, ty) = (e.span, e.ty.clone());
    let ax = math(MathFn::Abs, x.clone(), span);
    let ay = math(MathFn::Abs, y, span);
    let q = math(
        MathFn::Floor,
        bin(BinOp::FDiv, ax.clone(), ay.clone(), span),
        span,
    );
    let m = fma(unary(UnOp::Neg, q, span), ay, ax, span);
    let negative = bin(BinOp::Lt, x, constant(&ty, 0, span), span);
    select(negative, unary(UnOp::Neg, m.clone(), span), m, span)
}

/// Triton 3.6's `tl.floor`/`tl.ceil` of a float32 (divergence #21,
/// `tools/probes/triton_features/subnormal_floor_ceil.py`): a subnormal
/// input is flushed to a zero of its sign first. Other dtypes as ksem.
pub fn triton_floor_ceil(e: Expr) -> Expr {
    let ExprKind::Unary(op @ UnOp::Math(MathFn::Floor | MathFn::Ceil), x) = &e.kind else {
        return e;
    };
    if e.ty.dtype() != DType::F32 {
        return e;
    }
    let (span, ty, op) = (e.span, e.ty.clone(), *op);
    let x = (**x).clone();
    // below the smallest normal float32, 2^-126 (0x00800000), in magnitude
    let tiny = bin(
        BinOp::Lt,
        math(MathFn::Abs, x.clone(), span),
        constant(&ty, 0x0080_0000, span),
        span,
    );
    // x * 0: a zero of x's sign (x is finite here)
    let zero = bin(BinOp::Mul, x.clone(), constant(&ty, 0, span), span);
    unary(op, select(tiny, zero, x, span), span)
}

#[cfg(test)]
mod tests {
    use crate::divergence::{NUMBA_ROWS, TRITON_ROWS};
    use ksem_interp::eval::RunOptions;
    use ksem_interp::launch::parse_launch;

    /// ksem's result for `o` of `src` with every float `%` replaced by the
    /// model of the row labelled `label`.
    fn modelled(src: &str, launch: &str, label: &str) -> Vec<u64> {
        let l = parse_launch(launch).unwrap();
        let k = ksem_interp::elaborate_source("k.py", src, &l, None).unwrap();
        let rows = TRITON_ROWS.iter().chain(NUMBA_ROWS);
        let row = rows.into_iter().find(|r| r.label == label).unwrap();
        let k = crate::divergence::modelled(&k, row);
        let r = ksem_interp::eval::run(&k, &l, &RunOptions::default()).unwrap();
        assert!(r.ub.is_empty(), "{:?}", r.ub);
        r.buffers
            .iter()
            .find(|b| b.name == "o")
            .unwrap()
            .bits
            .clone()
    }

    /// Triton 3.6's float32 `%` as measured (`docs/triton-measured.md`,
    /// the `float_mod_hard` probe): 7 % 0.1 = 0xb3e00000,
    /// 1e10 % 0.7 = 0x4287cc48, 16777216 % 0.3 = 0xbe888888, -0.0 % 1 and
    /// -5 % 5 = +0.0, 1 % inf = 1 (0x3f800000), 7 % 0 = NaN; ksem's C
    /// `fmod` gives 0.0999999 for the first.
    #[test]
    fn triton_rem_model_matches_measured_results() {
        let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, y, o):\n    offs = tl.arange(0, 8)\n    tl.store(o + offs, tl.load(x + offs) % tl.load(y + offs))\n";
        let launch = r#"{"grid": [1], "args": {"x": {"buffer": {"dtype": "float32", "data": [7.0, 1e10, 16777216.0, -0.0, -5.0, 1.0, 7.0, 5.5]}}, "y": {"buffer": {"dtype": "float32", "bits": ["0x3dcccccd", "0x3f333333", "0x3e99999a", "0x3f800000", "0x40a00000", "0x7f800000", "0x00000000", "0xc0000000"]}}, "o": {"buffer": {"dtype": "float32", "len": 8}}}}"#;
        let got = modelled(src, launch, "#6");
        let want = [0xb3e0_0000, 0x4287_cc48, 0xbe88_8888, 0, 0, 0x3f80_0000];
        assert_eq!(got[..6], want, "{got:x?}");
        assert!(f32::from_bits(got[6] as u32).is_nan());
        // 5.5 % -2 = 1.5: the sign of x
        assert_eq!(got[7], 1.5f32.to_bits() as u64);
    }

    /// Triton's float32 `tl.ceil(2^-149)` = 0 and `tl.floor(-2^-149)` = -0
    /// (docs/divergences.md #21, measured on an H100); ceil(1.5) = 2 and
    /// floor of the smallest normal, 2^-126, = 0 as in IEEE.
    #[test]
    fn triton_floor_ceil_model_flushes_subnormal_inputs() {
        let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, o):\n    offs = tl.arange(0, 4)\n    v = tl.load(x + offs)\n    tl.store(o + offs, tl.where(offs % 2 == 0, tl.ceil(v), tl.floor(v)))\n";
        let launch = r#"{"grid": [1], "args": {"x": {"buffer": {"dtype": "float32", "bits": ["0x00000001", "0x80000001", "0x3fc00000", "0x00800000"]}}, "o": {"buffer": {"dtype": "float32", "len": 4}}}}"#;
        let got = modelled(src, launch, "#21");
        assert_eq!(got, [0, 0x8000_0000, 0x4000_0000, 0], "{got:x?}");
    }

    /// numba-cuda's float64 `%` as measured (docs/divergences.md N6):
    /// `1e30 % 3.0` = 2^46 and `1e300 % 1e-300` = -inf; an ordinary case,
    /// `-7.5 % 2.0`, is 0.5 as in CPython.
    #[test]
    fn numba_rem_model_matches_measured_results() {
        let src = "from numba import cuda\n\n@cuda.jit\ndef k(x, y, o):\n    i = cuda.grid(1)\n    o[i] = x[i] % y[i]\n";
        let launch = r#"{"grid": [1], "block": [3], "args": {"x": {"buffer": {"dtype": "float64", "data": [1e30, 1e300, -7.5]}}, "y": {"buffer": {"dtype": "float64", "data": [3.0, 1e-300, 2.0]}}, "o": {"buffer": {"dtype": "float64", "len": 3}}}}"#;
        let got = modelled(src, launch, "N6");
        let want = [
            (2.0f64).powi(46).to_bits(),
            f64::NEG_INFINITY.to_bits(),
            0.5f64.to_bits(),
        ];
        assert_eq!(got, want, "{got:x?}");
    }
}
