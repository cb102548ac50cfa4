//! What every printer shares: Python names for a kernel's variables, and
//! the statement patterns a front end makes of a
//! Python expression that must be evaluated lazily (`a if c else b`,
//! `a and b`, `a or b`), recognised in the IR so that the printer writes the
//! expression back where its value is read, and the counts of each
//! variable's definitions and uses those patterns are recognised by.

use ksem_interp::dtype::DType;
use ksem_interp::ir::*;
use std::collections::HashMap;
use std::collections::HashSet;

/// A value the front end computed with statements, printed where it is read.
#[derive(Clone, Copy, Debug)]
pub enum Deferred<'k> {
    /// `a if cond else b` as `IfExp(cond, then_pre, a, else_pre, b)`; the
    /// branches' statements (`then_pre`, `else_pre`) come before the result.
    IfExp(&'k Expr, &'k [Stmt], &'k Expr, &'k [Stmt], &'k Expr),
    /// `first and second` / `first or second` as `BoolOp(and, first, pre,
    /// second)`; `pre`: the statements before `second`.
    BoolOp(bool, &'k Expr, &'k [Stmt], &'k Expr),
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

/// The deferred values a printer has registered and not yet printed (an
/// if-expression or a boolean operator prints where its result is read), by
/// result variable.
pub type Pending<'k> = HashMap<VarId, Deferred<'k>>;

/// The canonical form (`ir::canon`) of kernel `k` to print as `dialect`,
/// a SIMT kernel of one launch; an error for any other.
pub fn simt_kernel(k: &Kernel, dialect: &str) -> Result<Kernel, String> {
    if !k.then.is_empty() {
        return Err(format!(
            "a kernel of several launches does not print as {dialect}"
        ));
    }
    if k.model != Model::Simt {
        return Err(format!("only SIMT kernels print as {dialect}"));
    }
    Ok(ksem_interp::ir::canon::canonical(k))
}

/// `Ok` where every registered deferred value has been printed where it
/// is read; else the error naming the first one left.
pub fn all_read(k: &Kernel, pending: &Pending) -> Result<(), String> {
    match pending.keys().next() {
        Some(v) => Err(format!(
            "the value of `{}` is not read where it is computed",
            k.vars.get(*v).map_or("", |x| x.0.as_str())
        )),
        None => Ok(()),
    }
}

/// Registers the deferred value at `b[i]` in `pending`; how many statements
/// it takes (`None`: `b[i]` starts no deferred value).
pub fn defer_at<'k>(
    k: &Kernel,
    counts: (&[usize], &[usize]),
    pending: &mut Pending<'k>,
    b: &'k [Stmt],
    i: usize,
) -> Option<usize> {
    let (v, d, n) = deferred_at(k, counts.0, counts.1, b, i)?;
    pending.insert(v, d);
    Some(n)
}

/// Registers the statements that a deferred value's branch computes first;
/// each must itself be a deferred value (`what`: the construct, for the
/// error).
pub fn defer_all<'k>(
    k: &Kernel,
    counts: (&[usize], &[usize]),
    pending: &mut Pending<'k>,
    pre: &'k [Stmt],
    what: &str,
) -> Result<(), String> {
    let mut i = 0;
    while i < pre.len() {
        i += defer_at(k, counts, pending, pre, i)
            .ok_or_else(|| format!("a branch of {what} holds a statement"))?;
    }
    Ok(())
}

/// The lazily evaluated pattern of the front end at `b[i]` of kernel `k`
/// (`defs`, `uses`: its [`Counts`])
/// (the front ends name its result `_ifexp…` (TileLang: `_sel…`) or
/// `_boolop…`): the result
/// variable, the value, and how many statements it takes.
fn deferred_at<'k>(
    k: &Kernel,
    defs: &[usize],
    uses: &[usize],
    b: &'k [Stmt],
    i: usize,
) -> Option<(VarId, Deferred<'k>, usize)> {
    let var_name = |v: VarId| k.vars.get(v).map_or("", |x| x.0.as_str());
    // the pattern's result: one variable `r` (`r2` its second definition)
    // named as the front end names it, defined twice, read `reads` times
    let result = |r: VarId, r2: VarId, prefixes: &[&str], reads: usize| {
        r == r2
            && prefixes.iter().any(|p| var_name(r).starts_with(p))
            && defs.get(r) == Some(&2)
            && uses.get(r) == Some(&reads)
    };
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
            let ok = result(*r, *r2, &["_ifexp", "_sel"], 1);
            ok.then_some((*r, Deferred::IfExp(cond, then_pre, a, else_pre, bb), 1))
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
            let ok = else_body.is_empty() && bools && result(*r, *r2, &["_boolop"], 2);
            ok.then_some((*r, Deferred::BoolOp(and, first, pre, second), 2))
        }
        _ => None,
    }
}

/// Whether `s` is a Python identifier that is not one of `reserved` (the
/// keywords and the names a dialect's printed file binds itself).
pub fn is_ident(s: &str, reserved: &[&str]) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
        && !reserved.contains(&s)
}

/// Python names for a kernel's variables and arrays: parameters keep
/// theirs (an error where one is not usable), the others get their own
/// name made an identifier and unique, numbered where needed. `private`:
/// leading underscores are dropped (a dialect whose front end treats such
/// names specially).
pub fn names(
    k: &Kernel,
    reserved: &[&str],
    private: bool,
) -> Result<(Vec<String>, Vec<String>), String> {
    let mut taken: HashSet<String> = HashSet::new();
    let mut vars = vec![String::new(); k.vars.len()];
    for p in &k.params {
        if !is_ident(&p.name, reserved) || !taken.insert(p.name.clone()) {
            return Err(format!(
                "parameter `{}` is not a usable Python name",
                p.name
            ));
        }
        if let Some(v) = vars.get_mut(p.var.unwrap_or(usize::MAX)) {
            *v = p.name.clone();
        }
    }
    let mut fresh = |base: &str, id: usize| {
        let base = if private {
            base.trim_start_matches('_')
        } else {
            base
        };
        let mut s: String = base
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        if !s.starts_with(|c: char| c.is_ascii_alphabetic() || (c == '_' && !private)) {
            s = format!("v{s}");
        }
        let mut name = s.clone();
        let mut n = id;
        while !is_ident(&name, reserved) || taken.contains(&name) {
            name = format!("{s}_{n}");
            n += 1;
        }
        taken.insert(name.clone());
        name
    };
    let arrays: Vec<String> = k
        .arrays
        .iter()
        .enumerate()
        .map(|(i, a)| fresh(&a.name, i))
        .collect();
    for (v, (n, _)) in k.vars.iter().enumerate() {
        if vars[v].is_empty() {
            vars[v] = fresh(n, v);
        }
    }
    Ok((vars, arrays))
}

/// The Python comparison operator of a comparison node, and its text.
pub fn comparison(op: BinOp) -> Option<(rustpython_parser::ast::CmpOp, &'static str)> {
    use rustpython_parser::ast::CmpOp;
    let table = [
        (BinOp::Eq, CmpOp::Eq, "=="),
        (BinOp::Ne, CmpOp::NotEq, "!="),
        (BinOp::Lt, CmpOp::Lt, "<"),
        (BinOp::Le, CmpOp::LtE, "<="),
        (BinOp::Gt, CmpOp::Gt, ">"),
        (BinOp::Ge, CmpOp::GtE, ">="),
    ];
    table
        .into_iter()
        .find(|c| c.0 == op)
        .map(|(_, c, sym)| (c, sym))
}

/// Source text being printed: lines indented four spaces per level below
/// the function's own body.
#[derive(Clone, Debug, Default)]
pub struct Source {
    pub out: String,
    /// Nesting below the function body.
    pub depth: usize,
}

impl Source {
    /// Appends `s` as a line at the current depth.
    pub fn line(&mut self, s: &str) {
        for _ in 0..=self.depth {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }
}

/// The Python name of variable `v` (an error where it has none).
pub fn name_of(names: &[String], v: VarId) -> Result<&str, String> {
    names
        .get(v)
        .map(|s| s.as_str())
        .ok_or_else(|| format!("variable {v} is not declared"))
}

/// A node for error messages (its kind, shortened, and its type).
pub fn describe(e: &Expr) -> String {
    use std::fmt::Write;
    // the printers build this for every candidate form they reject: the
    // debug text of a whole tree is written only as far as it is kept
    let mut w = Prefix {
        text: String::new(),
        room: DESCRIBED_CHARS,
    };
    let _ = write!(w, "{:?}", e.kind);
    format!("{} : {}", w.text, e.ty)
}

/// How many characters of a node's debug text [`describe`] keeps.
const DESCRIBED_CHARS: usize = 160;

/// A writer that keeps the first `room` characters and then stops the
/// formatting (an error to the formatter, which ends it).
struct Prefix {
    text: String,
    room: usize,
}

impl std::fmt::Write for Prefix {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for c in s.chars() {
            if self.room == 0 {
                return Err(std::fmt::Error);
            }
            self.text.push(c);
            self.room -= 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `describe` keeps the first 160 characters of the node's debug text
    /// (then its type), however deep the tree: what the whole text cut
    /// to 160 characters gives.
    #[test]
    fn describe_keeps_the_first_160_characters() {
        let ty = Type::scalar(DType::I32);
        let mut e = Expr {
            kind: ExprKind::Const(7),
            ty: ty.clone(),
            span: Default::default(),
        };
        for depth in 0..40 {
            let whole = format!("{:?}", e.kind);
            let cut: String = whole.chars().take(160).collect();
            assert_eq!(describe(&e), format!("{cut} : {}", e.ty), "depth {depth}");
            e = Expr {
                kind: ExprKind::Unary(UnOp::Not, Box::new(e)),
                ty: ty.clone(),
                span: Default::default(),
            };
        }
        assert!(format!("{:?}", e.kind).len() > 1000);
    }
}
