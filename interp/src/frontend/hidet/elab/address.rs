//! Which names of a function have their address taken (`~x`).
//!
//! In Hidet `~x` of a scalar variable is C's `&x`: the variable lives in
//! memory and writes through the pointer change it (measured,
//! docs/hidet-measured.md). ksem keeps other scalars in IR variables, so
//! a function's addressed names are found before it is elaborated and
//! those variables are made one-element local arrays from their
//! definition on; every read and write of them then goes through memory.

use rustpython_parser::ast;
use std::collections::HashSet;

/// The names `n` for which `~n` appears in `body` (nested functions and
/// lambdas excluded: they have their own scopes).
pub(super) fn addressed_names(body: &[ast::Stmt]) -> HashSet<String> {
    let mut out = HashSet::new();
    for s in body {
        stmt(s, &mut out);
    }
    out
}

fn stmts(body: &[ast::Stmt], out: &mut HashSet<String>) {
    for s in body {
        stmt(s, out);
    }
}

fn stmt(s: &ast::Stmt, out: &mut HashSet<String>) {
    use ast::Stmt as S;
    match s {
        S::Expr(e) => expr(&e.value, out),
        S::Assign(a) => {
            a.targets.iter().for_each(|t| expr(t, out));
            expr(&a.value, out);
        }
        S::AnnAssign(a) => {
            expr(&a.target, out);
            if let Some(v) = &a.value {
                expr(v, out);
            }
        }
        S::AugAssign(a) => {
            expr(&a.target, out);
            expr(&a.value, out);
        }
        S::Return(r) => {
            if let Some(v) = &r.value {
                expr(v, out);
            }
        }
        S::If(i) => {
            expr(&i.test, out);
            stmts(&i.body, out);
            stmts(&i.orelse, out);
        }
        S::While(w) => {
            expr(&w.test, out);
            stmts(&w.body, out);
            stmts(&w.orelse, out);
        }
        S::For(f) => {
            expr(&f.target, out);
            expr(&f.iter, out);
            stmts(&f.body, out);
            stmts(&f.orelse, out);
        }
        S::With(w) => {
            for item in &w.items {
                expr(&item.context_expr, out);
            }
            stmts(&w.body, out);
        }
        S::Assert(a) => expr(&a.test, out),
        _ => {}
    }
}

fn expr(e: &ast::Expr, out: &mut HashSet<String>) {
    crate::frontend::py::visit::walk(e, &mut |x| {
        if let ast::Expr::UnaryOp(u) = x {
            if let (ast::UnaryOp::Invert, ast::Expr::Name(n)) = (u.op, &*u.operand) {
                out.insert(n.id.to_string());
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(src: &str) -> Vec<String> {
        let m = crate::frontend::py::Source::parse("t.py", src).expect("parses");
        let mut v: Vec<String> = addressed_names(&m.body).into_iter().collect();
        v.sort();
        v
    }

    /// `~x` in any statement or nested expression marks `x`; `~a[i]`
    /// (an element) and `~f32` as a type argument mark only names.
    #[test]
    fn finds_every_address_of_a_name() {
        let src = "x = 1\np = ~x\nif c:\n    for i in range(3):\n        q = cast(~y, ~f32) + (~z)[0]\nw = ~a[1]\nwhile ~u:\n    pass\n";
        assert_eq!(names(src), ["f32", "u", "x", "y", "z"]);
    }
}
