//! Walks over the IR: every statement of a block (nested bodies included)
//! and every expression node under them, for analyses that ask "is there a
//! node such that …" without spelling out each variant again.

use super::expr::{Combine, Combiner, Expr, ExprKind};
use super::stmt::Stmt;

impl Stmt {
    /// The expressions this statement evaluates itself (not those of its
    /// nested bodies).
    pub fn own_exprs(&self) -> Vec<&Expr> {
        match self {
            Stmt::Let(_, e) => vec![e],
            Stmt::Store {
                ptr, value, mask, ..
            } => [Some(ptr), Some(value), mask.as_ref()]
                .into_iter()
                .flatten()
                .collect(),
            Stmt::If { cond, .. } | Stmt::While { cond, .. } => vec![cond],
            Stmt::For {
                start, end, step, ..
            } => vec![start, end, step],
            Stmt::Print { args, .. } => args.iter().collect(),
            Stmt::Break | Stmt::Continue | Stmt::Return | Stmt::Barrier { .. } | Stmt::Gemm(_) => {
                vec![]
            }
        }
    }

    /// The statement blocks nested in this statement.
    pub fn bodies(&self) -> Vec<&[Stmt]> {
        match self {
            Stmt::If {
                then_body,
                else_body,
                ..
            } => vec![then_body, else_body],
            Stmt::For { body, .. } | Stmt::While { body, .. } => vec![body],
            Stmt::Gemm(g) => vec![&g.body],
            _ => vec![],
        }
    }
}

impl Expr {
    /// The direct operands of this node (a custom combiner's result
    /// included; its body is reached through [`for_each_stmt`]).
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
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
            | ExprKind::Scan { arg: x, .. } => vec![x],
            ExprKind::Binary(_, a, b) => vec![a, b],
            ExprKind::Select(a, b, c)
            | ExprKind::Fma(a, b, c, _)
            | ExprKind::Dot { a, b, acc: c, .. } => vec![a, b, c],
            ExprKind::Load { ptr, mask, other } => [Some(ptr), mask.as_ref(), other.as_ref()]
                .into_iter()
                .flatten()
                .map(|b| &**b)
                .collect(),
            ExprKind::ElemPtr {
                base,
                indices,
                offset,
                ..
            } => std::iter::once(&**base)
                .chain(indices)
                .chain(offset.as_deref())
                .collect(),
            ExprKind::CheckIndex { index, len, .. } => vec![&**index, &**len],
            ExprKind::Atomic {
                ptr,
                val,
                cmp,
                mask,
                ..
            } => [Some(ptr), Some(val), cmp.as_ref(), mask.as_ref()]
                .into_iter()
                .flatten()
                .map(|b| &**b)
                .collect(),
            ExprKind::Reduce { arg, combiner, .. } => match &**combiner {
                Combiner::Custom { result, .. } => vec![arg, result],
                _ => vec![arg],
            },
            ExprKind::TupleReduce { args, combine, .. }
            | ExprKind::TupleScan { args, combine, .. } => {
                args.iter().chain(&combine.results).collect()
            }
        }
    }

    /// The user combine function of a tuple reduction or scan node.
    pub fn combine(&self) -> Option<&Combine> {
        match &self.kind {
            ExprKind::TupleReduce { combine, .. } | ExprKind::TupleScan { combine, .. } => {
                Some(combine)
            }
            _ => None,
        }
    }

    /// Calls `f` on this node and every node under it, parents first.
    pub fn for_each<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        for c in self.children() {
            c.for_each(f);
        }
    }

    /// Whether evaluating this expression reads memory (a load or an atomic).
    pub fn reads_memory(&self) -> bool {
        let mut r = false;
        self.for_each(&mut |x| {
            r |= matches!(x.kind, ExprKind::Load { .. } | ExprKind::Atomic { .. })
        });
        r
    }

    /// The statement blocks inside this expression (custom combiner bodies).
    fn blocks(&self) -> Vec<&[Stmt]> {
        let mut out = Vec::new();
        self.for_each(&mut |e| {
            if let ExprKind::Reduce { combiner, .. } = &e.kind {
                if let Combiner::Custom { body, .. } = &**combiner {
                    out.push(&body[..]);
                }
            }
            if let Some(c) = e.combine() {
                out.push(&c.body[..]);
            }
        });
        out
    }
}

/// Calls `f` on every statement of `b` and of the blocks nested in it
/// (combiner bodies included), outer statements first.
pub fn for_each_stmt<'a>(b: &'a [Stmt], f: &mut impl FnMut(&'a Stmt)) {
    for s in b {
        f(s);
        for e in s.own_exprs() {
            for inner in e.blocks() {
                for_each_stmt(inner, f);
            }
        }
        for body in s.bodies() {
            for_each_stmt(body, f);
        }
    }
}

/// Calls `f` on every expression node of `b` (see [`for_each_stmt`]).
pub fn for_each_expr<'a>(b: &'a [Stmt], f: &mut impl FnMut(&'a Expr)) {
    for_each_stmt(b, &mut |s| {
        for e in s.own_exprs() {
            e.for_each(f);
        }
    });
}

/// Whether some expression node of `b` satisfies `p`.
pub fn any_expr(b: &[Stmt], mut p: impl FnMut(&Expr) -> bool) -> bool {
    let mut found = false;
    for_each_expr(b, &mut |e| found = found || p(e));
    found
}
