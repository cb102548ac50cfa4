//! The one comparison of results that `diff`, `fuzz`, the reducer,
//! `corpus check` and the tests use: bits must be equal, except that an
//! element either side marks inexact (approximate math, order-dependent
//! atomics) may differ by [`INEXACT_ULP_BOUND`] units in the last place;
//! two NaNs of a float type are equal only with the same bits, except under
//! that bound (any two NaNs are 0 ULP apart).

use crate::dtype::DType;
use crate::float::ulp_distance;
use crate::launch::{hex_bits, RunResult};

/// ULP distance tolerated for elements derived from approximate math (the
/// documented CUDA bounds of expf/logf/sinf/cosf/exp2f/log2f/rsqrtf are at
/// most 2 ULP each; one more rounding and slack for one dependent operation).
pub const INEXACT_ULP_BOUND: u64 = 8;

/// Whether element bits `a` and `b` of dtype `d` agree: equal, or floats
/// within `bound` ULP (0: bit for bit).
pub fn agrees(d: DType, a: u64, b: u64, bound: u64) -> bool {
    a == b || (bound > 0 && d.is_float() && ulp_distance(d, a, b) <= bound)
}

/// One differing element.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub buffer: String,
    pub index: usize,
    pub a: u64,
    pub b: u64,
    /// ULP distance (floats), else `None`.
    pub ulp: Option<u64>,
    pub inexact: bool,
}

/// The differences between two results of the same launch.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    pub mismatches: Vec<Mismatch>,
    /// Total differing elements per buffer (the list above is capped).
    pub counts: Vec<(String, usize)>,
    /// Shape-level problems (missing buffers, lengths, UB on one side only).
    pub problems: Vec<String>,
    /// Differing elements that neither side marks inexact.
    pub exact: usize,
}

impl Comparison {
    pub fn is_match(&self) -> bool {
        self.mismatches.is_empty() && self.problems.is_empty()
    }

    /// A mismatch only in elements derived from approximate math, beyond the
    /// ULP bound: such differences can grow without limit through later
    /// operations (a division by a difference, a conversion to an integer),
    /// so they are told apart from exact mismatches.
    pub fn is_inexact_only(&self) -> bool {
        !self.is_match() && self.problems.is_empty() && self.exact == 0
    }
}

/// Compares `a` and `b`, keeping at most `keep` mismatches per buffer.
pub fn compare(a: &RunResult, b: &RunResult, keep: usize) -> Comparison {
    let mut c = Comparison::default();
    if a.ub.is_empty() != b.ub.is_empty() {
        c.problems.push(format!(
            "UB reported by {} only",
            if a.ub.is_empty() {
                &b.backend
            } else {
                &a.backend
            }
        ));
    }
    for ba in &a.buffers {
        let Some(bb) = b.buffers.iter().find(|x| x.name == ba.name) else {
            c.problems
                .push(format!("buffer {} missing from {}", ba.name, b.backend));
            continue;
        };
        if ba.bits.len() != bb.bits.len() || ba.dtype != bb.dtype {
            c.problems
                .push(format!("buffer {} differs in dtype or length", ba.name));
            continue;
        }
        let mut n = 0;
        for i in 0..ba.bits.len() {
            let (x, y) = (ba.bits[i], bb.bits[i]);
            // an undefined element holds no value to compare
            if x == y || ba.is_undefined(i) || bb.is_undefined(i) {
                continue;
            }
            let inexact = ba.inexact.get(i).copied().unwrap_or(false)
                || bb.inexact.get(i).copied().unwrap_or(false);
            let ulp = ba.dtype.is_float().then(|| ulp_distance(ba.dtype, x, y));
            if inexact && agrees(ba.dtype, x, y, INEXACT_ULP_BOUND) {
                continue;
            }
            n += 1;
            c.exact += !inexact as usize;
            if n <= keep {
                c.mismatches.push(Mismatch {
                    buffer: ba.name.clone(),
                    index: i,
                    a: x,
                    b: y,
                    ulp,
                    inexact,
                });
            }
        }
        if n > 0 {
            c.counts.push((ba.name.clone(), n));
        }
    }
    c
}

/// The readable report of a comparison.
pub fn report(a: &RunResult, b: &RunResult, c: &Comparison) -> String {
    let mut s = String::new();
    for p in &c.problems {
        s.push_str(&format!("{p}\n"));
    }
    for (buf, n) in &c.counts {
        s.push_str(&format!(
            "{buf}: {n} elements differ between {} and {}\n",
            a.backend, b.backend
        ));
        let d = a
            .buffers
            .iter()
            .find(|x| &x.name == buf)
            .map(|x| x.dtype)
            .expect("buffer");
        for m in c.mismatches.iter().filter(|m| &m.buffer == buf) {
            let ulp = m.ulp.map(|u| format!(", {u} ulp")).unwrap_or_default();
            s.push_str(&format!(
                "  [{}] {}: {} ({})  {}: {} ({}){ulp}{}\n",
                m.index,
                a.backend,
                hex_bits(d, m.a),
                crate::eval::format_value(d, m.a),
                b.backend,
                hex_bits(d, m.b),
                crate::eval::format_value(d, m.b),
                if m.inexact { ", inexact" } else { "" }
            ));
        }
    }
    if c.is_match() {
        s.push_str(&format!(
            "{} and {} agree on every buffer\n",
            a.backend, b.backend
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::BufferResult;

    fn result(backend: &str, bits: Vec<u64>, inexact: Vec<bool>) -> RunResult {
        RunResult {
            kernel: "k".into(),
            backend: backend.into(),
            buffers: vec![BufferResult {
                name: "out".into(),
                dtype: DType::F32,
                bits,
                inexact,
                undefined: Vec::new(),
            }],
            ub: vec![],
        }
    }

    #[test]
    fn inexact_elements_compare_within_the_bound_and_are_told_apart() {
        let one = 0x3f80_0000u64; // 1.0f32
        let a = result("a", vec![one, one, 5], vec![true, true, false]);
        // within the bound on an inexact element: a match
        let near = result("b", vec![one + INEXACT_ULP_BOUND, one, 5], vec![false; 3]);
        assert!(compare(&a, &near, 8).is_match());
        // beyond it, on inexact elements only: an inexact-only mismatch
        let far = result("b", vec![one + INEXACT_ULP_BOUND + 1, 0, 5], vec![false; 3]);
        let c = compare(&a, &far, 8);
        assert!(!c.is_match() && c.is_inexact_only(), "{c:?}");
        // any exact element differing makes it an exact mismatch
        let exact = result("b", vec![one, one, 6], vec![false; 3]);
        let c = compare(&a, &exact, 8);
        assert!(!c.is_match() && !c.is_inexact_only());
        assert_eq!(c.exact, 1);
    }

    #[test]
    fn undefined_elements_are_not_compared() {
        let a = result("a", vec![1, 2, 3], vec![false; 3]);
        let mut b = result("b", vec![1, 9, 3], vec![false; 3]);
        assert!(!compare(&a, &b, 8).is_match());
        // element 1 was never written in a buffer the launch left uninitialised
        b.buffers[0].undefined = vec![false, true, false];
        assert!(compare(&a, &b, 8).is_match());
        assert!(compare(&b, &a, 8).is_match());
    }
}
