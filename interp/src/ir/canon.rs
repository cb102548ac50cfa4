//! The canonical form of a kernel, which decides whether two kernels are the
//! same program (the fuzzer's round trip: IR → printed source → IR).
//!
//! Canonicalisation keeps the meaning and forgets how the program was
//! written down:
//! - spans are erased;
//! - constant sub-expressions are folded by the evaluator's own element
//!   semantics (a literal `-15` elaborates to `neg(15)`, `int32(0)` to a
//!   conversion of `0`); approximate math and UB are never folded;
//! - front-end temporaries are inlined: a variable whose name starts with
//!   `_`, defined once by a `Let` and used once, in the own expressions of a
//!   later statement of the same block, where moving its value there cannot
//!   change the meaning: the use is in the next statement (and the rest of
//!   that statement reads no memory, when the value does), or the value is
//!   memory-free and every statement in between is *transparent* for it (a
//!   memory-free `Let` of a variable the value does not read, or an `if`
//!   with a memory-free condition whose branches hold only such statements);
//! - variables are renumbered by first definition (parameters first), and
//!   variables that no statement mentions are dropped.

use super::build::fold;
use super::expr::{Combiner, Expr, ExprKind};
use super::kernel::{Kernel, NextLaunch, VarId};
use super::op::UnOp;
use super::stmt::{Block, Stmt};
use super::types::Type;
use crate::span::Span;
use std::collections::{HashMap, HashSet};

/// The canonical form of `k` (see the module documentation).
pub fn canonical(k: &Kernel) -> Kernel {
    let mut launches = k.launches().into_iter().map(|l| canonical_launch(&l));
    let mut first = launches.next().expect("a kernel has a launch");
    // each later launch canonical on its own (its parameters renumbered as
    // in the first, since both list them first)
    first.then = launches
        .map(|l| NextLaunch {
            grid: l.grid,
            block: l.block,
            arrays: l.arrays,
            vars: l.vars,
            body: l.body,
            span: Span::default(),
        })
        .collect();
    first
}

/// The canonical form of a kernel of one launch.
fn canonical_launch(k: &Kernel) -> Kernel {
    let mut k = k.clone();
    for a in &mut k.arrays {
        a.span = Span::default();
    }
    block_exprs_mut(&mut k.body, &mut |e| {
        e.span = Span::default();
        fold_node(e);
    });
    erase_stmt_spans(&mut k.body);
    let (defs, uses) = counts(&k);
    let temps: HashMap<VarId, Type> = (0..k.vars.len())
        .filter(|&v| k.vars[v].0.starts_with('_') && defs[v] == 1 && uses[v] == 1)
        .map(|v| (v, k.vars[v].1.clone()))
        .collect();
    inline_block(&mut k.body, &temps);
    renumber(&mut k);
    k
}

/// The canonical form of one expression: spans erased, constant
/// sub-expressions folded (what [`canonical`] does to every expression).
pub fn canonical_expr(e: &Expr) -> Expr {
    let mut e = e.clone();
    expr_mut(&mut e, &mut |x| {
        x.span = Span::default();
        fold_node(x);
    });
    e
}

/// `Ok` where `a` and `b` are the same program; else the first difference,
/// readably (statements as `ksem check` prints them).
pub fn same_program(a: &Kernel, b: &Kernel) -> Result<(), String> {
    let (ca, cb) = (canonical(a), canonical(b));
    header_diff(&ca, &cb)?;
    block_diff(&ca, &cb, &ca.body, &cb.body, "body")?;
    if ca.vars.len() != cb.vars.len() {
        return Err(format!(
            "{} variables against {}",
            ca.vars.len(),
            cb.vars.len()
        ));
    }
    for (v, (x, y)) in ca.vars.iter().zip(&cb.vars).enumerate() {
        if x.1 != y.1 {
            return Err(format!(
                "variable {} is {} in the first and {} in the second",
                v, x.1, y.1
            ));
        }
    }
    Ok(())
}

// ---- comparison ------------------------------------------------------------

/// The first difference of the kernels' names, launch shapes, parameters and arrays.
fn header_diff(a: &Kernel, b: &Kernel) -> Result<(), String> {
    let differ = |what: &str, x: String, y: String| -> Result<(), String> {
        if x == y {
            Ok(())
        } else {
            Err(format!("{what} differ: {x} against {y}"))
        }
    };
    differ("names", a.name.clone(), b.name.clone())?;
    differ("models", format!("{:?}", a.model), format!("{:?}", b.model))?;
    differ("grids", format!("{:?}", a.grid), format!("{:?}", b.grid))?;
    differ("blocks", format!("{:?}", a.block), format!("{:?}", b.block))?;
    differ(
        "parameters",
        format!("{:?}", a.params),
        format!("{:?}", b.params),
    )?;
    differ(
        "fresh buffers",
        format!("{:?}", a.fresh),
        format!("{:?}", b.fresh),
    )?;
    let arrays = |k: &Kernel| -> Vec<String> {
        k.arrays
            .iter()
            .map(|d| format!("{} {}{:?}", d.space.name(), d.dtype, d.shape))
            .collect()
    };
    differ(
        "arrays",
        format!("{:?}", arrays(a)),
        format!("{:?}", arrays(b)),
    )
}

/// The first differing statement of two blocks, descending into nested
/// bodies whose heads agree.
fn block_diff(ka: &Kernel, kb: &Kernel, a: &[Stmt], b: &[Stmt], path: &str) -> Result<(), String> {
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i), b.get(i));
        if x == y {
            continue;
        }
        let here = format!("{path}[{i}]");
        if let (Some(x), Some(y)) = (x, y) {
            if same_head(x, y) {
                let (bx, by) = (x.bodies(), y.bodies());
                for (n, (p, q)) in bx.iter().zip(&by).enumerate() {
                    block_diff(
                        ka,
                        kb,
                        p,
                        q,
                        &format!("{here}.{}", ["then", "else"][n.min(1)]),
                    )?;
                }
            }
        }
        let show = |k: &Kernel, s: Option<&Stmt>| match s {
            Some(s) => head_text(k, s),
            None => "(nothing)".to_string(),
        };
        return Err(format!(
            "{here} differs:\n  first:  {}\n  second: {}",
            show(ka, x),
            show(kb, y)
        ));
    }
    Ok(())
}

/// Whether two statements agree except in their nested bodies.
fn same_head(a: &Stmt, b: &Stmt) -> bool {
    match (a, b) {
        (Stmt::If { cond: c, .. }, Stmt::If { cond: d, .. }) => c == d,
        (Stmt::While { cond: c, .. }, Stmt::While { cond: d, .. }) => c == d,
        (
            Stmt::For {
                var,
                start,
                end,
                step,
                parallel,
                ..
            },
            Stmt::For {
                var: v2,
                start: s2,
                end: e2,
                step: st2,
                parallel: p2,
                ..
            },
        ) => var == v2 && start == s2 && end == e2 && step == st2 && parallel == p2,
        _ => false,
    }
}

/// The first line of a statement as `ksem check` prints it.
fn head_text(k: &Kernel, s: &Stmt) -> String {
    let text = crate::pretty::stmt(k, s);
    text.lines().next().unwrap_or("").trim().to_string()
}

// ---- spans and constants -----------------------------------------------------

fn erase_stmt_spans(b: &mut Block) {
    for s in b {
        match s {
            Stmt::Store { span, .. }
            | Stmt::For { span, .. }
            | Stmt::While { span, .. }
            | Stmt::Barrier { span }
            | Stmt::Print { span, .. } => *span = Span::default(),
            Stmt::Gemm(g) => g.span = Span::default(),
            _ => {}
        }
        for body in bodies_mut(s) {
            erase_stmt_spans(body);
        }
    }
}

/// Replaces a node whose operands are constants by its value, where the
/// value is exact and defined.
fn fold_node(e: &mut Expr) {
    let foldable = match &e.kind {
        ExprKind::Cast(x, _) => is_const(x),
        ExprKind::Unary(op, x) => !matches!(op, UnOp::Math(_)) && is_const(x),
        ExprKind::Binary(op, a, b) => !op.is_inexact() && is_const(a) && is_const(b),
        _ => false,
    };
    if !foldable || e.ty.is_ptr() || !e.ty.shape.is_empty() {
        return;
    }
    if let Some(bits) = fold(e) {
        e.kind = ExprKind::Const(bits & e.ty.dtype().mask());
    }
}

fn is_const(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Const(_)) && e.ty.shape.is_empty()
}

// ---- mutable walks -----------------------------------------------------------

/// The statement blocks nested in a statement.
fn bodies_mut(s: &mut Stmt) -> Vec<&mut Block> {
    match s {
        Stmt::If {
            then_body,
            else_body,
            ..
        } => vec![then_body, else_body],
        Stmt::For { body, .. } | Stmt::While { body, .. } => vec![body],
        Stmt::Gemm(g) => vec![&mut g.body],
        _ => vec![],
    }
}

/// The expressions a statement evaluates itself.
fn own_exprs_mut(s: &mut Stmt) -> Vec<&mut Expr> {
    match s {
        Stmt::Let(_, e) => vec![e],
        Stmt::Store {
            ptr, value, mask, ..
        } => {
            let mut v = vec![ptr, value];
            v.extend(mask.as_mut());
            v
        }
        Stmt::If { cond, .. } | Stmt::While { cond, .. } => vec![cond],
        Stmt::For {
            start, end, step, ..
        } => vec![start, end, step],
        Stmt::Print { args, .. } => args.iter_mut().collect(),
        Stmt::Break | Stmt::Continue | Stmt::Return | Stmt::Barrier { .. } | Stmt::Gemm(_) => {
            vec![]
        }
    }
}

/// The direct operands of a node.
fn children_mut(e: &mut Expr) -> Vec<&mut Expr> {
    match &mut e.kind {
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::BlockId(_)
        | ExprKind::GridDim(_)
        | ExprKind::ThreadId(_)
        | ExprKind::BlockDim(_)
        | ExprKind::Iota(..)
        | ExprKind::Undef
        | ExprKind::ArrayBase(_) => vec![],
        ExprKind::Broadcast(x)
        | ExprKind::Reshape(x)
        | ExprKind::Permute(x, _)
        | ExprKind::Cast(x, _)
        | ExprKind::Unary(_, x)
        | ExprKind::Scan { arg: x, .. } => vec![&mut **x],
        ExprKind::Binary(_, a, b) => vec![&mut **a, &mut **b],
        ExprKind::Select(a, b, c)
        | ExprKind::Fma(a, b, c, _)
        | ExprKind::Dot { a, b, acc: c, .. } => {
            vec![&mut **a, &mut **b, &mut **c]
        }
        ExprKind::Load { ptr, mask, other } => {
            let mut v = vec![&mut **ptr];
            v.extend(mask.as_deref_mut());
            v.extend(other.as_deref_mut());
            v
        }
        ExprKind::ElemPtr {
            base,
            indices,
            offset,
            ..
        } => {
            let mut v = vec![&mut **base];
            v.extend(indices.iter_mut());
            v.extend(offset.as_deref_mut());
            v
        }
        ExprKind::CheckIndex { index, len, .. } => vec![&mut **index, &mut **len],
        ExprKind::Atomic {
            ptr,
            val,
            cmp,
            mask,
            ..
        } => {
            let mut v = vec![&mut **ptr, &mut **val];
            v.extend(cmp.as_deref_mut());
            v.extend(mask.as_deref_mut());
            v
        }
        ExprKind::Reduce { arg, combiner, .. } => match &mut **combiner {
            Combiner::Custom { result, .. } => vec![&mut **arg, &mut **result],
            _ => vec![&mut **arg],
        },
        ExprKind::TupleReduce { args, combine, .. } | ExprKind::TupleScan { args, combine, .. } => {
            args.iter_mut().chain(combine.results.iter_mut()).collect()
        }
    }
}

/// Calls `f` on every node of `e`, operands first.
fn expr_mut(e: &mut Expr, f: &mut impl FnMut(&mut Expr)) {
    for c in children_mut(e) {
        expr_mut(c, f);
    }
    if let ExprKind::Reduce { combiner, .. } = &mut e.kind {
        if let Combiner::Custom { body, .. } = &mut **combiner {
            block_exprs_mut(body, f);
        }
    }
    if let ExprKind::TupleReduce { combine, .. } | ExprKind::TupleScan { combine, .. } = &mut e.kind
    {
        block_exprs_mut(&mut combine.body, f);
    }
    f(e);
}

/// Calls `f` on every expression node of a block (nested ones included),
/// operands before the node that uses them.
pub fn exprs_mut(b: &mut Block, f: &mut impl FnMut(&mut Expr)) {
    block_exprs_mut(b, f)
}

/// Calls `f` on every expression node of a block (nested ones included).
fn block_exprs_mut(b: &mut Block, f: &mut impl FnMut(&mut Expr)) {
    for s in b {
        for e in own_exprs_mut(s) {
            expr_mut(e, f);
        }
        for body in bodies_mut(s) {
            block_exprs_mut(body, f);
        }
    }
}

// ---- temporaries ---------------------------------------------------------------

/// How often each variable is defined (`Let`, loop variable) and read.
fn counts(k: &Kernel) -> (Vec<usize>, Vec<usize>) {
    let n = k.vars.len();
    let (mut defs, mut uses) = (vec![0; n], vec![0; n]);
    super::walk::for_each_stmt(&k.body, &mut |s| match s {
        Stmt::Let(v, _) | Stmt::For { var: v, .. } if *v < n => defs[*v] += 1,
        _ => {}
    });
    super::walk::for_each_expr(&k.body, &mut |e| {
        if let ExprKind::Var(v) = e.kind {
            if v < n {
                uses[v] += 1;
            }
        }
    });
    (defs, uses)
}

/// Inlines the temporaries of a block and of the blocks nested in it.
fn inline_block(b: &mut Block, temps: &HashMap<VarId, Type>) {
    let mut i = 0;
    while i < b.len() {
        if let Some(j) = inline_target(b, i, temps) {
            if let Stmt::Let(t, value) = b.remove(i) {
                let mut value = Some(value);
                for e in own_exprs_mut(&mut b[j - 1]) {
                    replace_var(e, t, &mut value);
                }
            }
            continue;
        }
        i += 1;
    }
    for s in b.iter_mut() {
        for body in bodies_mut(s) {
            inline_block(body, temps);
        }
    }
}

/// The index of the statement into which the `Let` at `i` may be inlined.
fn inline_target(b: &[Stmt], i: usize, temps: &HashMap<VarId, Type>) -> Option<usize> {
    let Stmt::Let(t, value) = &b[i] else {
        return None;
    };
    if temps.get(t) != Some(&value.ty) {
        return None;
    }
    let j = (i + 1..b.len()).find(|&j| reads_own(&b[j], *t))?;
    let pure = memory_free(value);
    if j == i + 1 {
        let rest_free = own_exprs(&b[j]).iter().all(|e| memory_free(e));
        return (pure || rest_free).then_some(j);
    }
    let reads = vars_read(value);
    (pure && b[i + 1..j].iter().all(|s| transparent(s, &reads))).then_some(j)
}

/// Whether a statement's own expressions read variable `v`.
fn reads_own(s: &Stmt, v: VarId) -> bool {
    own_exprs(s).iter().any(|e| {
        let mut found = false;
        e.for_each(&mut |x| found = found || x.kind == ExprKind::Var(v));
        found
    })
}

fn own_exprs(s: &Stmt) -> Vec<&Expr> {
    s.own_exprs()
}

/// Whether evaluating `e` touches no memory (no load, no atomic).
fn memory_free(e: &Expr) -> bool {
    let mut free = true;
    e.for_each(&mut |x| {
        free = free && !matches!(x.kind, ExprKind::Load { .. } | ExprKind::Atomic { .. })
    });
    free
}

fn vars_read(e: &Expr) -> HashSet<VarId> {
    let mut out = HashSet::new();
    e.for_each(&mut |x| {
        if let ExprKind::Var(v) = x.kind {
            out.insert(v);
        }
    });
    out
}

/// Whether a memory-free value reading `reads` may move past `s`.
fn transparent(s: &Stmt, reads: &HashSet<VarId>) -> bool {
    match s {
        Stmt::Let(w, e) => !reads.contains(w) && memory_free(e),
        Stmt::If {
            cond,
            then_body,
            else_body,
        } => {
            memory_free(cond)
                && then_body
                    .iter()
                    .chain(else_body)
                    .all(|s| transparent(s, reads))
        }
        _ => false,
    }
}

/// Replaces the one read of `t` in `e` by `value`.
fn replace_var(e: &mut Expr, t: VarId, value: &mut Option<Expr>) {
    if e.kind == ExprKind::Var(t) {
        if let Some(v) = value.take() {
            *e = v;
        }
        return;
    }
    for c in children_mut(e) {
        replace_var(c, t, value);
    }
}

// ---- renumbering -----------------------------------------------------------------

/// Renumbers variables by first definition (parameters first).
fn renumber(k: &mut Kernel) {
    let mut map: HashMap<VarId, VarId> = HashMap::new();
    let mut order: Vec<VarId> = Vec::new();
    let mut see = |v: VarId, map: &mut HashMap<VarId, VarId>| {
        if let std::collections::hash_map::Entry::Vacant(slot) = map.entry(v) {
            slot.insert(order.len());
            order.push(v);
        }
    };
    for p in &k.params {
        if let Some(v) = p.var {
            see(v, &mut map);
        }
    }
    super::walk::for_each_stmt(&k.body, &mut |s| {
        for e in s.own_exprs() {
            e.for_each(&mut |x| match &x.kind {
                ExprKind::Var(v) => see(*v, &mut map),
                ExprKind::Reduce { combiner, .. } => {
                    if let Combiner::Custom { lhs, rhs, .. } = &**combiner {
                        see(*lhs, &mut map);
                        see(*rhs, &mut map);
                    }
                }
                ExprKind::TupleReduce { combine, .. } | ExprKind::TupleScan { combine, .. } => {
                    for v in combine.lhs.iter().chain(&combine.rhs) {
                        see(*v, &mut map);
                    }
                }
                _ => {}
            });
        }
        if let Stmt::Let(v, _) | Stmt::For { var: v, .. } = s {
            see(*v, &mut map);
        }
    });
    let new = |v: &mut VarId| *v = map.get(v).copied().unwrap_or(*v);
    for p in &mut k.params {
        if let Some(v) = &mut p.var {
            new(v);
        }
    }
    rename_defs(&mut k.body, &new);
    block_exprs_mut(&mut k.body, &mut |e| match &mut e.kind {
        ExprKind::Var(v) => new(v),
        ExprKind::Reduce { combiner, .. } => {
            if let Combiner::Custom { lhs, rhs, .. } = &mut **combiner {
                new(lhs);
                new(rhs);
            }
        }
        ExprKind::TupleReduce { combine, .. } | ExprKind::TupleScan { combine, .. } => {
            combine
                .lhs
                .iter_mut()
                .chain(combine.rhs.iter_mut())
                .for_each(new);
        }
        _ => {}
    });
    let old = std::mem::take(&mut k.vars);
    k.vars = order.iter().filter_map(|&v| old.get(v).cloned()).collect();
}

/// Renames the definitions (`Let` targets, loop variables) of a block and
/// of the blocks nested in it.
fn rename_defs(b: &mut Block, new: &impl Fn(&mut VarId)) {
    for s in b.iter_mut() {
        if let Stmt::Let(v, _) | Stmt::For { var: v, .. } = s {
            new(v);
        }
        for body in bodies_mut(s) {
            rename_defs(body, new);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::parse_launch;

    const LAUNCH: &str = r#"{"grid": [2], "block": [8],
        "args": {"a": {"buffer": {"dtype": "int16", "len": 16}},
                 "out": {"buffer": {"dtype": "float32", "len": 16}}}}"#;

    fn elab(body: &str) -> Kernel {
        let src =
            format!("from numba import cuda, int16, float32\n\n@cuda.jit\ndef k(a, out):\n{body}");
        let l = parse_launch(LAUNCH).expect("launch");
        crate::elaborate_source("k.py", &src, &l, None).expect("elaborates")
    }

    #[test]
    fn a_kernel_is_the_same_program_as_itself() {
        let k = elab("    i = cuda.grid(1)\n    out[i] = a[i] * 2 + 1\n");
        assert_eq!(same_program(&k, &k.clone()), Ok(()));
    }

    #[test]
    fn spans_and_temporaries_do_not_matter() {
        let a = elab("    i = cuda.grid(1)\n    out[i] = (a[i] + 1) * 2\n");
        let b = elab(
            "    i = cuda.grid(1)\n\n    _u = a[i] + 1\n    _w = _u * (3 - 1)\n    out[i] = _w\n",
        );
        assert_eq!(same_program(&a, &b), Ok(()));
    }

    #[test]
    fn a_dropped_conversion_is_a_different_program() {
        let a = elab("    i = cuda.grid(1)\n    x = a[i]\n    out[i] = float32(x) / 3\n");
        let mut b = a.clone();
        let mut dropped = false;
        block_exprs_mut(&mut b.body, &mut |e| {
            if dropped {
                return;
            }
            if let ExprKind::Cast(x, _) = &e.kind {
                if x.ty.dtype() == crate::dtype::DType::I16 {
                    *e = (**x).clone();
                    dropped = true;
                }
            }
        });
        assert!(dropped, "the kernel has an int16 conversion");
        let err = same_program(&a, &b).expect_err("a dropped conversion is a difference");
        assert!(err.contains("differs") && err.contains("convert"), "{err}");
    }

    #[test]
    fn a_different_operation_is_named() {
        let a = elab("    i = cuda.grid(1)\n    out[i] = a[i] + 1\n");
        let b = elab("    i = cuda.grid(1)\n    out[i] = a[i] - 1\n");
        let err = same_program(&a, &b).expect_err("add is not sub");
        // CUDA Python's int64 `+`/`-` are the ops whose overflow is UB
        assert!(
            err.contains("nosignedwrap(add)(") && err.contains("nosignedwrap(sub)("),
            "{err}"
        );
    }
}
