//! Turns a (reduced) syntax tree back into Python source. Expressions use
//! rustpython-ast's unparser; statements are the subset kernels use.

use rustpython_ast as ast;
use std::fmt::Write;

/// Renders a module's statements.
pub fn module(body: &[ast::Stmt]) -> String {
    let mut out = String::new();
    block(body, 0, &mut out);
    out
}

fn block(body: &[ast::Stmt], depth: usize, out: &mut String) {
    if body.is_empty() {
        let _ = writeln!(out, "{}pass", "    ".repeat(depth));
    }
    for s in body {
        stmt(s, depth, out);
    }
}

fn args(a: &ast::Arguments) -> String {
    let mut parts = Vec::new();
    for p in a.posonlyargs.iter().chain(&a.args) {
        let mut s = p.def.arg.to_string();
        if let Some(t) = &p.def.annotation {
            s.push_str(&format!(": {t}"));
        }
        if let Some(d) = &p.default {
            s.push_str(&format!(" = {d}"));
        }
        parts.push(s);
    }
    parts.join(", ")
}

fn stmt(s: &ast::Stmt, depth: usize, out: &mut String) {
    let ind = "    ".repeat(depth);
    match s {
        ast::Stmt::FunctionDef(f) => {
            out.push('\n');
            for d in &f.decorator_list {
                let _ = writeln!(out, "{ind}@{d}");
            }
            let _ = writeln!(out, "{ind}def {}({}):", f.name, args(&f.args));
            block(&f.body, depth + 1, out);
        }
        ast::Stmt::Assign(a) => {
            let targets: Vec<String> = a.targets.iter().map(|t| t.to_string()).collect();
            let _ = writeln!(out, "{ind}{} = {}", targets.join(" = "), a.value);
        }
        ast::Stmt::AugAssign(a) => {
            let op = match a.op {
                ast::Operator::Add => "+",
                ast::Operator::Sub => "-",
                ast::Operator::Mult => "*",
                ast::Operator::Div => "/",
                ast::Operator::FloorDiv => "//",
                ast::Operator::Mod => "%",
                ast::Operator::Pow => "**",
                ast::Operator::LShift => "<<",
                ast::Operator::RShift => ">>",
                ast::Operator::BitAnd => "&",
                ast::Operator::BitOr => "|",
                ast::Operator::BitXor => "^",
                ast::Operator::MatMult => "@",
            };
            let _ = writeln!(out, "{ind}{} {op}= {}", a.target, a.value);
        }
        ast::Stmt::AnnAssign(a) => match &a.value {
            Some(v) => {
                let _ = writeln!(out, "{ind}{}: {} = {v}", a.target, a.annotation);
            }
            None => {
                let _ = writeln!(out, "{ind}{}: {}", a.target, a.annotation);
            }
        },
        ast::Stmt::Expr(e) => {
            let _ = writeln!(out, "{ind}{}", e.value);
        }
        ast::Stmt::Return(r) => match &r.value {
            Some(v) => {
                let _ = writeln!(out, "{ind}return {v}");
            }
            None => {
                let _ = writeln!(out, "{ind}return");
            }
        },
        ast::Stmt::If(i) => {
            let _ = writeln!(out, "{ind}if {}:", i.test);
            block(&i.body, depth + 1, out);
            if !i.orelse.is_empty() {
                let _ = writeln!(out, "{ind}else:");
                block(&i.orelse, depth + 1, out);
            }
        }
        ast::Stmt::For(f) => {
            let _ = writeln!(out, "{ind}for {} in {}:", f.target, f.iter);
            block(&f.body, depth + 1, out);
        }
        ast::Stmt::While(w) => {
            let _ = writeln!(out, "{ind}while {}:", w.test);
            block(&w.body, depth + 1, out);
        }
        ast::Stmt::Break(_) => {
            let _ = writeln!(out, "{ind}break");
        }
        ast::Stmt::Continue(_) => {
            let _ = writeln!(out, "{ind}continue");
        }
        ast::Stmt::Pass(_) => {
            let _ = writeln!(out, "{ind}pass");
        }
        ast::Stmt::Import(i) => {
            let names: Vec<String> = i
                .names
                .iter()
                .map(|a| match &a.asname {
                    Some(n) => format!("{} as {n}", a.name),
                    None => a.name.to_string(),
                })
                .collect();
            let _ = writeln!(out, "{ind}import {}", names.join(", "));
        }
        ast::Stmt::ImportFrom(i) => {
            let names: Vec<String> = i
                .names
                .iter()
                .map(|a| match &a.asname {
                    Some(n) => format!("{} as {n}", a.name),
                    None => a.name.to_string(),
                })
                .collect();
            let m = i.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
            let _ = writeln!(out, "{ind}from {m} import {}", names.join(", "));
        }
        other => {
            // not produced by kernels ksem accepts; keep a marker that fails loudly
            let _ = writeln!(out, "{ind}raise NotImplementedError  # unparsed: {other:?}");
        }
    }
}
