//! Turns a (reduced) syntax tree back into Python source. Expressions use
//! rustpython-ast's unparser; statements are written here, every kind the
//! four dialects' files hold (kernels, `with` blocks, module-level `try`,
//! imports); any other statement, which the reducer never changes, is
//! copied from the source the tree was parsed from.

use rustpython_ast as ast;
use rustpython_ast::Ranged;
use std::fmt::Write;

/// Renders a module's statements; `source` is the text `body` was parsed
/// from (statements rendered verbatim are copied from it).
pub fn module(body: &[ast::Stmt], source: &str) -> String {
    let mut out = String::new();
    block(body, 0, source, &mut out);
    out
}

fn block(body: &[ast::Stmt], depth: usize, src: &str, out: &mut String) {
    if body.is_empty() {
        let _ = writeln!(out, "{}pass", "    ".repeat(depth));
    }
    for s in body {
        stmt(s, depth, src, out);
    }
}

fn param(p: &ast::Arg) -> String {
    match &p.annotation {
        Some(t) => format!("{}: {t}", p.arg),
        None => p.arg.to_string(),
    }
}

fn with_default(p: &ast::ArgWithDefault) -> String {
    match &p.default {
        Some(d) => format!("{} = {d}", param(&p.def)),
        None => param(&p.def),
    }
}

fn args(a: &ast::Arguments) -> String {
    let mut parts: Vec<String> = a.posonlyargs.iter().map(with_default).collect();
    if !a.posonlyargs.is_empty() {
        parts.push("/".into());
    }
    parts.extend(a.args.iter().map(with_default));
    match &a.vararg {
        Some(v) => parts.push(format!("*{}", param(v))),
        None if !a.kwonlyargs.is_empty() => parts.push("*".into()),
        None => {}
    }
    parts.extend(a.kwonlyargs.iter().map(with_default));
    if let Some(k) = &a.kwarg {
        parts.push(format!("**{}", param(k)));
    }
    parts.join(", ")
}

/// A `with` item, its target parenthesised (`as (bx, by)`).
fn with_item(w: &ast::WithItem) -> String {
    match &w.optional_vars {
        Some(t) if matches!(**t, ast::Expr::Tuple(_)) => {
            let ast::Expr::Tuple(tu) = &**t else {
                unreachable!("matched a tuple")
            };
            let elts: Vec<String> = tu.elts.iter().map(|e| e.to_string()).collect();
            let comma = if elts.len() == 1 { "," } else { "" };
            format!("{} as ({}{comma})", w.context_expr, elts.join(", "))
        }
        Some(t) => format!("{} as {t}", w.context_expr),
        None => w.context_expr.to_string(),
    }
}

fn aliases(names: &[ast::Alias]) -> String {
    let names: Vec<String> = names
        .iter()
        .map(|a| match &a.asname {
            Some(n) => format!("{} as {n}", a.name),
            None => a.name.to_string(),
        })
        .collect();
    names.join(", ")
}

fn stmt(s: &ast::Stmt, depth: usize, src: &str, out: &mut String) {
    let ind = "    ".repeat(depth);
    match s {
        ast::Stmt::FunctionDef(f) => {
            out.push('\n');
            for d in &f.decorator_list {
                let _ = writeln!(out, "{ind}@{d}");
            }
            let ret = f
                .returns
                .as_ref()
                .map(|r| format!(" -> {r}"))
                .unwrap_or_default();
            let _ = writeln!(out, "{ind}def {}({}){ret}:", f.name, args(&f.args));
            block(&f.body, depth + 1, src, out);
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
            block(&i.body, depth + 1, src, out);
            orelse(&i.orelse, &ind, depth, src, out);
        }
        ast::Stmt::For(f) => {
            let _ = writeln!(out, "{ind}for {} in {}:", f.target, f.iter);
            block(&f.body, depth + 1, src, out);
            orelse(&f.orelse, &ind, depth, src, out);
        }
        ast::Stmt::While(w) => {
            let _ = writeln!(out, "{ind}while {}:", w.test);
            block(&w.body, depth + 1, src, out);
            orelse(&w.orelse, &ind, depth, src, out);
        }
        ast::Stmt::With(w) => {
            let items: Vec<String> = w.items.iter().map(with_item).collect();
            let _ = writeln!(out, "{ind}with {}:", items.join(", "));
            block(&w.body, depth + 1, src, out);
        }
        ast::Stmt::Try(t) => {
            let _ = writeln!(out, "{ind}try:");
            block(&t.body, depth + 1, src, out);
            for h in &t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = h;
                let head = match (&h.type_, &h.name) {
                    (Some(ty), Some(n)) => format!(" {ty} as {n}"),
                    (Some(ty), None) => format!(" {ty}"),
                    _ => String::new(),
                };
                let _ = writeln!(out, "{ind}except{head}:");
                block(&h.body, depth + 1, src, out);
            }
            orelse(&t.orelse, &ind, depth, src, out);
            if !t.finalbody.is_empty() {
                let _ = writeln!(out, "{ind}finally:");
                block(&t.finalbody, depth + 1, src, out);
            }
        }
        ast::Stmt::Assert(a) => match &a.msg {
            Some(m) => {
                let _ = writeln!(out, "{ind}assert {}, {m}", a.test);
            }
            None => {
                let _ = writeln!(out, "{ind}assert {}", a.test);
            }
        },
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
            let _ = writeln!(out, "{ind}import {}", aliases(&i.names));
        }
        ast::Stmt::ImportFrom(i) => {
            let dots = ".".repeat(i.level.map_or(0, |l| l.to_u32() as usize));
            let m = i.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
            let _ = writeln!(out, "{ind}from {dots}{m} import {}", aliases(&i.names));
        }
        other => {
            // never changed by the reducer: the statement's own text
            let r = other.range();
            let text = src
                .get(r.start().to_usize()..r.end().to_usize())
                .unwrap_or("pass");
            let _ = writeln!(out, "{ind}{text}");
        }
    }
}

fn orelse(body: &[ast::Stmt], ind: &str, depth: usize, src: &str, out: &mut String) {
    if !body.is_empty() {
        let _ = writeln!(out, "{ind}else:");
        block(body, depth + 1, src, out);
    }
}

#[cfg(test)]
mod tests {
    use super::module;
    use rustpython_ast as ast;

    fn normal(src: &str) -> String {
        let ast::Mod::Module(m) =
            rustpython_parser::parse(src, rustpython_parser::Mode::Module, "t.py").unwrap()
        else {
            panic!("a module")
        };
        module(&m.body, src)
    }

    /// Every statement form of the four dialects' files comes back as the
    /// same Python: `with` targets stay one tuple (`as bx, by` would be two
    /// items), relative imports keep their dots, `else`/`finally` blocks
    /// and keyword-only parameters survive, and a class (never reduced) is
    /// copied verbatim.
    #[test]
    fn statement_forms_round_trip() {
        let src = "from . import helpers
from ..lib import f as g
try:
    K = 1
except ImportError as e:
    K = 2
else:
    pass
finally:
    pass


class Cfg:
    x = 1
    def m(self):   return 3


@T.prim_func
def main(A: T.Tensor((8,), 'float32'), *, flag: int = 0) -> None:
    with T.Kernel(2, threads=4) as (bx,):
        for i in range(4):
            A[i] = i
        else:
            pass
        with T.Kernel(2, 3) as (bx, by), ctx() as c:
            assert bx < 2, 'grid'
";
        let want = "from . import helpers
from ..lib import f as g
try:
    K = 1
except ImportError as e:
    K = 2
else:
    pass
finally:
    pass
class Cfg:
    x = 1
    def m(self):   return 3

@T.prim_func
def main(A: T.Tensor((8,), 'float32'), *, flag: int = 0) -> None:
    with T.Kernel(2, threads=4) as (bx,):
        for i in range(4):
            A[i] = i
        else:
            pass
        with T.Kernel(2, 3) as (bx, by), ctx() as c:
            assert bx < 2, 'grid'
";
        let got = normal(src);
        assert_eq!(got, want);
        assert_eq!(normal(&got), got, "normalising is idempotent");
    }
}
