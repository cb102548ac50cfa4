//! Prints the typed program: every statement with its source position and
//! every expression with its dtype and shape (`ksem check`).

use crate::eval::format_value;
use crate::ir::*;
use std::fmt::Write;

/// Renders a kernel as readable text.
pub fn kernel(k: &Kernel) -> String {
    let mut out = String::new();
    let params: Vec<String> = k
        .params
        .iter()
        .map(|p| match &p.kind {
            ParamKind::Pointer(d) => format!("{}: *{d}", p.name),
            ParamKind::Scalar(d) => format!("{}: {d}", p.name),
            ParamKind::Constexpr => format!("{}: constexpr", p.name),
        })
        .collect();
    let _ = writeln!(out, "kernel {}({})", k.name, params.join(", "));
    let launches = k.launches();
    for (i, l) in launches.iter().enumerate() {
        if launches.len() > 1 {
            let _ = writeln!(
                out,
                "launch {} of {}: grid {:?}",
                i + 1,
                launches.len(),
                l.grid
            );
        }
        launch(l, &mut out);
    }
    out
}

/// The arrays and body of a kernel of one launch.
fn launch(k: &Kernel, out: &mut String) {
    for a in &k.arrays {
        let _ = writeln!(
            out,
            "{:>7}   {} {}: {}{:?}",
            a.span.to_string(),
            a.space.name(),
            a.name,
            a.dtype,
            a.shape
        );
    }
    block(k, &k.body, 1, out);
}

/// Renders one statement (nested bodies included) of kernel `k`.
pub fn stmt(k: &Kernel, s: &Stmt) -> String {
    let mut out = String::new();
    block(k, std::slice::from_ref(s), 0, &mut out);
    out
}

fn var(k: &Kernel, v: VarId) -> String {
    format!("{}.{v}", k.vars[v].0)
}

fn block(k: &Kernel, b: &[Stmt], depth: usize, out: &mut String) {
    let ind = "  ".repeat(depth);
    for s in b {
        match s {
            Stmt::Let(v, e) => {
                let _ = writeln!(
                    out,
                    "{:>7} {ind}{}: {} = {}",
                    e.span.to_string(),
                    var(k, *v),
                    k.vars[*v].1,
                    expr(k, e)
                );
            }
            Stmt::Store {
                ptr,
                value,
                mask,
                span,
            } => {
                let m = mask
                    .as_ref()
                    .map(|m| format!(", mask={}", expr(k, m)))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "{:>7} {ind}store({}, {}{m})",
                    span.to_string(),
                    expr(k, ptr),
                    expr(k, value)
                );
            }
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => {
                let _ = writeln!(
                    out,
                    "{:>7} {ind}if {}:",
                    cond.span.to_string(),
                    expr(k, cond)
                );
                block(k, then_body, depth + 1, out);
                if !else_body.is_empty() {
                    let _ = writeln!(out, "{:>7} {ind}else:", "");
                    block(k, else_body, depth + 1, out);
                }
            }
            Stmt::For {
                var: v,
                start,
                end,
                step,
                body,
                span,
                parallel,
            } => {
                let _ = writeln!(
                    out,
                    "{:>7} {ind}for {}: {} in {}range({}, {}, {}):",
                    span.to_string(),
                    var(k, *v),
                    k.vars[*v].1,
                    if parallel.is_some() { "parallel " } else { "" },
                    expr(k, start),
                    expr(k, end),
                    expr(k, step)
                );
                block(k, body, depth + 1, out);
            }
            Stmt::While { cond, body, span } => {
                let _ = writeln!(out, "{:>7} {ind}while {}:", span.to_string(), expr(k, cond));
                block(k, body, depth + 1, out);
            }
            Stmt::Break => {
                let _ = writeln!(out, "{:>7} {ind}break", "");
            }
            Stmt::Continue => {
                let _ = writeln!(out, "{:>7} {ind}continue", "");
            }
            Stmt::Return => {
                let _ = writeln!(out, "{:>7} {ind}return", "");
            }
            Stmt::Barrier { span } => {
                let _ = writeln!(out, "{:>7} {ind}barrier", span.to_string());
            }
            Stmt::Gemm(g) => {
                let s = &g.spec;
                let name = |a: ArrayId| k.arrays.get(a).map_or("?", |d| d.name.as_str());
                let t = |on: bool| if on { "ᵀ" } else { "" };
                let _ = writeln!(
                    out,
                    "{:>7} {ind}gemm[{}{}{}{}·{}{}, {}x{}x{}]:",
                    g.span.to_string(),
                    name(s.c),
                    if s.clear { " = " } else { " += " },
                    name(s.a),
                    t(s.trans_a),
                    name(s.b),
                    t(s.trans_b),
                    s.m,
                    s.n,
                    s.k
                );
                block(k, &g.body, depth + 1, out);
            }
            Stmt::Print { prefix, args, span } => {
                let a: Vec<String> = args.iter().map(|e| expr(k, e)).collect();
                let _ = writeln!(
                    out,
                    "{:>7} {ind}device_print({prefix:?}, {})",
                    span.to_string(),
                    a.join(", ")
                );
            }
        }
    }
}

/// Renders an expression with the type of every node.
pub fn expr(k: &Kernel, e: &Expr) -> String {
    let t = &e.ty;
    let inner = match &e.kind {
        ExprKind::Const(b) => return format!("{}:{t}", format_value(t.dtype(), *b)),
        ExprKind::Var(v) => return format!("{}:{t}", var(k, *v)),
        ExprKind::BlockId(a) => format!("block_id({a})"),
        ExprKind::GridDim(a) => format!("grid_dim({a})"),
        ExprKind::ThreadId(a) => format!("thread_id({a})"),
        ExprKind::BlockDim(a) => format!("block_dim({a})"),
        ExprKind::Iota(s, e) => format!("iota({s}, {e})"),
        ExprKind::Undef => format!("undef:{t}"),
        ExprKind::Broadcast(x) => format!("broadcast({})", expr(k, x)),
        ExprKind::Reshape(x) => format!("reshape({})", expr(k, x)),
        ExprKind::Permute(x, p) => format!("permute({}, {p:?})", expr(k, x)),
        ExprKind::Cast(x, CastKind::Bitcast) => format!("bitcast({})", expr(k, x)),
        ExprKind::Cast(x, CastKind::Convert(r, o)) => {
            format!("convert[{r:?},{o:?}]({})", expr(k, x))
        }
        ExprKind::Unary(op, x) => format!("{}({})", unop(*op), expr(k, x)),
        ExprKind::Binary(op, a, b) => format!("{}({}, {})", binop(*op), expr(k, a), expr(k, b)),
        ExprKind::Select(c, a, b) => {
            format!("select({}, {}, {})", expr(k, c), expr(k, a), expr(k, b))
        }
        ExprKind::Fma(a, b, c, r) => {
            let mode = match r {
                crate::float::Rounding::NearestEven => String::new(),
                r => format!("[{r:?}]").to_lowercase(),
            };
            format!("fma{mode}({}, {}, {})", expr(k, a), expr(k, b), expr(k, c))
        }
        ExprKind::Load { ptr, mask, other } => {
            let m = mask
                .as_ref()
                .map(|m| format!(", mask={}", expr(k, m)))
                .unwrap_or_default();
            let o = other
                .as_ref()
                .map(|o| format!(", other={}", expr(k, o)))
                .unwrap_or_default();
            format!("load({}{m}{o})", expr(k, ptr))
        }
        ExprKind::ArrayBase(a) => format!("array({})", k.arrays[*a].name),
        ExprKind::ElemPtr {
            base,
            indices,
            dims,
            neg,
            offset,
        } => {
            let idx: Vec<String> = indices.iter().map(|i| expr(k, i)).collect();
            let off = offset
                .as_ref()
                .map(|o| format!(" at {}", expr(k, o)))
                .unwrap_or_default();
            format!(
                "elem_ptr[{dims:?}, {neg:?}]({}, [{}]){off}",
                expr(k, base),
                idx.join(", ")
            )
        }
        ExprKind::CheckIndex {
            index,
            len,
            neg,
            axis,
        } => format!(
            "check_index[axis {axis}, {neg:?}]({}, len {})",
            expr(k, index),
            expr(k, len)
        ),
        ExprKind::Atomic {
            op,
            ptr,
            val,
            cmp,
            mask,
        } => {
            let mut c = cmp
                .as_ref()
                .map(|c| format!(", cmp={}", expr(k, c)))
                .unwrap_or_default();
            if let Some(m) = mask {
                c.push_str(&format!(", mask={}", expr(k, m)));
            }
            format!(
                "atomic_{}({}, {}{c})",
                op.name(),
                expr(k, ptr),
                expr(k, val)
            )
        }
        ExprKind::Reduce {
            arg,
            axis,
            combiner,
            ..
        } => {
            let c = match &**combiner {
                Combiner::Custom { .. } => "custom".to_string(),
                c => format!("{c:?}"),
            };
            format!("reduce[{c}, axis={axis:?}]({})", expr(k, arg))
        }
        ExprKind::TupleReduce {
            args, axis, pick, ..
        } => format!(
            "reduce[custom#{pick}, axis={axis}]({})",
            args.iter()
                .map(|a| expr(k, a))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ExprKind::TupleScan {
            args,
            axis,
            reverse,
            pick,
            ..
        } => format!(
            "scan[custom#{pick}, axis={axis}{}]({})",
            if *reverse { ", reverse" } else { "" },
            args.iter()
                .map(|a| expr(k, a))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ExprKind::Scan {
            arg,
            axis,
            reverse,
            op,
        } => format!(
            "scan[{op:?}, axis={axis}{}]({})",
            if *reverse { ", reverse" } else { "" },
            expr(k, arg)
        ),
        ExprKind::Dot {
            a,
            b,
            acc,
            precision,
        } => format!(
            "dot[{precision:?}]({}, {}, acc={})",
            expr(k, a),
            expr(k, b),
            expr(k, acc)
        ),
    };
    format!("{inner}:{t}")
}

fn unop(op: UnOp) -> String {
    match op {
        UnOp::Not => "not".into(),
        UnOp::LogicalNot => "logical_not".into(),
        UnOp::Neg => "neg".into(),
        UnOp::Math(f) => f.name().into(),
        UnOp::Ieee(o, r) => format!("{o:?}[{r:?}]").to_lowercase(),
    }
}

fn binop(op: BinOp) -> String {
    let div = |name: &str, d: IntDiv| {
        let round = match d.round {
            DivRound::Trunc => "trunc",
            DivRound::Floor => "floor",
        };
        match d.zero {
            DivZero::Ub => format!("{name}_{round}"),
            DivZero::Zero => format!("{name}_{round}[zero]"),
        }
    };
    let range = |r: ShiftRange| match r {
        ShiftRange::Ub => "",
        ShiftRange::Mask => "[mask]",
        ShiftRange::Saturate => "[saturate]",
    };
    match op {
        BinOp::IDiv(d) => div("div", d),
        BinOp::IRem(d) => div("rem", d),
        BinOp::Shl(r) => format!("shl{}", range(r)),
        BinOp::Shr(k, r) => format!(
            "shr_{}{}",
            if k == ShrKind::Arith {
                "arith"
            } else {
                "logical"
            },
            range(r)
        ),
        BinOp::Min(m) => format!("min[{m:?}]"),
        BinOp::Max(m) => format!("max[{m:?}]"),
        BinOp::Ieee(o, r) => format!("{o:?}[{r:?}]").to_lowercase(),
        other => format!("{other:?}").to_lowercase(),
    }
}
