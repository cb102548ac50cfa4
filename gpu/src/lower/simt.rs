//! Lowering of a SIMT program: every IR thread is one CUDA thread of a
//! block shaped as the launch says, running the kernel's scalar code with
//! ordinary (possibly divergent) C control flow. Shared arrays are
//! `__shared__` arrays (placed in the dynamic shared memory `ksem_smem`
//! where together they pass the 48 KiB a kernel may declare statically),
//! local arrays per-thread C arrays, barriers
//! `__syncthreads()`, atomics compare-and-swap loops around the runtime's
//! exact read-modify-write (`ksem_rmw`), so a float atomic add rounds as the
//! interpreter's does. Values are raw bits as in the tile lowering; element
//! operations are the scalar lowering's (`scalar.rs`: `unary_c`,
//! `binary_c`, `cast_c`, `fma_c`). Where the interpreter reports UB the generated code
//! stays in bounds: an out-of-range index reads 0 and writes nothing.

use super::program::{err, Body, LResult};
use super::scalar::{binary_c, bits_type, cast_c, dt, fma_c, ident, range_loop, unary_c, var_name};
use crate::inexact::Inexact;
use ksem_interp::ir::*;
use ksem_interp::span::Span;
use std::fmt::Write as _;

/// The most static shared memory one CUDA kernel may declare (48 KiB);
/// more must be dynamic, with the kernel's attribute raised at launch.
const STATIC_SMEM_LIMIT: usize = 48 * 1024;

/// Lowers the body of SIMT kernel `k`.
pub(super) fn body(k: &Kernel, inexact: &Inexact) -> LResult<Body> {
    let mut lw = SimtLower {
        k,
        inexact,
        out: String::new(),
        indent: 1,
        tmp: 0,
        span: Span::default(),
    };
    let mut local_bytes = 0;
    let shared_bytes: usize = k
        .arrays
        .iter()
        .filter(|a| a.space == AddrSpace::Shared)
        .map(|a| shared_slot(a.len().max(1) * a.dtype.storage_bits().div_ceil(8) as usize))
        .sum();
    let dynamic = shared_bytes > STATIC_SMEM_LIMIT;
    let mut offset = 0;
    for (id, a) in k.arrays.iter().enumerate() {
        let ty = bits_type(a.dtype);
        let n = a.len().max(1);
        let bytes = n * a.dtype.storage_bits().div_ceil(8) as usize;
        lw.span = a.span;
        let comment = format!("/* {} {} {:?} */", a.space.name(), a.dtype, a.shape);
        match a.space {
            AddrSpace::Shared if dynamic => {
                lw.line(&format!(
                    "{ty}* const {} = ({ty}*)(ksem_smem + {offset});  {comment}",
                    array_name(k, id)
                ));
                offset += shared_slot(bytes);
            }
            AddrSpace::Shared => {
                lw.line(&format!(
                    "__shared__ {ty} {}[{n}];  {comment}",
                    array_name(k, id)
                ));
            }
            AddrSpace::Local => {
                local_bytes += bytes;
                lw.line(&format!("{ty} {}[{n}];  {comment}", array_name(k, id)));
            }
            AddrSpace::Global => {
                return err(a.span, "an array declared in global memory");
            }
        }
    }
    lw.block(&k.body)?;
    Ok(Body {
        code: lw.out,
        smem_bytes: if dynamic { offset } else { 0 },
        local_bytes,
    })
}

/// Bytes a shared array of `bytes` takes in dynamic shared memory: whole
/// 16-byte slots, so every array starts aligned for any element type.
fn shared_slot(bytes: usize) -> usize {
    bytes.div_ceil(16) * 16
}

/// The C name of array `id`.
fn array_name(k: &Kernel, id: ArrayId) -> String {
    format!("a{id}_{}", ident(&k.arrays[id].name))
}

/// Where a pointer operand points: into a shared/local array (its C name,
/// length and an offset expression, -1 when an index is out of range), or a
/// global pointer value.
enum Place {
    Array {
        name: String,
        len: usize,
        off: String,
    },
    Global(String),
}

struct SimtLower<'a> {
    k: &'a Kernel,
    inexact: &'a Inexact,
    out: String,
    indent: usize,
    tmp: usize,
    /// The source position of the statement being lowered.
    span: Span,
}

impl SimtLower<'_> {
    /// Emits one line of C, ending with the source position it comes from.
    fn line(&mut self, code: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(code);
        let _ = writeln!(self.out, "  // line {}:{}", self.span.line, self.span.col);
    }

    fn fresh(&mut self) -> String {
        self.tmp += 1;
        format!("t{}", self.tmp)
    }

    fn block(&mut self, b: &Block) -> LResult<()> {
        for s in b {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn nested(&mut self, b: &Block) -> LResult<()> {
        self.indent += 1;
        let r = self.block(b);
        self.indent -= 1;
        r
    }

    fn stmt(&mut self, s: &Stmt) -> LResult<()> {
        match s {
            Stmt::Let(_, e) => self.span = e.span,
            Stmt::If { cond, .. } => self.span = cond.span,
            Stmt::Store { span, .. }
            | Stmt::For { span, .. }
            | Stmt::While { span, .. }
            | Stmt::Barrier { span }
            | Stmt::Print { span, .. } => self.span = *span,
            Stmt::Break | Stmt::Continue | Stmt::Return | Stmt::Gemm(_) => {}
        }
        match s {
            // a product on arrays is its loop nest (`Stmt::Gemm`)
            Stmt::Gemm(g) => {
                for s in &g.body {
                    self.stmt(s)?;
                }
            }
            Stmt::Let(v, e) => {
                let x = self.expr(e)?;
                let vn = var_name(self.k, *v);
                self.line(&format!("{vn} = {x};"));
            }
            Stmt::Store {
                ptr, value, mask, ..
            } => {
                let d = ptr.ty.dtype();
                let v = self.expr(value)?;
                let st = match self.place(ptr)? {
                    Place::Global(p) => {
                        let flag = self.inexact.expr(value);
                        format!("ksem_st<{}>(ksem_m, {p}, {v}, {flag});", dt(d))
                    }
                    Place::Array { name, len, off } => {
                        format!("ksem_ast<{}>({name}, {off}, {len}, {v});", dt(d))
                    }
                };
                match mask {
                    Some(m) => {
                        let m = self.expr(m)?;
                        self.line(&format!("if ({m} != 0) {st}"));
                    }
                    None => self.line(&st),
                }
            }
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = self.expr(cond)?;
                self.line(&format!("if ({c} != 0) {{"));
                self.nested(then_body)?;
                if !else_body.is_empty() {
                    self.line("} else {");
                    self.nested(else_body)?;
                }
                self.line("}");
            }
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let d = self.k.vars[*var].1.dtype();
                let lo = self.expr(start)?;
                let hi = self.expr(end)?;
                let st = self.expr(step)?;
                let t = [self.fresh(), self.fresh(), self.fresh(), self.fresh()];
                let [head, open, guard, set] =
                    range_loop(&var_name(self.k, *var), d, [&lo, &hi, &st], &t);
                self.line(&head);
                self.line(&open);
                self.indent += 1;
                self.line(&guard);
                self.line(&set);
                self.indent -= 1;
                self.nested(body)?;
                self.line("}");
            }
            Stmt::While { cond, body, .. } => {
                self.line("for (;;) {");
                self.indent += 1;
                let c = self.expr(cond)?;
                self.line(&format!("if ({c} == 0) break;"));
                self.line("if (++ksem_iters > KSEM_MAX_ITERS) return;");
                self.indent -= 1;
                self.nested(body)?;
                self.line("}");
            }
            Stmt::Break => self.line("break;"),
            Stmt::Continue => self.line("continue;"),
            Stmt::Return => self.line("return;"),
            Stmt::Barrier { .. } => self.line("__syncthreads();"),
            Stmt::Print { prefix, .. } => {
                let p: String = prefix
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || c == ' ' {
                            c
                        } else {
                            '?'
                        }
                    })
                    .collect();
                self.line(&format!("/* print({p:?}, ...) dropped */"));
            }
        }
        Ok(())
    }

    /// Where pointer expression `p` points. The catch-all arms here sort
    /// pointers by where they point (an array's element, a global pointer
    /// value); they give no op a meaning: a global pointer's value is
    /// `expr`'s, whose match names every op, and any other pointer into a
    /// shared or local array is refused.
    fn place(&mut self, p: &Expr) -> LResult<Place> {
        match &p.kind {
            ExprKind::ElemPtr {
                base,
                indices,
                dims,
                neg,
                offset,
            } => {
                let mut off = "0ll".to_string();
                for (i, d) in indices.iter().zip(dims) {
                    let iv = self.expr(i)?;
                    off = format!(
                        "ksem_index({off}, ksem_ival<{}>({iv}), {d}ll, {})",
                        dt(i.ty.dtype()),
                        *neg == NegIndex::Wrap
                    );
                }
                if let Some(o) = offset {
                    // the checks above, then the layout's own offset
                    let ov = self.expr(o)?;
                    off = format!(
                        "(({off}) < 0 ? -1ll : ksem_ival<{}>({ov}))",
                        dt(o.ty.dtype())
                    );
                }
                match &base.kind {
                    ExprKind::ArrayBase(id) => Ok(Place::Array {
                        name: array_name(self.k, *id),
                        len: self.k.arrays[*id].len(),
                        off,
                    }),
                    _ if base.ty.space() == Some(AddrSpace::Global) => {
                        let b = self.expr(base)?;
                        Ok(Place::Global(format!(
                            "ksem_ptradd<KI64>({b}, (ku64)({off}))"
                        )))
                    }
                    _ => err(
                        p.span,
                        "a pointer into shared or local memory held in a variable",
                    ),
                }
            }
            _ if p.ty.space() == Some(AddrSpace::Global) => Ok(Place::Global(self.expr(p)?)),
            // `q + k` where `q` points into a shared or local array
            // (`PtrAddBytes`: by whole elements, a part of one is UB)
            ExprKind::Binary(op @ (BinOp::PtrAdd | BinOp::PtrAddBytes), base, k) => match self
                .place(base)?
            {
                Place::Array { name, len, off } => {
                    let kv = self.expr(k)?;
                    let size = if *op == BinOp::PtrAdd {
                        1
                    } else {
                        p.ty.dtype().bits().div_ceil(8)
                    };
                    Ok(Place::Array {
                        name,
                        len,
                        off: format!(
                            "(({off}) < 0 ? -1ll : ({off}) + ksem_ival<{}>({kv}) / {size})",
                            dt(k.ty.dtype())
                        ),
                    })
                }
                Place::Global(_) => err(p.span, "a global pointer held as a shared or local one"),
            },
            _ => err(
                p.span,
                "a pointer into shared or local memory held in a variable",
            ),
        }
    }

    /// The C expression of `e` (its bits as `ku64`); operands are used once.
    fn expr(&mut self, e: &Expr) -> LResult<String> {
        let d = e.ty.dtype();
        Ok(match &e.kind {
            ExprKind::Const(b) => format!("{b:#x}ull"),
            // (undefined lanes hold 0, as the interpreter gives them)
            ExprKind::Undef => "0x0ull".to_string(),
            ExprKind::Var(v) => format!("(ku64){}", var_name(self.k, *v)),
            ExprKind::ThreadId(a) => format!("(ku64)threadIdx.{}", axis(*a)),
            ExprKind::BlockId(a) => format!("(ku64)blockIdx.{}", axis(*a)),
            ExprKind::BlockDim(a) => format!("(ku64)blockDim.{}", axis(*a)),
            ExprKind::GridDim(a) => format!("(ku64)gridDim.{}", axis(*a)),
            ExprKind::Cast(x, kind) => {
                let from = x.ty.dtype();
                let xv = self.expr(x)?;
                // (a pointer and its uint64 bits are one ku64)
                if from == d || x.ty.is_ptr() || e.ty.is_ptr() {
                    xv
                } else {
                    cast_c(*kind, from, d, &xv)
                }
            }
            ExprKind::Unary(op, x) => {
                let xv = self.expr(x)?;
                unary_c(*op, x.ty.dtype(), &xv)
            }
            // pointers into a shared or local array are element places:
            // their difference is that of their offsets
            ExprKind::Binary(BinOp::PtrDiff, a, b) if a.ty.space() != Some(AddrSpace::Global) => {
                match (self.place(a)?, self.place(b)?) {
                    (
                        Place::Array {
                            name: na, off: oa, ..
                        },
                        Place::Array {
                            name: nb, off: ob, ..
                        },
                    ) if na == nb => format!("(ku64)((ki64)({oa}) - (ki64)({ob}))"),
                    // (places, not ops: any other pair is two arrays or a global pointer)
                    _ => return err(e.span, "the difference of pointers into different arrays"),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let av = self.expr(a)?;
                let bv = self.expr(b)?;
                binary_c(*op, &a.ty, b.ty.dtype(), &av, &bv, e.span)?
            }
            ExprKind::CheckIndex {
                index, len, neg, ..
            } => {
                // -1 out of range, which the element pointer refuses
                let (iv, lv) = (self.expr(index)?, self.expr(len)?);
                format!(
                    "(ku64)ksem_index(0ll, ksem_ival<{0}>({iv}), ksem_ival<{0}>({lv}), {1})",
                    dt(d),
                    *neg == NegIndex::Wrap
                )
            }
            ExprKind::Select(c, a, b) => {
                let (cv, av, bv) = (self.expr(c)?, self.expr(a)?, self.expr(b)?);
                format!("({cv} != 0 ? {av} : {bv})")
            }
            ExprKind::Fma(a, b, c, r) => {
                let (av, bv, cv) = (self.expr(a)?, self.expr(b)?, self.expr(c)?);
                fma_c(d, *r, &av, &bv, &cv)
            }
            ExprKind::Load { ptr, mask, other } => {
                let ld = match self.place(ptr)? {
                    Place::Global(p) => format!("ksem_ld<{}>(ksem_m, {p})", dt(d)),
                    Place::Array { name, len, off } => {
                        format!("ksem_ald<{}>({name}, {off}, {len})", dt(d))
                    }
                };
                match mask {
                    None => ld,
                    Some(m) => {
                        let mv = self.expr(m)?;
                        let ov = match other {
                            Some(o) => self.expr(o)?,
                            None => "0ull".into(),
                        };
                        format!("({mv} != 0 ? {ld} : {ov})")
                    }
                }
            }
            ExprKind::Atomic {
                op, ptr, val, cmp, ..
            } => {
                let v = self.expr(val)?;
                let c = match cmp {
                    Some(c) => self.expr(c)?,
                    None => "0ull".into(),
                };
                let opm = crate::ids::atomic_macro(*op);
                match self.place(ptr)? {
                    Place::Global(p) => {
                        let vi = self.inexact.expr(val);
                        format!("ksem_atomic<{}>(ksem_m, {p}, {opm}, {v}, {c}, {vi})", dt(d))
                    }
                    Place::Array { name, len, off } => format!(
                        "ksem_aatomic<{}>({name}, {off}, {len}, {opm}, {v}, {c})",
                        dt(d)
                    ),
                }
            }
            ExprKind::ElemPtr { .. } => match self.place(e)? {
                Place::Global(p) => p,
                Place::Array { .. } => {
                    return err(e.span, "a pointer into shared or local memory as a value")
                }
            },
            ExprKind::ArrayBase(_) => {
                return err(e.span, "a pointer into shared or local memory as a value")
            }
            ExprKind::Iota(..)
            | ExprKind::Broadcast(_)
            | ExprKind::Reshape(_)
            | ExprKind::Permute(..)
            | ExprKind::Reduce { .. }
            | ExprKind::Scan { .. }
            | ExprKind::TupleReduce { .. }
            | ExprKind::TupleScan { .. }
            | ExprKind::Dot { .. } => return err(e.span, "a tile operation in a SIMT program"),
        })
    }
}

/// The `threadIdx`/`blockIdx` field of axis `a`.
fn axis(a: u8) -> &'static str {
    match a {
        0 => "x",
        1 => "y",
        // (an axis number, not an op: the IR's axes are 0, 1, 2)
        _ => "z",
    }
}
