//! The test-case reducer: AST-aware passes (drop statements, replace an
//! expression by one of its operands or a literal, shrink tile sizes and the
//! grid) applied to a fixed point while the same two backends still disagree
//! on the same output buffer.

mod unparse;

use crate::backend::Backend;
use crate::peer::Worker;
use ksem_interp::compare::compare;
use ksem_interp::eval::RunOptions;
use ksem_interp::launch::{parse_launch, RunResult};
use rustpython_ast as ast;
use serde_json::Value as Json;

/// A reduced case and the two results that still disagree.
pub struct Reduced {
    pub source: String,
    pub launch: Json,
    pub a: RunResult,
    pub b: RunResult,
    /// Candidates accepted.
    pub steps: usize,
    /// Candidates tried.
    pub tried: usize,
}

/// What a case shows: the buffers on which the two results differ.
pub struct Disagreement {
    /// The differing buffers, in the results' order.
    pub buffers: Vec<String>,
    pub a: RunResult,
    pub b: RunResult,
}

/// What makes a case interesting to the reducer. The reducer keeps a
/// candidate only where the oracle still sees a disagreement on the buffer
/// the original case disagreed on first.
pub trait Oracle {
    /// The disagreement the case shows; `None` where it shows none (it does
    /// not elaborate, has UB, a side fails, or the two agree).
    fn disagreement(&mut self, source: &str, launch: &Json) -> Option<Disagreement>;
}

/// How much work one reduction may do.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Most candidates tried.
    pub max_tries: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { max_tries: 2000 }
    }
}

/// Two backends that should agree; the second may be a real system, run
/// through its long-lived worker.
pub struct BackendPair {
    backends: (Backend, Backend),
    worker: Option<Worker>,
}

impl BackendPair {
    /// The pair, with the real system's worker started where the second
    /// backend is one (`None` if it cannot start).
    pub fn new(backends: (Backend, Backend)) -> Option<Self> {
        let worker = match backends.1.peer() {
            Some(p) => Some(Worker::start(p).ok()?),
            None => None,
        };
        Some(BackendPair { backends, worker })
    }
}

impl Oracle for BackendPair {
    fn disagreement(&mut self, source: &str, launch: &Json) -> Option<Disagreement> {
        let l = parse_launch(&launch.to_string()).ok()?;
        let k = ksem_interp::elaborate_source("reduce.py", source, &l, None).ok()?;
        let opts = RunOptions {
            threads: 1,
            max_loop_iterations: 1 << 16,
            ..RunOptions::default()
        };
        let a = self.backends.0.run(&k, &l, &opts).ok()?;
        if !a.ub.is_empty() {
            return None;
        }
        let b = match &mut self.worker {
            Some(w) => w.run(source, launch).ok()?,
            // the batch path compiles fastest (one kernel here)
            None => self.backends.1.run_batch(&[(&k, &l)], &opts).pop()?.ok()?,
        };
        if !b.ub.is_empty() {
            return None;
        }
        let c = compare(&a, &b, 1);
        let buffers: Vec<String> = c.counts.iter().map(|(n, _)| n.clone()).collect();
        (!buffers.is_empty()).then_some(Disagreement { buffers, a, b })
    }
}

/// Statements of a program, nested ones included; `None` where it does not
/// parse.
pub fn statements(source: &str) -> Option<usize> {
    parse(source).map(|t| count_stmts(&t))
}

/// The source as the reducer writes it (parsed and unparsed); `None` where
/// it does not parse.
pub fn normalise(source: &str) -> Option<String> {
    parse(source).map(|t| unparse::module(&t, source))
}

fn parse(source: &str) -> Option<Vec<ast::Stmt>> {
    match rustpython_parser::parse(source, rustpython_parser::Mode::Module, "reduce.py").ok()? {
        ast::Mod::Module(m) => Some(m.body),
        _ => None,
    }
}

struct State<'o> {
    source: String,
    launch: Json,
    target: String,
    oracle: &'o mut dyn Oracle,
    budget: Budget,
    a: RunResult,
    b: RunResult,
    steps: usize,
    tried: usize,
}

impl State<'_> {
    /// Accepts the candidate if it still shows the disagreement.
    fn try_candidate(&mut self, source: String, launch: Json) -> bool {
        if self.tried >= self.budget.max_tries || (source == self.source && launch == self.launch) {
            return false;
        }
        self.tried += 1;
        match self.oracle.disagreement(&source, &launch) {
            Some(Disagreement { buffers, a, b }) if buffers.contains(&self.target) => {
                self.source = source;
                self.launch = launch;
                self.a = a;
                self.b = b;
                self.steps += 1;
                true
            }
            _ => false,
        }
    }

    /// Tries removing each statement, the last first. The source is parsed
    /// once, and again only after a candidate is accepted (parsing per
    /// candidate made reducing a large program quadratic).
    fn drop_statements(&mut self) -> bool {
        let mut progress = false;
        let Some(mut tree) = parse(&self.source) else {
            return false;
        };
        let mut i = count_stmts(&tree);
        while i > 0 && self.tried < self.budget.max_tries {
            i -= 1;
            let mut t = tree.clone();
            let mut c = 0;
            if remove_stmt(&mut t, &mut c, i)
                && self.try_candidate(unparse::module(&t, &self.source), self.launch.clone())
            {
                progress = true;
                match parse(&self.source) {
                    Some(new) => tree = new,
                    None => break,
                }
            }
        }
        progress
    }

    /// Tries replacing each expression by simpler ones (pre-order), parsing
    /// only after an accepted candidate.
    fn simplify_expressions(&mut self) -> bool {
        let mut progress = false;
        let Some(mut tree) = parse(&self.source) else {
            return false;
        };
        let mut n = count_exprs(&mut tree);
        let mut i = 0;
        while i < n && self.tried < self.budget.max_tries {
            let mut options = Vec::new();
            walk_exprs(&mut tree, &mut |e, idx| {
                if idx == i {
                    options = candidates(e);
                }
            });
            let mut accepted = false;
            for cand in options {
                let mut t = tree.clone();
                walk_exprs(&mut t, &mut |e, idx| {
                    if idx == i {
                        *e = cand.clone();
                    }
                });
                if self.try_candidate(unparse::module(&t, &self.source), self.launch.clone()) {
                    accepted = true;
                    break;
                }
            }
            if accepted {
                progress = true;
                match parse(&self.source) {
                    Some(new) => tree = new,
                    None => break,
                }
                n = count_exprs(&mut tree);
            } else {
                i += 1;
            }
        }
        progress
    }

    fn shrink_launch(&mut self) -> bool {
        let mut progress = false;
        // the grid: down to one program
        loop {
            let mut l = self.launch.clone();
            let Some(g) = l["grid"].as_array_mut() else {
                break;
            };
            let Some(pos) = g.iter().position(|x| x.as_u64().is_some_and(|v| v > 1)) else {
                break;
            };
            let v = g[pos].as_u64().expect("checked");
            g[pos] = Json::from(v / 2);
            if !self.try_candidate(self.source.clone(), l) {
                break;
            }
            progress = true;
        }
        // tile sizes: halve every integer constexpr that is a power of two
        let names: Vec<String> = self.launch["args"]
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        for n in names {
            loop {
                let v = self.launch["args"][&n]["constexpr"].as_u64();
                let Some(v) = v.filter(|v| *v > 1 && v.is_power_of_two()) else {
                    break;
                };
                let mut l = self.launch.clone();
                l["args"][&n]["constexpr"] = Json::from(v / 2);
                if !self.try_candidate(self.source.clone(), l) {
                    break;
                }
                progress = true;
            }
        }
        progress
    }
}

/// Reduces a case on which two backends disagree to a fixed point.
pub fn reduce(source: &str, launch: &Json, backends: (Backend, Backend)) -> Option<Reduced> {
    let mut pair = BackendPair::new(backends)?;
    reduce_with(source, launch, &mut pair, Budget::default())
}

/// Reduces a case the oracle finds interesting to a fixed point (or until
/// the budget is spent); `None` where the case is not interesting.
pub fn reduce_with(
    source: &str,
    launch: &Json,
    oracle: &mut dyn Oracle,
    budget: Budget,
) -> Option<Reduced> {
    let d = oracle.disagreement(source, launch)?;
    let mut s = State {
        source: source.to_string(),
        launch: launch.clone(),
        target: d.buffers.first()?.clone(),
        oracle,
        budget,
        a: d.a,
        b: d.b,
        steps: 0,
        tried: 0,
    };
    // normalise the source through the unparser first
    if let Some(t) = parse(&s.source) {
        let normal = unparse::module(&t, &s.source);
        s.try_candidate(normal, s.launch.clone());
    }
    loop {
        let mut progress = s.shrink_launch();
        progress |= s.drop_statements();
        progress |= s.simplify_expressions();
        if !progress || s.tried >= s.budget.max_tries {
            break;
        }
    }
    Some(Reduced {
        source: s.source,
        launch: s.launch,
        a: s.a,
        b: s.b,
        steps: s.steps,
        tried: s.tried,
    })
}

fn count_stmts(body: &[ast::Stmt]) -> usize {
    body.iter()
        .map(|s| 1 + bodies(s).into_iter().map(|b| count_stmts(b)).sum::<usize>())
        .sum()
}

/// The statement lists nested in `s`, in source order.
fn bodies(s: &ast::Stmt) -> Vec<&Vec<ast::Stmt>> {
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
fn bodies_mut(s: &mut ast::Stmt) -> Vec<&mut Vec<ast::Stmt>> {
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
fn remove_stmt(body: &mut Vec<ast::Stmt>, c: &mut usize, target: usize) -> bool {
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

fn count_exprs(tree: &mut [ast::Stmt]) -> usize {
    let mut n = 0;
    walk_exprs(tree, &mut |_, _| n += 1);
    n
}

/// Calls `f` on every expression of the statements (values, conditions,
/// iterables; not assignment targets or decorators), in pre-order, with
/// its index.
fn walk_exprs(body: &mut [ast::Stmt], f: &mut dyn FnMut(&mut ast::Expr, usize)) {
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
        ast::Expr::Subscript(s) => walk_expr(&mut s.value, f, idx),
        _ => {}
    }
}

/// Simpler expressions to try in place of `e`: its operands, then literals.
fn candidates(e: &ast::Expr) -> Vec<ast::Expr> {
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
        }
        ast::Expr::IfExp(i) => {
            out.push((*i.body).clone());
            out.push((*i.orelse).clone());
        }
        _ => {}
    }
    if !matches!(e, ast::Expr::Constant(_) | ast::Expr::Name(_)) {
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
