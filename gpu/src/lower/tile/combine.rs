//! Lowering of user combine functions over N operands (`TupleReduce`,
//! `TupleScan`) in the interpreter's orders: one shared-memory array per
//! operand; the combine body runs per work item on private copies of the
//! left and right tuples and writes its N results back.

use super::reduce::scan_walk;
use super::{Lower, Val};
use crate::lower::program::{err, LResult};
use crate::lower::scalar::{bits_type, storage_bytes, var_name};
use ksem_interp::ir::{Combine, Expr};
use ksem_interp::span::Span;

impl Lower<'_> {
    /// One shared-memory array per operand, filled with the operands' elements.
    fn combine_arrays(&mut self, args: &[Expr], sp: Span) -> LResult<Vec<String>> {
        let vals = args
            .iter()
            .map(|a| self.expr(a))
            .collect::<LResult<Vec<Val>>>()?;
        let total = args[0].ty.numel();
        let mut off = 0;
        let mut names = Vec::new();
        let mut fill = String::new();
        for (a, v) in args.iter().zip(&vals) {
            let cty = bits_type(a.ty.dtype());
            let s = self.fresh();
            self.line(
                &format!("{cty}* const {s} = ({cty}*)(ksem_smem + {off});"),
                sp,
            );
            fill.push_str(&format!(" {s}[KSEM_I] = {};", v.at()));
            off += (total * storage_bytes(&a.ty)).div_ceil(16) * 16;
            names.push(s);
        }
        self.need_smem(off);
        self.line(&format!("KSEM_FOR({total}) {{{fill} }}"), sp);
        self.sync(sp)?;
        Ok(names)
    }

    /// Runs the combine body on the tuples at shared-memory indices `l` and
    /// `r` (C expressions) and stores its results at index `l_out`.
    fn combine_step(
        &mut self,
        c: &Combine,
        args: &[Expr],
        s: &[String],
        (l, r, out): (&str, &str, &str),
        sp: Span,
    ) -> LResult<()> {
        for (k, name) in s.iter().enumerate() {
            let (lv, rv) = (var_name(self.k, c.lhs[k]), var_name(self.k, c.rhs[k]));
            self.line(&format!("{lv} = {name}[{l}]; {rv} = {name}[{r}];"), sp);
        }
        self.no_sync += 1;
        self.block(&c.body)?;
        let mut temps = Vec::new();
        for (res, a) in c.results.iter().zip(args) {
            let v = self.expr(res)?;
            let t = self.fresh();
            self.line(
                &format!("const {} {t} = {};", bits_type(a.ty.dtype()), v.at()),
                sp,
            );
            temps.push(t);
        }
        self.no_sync -= 1;
        for (name, t) in s.iter().zip(&temps) {
            self.line(&format!("{name}[{out}] = {t};"), sp);
        }
        Ok(())
    }

    /// A tuple reduction in the canonical tree order (`Reduce`'s): at each
    /// stride st the tuple at k < st of a row becomes combine(tuple[k], tuple[k+st]).
    pub(super) fn tuple_reduce(
        &mut self,
        e: &Expr,
        args: &[Expr],
        axis: usize,
        c: &Combine,
        pick: usize,
    ) -> LResult<Val> {
        let sp = e.span;
        let shape = args[0].ty.shape.clone();
        let n = shape[axis];
        if !n.is_power_of_two() {
            return err(
                sp,
                "tl.reduce with a custom combine function needs a power-of-two axis",
            );
        }
        let inner: usize = shape[axis + 1..].iter().product();
        let rows = shape.iter().product::<usize>() / n;
        let s = self.combine_arrays(args, sp)?;
        let row_base = |r: &str| format!("({r} / {inner}) * {} + {r} % {inner}", n * inner);
        let st = self.fresh();
        self.line(
            &format!("for (int {st} = {}; {st} >= 1; {st} /= 2) {{", n / 2),
            sp,
        );
        self.indent += 1;
        self.line(&format!("KSEM_WORK({rows} * {st}) {{"), sp);
        self.indent += 1;
        self.line(
            &format!(
                "const int r = w / {st}, k = w % {st}; const int ia = {} + k * {inner}, ib = ia + {st} * {inner};",
                row_base("r")
            ),
            sp,
        );
        self.combine_step(c, args, &s, ("ia", "ib", "ia"), sp)?;
        self.indent -= 1;
        self.line("}", sp);
        self.line("__syncthreads();", sp);
        self.indent -= 1;
        self.line("}", sp);
        self.reduced_rows(e, &s[pick], rows, &row_base)
    }

    /// A tuple scan in the sequential order (`Scan`'s): one work item per
    /// line walks it, combining the accumulated tuple (left) with the next
    /// element's (right).
    pub(super) fn tuple_scan(
        &mut self,
        e: &Expr,
        args: &[Expr],
        axis: usize,
        reverse: bool,
        c: &Combine,
        pick: usize,
    ) -> LResult<Val> {
        let sp = e.span;
        let shape = args[0].ty.shape.clone();
        let n = shape[axis];
        let inner: usize = shape[axis + 1..].iter().product();
        let lines = shape.iter().product::<usize>().checked_div(n).unwrap_or(0);
        let s = self.combine_arrays(args, sp)?;
        self.line(&scan_walk(n, inner, lines, reverse), sp);
        self.indent += 1;
        self.combine_step(c, args, &s, ("ip", "ic", "ic"), sp)?;
        self.line("ip = ic;", sp);
        self.indent -= 1;
        self.line("} }", sp);
        self.sync(sp)?;
        let out = self.materialized(e, format!("{}[KSEM_I]", s[pick]));
        self.sync(sp)?;
        Ok(out)
    }
}
