//! Values for generated programs that every generator shares: edge-biased
//! literals and buffer contents. (The bounds of a UB-free float→int
//! conversion are its hazard's: `ksem_interp::hazard::float_bounds`.)

use super::rng::Rng;
use ksem_interp::dtype::DType;
use ksem_interp::float::{self, Overflow, Rounding};
use ksem_interp::frontend::triton::promote::PyNum;
use rustpython_parser::ast::CmpOp;

/// Python's six comparison operators, which the Python-front-end
/// generators pick from.
pub const COMPARISONS: [CmpOp; 6] = [
    CmpOp::Lt,
    CmpOp::LtE,
    CmpOp::Gt,
    CmpOp::GtE,
    CmpOp::Eq,
    CmpOp::NotEq,
];

/// A literal (a Python number) that fits dtype `d`, biased to edge values.
pub fn literal(rng: &mut Rng, d: DType) -> PyNum {
    if d == DType::Bool {
        return PyNum::Bool(rng.chance(0.5));
    }
    if d.is_float() {
        let choices = [
            0.0,
            -0.0,
            1.5,
            -2.25,
            0.1,
            1e-3,
            1e4,
            3.0e38,
            f64::INFINITY,
            f64::NAN,
            -1.0,
        ];
        return PyNum::Float(*rng.pick(&choices));
    }
    let (lo, hi) = d.int_range();
    let edges = [0, 1, 2, 3, 7, -1, -7, lo, hi, 100, -100];
    let ok: Vec<i128> = edges
        .iter()
        .copied()
        .filter(|v| (lo..=hi).contains(v))
        .collect();
    PyNum::Int(*rng.pick(&ok))
}

/// An input element of dtype `d`: [`edge_bits`], with a NaN replaced by
/// 1.0 where `finite_nan` (a real system is a backend: NaN payloads are a
/// documented divergence, not a finding).
pub fn input_bits(rng: &mut Rng, d: DType, finite_nan: bool) -> u64 {
    let b = edge_bits(rng, d);
    if finite_nan && d.is_float() && float::to_f64(d, b).is_nan() {
        float::from_f64(d, 1.0, Rounding::NearestEven, Overflow::Infinity)
    } else {
        b
    }
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
