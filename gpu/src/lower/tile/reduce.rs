//! Reductions and scans of the tile lowering, in shared memory: a reduction
//! in the canonical tree order, a scan in sequential order, as the
//! interpreter computes them.

use super::{Lower, Val};
use crate::lower::program::{err, LResult};
use crate::lower::scalar::{binary_c, bits_type, dt, storage_bytes, storage_type, var_name};
use ksem_interp::dtype::DType;
use ksem_interp::ir::*;

/// Combining code of a builtin combiner on shared values `s[ia]`, `s[ib]` (and indices `x[ia]`, `x[ib]`).
fn builtin_combine(c: &Combiner, d: DType, s: &str, x: &str) -> String {
    let dd = dt(d);
    let f = d.is_float();
    let a = format!("{s}[ia]");
    let b = format!("{s}[ib]");
    match c {
        Combiner::Sum if f => format!("{a} = ksem_fadd<{dd}>({a}, {b});"),
        Combiner::Sum => format!("{a} = ksem_iadd<{dd}>({a}, {b});"),
        Combiner::Max(m) | Combiner::Min(m) => {
            let max = matches!(c, Combiner::Max(_));
            if f {
                format!(
                    "{a} = ksem_fminmax<{dd}>({a}, {b}, {max}, {});",
                    *m == NanMode::Propagate
                )
            } else {
                format!(
                    "{a} = ksem_{}<{dd}>({a}, {b});",
                    if max { "imax" } else { "imin" }
                )
            }
        }
        Combiner::Xor => format!("{a} = {a} ^ {b};"),
        Combiner::ArgMax { .. } | Combiner::ArgMin { .. } => {
            let max = matches!(c, Combiner::ArgMax { .. });
            format!(
                "if (!ksem_arg_keep_a<{dd}>({max}, {a}, {x}[ia], {b}, {x}[ib])) {{ {a} = {b}; {x}[ia] = {x}[ib]; }}"
            )
        }
        Combiner::Custom { .. } => unreachable!("custom combiners are lowered by the caller"),
    }
}

impl Lower<'_> {
    /// An inclusive scan in the interpreter's sequential order, in shared
    /// memory: one work item per line along `axis` walks it element by element.
    pub(super) fn scan(
        &mut self,
        e: &Expr,
        arg: &Expr,
        axis: usize,
        reverse: bool,
        op: BinOp,
    ) -> LResult<Val> {
        let xv = self.expr(arg)?;
        let shape = &arg.ty.shape;
        if axis >= shape.len() {
            return err(e.span, "scan of a 0-d value");
        }
        let n = shape[axis];
        let inner: usize = shape[axis + 1..].iter().product();
        let total: usize = shape.iter().product();
        let lines = total.checked_div(n).unwrap_or(0);
        let d = arg.ty.dtype();
        let cty = bits_type(d);
        self.need_smem((total * (d.storage_bits() as usize / 8)).div_ceil(16) * 16);
        let sp = e.span;
        let s = self.fresh();
        self.line(&format!("{cty}* const {s} = ({cty}*)ksem_smem;"), sp);
        self.line(&format!("KSEM_FOR({total}) {s}[KSEM_I] = {};", xv.at()), sp);
        self.sync(sp)?;
        let comb = binary_c(op, &arg.ty, d, &format!("{s}[ip]"), &format!("{s}[ic]"), sp)?;
        self.line(
            &format!(
                "{} {s}[ic] = {comb}; ip = ic; }} }}",
                scan_walk(n, inner, lines, reverse)
            ),
            sp,
        );
        self.sync(sp)?;
        let out = self.materialized(e, format!("{s}[KSEM_I]"));
        self.sync(sp)?;
        Ok(out)
    }

    /// A reduction in the canonical tree order of DESIGN.md, in shared memory.
    pub(super) fn reduce(
        &mut self,
        e: &Expr,
        arg: &Expr,
        axis: usize,
        c: &Combiner,
    ) -> LResult<Val> {
        let xv = self.expr(arg)?;
        let shape = &arg.ty.shape;
        if shape.is_empty() || axis >= shape.len() {
            return err(e.span, "reduction of a 0-d value");
        }
        let n = shape[axis];
        let inner: usize = shape[axis + 1..].iter().product();
        let total: usize = shape.iter().product();
        let rows = total.checked_div(n).unwrap_or(0);
        let d = arg.ty.dtype();
        let cty = bits_type(d);
        let p = n.next_power_of_two();
        if matches!(c, Combiner::Custom { .. }) && p != n {
            return err(
                e.span,
                "tl.reduce with a custom combine function needs a power-of-two axis",
            );
        }
        let is_arg = matches!(c, Combiner::ArgMax { .. } | Combiner::ArgMin { .. });
        let vbytes = (total * (d.storage_bits() as usize / 8)).div_ceil(16) * 16;
        self.need_smem(vbytes + if is_arg { total * 4 } else { 0 });
        let sp = e.span;
        let s = self.fresh();
        let xi = self.fresh();
        self.line(&format!("{cty}* const {s} = ({cty}*)ksem_smem;"), sp);
        let idx_of = |i: &str| -> String {
            if inner == 1 {
                format!("{i} % {n}")
            } else {
                format!("({i} / {inner}) % {n}")
            }
        };
        if is_arg {
            self.line(
                &format!("ku32* const {xi} = (ku32*)(ksem_smem + {vbytes});"),
                sp,
            );
            self.line(
                &format!(
                    "KSEM_FOR({total}) {{ {s}[KSEM_I] = {}; {xi}[KSEM_I] = {}; }}",
                    xv.at(),
                    idx_of("KSEM_I")
                ),
                sp,
            );
        } else {
            self.line(&format!("KSEM_FOR({total}) {s}[KSEM_I] = {};", xv.at()), sp);
        }
        self.sync(sp)?;
        let (st, w) = (self.fresh(), "w");
        let row_base = |r: &str| -> String {
            if inner == 1 {
                format!("{r} * {n}")
            } else {
                format!("({r} / {inner}) * {} + {r} % {inner}", n * inner)
            }
        };
        if !matches!(c, Combiner::Custom { .. }) {
            // planted bug (tests only): a sequential left fold instead of the tree
            self.line("#if KSEM_PLANT_REDUCE_SEQ", sp);
            self.line(&format!("KSEM_WORK({rows}) {{ const int r = {w}; const int ia = {}; for (int k = 1; k < {n}; ++k) {{ const int ib = ia + k * {inner}; {} }} }}", row_base("r"), builtin_combine(c, d, &s, &xi)), sp);
            self.line(&format!("for (int {st} = 0; {st} >= 1; {st} /= 2) {{"), sp);
            self.line("#else", sp);
            self.line(
                &format!("for (int {st} = {}; {st} >= 1; {st} /= 2) {{", p / 2),
                sp,
            );
            self.line("#endif", sp);
        } else {
            self.line(
                &format!("for (int {st} = {}; {st} >= 1; {st} /= 2) {{", p / 2),
                sp,
            );
        }
        self.indent += 1;
        self.line(&format!("KSEM_WORK({rows} * {st}) {{"), sp);
        self.indent += 1;
        self.line(&format!("const int r = {w} / {st}, k = {w} % {st};"), sp);
        self.line(&format!("if (k + {st} < {n}) {{"), sp);
        self.indent += 1;
        self.line(
            &format!(
                "const int ia = {} + k * {inner}, ib = ia + {st} * {inner};",
                row_base("r")
            ),
            sp,
        );
        match c {
            Combiner::Custom {
                lhs,
                rhs,
                body,
                result,
            } => {
                let (l, r) = (var_name(self.k, *lhs), var_name(self.k, *rhs));
                self.line(&format!("{l} = {s}[ia]; {r} = {s}[ib];"), sp);
                self.no_sync += 1;
                self.block(body)?;
                let rv = self.expr(result)?;
                self.no_sync -= 1;
                self.line(&format!("{s}[ia] = {};", rv.at()), sp);
            }
            Combiner::Sum
            | Combiner::Max(_)
            | Combiner::Min(_)
            | Combiner::Xor
            | Combiner::ArgMax { .. }
            | Combiner::ArgMin { .. } => {
                let code = builtin_combine(c, d, &s, &xi);
                self.line(&code, sp);
            }
        }
        self.indent -= 1;
        self.line("}", sp);
        self.indent -= 1;
        self.line("}", sp);
        self.line("__syncthreads();", sp);
        self.indent -= 1;
        self.line("}", sp);
        let src = if matches!(
            c,
            Combiner::ArgMax { value: false } | Combiner::ArgMin { value: false }
        ) {
            &xi
        } else {
            &s
        };
        self.reduced_rows(e, src, rows, &row_base)
    }

    /// The result of a reduction whose row `r` ended at element
    /// `row_base(r)` of the shared array `src`: `e`'s value (one per row),
    /// then the barrier before the array is reused.
    pub(super) fn reduced_rows(
        &mut self,
        e: &Expr,
        src: &str,
        rows: usize,
        row_base: &dyn Fn(&str) -> String,
    ) -> LResult<Val> {
        let sp = e.span;
        let ocp = storage_type(&e.ty);
        let t = self.fresh();
        let out = if e.ty.shape.is_empty() {
            self.line(&format!("const {ocp} {t} = {src}[0];"), sp);
            Val::scalar(t)
        } else {
            self.local_bytes += rows * storage_bytes(&e.ty);
            self.line(
                &format!(
                    "{ocp} {t}[KSEM_SLOTS({rows})]; KSEM_FOR({rows}) {t}[j] = {src}[{}];",
                    row_base("KSEM_I")
                ),
                sp,
            );
            Val::tile(t, rows)
        };
        self.sync(sp)?;
        Ok(out)
    }
}

/// The opening of a sequential scan (the order docs/semantics.md gives:
/// first to last along the axis, last to first when `reverse`) over
/// `lines` lines of `n` elements with `inner` elements after the axis:
/// each work item walks one line, `ip` the position before and `ic` the
/// current one. The caller writes the step, then `ip = ic; } }`.
pub(super) fn scan_walk(n: usize, inner: usize, lines: usize, reverse: bool) -> String {
    let (first, step) = if reverse {
        (format!("{}", (n.max(1) - 1) * inner), format!("-{inner}"))
    } else {
        ("0".to_string(), format!("{inner}"))
    };
    format!(
        "KSEM_WORK({lines}) {{ int ip = (w / {inner}) * {} + w % {inner} + {first}; for (int k = 1; k < {n}; ++k) {{ const int ic = ip + ({step});",
        n * inner
    )
}
