//! CUDA Python's builtin `min`/`max`, as numba-cuda 0.30.4 computes them
//! (measured on an NVIDIA H200: `tools/probes/numba/minmax_mixed.json`).
//!
//! - A call on exactly two floats (float32/float64, either mixed) is
//!   libdevice's `fmin`/`fmax` (numba-cuda's `cudaimpl`): a NaN operand is
//!   ignored, `max(-0.0, 0.0)` is +0.0 (IR `Min`/`Max` with
//!   [`NanMode::Ignore`]).
//! - Any other call (a float and an int or bool, or three or more
//!   operands) is Python's algorithm (numba's generic `do_minmax`): the
//!   operands fold pairwise, each pair converted to its promoted type, the
//!   accumulator replaced by `v` only where `v > acc` (`max`) or
//!   `v < acc` (`min`). So a NaN first operand propagates (no comparison
//!   with it holds), a later NaN is skipped, and ties keep the first
//!   (`max(-0.0, 0)` is -0.0). Expressed with a comparison and a select.
//!   Where the promoted type is an integer the fold equals the IR's
//!   `Min`/`Max`, which it keeps.

use super::*;

/// Whether `d` is a float numba-cuda's two-operand `fmin`/`fmax` takes.
fn libdevice_float(d: DType) -> bool {
    matches!(d, DType::F32 | DType::F64)
}

/// Whether a call on `n` operands of dtypes `ds` is libdevice's
/// `fmin`/`fmax` (else Python's algorithm).
fn is_libdevice(ds: &[DType]) -> bool {
    ds.len() == 2 && ds.iter().all(|&d| libdevice_float(d))
}

/// One step of the fold: `acc` and `v` converted to their promoted type,
/// then `Min`/`Max` (`libdevice`, or an integer type) or Python's
/// `v if v OP acc else acc`. Both operands must be temporaries (read twice).
fn step(is_min: bool, libdevice: bool, acc: Expr, v: Expr, span: Span) -> Expr {
    let d = types::promote(dtype_of(&acc), dtype_of(&v));
    let (acc, v) = (convert(acc, d), convert(v, d));
    if libdevice || !d.is_float() {
        let op = if is_min {
            BinOp::Min(NanMode::Ignore)
        } else {
            BinOp::Max(NanMode::Ignore)
        };
        return bin(op, acc, v, span);
    }
    let op = if is_min { BinOp::Lt } else { BinOp::Gt };
    let pred = bin(op, v.clone(), acc.clone(), span);
    select(pred, v, acc, span)
}

impl Elab<'_> {
    /// `min(a, b, …)` / `max(a, b, …)` of two or more numbers.
    pub(super) fn builtin_min_max(
        &mut self,
        is_min: bool,
        args: &[ast::Expr],
        span: Span,
    ) -> DResult<Val> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            let v = self.expr(a)?;
            let v = self.num(v, self.span(a))?;
            vals.push(self.temp(v));
        }
        let ds: Vec<DType> = vals.iter().map(dtype_of).collect();
        let libdevice = is_libdevice(&ds);
        let mut it = vals.into_iter();
        let mut acc = it.next().expect("two or more");
        for v in it {
            let m = step(is_min, libdevice, acc, v, span);
            acc = self.temp(m);
        }
        Ok(Val::Num(acc))
    }
}
