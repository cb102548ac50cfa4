//! The syntax-tree side of the reducer: statements and expressions of a
//! parsed module counted, walked, removed, inserted, and the simpler
//! expressions a candidate puts in place of one.

use rustpython_ast as ast;

/// The module's statements; `None` where it does not parse.
pub(super) fn parse(source: &str) -> Option<Vec<ast::Stmt>> {
    match rustpython_parser::parse(source, rustpython_parser::Mode::Module, "reduce.py").ok()? {
        ast::Mod::Module(m) => Some(m.body),
        _ => None,
    }
}

/// One expression parsed from `text`.
pub(super) fn expr(text: &str) -> Option<ast::Expr> {
    match rustpython_parser::parse(text, rustpython_parser::Mode::Expression, "snippet").ok()? {
        ast::Mod::Expression(m) => Some(*m.body),
        _ => None,
    }
}

/// One statement parsed from `text`.
pub(super) fn stmt(text: &str) -> Option<ast::Stmt> {
    parse(text)?.into_iter().next()
}

/// The call without one of its keyword arguments (`mask=`, `other=`), one
/// candidate per keyword; without `mask=` a load also loses its `other=`
/// (Triton refuses `other` without a mask).
fn without_keywords(c: &ast::ExprCall) -> Vec<ast::Expr> {
    (0..c.keywords.len())
        .map(|i| {
            let mut d = c.clone();
            let name = d.keywords[i].arg.as_ref().map(|a| a.to_string());
            d.keywords.remove(i);
            if name.as_deref() == Some("mask") {
                d.keywords
                    .retain(|k| k.arg.as_ref().map(|a| a.as_str()) != Some("other"));
            }
            ast::Expr::Call(d)
        })
        .collect()
}

/// A dtype name (`tl.uint64`, `tl.float16`) made the plainest of its kind:
/// integers int32, floats float32.
fn simpler_dtype(a: &ast::ExprAttribute) -> Option<ast::Expr> {
    let attr = a.attr.as_str();
    let plain = match attr {
        "int1" | "int8" | "int16" | "int64" | "uint8" | "uint16" | "uint32" | "uint64" => "int32",
        "float16" | "bfloat16" | "float64" | "float8e4nv" | "float8e5" => "float32",
        _ => return None,
    };
    let mut b = a.clone();
    b.attr = ast::Identifier::new(plain);
    Some(ast::Expr::Attribute(b))
}

/// The pre-order index of the statement that holds expression number
/// `target` of [`walk_exprs`] (its own expressions, not its nested
/// statements').
pub(super) fn stmt_of_expr(body: &[ast::Stmt], target: usize) -> Option<usize> {
    let mut stmt_idx = 0;
    let mut expr_idx = 0;
    find_stmt(body, target, &mut stmt_idx, &mut expr_idx)
}

fn find_stmt(body: &[ast::Stmt], target: usize, s: &mut usize, e: &mut usize) -> Option<usize> {
    for st in body {
        let own = own_exprs(st);
        if target >= *e && target < *e + own {
            return Some(*s);
        }
        *e += own;
        *s += 1;
        for b in bodies(st) {
            if let Some(i) = find_stmt(b, target, s, e) {
                return Some(i);
            }
        }
    }
    None
}

/// Expressions [`walk_exprs`] visits in `s` itself.
fn own_exprs(s: &ast::Stmt) -> usize {
    let mut one = s.clone();
    for b in bodies_mut(&mut one) {
        b.clear();
    }
    count_exprs(std::slice::from_mut(&mut one))
}

/// Inserts `new` before statement number `target` (pre-order); true when found.
pub(super) fn insert_stmt(
    body: &mut Vec<ast::Stmt>,
    c: &mut usize,
    target: usize,
    new: &ast::Stmt,
) -> bool {
    let mut i = 0;
    while i < body.len() {
        if *c == target {
            body.insert(i, new.clone());
            return true;
        }
        *c += 1;
        if bodies_mut(&mut body[i])
            .into_iter()
            .any(|b| insert_stmt(b, c, target, new))
        {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether statement number `target` (pre-order) is inside a loop.
pub(super) fn in_loop(body: &[ast::Stmt], target: usize) -> bool {
    fn go(body: &[ast::Stmt], target: usize, c: &mut usize, looped: bool) -> Option<bool> {
        for s in body {
            if *c == target {
                return Some(looped);
            }
            *c += 1;
            let l = looped || matches!(s, ast::Stmt::For(_) | ast::Stmt::While(_));
            for b in bodies(s) {
                if let Some(r) = go(b, target, c, l) {
                    return Some(r);
                }
            }
        }
        None
    }
    go(body, target, &mut 0, false).unwrap_or(true)
}

/// The first `@triton.jit` function of the module (the kernel the
/// reducer's constant tiles go into).
pub(super) fn triton_kernel(body: &mut [ast::Stmt]) -> Option<&mut ast::StmtFunctionDef> {
    body.iter_mut().find_map(|s| match s {
        ast::Stmt::FunctionDef(f)
            if f.decorator_list
                .iter()
                .any(|d| d.to_string().contains("jit")) =>
        {
            Some(f)
        }
        _ => None,
    })
}

/// Adds parameter `name` at the end of `f`'s positional parameters.
pub(super) fn add_param(f: &mut ast::StmtFunctionDef, name: &str) -> Option<()> {
    let ast::Stmt::FunctionDef(d) = stmt(&format!("def f({name}):\n    pass\n"))? else {
        return None;
    };
    f.args.args.push(d.args.args.into_iter().next()?);
    Some(())
}

pub(super) fn count_stmts(body: &[ast::Stmt]) -> usize {
    body.iter()
        .map(|s| 1 + bodies(s).into_iter().map(|b| count_stmts(b)).sum::<usize>())
        .sum()
}

/// The statement lists nested in `s`, in source order.
pub(super) fn bodies(s: &ast::Stmt) -> Vec<&Vec<ast::Stmt>> {
    match s {
        ast::Stmt::FunctionDef(f) => vec![&f.body],
        ast::Stmt::If(i) => vec![&i.body, &i.orelse],
        ast::Stmt::For(f) => vec![&f.body, &f.orelse],
        ast::Stmt::While(w) => vec![&w.body, &w.orelse],
        ast::Stmt::With(w) => vec![&w.body],
        ast::Stmt::Try(t) => {
            let mut v = vec![&t.body];
            for h in &t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = h;
                v.push(&h.body);
            }
            v.extend([&t.orelse, &t.finalbody]);
            v
        }
        _ => Vec::new(),
    }
}

/// [`bodies`], mutable.
pub(super) fn bodies_mut(s: &mut ast::Stmt) -> Vec<&mut Vec<ast::Stmt>> {
    match s {
        ast::Stmt::FunctionDef(f) => vec![&mut f.body],
        ast::Stmt::If(i) => vec![&mut i.body, &mut i.orelse],
        ast::Stmt::For(f) => vec![&mut f.body, &mut f.orelse],
        ast::Stmt::While(w) => vec![&mut w.body, &mut w.orelse],
        ast::Stmt::With(w) => vec![&mut w.body],
        ast::Stmt::Try(t) => {
            let mut v = vec![&mut t.body];
            for h in &mut t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = h;
                v.push(&mut h.body);
            }
            v.extend([&mut t.orelse, &mut t.finalbody]);
            v
        }
        _ => Vec::new(),
    }
}

/// Removes statement number `target` (pre-order); true when found.
pub(super) fn remove_stmt(body: &mut Vec<ast::Stmt>, c: &mut usize, target: usize) -> bool {
    let mut i = 0;
    while i < body.len() {
        if *c == target {
            body.remove(i);
            return true;
        }
        *c += 1;
        if bodies_mut(&mut body[i])
            .into_iter()
            .any(|b| remove_stmt(b, c, target))
        {
            return true;
        }
        i += 1;
    }
    false
}

pub(super) fn count_exprs(tree: &mut [ast::Stmt]) -> usize {
    let mut n = 0;
    walk_exprs(tree, &mut |_, _| n += 1);
    n
}

/// Calls `f` on every expression of the statements (values, conditions,
/// iterables; not assignment targets or decorators), in pre-order, with
/// its index.
pub(super) fn walk_exprs(body: &mut [ast::Stmt], f: &mut dyn FnMut(&mut ast::Expr, usize)) {
    let mut idx = 0;
    for s in body {
        walk_stmt(s, f, &mut idx);
    }
}

fn walk_stmt(s: &mut ast::Stmt, f: &mut dyn FnMut(&mut ast::Expr, usize), idx: &mut usize) {
    match s {
        ast::Stmt::Assign(a) => walk_expr(&mut a.value, f, idx),
        ast::Stmt::AugAssign(a) => walk_expr(&mut a.value, f, idx),
        ast::Stmt::AnnAssign(a) => {
            if let Some(v) = &mut a.value {
                walk_expr(v, f, idx)
            }
        }
        ast::Stmt::Expr(e) => walk_expr(&mut e.value, f, idx),
        ast::Stmt::Return(r) => {
            if let Some(v) = &mut r.value {
                walk_expr(v, f, idx)
            }
        }
        ast::Stmt::If(i) => walk_expr(&mut i.test, f, idx),
        ast::Stmt::While(w) => walk_expr(&mut w.test, f, idx),
        _ => {}
    }
    for b in bodies_mut(s) {
        b.iter_mut().for_each(|s| walk_stmt(s, f, idx));
    }
}

fn walk_expr(e: &mut ast::Expr, f: &mut dyn FnMut(&mut ast::Expr, usize), idx: &mut usize) {
    f(e, *idx);
    *idx += 1;
    match e {
        ast::Expr::BinOp(b) => {
            walk_expr(&mut b.left, f, idx);
            walk_expr(&mut b.right, f, idx);
        }
        ast::Expr::UnaryOp(u) => walk_expr(&mut u.operand, f, idx),
        ast::Expr::BoolOp(b) => b.values.iter_mut().for_each(|v| walk_expr(v, f, idx)),
        ast::Expr::Compare(c) => {
            walk_expr(&mut c.left, f, idx);
            c.comparators.iter_mut().for_each(|v| walk_expr(v, f, idx));
        }
        ast::Expr::Call(c) => {
            c.args.iter_mut().for_each(|v| walk_expr(v, f, idx));
            c.keywords
                .iter_mut()
                .for_each(|k| walk_expr(&mut k.value, f, idx));
        }
        ast::Expr::IfExp(i) => {
            walk_expr(&mut i.test, f, idx);
            walk_expr(&mut i.body, f, idx);
            walk_expr(&mut i.orelse, f, idx);
        }
        ast::Expr::Attribute(a) => walk_expr(&mut a.value, f, idx),
        ast::Expr::Subscript(s) => {
            walk_expr(&mut s.value, f, idx);
            walk_expr(&mut s.slice, f, idx);
        }
        ast::Expr::Tuple(t) => t.elts.iter_mut().for_each(|v| walk_expr(v, f, idx)),
        ast::Expr::List(t) => t.elts.iter_mut().for_each(|v| walk_expr(v, f, idx)),
        _ => {}
    }
}

/// Simpler expressions to try in place of `e`: its operands, then literals.
pub(super) fn candidates(e: &ast::Expr) -> Vec<ast::Expr> {
    let mut out: Vec<ast::Expr> = Vec::new();
    match e {
        ast::Expr::BinOp(b) => {
            out.push((*b.left).clone());
            out.push((*b.right).clone());
        }
        ast::Expr::UnaryOp(u) => out.push((*u.operand).clone()),
        ast::Expr::BoolOp(b) => out.extend(b.values.iter().cloned()),
        ast::Expr::Compare(c) => out.push((*c.left).clone()),
        ast::Expr::Call(c) => {
            out.extend(c.args.iter().cloned());
            if let ast::Expr::Attribute(a) = &*c.func {
                // a method call such as x.to(...): try the receiver
                out.push((*a.value).clone());
            }
            out.extend(without_keywords(c));
        }
        ast::Expr::Attribute(a) => out.extend(simpler_dtype(a)),
        ast::Expr::IfExp(i) => {
            out.push((*i.body).clone());
            out.push((*i.orelse).clone());
        }
        _ => {}
    }
    if !matches!(
        e,
        ast::Expr::Constant(_) | ast::Expr::Name(_) | ast::Expr::Attribute(_) | ast::Expr::Tuple(_)
    ) {
        for lit in ["0", "1"] {
            if let Ok(ast::Mod::Expression(m)) =
                rustpython_parser::parse(lit, rustpython_parser::Mode::Expression, "lit")
            {
                out.push(*m.body);
            }
        }
    }
    out
}

/// Replaces statement number `target` (pre-order), an `if`, by its body
/// (`orelse`: its `else` block); true when done.
pub(super) fn inline_if(
    body: &mut Vec<ast::Stmt>,
    c: &mut usize,
    target: usize,
    orelse: bool,
) -> bool {
    let mut i = 0;
    while i < body.len() {
        if *c == target {
            let ast::Stmt::If(s) = &body[i] else {
                return false;
            };
            let inner = if orelse {
                s.orelse.clone()
            } else {
                s.body.clone()
            };
            body.splice(i..=i, inner);
            return true;
        }
        *c += 1;
        if bodies_mut(&mut body[i])
            .into_iter()
            .any(|b| inline_if(b, c, target, orelse))
        {
            return true;
        }
        i += 1;
    }
    false
}
