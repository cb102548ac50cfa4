//! What a function's body does with a name (assigns it, rebinds it in a
//! loop or branch, sizes an array with it), read from its syntax before
//! elaboration.

use super::*;
use crate::frontend::py::visit::{nested_blocks, target_binds as binds_name};

/// Whether `name` is read in the shape of a `cuda.shared.array` /
/// `cuda.local.array` call of `body` (its first argument or `shape=`).
pub(super) fn sizes_an_array(body: &[ast::Stmt], name: &str) -> bool {
    let mut found = false;
    walk_stmts(body, &mut |e| {
        let ast::Expr::Call(c) = e else { return };
        let callee = dotted(&c.func).unwrap_or_default();
        if !(callee.ends_with("shared.array") || callee.ends_with("local.array")) {
            return;
        }
        let shape = c.args.first().into_iter().chain(
            c.keywords
                .iter()
                .filter(|k| k.arg.as_deref() == Some("shape"))
                .map(|k| &k.value),
        );
        for s in shape {
            walk_expr(s, &mut |x| {
                if matches!(x, ast::Expr::Name(n) if n.id.as_str() == name) {
                    found = true;
                }
            });
        }
    });
    found
}

/// Calls `f` on every expression of `body`'s statements (nested ones too).
pub(super) fn walk_stmts(body: &[ast::Stmt], f: &mut dyn FnMut(&ast::Expr)) {
    for s in body {
        match s {
            ast::Stmt::Assign(a) => walk_expr(&a.value, f),
            ast::Stmt::AugAssign(a) => walk_expr(&a.value, f),
            ast::Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    walk_expr(v, f)
                }
            }
            ast::Stmt::Expr(e) => walk_expr(&e.value, f),
            ast::Stmt::Return(r) => {
                if let Some(v) = &r.value {
                    walk_expr(v, f)
                }
            }
            ast::Stmt::If(i) => walk_expr(&i.test, f),
            ast::Stmt::For(l) => walk_expr(&l.iter, f),
            ast::Stmt::While(w) => walk_expr(&w.test, f),
            _ => {}
        }
        for b in nested_blocks(s) {
            walk_stmts(b, f);
        }
    }
}

/// Calls `f` on `e` and every expression inside it.
pub(super) fn walk_expr(e: &ast::Expr, f: &mut dyn FnMut(&ast::Expr)) {
    crate::frontend::py::visit::walk(e, f)
}

/// How many statements of `body` (nested blocks included) assign `name`
/// (an assignment, augmented assignment, `for` target or `with … as`).
pub(super) fn assignment_count(body: &[ast::Stmt], name: &str) -> usize {
    let here = |s: &ast::Stmt| match s {
        ast::Stmt::Assign(a) => usize::from(a.targets.iter().any(|t| binds_name(t, name))),
        ast::Stmt::AugAssign(a) => usize::from(binds_name(&a.target, name)),
        ast::Stmt::AnnAssign(a) => usize::from(binds_name(&a.target, name)),
        ast::Stmt::For(f) => usize::from(binds_name(&f.target, name)),
        ast::Stmt::With(w) => usize::from(w.items.iter().any(|it| {
            it.optional_vars
                .as_deref()
                .is_some_and(|v| binds_name(v, name))
        })),
        _ => 0,
    };
    body.iter()
        .map(|s| {
            let nested = nested_blocks(s).into_iter();
            here(s) + nested.map(|b| assignment_count(b, name)).sum::<usize>()
        })
        .sum()
}

/// Whether a loop or branch of `body` (at any depth) assigns `name`.
pub(super) fn rebinds_in_nested_block(body: &[ast::Stmt], name: &str) -> bool {
    body.iter().any(|s| match s {
        // (a `with` block is not a branch: what it nests is)
        ast::Stmt::With(w) => rebinds_in_nested_block(&w.body, name),
        _ => nested_blocks(s).iter().any(|b| assigns_name(b, name)),
    })
}

/// Whether any statement of `body` (nested blocks included) assigns `name`
/// (an assignment, augmented assignment, `for` target or `with … as`).
/// The parameters of `def` (its `*args` too) that its body never assigns.
pub(super) fn unassigned_params(def: &ast::StmtFunctionDef) -> HashSet<String> {
    let a = &def.args;
    let star = a.vararg.iter().chain(&a.kwarg).map(|p| p.arg.to_string());
    py::params(a)
        .into_iter()
        .map(|p| p.def.arg.to_string())
        .chain(star)
        .filter(|n| !assigns_name(&def.body, n))
        .collect()
}

pub(super) fn assigns_name(body: &[ast::Stmt], name: &str) -> bool {
    assignment_count(body, name) > 0
}

/// Whether the assignment whose target `is_target` picks (a statement of
/// some block of `body`) reaches every read of `name` in `body`: all of
/// them lie in the statements after it in its own block. The name may then
/// change kind there (a number becoming an array inside a loop): no read
/// sees the value from before, numba's SSA needs no phi of the two
/// (`test_issue5493_unneeded_phi`).
pub(super) fn rebinding_reaches_every_read(
    body: &[ast::Stmt],
    name: &str,
    is_target: &dyn Fn(&ast::Expr) -> bool,
) -> bool {
    let Some((block, i)) = find_assignment(body, is_target) else {
        return false;
    };
    reads_of(body, name) == reads_of(&block[i + 1..], name)
}

/// The block holding the plain assignment to a target `is_target` picks,
/// and the assignment's index in it.
fn find_assignment<'a>(
    body: &'a [ast::Stmt],
    is_target: &dyn Fn(&ast::Expr) -> bool,
) -> Option<(&'a [ast::Stmt], usize)> {
    for (i, s) in body.iter().enumerate() {
        let inner: Vec<&'a [ast::Stmt]> = match s {
            ast::Stmt::Assign(a) if a.targets.iter().any(is_target) => return Some((body, i)),
            ast::Stmt::If(x) => vec![&x.body, &x.orelse],
            ast::Stmt::For(x) => vec![&x.body, &x.orelse],
            ast::Stmt::While(x) => vec![&x.body, &x.orelse],
            ast::Stmt::With(x) => vec![&x.body],
            _ => vec![],
        };
        if let Some(hit) = inner
            .into_iter()
            .find_map(|b| find_assignment(b, is_target))
        {
            return Some(hit);
        }
    }
    None
}

/// How many times the statements read `name`: its loads in every
/// expression, assignment targets included (`a[t] = …`, `t += …`).
fn reads_of(body: &[ast::Stmt], name: &str) -> usize {
    let mut n = 0;
    let mut count = |e: &ast::Expr| {
        if matches!(e, ast::Expr::Name(x) if x.id.as_str() == name && x.ctx == ast::ExprContext::Load)
        {
            n += 1;
        }
    };
    walk_stmts(body, &mut count);
    let mut targets = 0;
    walk_targets(body, &mut |t| {
        walk_expr(t, &mut |e| {
            if matches!(e, ast::Expr::Name(x) if x.id.as_str() == name && x.ctx == ast::ExprContext::Load)
            {
                targets += 1;
            }
        })
    });
    for_each_aug_target(body, &mut |t| {
        if matches!(t, ast::Expr::Name(x) if x.id.as_str() == name) {
            targets += 1;
        }
    });
    n + targets
}

/// Calls `f` on each assignment target of the statements (nested too).
fn walk_targets(body: &[ast::Stmt], f: &mut dyn FnMut(&ast::Expr)) {
    for s in body {
        match s {
            ast::Stmt::Assign(a) => a.targets.iter().for_each(&mut *f),
            ast::Stmt::AugAssign(a) => f(&a.target),
            ast::Stmt::AnnAssign(a) => f(&a.target),
            ast::Stmt::For(x) => f(&x.target),
            _ => {}
        }
        for b in nested_blocks(s) {
            walk_targets(b, f);
        }
    }
}

/// Calls `f` on the target of each augmented assignment (nested too),
/// which reads the name it writes.
fn for_each_aug_target(body: &[ast::Stmt], f: &mut dyn FnMut(&ast::Expr)) {
    for s in body {
        if let ast::Stmt::AugAssign(a) = s {
            f(&a.target);
        }
        for b in nested_blocks(s) {
            for_each_aug_target(b, f);
        }
    }
}
