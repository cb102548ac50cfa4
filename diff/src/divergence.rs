//! Which documented divergence explains a difference with a real system.
//!
//! `docs/divergences.md` lists operations a real system computes otherwise
//! (Triton's `div.full.f32` float32 `/`, its float `%`, its `tl.sum` order,
//! its approximate math, the NaN bits of its `tl.abs`; numba-cuda's float
//! `%`, math, and the NaN sign of its negations). A difference is bucketed
//! under such a row when every differing element is one the row's
//! operations reach: ksem reruns the kernel with every result of those
//! operations nudged, once per kind of nudge the row lists
//! ([`crate::nudge`]: ulps both ways up to the row's bound, the sign,
//! infinities and zero for an unbounded row, a NaN's sign and payload for a
//! NaN-bits row), and the elements any rerun changes are the ones they
//! reach, through comparisons, conversions, bitcasts, branches, memory and
//! reductions alike. A difference outside them is something else, and is
//! triaged as such.

use crate::backend::Backend;
use crate::nudge::{self, Nudge, ANY, MODEL_ULP2, NAN_BITS, ULP2, ULP64};
use ksem_interp::dtype::DType;
use ksem_interp::eval::RunOptions;
use ksem_interp::ir::{BinOp, Combiner, Expr, ExprKind, Kernel, MathFn, UnOp};
use ksem_interp::launch::{Launch, RunResult};

/// A row of `docs/divergences.md` whose operations can be recognised in
/// the IR.
pub struct Row {
    /// The row's label (`#4`, `N6`).
    pub label: &'static str,
    /// What the row's operations are, in words.
    pub what: &'static str,
    /// Whether a node is one of them.
    pub matches: fn(&Expr) -> bool,
    /// The other results the real system may give for them
    /// ([`crate::nudge`]).
    pub nudges: &'static [Nudge],
    /// What the real system computes for a node, where known
    /// ([`crate::models`]; [`Nudge::Model`] applies it).
    pub model: Option<fn(Expr) -> Expr>,
}

fn float_binary(e: &Expr, op: BinOp, dtype: Option<DType>) -> bool {
    match &e.kind {
        ExprKind::Binary(o, a, _) if *o == op => {
            let d = a.ty.dtype();
            d.is_float() && dtype.is_none_or(|x| x == d)
        }
        _ => false,
    }
}

fn f32_div(e: &Expr) -> bool {
    float_binary(e, BinOp::FDiv, Some(DType::F32))
}

fn float_rem(e: &Expr) -> bool {
    float_binary(e, BinOp::FRem, None)
}

fn float_sum(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Reduce { combiner, .. } if **combiner == Combiner::Sum)
        && e.ty.dtype().is_float()
}

/// A float math function other than those in `exact`.
fn math_except(e: &Expr, exact: &[MathFn]) -> bool {
    matches!(&e.kind, ExprKind::Unary(UnOp::Math(m), _) if !exact.contains(m))
        && e.ty.dtype().is_float()
}

/// Approximate math: every math function but the exact ones (`abs`,
/// `sqrt_rn`) and `floor`/`ceil` (their own row, #21).
fn float_math(e: &Expr) -> bool {
    use MathFn::{Abs, Ceil, Floor, SqrtRn};
    math_except(e, &[Abs, SqrtRn, Floor, Ceil])
}

fn floor_ceil(e: &Expr) -> bool {
    use ksem_interp::ir::MathFn::{Ceil, Floor};
    matches!(&e.kind, ExprKind::Unary(UnOp::Math(Floor | Ceil), _)) && e.ty.dtype().is_float()
}

/// The bits of a constant operand (a broadcast one too).
fn constant(e: &Expr) -> Option<u64> {
    match &e.kind {
        ExprKind::Broadcast(x) => constant(x),
        _ => ksem_interp::ir::build::fold(e),
    }
}

/// A float negation or `abs`: a NaN's sign through them (N22, #30).
fn neg_or_abs(e: &Expr) -> bool {
    matches!(
        &e.kind,
        ExprKind::Unary(UnOp::Neg | UnOp::Math(MathFn::Abs), _)
    ) && e.ty.dtype().is_float()
}

/// Triton's NaN-bits rows: `tl.abs` of a float (#30: the NaN of a product
/// keeps its sign), a float times the literal -1.0 (#13: a sign flip that
/// keeps the NaN's payload), float arithmetic with a NaN constant (#22:
/// folded to the constant's bits).
fn triton_nan_bits(e: &Expr) -> bool {
    let d = e.ty.dtype();
    if !d.is_float() {
        return false;
    }
    match &e.kind {
        ExprKind::Unary(UnOp::Math(MathFn::Abs), _) => true,
        ExprKind::Binary(op, a, b) => {
            let value = |x: &Expr| constant(x).map(|bits| ksem_interp::float::to_f64(d, bits));
            let (va, vb) = (value(a), value(b));
            let minus_one = *op == BinOp::Mul && (va == Some(-1.0) || vb == Some(-1.0));
            let nan = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::FDiv)
                && (va.is_some_and(f64::is_nan) || vb.is_some_and(f64::is_nan));
            minus_one || nan
        }
        _ => false,
    }
}

/// The rows about real Triton that triage recognises (its peer's
/// [`crate::peer::Peer::divergences`]).
pub const TRITON_ROWS: &[Row] = &[
    Row {
        label: "#4",
        what: "float32 `/` (div.full.f32)",
        matches: f32_div,
        nudges: ULP2,
        model: None,
    },
    Row {
        label: "#5, #12",
        what: "approximate sqrt, rsqrt and math functions",
        matches: float_math,
        nudges: ULP64,
        model: None,
    },
    Row {
        label: "#21",
        what: "`tl.floor`/`tl.ceil` flush subnormal inputs",
        matches: floor_ceil,
        nudges: MODEL_ULP2,
        model: Some(crate::models::triton_floor_ceil),
    },
    Row {
        label: "#6",
        what: "float `%`",
        matches: float_rem,
        nudges: MODEL_ULP2,
        model: Some(crate::models::triton_rem),
    },
    Row {
        label: "#11",
        what: "float `tl.sum` order",
        matches: float_sum,
        nudges: ANY,
        model: None,
    },
    Row {
        label: "#13, #22, #30",
        what: "the bits of a NaN from `tl.abs`, `x * -1.0` or a NaN constant",
        matches: triton_nan_bits,
        nudges: NAN_BITS,
        model: None,
    },
];

/// numba-cuda's approximate math: every math function but the exact ones
/// (`abs`, `sqrt`: `sqrt.rn`, measured, docs/numba-measured.md (j)) and
/// `floor`/`ceil`.
fn numba_math(e: &Expr) -> bool {
    use MathFn::{Abs, Ceil, Floor, Sqrt, SqrtRn};
    math_except(e, &[Abs, Sqrt, SqrtRn, Floor, Ceil])
}

/// The rows about real numba-cuda that triage recognises.
pub const NUMBA_ROWS: &[Row] = &[
    Row {
        label: "N6",
        what: "float `%` and `//` remainder",
        matches: float_rem,
        nudges: MODEL_ULP2,
        model: Some(crate::models::numba_rem),
    },
    Row {
        label: "N13",
        what: "approximate float32 math",
        matches: numba_math,
        nudges: ULP64,
        model: None,
    },
    Row {
        label: "N22",
        what: "the sign of a NaN through a negation or `abs`",
        matches: neg_or_abs,
        nudges: NAN_BITS,
        model: None,
    },
];

/// The rows about `backend` whose operations `k` has (none where it is
/// not a real system).
pub fn rows_in(k: &Kernel, backend: Backend) -> Vec<&'static Row> {
    let rows = backend.peer().map_or(&[][..], |p| p.divergences);
    rows.iter()
        .filter(|r| {
            let mut any = false;
            for l in k.launches() {
                ksem_interp::ir::walk::for_each_expr(&l.body, &mut |e| {
                    e.for_each(&mut |x| any |= (r.matches)(x))
                });
            }
            any
        })
        .collect()
}

/// `k` with every node a row of `rows` that lists nudge `n` matches
/// nudged by `n`.
fn with_nudges(k: &Kernel, rows: &[&Row], n: Nudge) -> Kernel {
    let mut k = k.clone();
    let mut bodies: Vec<&mut ksem_interp::ir::Block> = vec![&mut k.body];
    bodies.extend(k.then.iter_mut().map(|l| &mut l.body));
    let mut i = 0;
    for b in bodies {
        ksem_interp::ir::canon::exprs_mut(b, &mut |e| {
            if let Some(r) = rows
                .iter()
                .find(|r| r.nudges.contains(&n) && (r.matches)(e))
            {
                let old =
                    std::mem::replace(e, ksem_interp::ir::build::konst(DType::I32, 0, e.span));
                *e = match r.model {
                    Some(model) if n == Nudge::Model && nudge::may_copy(&old) => model(old),
                    _ => nudge::apply(old, n.at(i)),
                };
                i += 1;
            }
        });
    }
    k
}

/// `k` with every node `row` matches replaced by its model of the real
/// system (for tests of a model).
#[cfg(test)]
pub fn modelled(k: &Kernel, row: &Row) -> Kernel {
    with_nudges(k, &[row], Nudge::Model)
}

/// The nudges any of `rows` lists, each once, in their order.
fn nudges_of(rows: &[&Row]) -> Vec<Nudge> {
    let mut all: Vec<Nudge> = Vec::new();
    for n in rows.iter().flat_map(|r| r.nudges) {
        if !all.contains(n) {
            all.push(*n);
        }
    }
    all
}

/// Per buffer of `base`, the elements some nudge of the rows' operations
/// changes (`None`: no nudged run ran cleanly).
pub fn reached(k: &Kernel, l: &Launch, base: &RunResult, rows: &[&Row]) -> Option<Vec<Vec<bool>>> {
    let mut seen: Vec<Vec<bool>> = base
        .buffers
        .iter()
        .map(|b| vec![false; b.bits.len()])
        .collect();
    let mut ran = false;
    let opts = RunOptions {
        threads: 1,
        ..RunOptions::default()
    };
    for n in nudges_of(rows) {
        let kn = with_nudges(k, rows, n);
        let Ok(r) = ksem_interp::eval::run(&kn, l, &opts) else {
            continue;
        };
        if !r.ub.is_empty() {
            continue;
        }
        ran = true;
        for (i, b) in base.buffers.iter().enumerate() {
            let Some(nb) = r.buffers.iter().find(|x| x.name == b.name) else {
                continue;
            };
            for (j, (x, y)) in b.bits.iter().zip(&nb.bits).enumerate() {
                seen[i][j] |= x != y;
            }
        }
    }
    ran.then_some(seen)
}

/// The documented divergence that explains every difference between the
/// reference `a` (ksem's run of `k` with `l`) and the real system's `b`:
/// the label of the first row whose operations reach every differing
/// element, else of all the kernel's rows together; `None` where they
/// do not.
pub fn explain(k: &Kernel, l: &Launch, a: &RunResult, b: &RunResult) -> Option<String> {
    let backend = Backend::parse(&b.backend).ok()?;
    let rows = rows_in(k, backend);
    if rows.is_empty() {
        return None;
    }
    let covers = |reach: &[Vec<bool>]| -> bool {
        a.buffers.iter().zip(reach).all(|(ba, seen)| {
            let Some(bb) = b.buffers.iter().find(|x| x.name == ba.name) else {
                return true;
            };
            ba.bits
                .iter()
                .zip(&bb.bits)
                .enumerate()
                .all(|(j, (x, y))| x == y || seen[j])
        })
    };
    for r in &rows {
        if reached(k, l, a, &[*r]).is_some_and(|s| covers(&s)) {
            return Some(r.label.to_string());
        }
    }
    if rows.len() > 1 && reached(k, l, a, &rows).is_some_and(|s| covers(&s)) {
        let labels: Vec<&str> = rows.iter().map(|r| r.label).collect();
        return Some(labels.join(", "));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::gen::{generate, Config};
    use crate::triage::{bucket, diff_kind, Bucket, Rerun};
    use ksem_interp::frontend::Dialect;
    use ksem_interp::launch::parse_launch;

    /// Issue 27's program 191: `1 / x` of float16 values computed in
    /// float32 (`div.full.f32` on Triton, divergence #4), real Triton 1 ulp
    /// off in 3 elements. A second output, `x + 1`, has no division.
    fn case(flip: &[(usize, usize)]) -> Bucket {
        let src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr, o_ptr, p_ptr):\n    offs = tl.arange(0, 8)\n    x = tl.load(x_ptr + offs)\n    tl.store(o_ptr + offs, 1 / x)\n    tl.store(p_ptr + offs, x + 1)\n";
        let l = parse_launch(r#"{"grid": [1], "args": {"x_ptr": {"buffer": {"dtype": "float16", "data": [3, 7, 0.1, -11, 13, 6.5, 17, 1e-3]}}, "o_ptr": {"buffer": {"dtype": "float16", "len": 8}}, "p_ptr": {"buffer": {"dtype": "float16", "len": 8}}}}"#).unwrap();
        let k = ksem_interp::elaborate_source("k.py", src, &l, None).unwrap();
        let a = ksem_interp::eval::run(&k, &l, &RunOptions::default()).unwrap();
        let mut b = a.clone();
        b.backend = "triton".into();
        for &(buf, i) in flip {
            b.buffers[buf].bits[i] += 1;
        }
        let kind = diff_kind(&a, &b).unwrap();
        let rerun = Rerun {
            kernel: &k,
            launch: &l,
            gpu: false,
            files: None,
        };
        bucket(kind, &a, &b, &rerun)
    }

    /// Differences confined to what the float32 division produced are
    /// divergence #4; one in the sum's output is not.
    #[test]
    fn differences_from_a_division_are_divergence_4() {
        let o = |i| (1, i); // buffers in the result: x_ptr, o_ptr, p_ptr
        let p = |i| (2, i);
        assert_eq!(case(&[o(1), o(4), o(6)]), Bucket::Divergence("#4".into()));
        assert!(matches!(case(&[o(1), p(2)]), Bucket::Undecided(_)));
    }

    /// A real-system campaign leaves out the documented rows' operations
    /// (float32 `/`, float `%`, float `tl.sum`, approximate math) unless
    /// asked with `divergent_ops`.
    #[test]
    fn real_system_campaigns_leave_divergent_operations_out_unless_asked() {
        for (dialect, at_least) in [(Dialect::Triton, 30), (Dialect::CudaPy, 30)] {
            let count = |divergent_ops: bool| {
                let cfg = Config {
                    dialect,
                    real_peer: true,
                    divergent_ops,
                    ..Default::default()
                };
                (0..300)
                    .filter(|&i| {
                        let p = generate(&cfg, 27, i);
                        let Some(k) = p.ir.as_ref() else { return false };
                        // (the NaN-bits rows' `abs` and negation are not avoided)
                        rows_in(k, Backend::Real(dialect))
                            .iter()
                            .any(|r| r.nudges != NAN_BITS)
                    })
                    .count()
            };
            assert_eq!(count(false), 0, "{dialect:?}");
            assert!(count(true) > at_least, "{dialect:?}: {}", count(true));
        }
    }
}
