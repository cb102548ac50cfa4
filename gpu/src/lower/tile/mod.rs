//! Tile lowering: a tile program (Triton's model) as one CUDA thread block
//! per program instance.
//!
//! Every program instance is one thread block (`blockIdx` = program id,
//! `gridDim` = number of programs) of `KSEM_THREADS` threads, a
//! compile-time constant chosen by whoever compiles the source (any value
//! ≥ 1 is correct). A tile of n elements lives in per-thread arrays
//! `T v[KSEM_SLOTS(n)]`: element i belongs to thread `i % KSEM_THREADS`,
//! slot `i / KSEM_THREADS`. Element-wise operations loop over a thread's own
//! slots; 0-d values are uniform scalars that every thread holds. Operations
//! that move values between elements (broadcast of a tile, permute,
//! reductions, extracting a scalar from a one-element tile) go through
//! shared memory between `__syncthreads()`. Control flow depends only on 0-d
//! values, so every thread takes the same path and the barriers inside it
//! are reached by all threads.

use super::program::{err, Body, LResult};
use super::scalar::{
    binary_c, bits_type, cast_c, dt, fma_c, range_loop, storage_bytes, storage_type, unary_c,
    var_name,
};
use crate::inexact::Inexact;
use ksem_interp::ir::*;
use ksem_interp::span::Span;
use std::fmt::Write as _;

mod combine;
mod fuse;
mod reduce;

/// Lowers the body of tile kernel `k`.
pub(super) fn body(k: &Kernel, inexact: &Inexact) -> LResult<Body> {
    let mut lw = Lower {
        k,
        inexact,
        out: String::new(),
        indent: 1,
        tmp: 0,
        smem: 0,
        no_sync: 0,
        last_span: Span::default(),
        local_bytes: 0,
    };
    lw.block(&k.body)?;
    Ok(Body {
        code: fuse::loops(&lw.out),
        smem_bytes: lw.smem,
        local_bytes: lw.local_bytes,
    })
}

/// A lowered value: a 0-d C expression (uniform), the name of a tile array
/// of `n` elements, or (`fused`) a pure C expression of slot `j` giving a
/// tile's element, which its consumer evaluates inside its own slot loop.
#[derive(Clone, Debug)]
struct Val {
    name: String,
    n: Option<usize>,
    fused: bool,
}

impl Val {
    fn scalar(name: String) -> Val {
        Val {
            name,
            n: None,
            fused: false,
        }
    }
    fn tile(name: String, n: usize) -> Val {
        Val {
            name,
            n: Some(n),
            fused: false,
        }
    }
    /// The value at slot `j` (tiles) or the uniform value.
    fn at(&self) -> String {
        match self.n {
            Some(_) if !self.fused => format!("{}[j]", self.name),
            // (a shape, not an op: a uniform value or a fused expression)
            _ => self.name.clone(),
        }
    }
}

struct Lower<'a> {
    k: &'a Kernel,
    inexact: &'a Inexact,
    out: String,
    indent: usize,
    tmp: usize,
    /// Largest shared-memory footprint of any operation, in bytes.
    smem: usize,
    /// > 0 while lowering code that runs in divergent per-element loops (custom combiners).
    no_sync: usize,
    /// Span of the last line emitted (for statements without a span of their own).
    last_span: Span,
    /// Bytes of the tile temporaries declared (with one thread per block).
    local_bytes: usize,
}

/// Row-major strides of a shape.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// C expression of coordinate `axis` of flat element index `idx` in `shape`.
fn coord(idx: &str, shape: &[usize], axis: usize) -> String {
    let st = strides(shape)[axis];
    let q = if st == 1 {
        idx.to_string()
    } else {
        format!("({idx} / {st})")
    };
    if axis == 0 {
        q
    } else {
        format!("({q} % {})", shape[axis])
    }
}

/// Sum of C terms (or "0").
fn sum_terms(terms: Vec<String>) -> String {
    if terms.is_empty() {
        "0".into()
    } else {
        terms.join(" + ")
    }
}

impl<'a> Lower<'a> {
    fn line(&mut self, code: &str, span: Span) {
        self.last_span = span;
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(code);
        let _ = writeln!(self.out, "  // line {}:{}", span.line, span.col);
    }

    fn fresh(&mut self) -> String {
        self.tmp += 1;
        format!("t{}", self.tmp)
    }

    fn need_smem(&mut self, bytes: usize) {
        self.smem = self.smem.max(bytes.div_ceil(16) * 16);
    }

    fn sync(&mut self, span: Span) -> LResult<()> {
        if self.no_sync > 0 {
            return err(
                span,
                "this operation moves values between elements, which a custom combine function cannot do on the GPU",
            );
        }
        self.line("__syncthreads();", span);
        Ok(())
    }

    fn block(&mut self, b: &Block) -> LResult<()> {
        for s in b {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn assign_var(&mut self, v: VarId, val: &Val, span: Span) {
        let vn = var_name(self.k, v);
        match &self.k.vars[v].1.shape[..] {
            [] => self.line(&format!("{vn} = {};", val.at()), span),
            shape => {
                let n: usize = shape.iter().product();
                if val.n.is_some() && val.name == vn {
                    return;
                }
                self.line(&format!("KSEM_FOR({n}) {vn}[j] = {};", val.at()), span);
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) -> LResult<()> {
        match s {
            // a product on arrays is its loop nest (`Stmt::Gemm`)
            Stmt::Gemm(g) => {
                for s in &g.body {
                    self.stmt(s)?;
                }
            }
            Stmt::Let(v, e) => {
                let val = self.expr(e)?;
                self.assign_var(*v, &val, e.span);
            }
            Stmt::Store {
                ptr,
                value,
                mask,
                span,
            } => {
                let p = self.expr(ptr)?;
                let v = self.expr(value)?;
                let m = match mask {
                    Some(m) => Some(self.expr(m)?),
                    None => None,
                };
                let d = ptr.ty.dtype();
                let flag = self.inexact.expr(value);
                let cond = m.as_ref().map(|m| format!("{} != 0", m.at()));
                self.sync(*span)?;
                let st = format!(
                    "ksem_st<{}>(ksem_m, {}, {}, {flag});",
                    dt(d),
                    p.at(),
                    v.at()
                );
                match ptr.ty.shape.len() {
                    0 => {
                        let c = match cond {
                            Some(c) => format!("KSEM_TID == 0 && {c}"),
                            None => "KSEM_TID == 0".into(),
                        };
                        self.line(&format!("if ({c}) {st}"), *span);
                    }
                    // (a rank, not an op: every tile's store is one loop)
                    _ => {
                        let n = ptr.ty.numel();
                        match cond {
                            Some(c) => self.line(&format!("KSEM_FOR({n}) if ({c}) {st}"), *span),
                            None => self.line(&format!("KSEM_FOR({n}) {st}"), *span),
                        }
                    }
                }
                self.sync(*span)?;
            }
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = self.expr(cond)?;
                self.line(&format!("if ({} != 0) {{", c.at()), cond.span);
                self.indent += 1;
                self.block(then_body)?;
                self.indent -= 1;
                if else_body.is_empty() {
                    self.line("}", cond.span);
                } else {
                    self.line("} else {", cond.span);
                    self.indent += 1;
                    self.block(else_body)?;
                    self.indent -= 1;
                    self.line("}", cond.span);
                }
            }
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
                span,
                ..
            } => {
                let d = self.k.vars[*var].1.dtype();
                let lo = self.expr(start)?;
                let hi = self.expr(end)?;
                let st = self.expr(step)?;
                let t = [self.fresh(), self.fresh(), self.fresh(), self.fresh()];
                let [head, open, guard, set] = range_loop(
                    &var_name(self.k, *var),
                    d,
                    [&lo.at(), &hi.at(), &st.at()],
                    &t,
                );
                self.line(&head, *span);
                self.line(&open, *span);
                self.indent += 1;
                self.line(&guard, *span);
                self.line(&set, *span);
                self.block(body)?;
                self.indent -= 1;
                self.line("}", *span);
            }
            Stmt::While { cond, body, span } => {
                self.line("for (;;) {", *span);
                self.indent += 1;
                let c = self.expr(cond)?;
                self.line(&format!("if ({} == 0) break;", c.at()), *span);
                self.line("if (++ksem_iters > KSEM_MAX_ITERS) return;", *span);
                self.block(body)?;
                self.indent -= 1;
                self.line("}", *span);
            }
            Stmt::Break => self.line("break;", self.last_span),
            Stmt::Continue => self.line("continue;", self.last_span),
            // Control flow is uniform: every thread of the block returns.
            Stmt::Return => self.line("return;", self.last_span),
            Stmt::Barrier { span } => return err(*span, "a barrier in a tile program"),
            Stmt::Print { prefix, span, .. } => {
                let p: String = prefix
                    .chars()
                    .map(|c| {
                        if c.is_ascii_graphic() || c == ' ' {
                            c
                        } else {
                            '?'
                        }
                    })
                    .collect();
                self.line(&format!("/* tl.device_print({p:?}, ...) dropped */"), *span);
            }
        }
        Ok(())
    }

    /// An element-wise node computing `rhs` (a pure C expression over the
    /// operands' `at()` forms, each used once) for every element of `e`:
    /// a tile is fused into its consumer's slot loop, so a chain of
    /// element-wise operations becomes one loop without intermediate arrays.
    fn elementwise(&mut self, e: &Expr, rhs: String) -> Val {
        if e.ty.shape.is_empty() {
            return self.materialized(e, rhs);
        }
        Val {
            name: format!("({rhs})"),
            n: Some(e.ty.numel()),
            fused: true,
        }
    }

    /// Emits an element-wise node computing `rhs` for every element of `e`
    /// into a temporary of its own (for values that must be computed where
    /// they stand: loads, which the store of the same statement must not
    /// overtake; corpus case `store_reads_before_writes`).
    fn materialized(&mut self, e: &Expr, rhs: String) -> Val {
        let cty = storage_type(&e.ty);
        let t = self.fresh();
        if e.ty.shape.is_empty() {
            self.line(&format!("const {cty} {t} = {rhs};"), e.span);
            Val::scalar(t)
        } else {
            let n = e.ty.numel();
            self.local_bytes += n * storage_bytes(&e.ty);
            self.line(
                &format!("{cty} {t}[KSEM_SLOTS({n})]; KSEM_FOR({n}) {t}[j] = {rhs};"),
                e.span,
            );
            Val::tile(t, n)
        }
    }

    /// Moves the elements of tile `x` through shared memory: output element
    /// `KSEM_I` of `e` takes element `src` (a C expression of `KSEM_I`) of `x`.
    fn gather(&mut self, e: &Expr, x: &Val, src: String) -> LResult<Val> {
        let cty = storage_type(&e.ty);
        let nx = x.n.unwrap_or(1);
        self.need_smem(nx * storage_bytes(&e.ty));
        let s = self.fresh();
        self.line(&format!("{cty}* const {s} = ({cty}*)ksem_smem;"), e.span);
        self.line(&format!("KSEM_FOR({nx}) {s}[KSEM_I] = {};", x.at()), e.span);
        self.sync(e.span)?;
        let t = self.fresh();
        let out = if e.ty.shape.is_empty() {
            self.line(&format!("const {cty} {t} = {s}[0];"), e.span);
            Val::scalar(t)
        } else {
            let n = e.ty.numel();
            self.local_bytes += n * storage_bytes(&e.ty);
            self.line(
                &format!("{cty} {t}[KSEM_SLOTS({n})]; KSEM_FOR({n}) {t}[j] = {s}[{src}];"),
                e.span,
            );
            Val::tile(t, n)
        };
        self.sync(e.span)?;
        Ok(out)
    }

    fn expr(&mut self, e: &Expr) -> LResult<Val> {
        let out_d = e.ty.dtype();
        Ok(match &e.kind {
            ExprKind::Const(b) => Val::scalar(format!("{b:#x}ull")),
            ExprKind::Var(v) => Val {
                name: var_name(self.k, *v),
                n: (!self.k.vars[*v].1.shape.is_empty()).then(|| self.k.vars[*v].1.numel()),
                fused: false,
            },
            ExprKind::BlockId(a) => {
                let f = ["x", "y", "z"][(*a as usize).min(2)];
                self.elementwise(e, format!("(ku64)blockIdx.{f}"))
            }
            ExprKind::GridDim(a) => {
                let f = ["x", "y", "z"][(*a as usize).min(2)];
                self.elementwise(e, format!("(ku64)gridDim.{f}"))
            }
            ExprKind::ThreadId(_)
            | ExprKind::BlockDim(_)
            | ExprKind::ArrayBase(_)
            | ExprKind::ElemPtr { .. }
            | ExprKind::CheckIndex { .. } => {
                return err(e.span, "a SIMT operation in a tile program")
            }
            ExprKind::Atomic {
                op,
                ptr,
                val,
                cmp,
                mask,
            } => self.atomic(e, *op, ptr, val, cmp.as_deref(), mask.as_deref())?,
            // (undefined lanes hold 0, as the interpreter gives them)
            ExprKind::Undef => self.elementwise(e, "0ull".to_string()),
            ExprKind::Iota(s, _) => {
                let start = *s as u64;
                self.elementwise(e, format!("((ku64)KSEM_I + {start:#x}ull) & 0xffffffffull"))
            }
            ExprKind::Broadcast(x) => {
                let xv = self.expr(x)?;
                match xv.n {
                    // a 0-d value stands for the uniform tile (every consumer reads it by `at()`)
                    None => xv,
                    Some(nx) if nx == e.ty.numel() => xv,
                    Some(_) => {
                        let xs = &x.ty.shape;
                        let os = &e.ty.shape;
                        if xs.len() != os.len() {
                            return err(e.span, "broadcast between different ranks");
                        }
                        let xst = strides(xs);
                        let terms = (0..os.len())
                            .filter(|&k| xs[k] != 1)
                            .map(|k| {
                                let c = coord("KSEM_I", os, k);
                                if xst[k] == 1 {
                                    c
                                } else {
                                    format!("{c} * {}", xst[k])
                                }
                            })
                            .collect();
                        self.gather(e, &xv, sum_terms(terms))?
                    }
                }
            }
            ExprKind::Reshape(x) => {
                let xv = self.expr(x)?;
                match (xv.n, e.ty.shape.is_empty()) {
                    (None, true) => xv,
                    (None, false) => self.elementwise(e, xv.name.clone()),
                    (Some(_), true) => self.gather(e, &xv, "0".into())?,
                    (Some(_), false) => Val {
                        n: Some(e.ty.numel()),
                        ..xv
                    },
                }
            }
            ExprKind::Permute(x, perm) => {
                let xv = self.expr(x)?;
                let xs = &x.ty.shape;
                // Axes of size > 1 in their order: if unchanged, the flat order is too.
                let moved: Vec<usize> = perm.iter().copied().filter(|&a| xs[a] != 1).collect();
                let sorted = moved.windows(2).all(|w| w[0] < w[1]);
                if xv.n.is_none() || sorted {
                    xv
                } else {
                    let os = &e.ty.shape;
                    let xst = strides(xs);
                    let terms = (0..os.len())
                        .filter(|&k| os[k] != 1)
                        .map(|k| {
                            let c = coord("KSEM_I", os, k);
                            let st = xst[perm[k]];
                            if st == 1 {
                                c
                            } else {
                                format!("{c} * {st}")
                            }
                        })
                        .collect();
                    self.gather(e, &xv, sum_terms(terms))?
                }
            }
            ExprKind::Cast(x, kind) => {
                let xv = self.expr(x)?;
                let from = x.ty.dtype();
                // (a pointer and its uint64 bits are one ku64)
                if from == out_d || x.ty.is_ptr() || e.ty.is_ptr() {
                    return Ok(xv);
                }
                let rhs = cast_c(*kind, from, out_d, &xv.at());
                self.elementwise(e, rhs)
            }
            ExprKind::Unary(op, x) => {
                let xv = self.expr(x)?;
                let d = x.ty.dtype();
                let a = xv.at();
                let rhs = unary_c(*op, d, &a);
                self.elementwise(e, rhs)
            }
            ExprKind::Binary(op, a, b) => {
                let av = self.expr(a)?;
                let bv = self.expr(b)?;
                let rhs = binary_c(*op, &a.ty, b.ty.dtype(), &av.at(), &bv.at(), e.span)?;
                self.elementwise(e, rhs)
            }
            ExprKind::Select(c, a, b) => {
                let cv = self.expr(c)?;
                let av = self.expr(a)?;
                let bv = self.expr(b)?;
                let rhs = format!("({} != 0 ? {} : {})", cv.at(), av.at(), bv.at());
                self.elementwise(e, rhs)
            }
            ExprKind::Fma(a, b, c, r) => {
                let av = self.expr(a)?;
                let bv = self.expr(b)?;
                let cv = self.expr(c)?;
                let rhs = fma_c(out_d, *r, &av.at(), &bv.at(), &cv.at());
                self.elementwise(e, rhs)
            }
            ExprKind::Load { ptr, mask, other } => {
                let pv = self.expr(ptr)?;
                let mv = match mask {
                    Some(m) => Some(self.expr(m)?),
                    None => None,
                };
                let ov = match other {
                    Some(o) => Some(self.expr(o)?),
                    None => None,
                };
                let ld = format!("ksem_ld<{}>(ksem_m, {})", dt(out_d), pv.at());
                let rhs = match mv {
                    Some(m) => format!(
                        "({} != 0 ? {ld} : {})",
                        m.at(),
                        ov.map_or("0ull".to_string(), |o| o.at())
                    ),
                    None => ld,
                };
                self.materialized(e, rhs)
            }
            ExprKind::Reduce {
                arg,
                axis,
                combiner,
                ..
            } => self.reduce(e, arg, axis.unwrap_or(0), combiner)?,
            ExprKind::Scan {
                arg,
                axis,
                reverse,
                op,
            } => self.scan(e, arg, *axis, *reverse, *op)?,
            ExprKind::TupleReduce {
                args,
                axis,
                combine,
                pick,
            } => self.tuple_reduce(e, args, *axis, combine, *pick)?,
            ExprKind::TupleScan {
                args,
                axis,
                reverse,
                combine,
                pick,
            } => self.tuple_scan(e, args, *axis, *reverse, combine, *pick)?,
            ExprKind::Dot {
                a,
                b,
                acc,
                precision,
            } => self.dot(e, a, b, acc, *precision)?,
        })
    }

    /// An atomic over a tile of pointers: each thread updates its own
    /// elements (a 0-d atomic: thread 0, its old value shared through shared
    /// memory), between barriers so that it sees the program's earlier
    /// stores and its later loads see it. Masked lanes give 0.
    fn atomic(
        &mut self,
        e: &Expr,
        op: AtomicOp,
        ptr: &Expr,
        val: &Expr,
        cmp: Option<&Expr>,
        mask: Option<&Expr>,
    ) -> LResult<Val> {
        let p = self.expr(ptr)?;
        let v = self.expr(val)?;
        let c = match cmp {
            Some(c) => self.expr(c)?.at(),
            None => "0ull".into(),
        };
        let m = match mask {
            Some(m) => Some(self.expr(m)?.at()),
            None => None,
        };
        let d = e.ty.dtype();
        let vi = self.inexact.expr(val);
        let call = format!(
            "ksem_atomic<{}>(ksem_m, {}, {}, {}, {c}, {vi})",
            dt(d),
            p.at(),
            crate::ids::atomic_macro(op),
            v.at()
        );
        let rhs = match m {
            Some(m) => format!("({m} != 0 ? {call} : 0ull)"),
            None => call,
        };
        self.sync(e.span)?;
        let out = if e.ty.shape.is_empty() {
            let cty = storage_type(&e.ty);
            self.need_smem(8);
            let s = self.fresh();
            self.line(&format!("{cty}* const {s} = ({cty}*)ksem_smem;"), e.span);
            self.line(&format!("if (KSEM_TID == 0) {s}[0] = {rhs};"), e.span);
            self.sync(e.span)?;
            let t = self.fresh();
            self.line(&format!("const {cty} {t} = {s}[0];"), e.span);
            Val::scalar(t)
        } else {
            self.materialized(e, rhs)
        };
        self.sync(e.span)?;
        Ok(out)
    }

    /// A matrix product in the interpreter's order: both operands go to
    /// shared memory, then every thread computes its own result elements,
    /// each from the accumulator's element with k ascending, one rounded
    /// product and one rounded sum per step (the runtime's `ksem_fmul` /
    /// `ksem_fadd` never contract into an fma).
    fn dot(
        &mut self,
        e: &Expr,
        a: &Expr,
        b: &Expr,
        acc: &Expr,
        precision: DotPrecision,
    ) -> LResult<Val> {
        let av = self.expr(a)?;
        let bv = self.expr(b)?;
        let cv = self.expr(acc)?;
        let d = e.ty.dtype();
        let cty = bits_type(d);
        let bytes = d.storage_bits() as usize / 8;
        let shape = &e.ty.shape;
        let r = shape.len();
        if r < 2 {
            return err(e.span, "a matrix product of fewer than two dimensions");
        }
        let (m, n, kd) = (shape[r - 2], shape[r - 1], a.ty.shape[r - 1]);
        let (na, nb, total) = (a.ty.numel(), b.ty.numel(), e.ty.numel());
        let abytes = (na * bytes).div_ceil(16) * 16;
        self.need_smem(abytes + nb * bytes);
        let sp = e.span;
        let (sa, sb) = (self.fresh(), self.fresh());
        self.line(&format!("{cty}* const {sa} = ({cty}*)ksem_smem;"), sp);
        self.line(
            &format!("{cty}* const {sb} = ({cty}*)(ksem_smem + {abytes});"),
            sp,
        );
        self.line(&format!("KSEM_FOR({na}) {sa}[KSEM_I] = {};", av.at()), sp);
        self.line(&format!("KSEM_FOR({nb}) {sb}[KSEM_I] = {};", bv.at()), sp);
        self.sync(sp)?;
        let operand = |s: &str, i: &str| -> String {
            match precision {
                DotPrecision::Tf32 => format!("ksem_tf32({s}[{i}])"),
                DotPrecision::Ieee => format!("{s}[{i}]"),
            }
        };
        let ty = Type::scalar(d);
        let prod = binary_c(
            BinOp::Mul,
            &ty,
            d,
            &operand(&sa, "ia"),
            &operand(&sb, "ib"),
            sp,
        )?;
        let sum = binary_c(BinOp::Add, &ty, d, "r", &prod, sp)?;
        let t = self.fresh();
        self.local_bytes += total * bytes;
        self.line(
            &format!(
                "{cty} {t}[KSEM_SLOTS({total})]; KSEM_FOR({total}) {{ const int q = KSEM_I / {n}, c = KSEM_I % {n}; const int ia0 = q * {kd}, ib0 = (q / {m}) * {} + c; {cty} r = {}; for (int k = 0; k < {kd}; ++k) {{ const int ia = ia0 + k, ib = ib0 + k * {n}; r = ({cty})({sum}); }} {t}[j] = r; }}",
                kd * n,
                cv.at()
            ),
            sp,
        );
        self.sync(sp)?;
        Ok(Val::tile(t, total))
    }
}
