//! What every printer shares: the statement patterns a front end makes of a
//! Python expression that must be evaluated lazily (`a if c else b`,
//! `a and b`, `a or b`), recognised in the IR so that the printer writes the
//! expression back where its value is read, and the counts of each
//! variable's definitions and uses those patterns are recognised by.

use ksem_interp::dtype::DType;
use ksem_interp::ir::*;

/// A value the front end computed with statements, printed where it is read.
#[derive(Clone, Copy, Debug)]
pub enum Deferred<'k> {
    /// `a if cond else b`; the branches' statements before the result.
    IfExp {
        cond: &'k Expr,
        then_pre: &'k [Stmt],
        a: &'k Expr,
        else_pre: &'k [Stmt],
        b: &'k Expr,
    },
    /// `first and second` / `first or second`.
    BoolOp {
        and: bool,
        first: &'k Expr,
        pre: &'k [Stmt],
        second: &'k Expr,
    },
}

/// How often each variable of a kernel is defined (`Let`, loop variable)
/// and read.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    pub defs: Vec<usize>,
    pub uses: Vec<usize>,
}

impl Counts {
    /// The counts of kernel `k`.
    pub fn of(k: &Kernel) -> Counts {
        let n = k.vars.len();
        let (mut defs, mut uses) = (vec![0; n], vec![0; n]);
        walk::for_each_stmt(&k.body, &mut |s| {
            if let Stmt::Let(v, _) | Stmt::For { var: v, .. } = s {
                if let Some(d) = defs.get_mut(*v) {
                    *d += 1;
                }
            }
        });
        walk::for_each_expr(&k.body, &mut |e| {
            if let ExprKind::Var(v) = e.kind {
                if let Some(u) = uses.get_mut(v) {
                    *u += 1;
                }
            }
        });
        Counts { defs, uses }
    }
}

/// The lazily evaluated pattern of the front end at `b[i]` of kernel `k`
/// (`defs`, `uses`: its [`Counts`])
/// (the front ends name its result `_ifexp…` or `_boolop…`): the result
/// variable, the value, and how many statements it takes.
pub fn deferred_at<'k>(
    k: &Kernel,
    defs: &[usize],
    uses: &[usize],
    b: &'k [Stmt],
    i: usize,
) -> Option<(VarId, Deferred<'k>, usize)> {
    let var_name = |v: VarId| k.vars.get(v).map_or("", |x| x.0.as_str());
    match &b[i] {
        Stmt::If {
            cond,
            then_body,
            else_body,
        } => {
            let (Some((Stmt::Let(r, a), then_pre)), Some((Stmt::Let(r2, bb), else_pre))) =
                (then_body.split_last(), else_body.split_last())
            else {
                return None;
            };
            let ok = r == r2
                && var_name(*r).starts_with("_ifexp")
                && defs.get(*r) == Some(&2)
                && uses.get(*r) == Some(&1);
            ok.then_some((
                *r,
                Deferred::IfExp {
                    cond,
                    then_pre,
                    a,
                    else_pre,
                    b: bb,
                },
                1,
            ))
        }
        Stmt::Let(r, first) => {
            let Some(Stmt::If {
                cond,
                then_body,
                else_body,
            }) = b.get(i + 1)
            else {
                return None;
            };
            let Some((Stmt::Let(r2, second), pre)) = then_body.split_last() else {
                return None;
            };
            let var = ExprKind::Var(*r);
            let and = match &cond.kind {
                k if *k == var => true,
                ExprKind::Unary(UnOp::LogicalNot, x) if x.kind == var => false,
                _ => return None,
            };
            let bools = [first, second]
                .iter()
                .all(|e| e.ty == Type::scalar(DType::Bool));
            let ok = r == r2
                && else_body.is_empty()
                && bools
                && var_name(*r).starts_with("_boolop")
                && defs.get(*r) == Some(&2)
                && uses.get(*r) == Some(&2);
            ok.then_some((
                *r,
                Deferred::BoolOp {
                    and,
                    first,
                    pre,
                    second,
                },
                2,
            ))
        }
        _ => None,
    }
}
