//! The sub-expressions of a Python expression, for the front ends' scans
//! of a kernel's source (the names it reads, the variables whose address
//! it takes, where a name is used): one walk over the AST's shapes.

use rustpython_parser::ast;

/// Calls `f` on each direct sub-expression of `e`, in the order Python
/// evaluates them (`a if c else b`: `c` first). Lambdas, comprehensions,
/// slices, dicts, sets and f-strings are not entered.
pub fn children<'e>(e: &'e ast::Expr, f: &mut dyn FnMut(&'e ast::Expr)) {
    use ast::Expr as E;
    match e {
        E::Call(c) => {
            f(&c.func);
            c.args.iter().for_each(&mut *f);
            c.keywords.iter().for_each(|k| f(&k.value));
        }
        E::BinOp(b) => {
            f(&b.left);
            f(&b.right);
        }
        E::UnaryOp(u) => f(&u.operand),
        E::BoolOp(b) => b.values.iter().for_each(f),
        E::Compare(c) => {
            f(&c.left);
            c.comparators.iter().for_each(f);
        }
        E::IfExp(i) => {
            f(&i.test);
            f(&i.body);
            f(&i.orelse);
        }
        E::Tuple(ast::ExprTuple { elts, .. }) | E::List(ast::ExprList { elts, .. }) => {
            elts.iter().for_each(f)
        }
        E::Subscript(s) => {
            f(&s.value);
            f(&s.slice);
        }
        E::Attribute(a) => f(&a.value),
        E::Starred(s) => f(&s.value),
        _ => {}
    }
}

/// The statement lists nested directly in `s`, in source order: an `if`'s
/// body and `else`, a loop's body and `else`, a `with`'s body (what the
/// front ends' scans of a kernel's statements descend into).
pub fn nested_blocks(s: &ast::Stmt) -> Vec<&[ast::Stmt]> {
    match s {
        ast::Stmt::If(x) => vec![&x.body, &x.orelse],
        ast::Stmt::For(x) => vec![&x.body, &x.orelse],
        ast::Stmt::While(x) => vec![&x.body, &x.orelse],
        ast::Stmt::With(x) => vec![&x.body],
        _ => vec![],
    }
}

/// Calls `f` on `e` and on every expression inside it ([`children`],
/// recursively), each before those inside it.
pub fn walk<'e>(e: &'e ast::Expr, f: &mut dyn FnMut(&'e ast::Expr)) {
    f(e);
    children(e, &mut |c| walk(c, f));
}

/// Whether assignment target `t` binds `name` (`name`, `(a, name)`,
/// `[name, b]`, `*name`).
pub fn target_binds(t: &ast::Expr, name: &str) -> bool {
    match t {
        ast::Expr::Name(n) => n.id.as_str() == name,
        ast::Expr::Tuple(ast::ExprTuple { elts, .. })
        | ast::Expr::List(ast::ExprList { elts, .. }) => elts.iter().any(|x| target_binds(x, name)),
        ast::Expr::Starred(s) => target_binds(&s.value, name),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names `src` (one expression) reads, in walk order.
    fn names(src: &str) -> Vec<String> {
        let m = crate::frontend::py::Source::parse("t.py", src).expect("parses");
        let ast::Stmt::Expr(s) = &m.body[0] else {
            panic!("an expression")
        };
        let mut out = Vec::new();
        walk(&s.value, &mut |x| {
            if let ast::Expr::Name(n) = x {
                out.push(n.id.to_string());
            }
        });
        out
    }

    #[test]
    fn every_shape_in_evaluation_order() {
        assert_eq!(
            names("f(a, *b, k=c).d[e] + -g"),
            ["f", "a", "b", "c", "e", "g"]
        );
        assert_eq!(names("x if y else z"), ["y", "x", "z"]);
        assert_eq!(
            names("a < b <= c and (d, [e]) or not h"),
            ["a", "b", "c", "d", "e", "h"]
        );
        // a lambda's and a comprehension's names are their own
        assert!(names("lambda q: q").is_empty());
        assert!(names("[i for i in r]").is_empty());
    }
}
