//! The test-case reducer: AST-aware passes applied to a fixed point while
//! the two backends still disagree *in the same way* (the same output
//! buffer, the same kind of difference). Every candidate keeps the launch's
//! inputs and grid unless the pass is the one that shrinks them, and is
//! elaborated by ksem first (a candidate ksem refuses, or whose run has UB,
//! never reaches the other side). The passes:
//!
//! - drop unused kernel parameters (and their launch arguments);
//! - shrink the grid, and the tiles (every `tl.arange` length halved with
//!   each literal of that value in the kernel);
//! - drop statements, and replace an `if` by one of its blocks;
//! - replace an expression by ksem's values for it (`probe.rs`: a
//!   `tl.full` constant tile, or a load from a new input buffer), so the
//!   disagreement is pinned after the last expression the other side
//!   still computes right;
//! - replace an expression by an operand or a literal, drop a keyword
//!   argument (`mask=`, `other=`), make a dtype name int32 / float32.
//!
//! Against a real system each candidate runs there; [`BackendPair`] keeps
//! several long-lived runners and tries a batch of candidates at once, the
//! first in order that still disagrees the same way being kept.

mod probe;
mod tree;
mod unparse;

use crate::backend::Backend;
use crate::peer::Worker;
use crate::triage::{buffer_kind, DiffKind};
use ksem_interp::compare::compare;
use ksem_interp::eval::RunOptions;
use ksem_interp::launch::{parse_launch, Launch, RunResult};
use rustpython_ast as ast;
use serde_json::{json, Value as Json};
use std::time::{Duration, Instant};

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
    /// The case's size before and after.
    pub before: Size,
    pub after: Size,
    /// One line per candidate tried: its pass and verdict.
    pub log: Vec<Json>,
}

/// How big a case is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Statements, nested ones included.
    pub statements: usize,
    /// Expression nodes of the source (operations, names, literals).
    pub expressions: usize,
    /// Programs of the launch times the largest tile's elements.
    pub elements: usize,
}

impl Size {
    /// The size of `source` with `launch` (zeros where it does not parse).
    pub fn of(source: &str, launch: &Json) -> Size {
        let Some(mut t) = tree::parse(source) else {
            return Size::default();
        };
        Size {
            statements: tree::count_stmts(&t),
            expressions: tree::count_exprs(&mut t),
            elements: elements(source, launch),
        }
    }

    /// The size as JSON.
    pub fn to_json(self) -> Json {
        json!({"statements": self.statements, "expressions": self.expressions, "elements": self.elements})
    }
}

/// Programs times the largest tile of the elaborated kernel.
fn elements(source: &str, launch: &Json) -> usize {
    let Ok(l) = parse_launch(&launch.to_string()) else {
        return 0;
    };
    let Ok(k) = ksem_interp::elaborate_source("size.py", source, &l, None) else {
        return 0;
    };
    let mut tile = 1;
    ksem_interp::ir::walk::for_each_expr(&k.body, &mut |e| {
        e.for_each(&mut |x| tile = tile.max(x.ty.shape.iter().product::<usize>()))
    });
    let programs: u32 = k.grid.iter().product();
    programs as usize * tile
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
/// the original case disagreed on first, of the same kind.
pub trait Oracle {
    /// The disagreement the case shows; `Err` says why it shows none (it
    /// does not elaborate, has UB, a side fails, or the two agree).
    fn disagreement(&mut self, source: &str, launch: &Json) -> Result<Disagreement, String>;

    /// [`Oracle::disagreement`] of many candidates (an oracle that can run
    /// them at once overrides it).
    fn disagreements(&mut self, cands: &[(String, Json)]) -> Vec<Result<Disagreement, String>> {
        cands.iter().map(|(s, l)| self.disagreement(s, l)).collect()
    }

    /// Candidates worth trying at once.
    fn width(&self) -> usize {
        1
    }
}

/// How much work one reduction may do.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Most candidates tried.
    pub max_tries: usize,
    /// Longest time spent (`None`: no limit).
    pub max_time: Option<Duration>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_tries: 2000,
            max_time: None,
        }
    }
}

/// Two backends that should agree; the second may be a real system, run
/// through long-lived workers (Triton's) or one batch process per group of
/// candidates (the others).
pub struct BackendPair {
    backends: (Backend, Backend),
    workers: Vec<Worker>,
}

impl BackendPair {
    /// The pair, with `jobs` runners of the real system started where the
    /// second backend is one with a long-lived runner (`None` if none can
    /// start).
    pub fn new(backends: (Backend, Backend)) -> Option<Self> {
        Self::with_jobs(backends, 1)
    }

    /// [`BackendPair::new`] with `jobs` workers.
    pub fn with_jobs(backends: (Backend, Backend), jobs: usize) -> Option<Self> {
        let mut workers = Vec::new();
        if let Some(p) = backends.1.peer().filter(|p| p.serves) {
            for _ in 0..jobs.max(1) {
                match Worker::start(p) {
                    Ok(w) => workers.push(w),
                    Err(_) if !workers.is_empty() => break,
                    Err(_) => return None,
                }
            }
        }
        Some(BackendPair { backends, workers })
    }

    fn opts() -> RunOptions {
        RunOptions {
            threads: 1,
            max_loop_iterations: 1 << 16,
            ..RunOptions::default()
        }
    }

    /// The reference side: the elaborated kernel, its launch and result.
    fn reference(&self, source: &str, launch: &Json) -> Result<(Launch, RunResult), String> {
        let l = parse_launch(&launch.to_string()).map_err(|e| format!("launch: {e}"))?;
        let k = ksem_interp::elaborate_source("reduce.py", source, &l, None)
            .map_err(|e| format!("ksem refuses: {}", first_line(&e.render())))?;
        let a = self.backends.0.run(&k, &l, &Self::opts())?;
        if !a.ub.is_empty() {
            return Err("UB in ksem".into());
        }
        Ok((l, a))
    }

    /// The other side of each candidate, in order.
    fn others(&mut self, cands: &[(&str, &Json)]) -> Vec<Result<RunResult, String>> {
        if !self.workers.is_empty() {
            let n = self.workers.len();
            let mut out: Vec<Option<Result<RunResult, String>>> = vec![None; cands.len()];
            std::thread::scope(|s| {
                let handles: Vec<_> = self
                    .workers
                    .iter_mut()
                    .enumerate()
                    .map(|(w, worker)| {
                        let mine: Vec<(usize, &(&str, &Json))> =
                            cands.iter().enumerate().skip(w).step_by(n).collect();
                        s.spawn(move || {
                            mine.into_iter()
                                .map(|(i, (src, l))| (i, worker.run(src, l)))
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                for h in handles {
                    for (i, r) in h.join().unwrap_or_default() {
                        out[i] = Some(r);
                    }
                }
            });
            return out
                .into_iter()
                .map(|r| r.unwrap_or_else(|| Err("worker stopped".into())))
                .collect();
        }
        if let Some(p) = self.backends.1.peer() {
            return crate::peer::run_batch(p, cands);
        }
        let parsed: Vec<Result<(ksem_interp::ir::Kernel, Launch), String>> = cands
            .iter()
            .map(|(s, l)| {
                let l = parse_launch(&l.to_string())?;
                let k = ksem_interp::elaborate_source("reduce.py", s, &l, None)
                    .map_err(|e| e.render())?;
                Ok((k, l))
            })
            .collect();
        let ok: Vec<(&ksem_interp::ir::Kernel, &Launch)> =
            parsed.iter().flatten().map(|(k, l)| (k, l)).collect();
        let mut ran = self.backends.1.run_batch(&ok, &Self::opts()).into_iter();
        parsed
            .iter()
            .map(|p| match p {
                Ok(_) => ran.next().unwrap_or_else(|| Err("no result".into())),
                Err(e) => Err(e.clone()),
            })
            .collect()
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").trim().to_string()
}

/// The disagreement of two results, or why there is none.
fn disagree(a: RunResult, b: RunResult) -> Result<Disagreement, String> {
    if !b.ub.is_empty() {
        return Err("UB on the other side".into());
    }
    let c = compare(&a, &b, 1);
    let buffers: Vec<String> = c.counts.iter().map(|(n, _)| n.clone()).collect();
    if buffers.is_empty() {
        return Err("agree".into());
    }
    Ok(Disagreement { buffers, a, b })
}

impl Oracle for BackendPair {
    fn disagreement(&mut self, source: &str, launch: &Json) -> Result<Disagreement, String> {
        self.disagreements(&[(source.to_string(), launch.clone())])
            .pop()
            .unwrap_or_else(|| Err("no result".into()))
    }

    fn disagreements(&mut self, cands: &[(String, Json)]) -> Vec<Result<Disagreement, String>> {
        let refs: Vec<Result<(Launch, RunResult), String>> =
            cands.iter().map(|(s, l)| self.reference(s, l)).collect();
        let run: Vec<(&str, &Json)> = cands
            .iter()
            .zip(&refs)
            .filter(|(_, r)| r.is_ok())
            .map(|((s, l), _)| (s.as_str(), l))
            .collect();
        let mut others = self.others(&run).into_iter();
        refs.into_iter()
            .map(|r| {
                let (_, a) = r?;
                let b = others.next().unwrap_or_else(|| Err("no result".into()));
                disagree(a, b.map_err(|e| format!("other side: {}", first_line(&e)))?)
            })
            .collect()
    }

    fn width(&self) -> usize {
        self.workers.len().max(1)
    }
}

/// Statements of a program, nested ones included; `None` where it does not
/// parse.
pub fn statements(source: &str) -> Option<usize> {
    tree::parse(source).map(|t| tree::count_stmts(&t))
}

/// The source as the reducer writes it (parsed and unparsed); `None` where
/// it does not parse.
pub fn normalise(source: &str) -> Option<String> {
    tree::parse(source).map(|t| unparse::module(&t, source))
}

struct State<'o> {
    source: String,
    launch: Json,
    /// The buffer and kind of difference every kept candidate must show.
    target: (String, DiffKind),
    oracle: &'o mut dyn Oracle,
    budget: Budget,
    start: Instant,
    a: RunResult,
    b: RunResult,
    steps: usize,
    tried: usize,
    log: Vec<Json>,
}

impl State<'_> {
    fn spent(&self) -> bool {
        self.tried >= self.budget.max_tries
            || self
                .budget
                .max_time
                .is_some_and(|t| self.start.elapsed() >= t)
    }

    /// Tries the candidates (at once where the oracle can) and keeps the
    /// first, in order, that still disagrees the same way; its position.
    fn try_batch(&mut self, pass: &str, cands: Vec<(String, Json)>) -> Option<usize> {
        let cands: Vec<(String, Json)> = cands
            .into_iter()
            .filter(|(s, l)| !(*s == self.source && *l == self.launch))
            .take(self.budget.max_tries.saturating_sub(self.tried))
            .collect();
        if cands.is_empty() || self.spent() {
            return None;
        }
        self.tried += cands.len();
        let verdicts = self.oracle.disagreements(&cands);
        let mut kept = None;
        for (i, (v, (s, l))) in verdicts.into_iter().zip(cands).enumerate() {
            let verdict = match v {
                Ok(d) if kept.is_none() => {
                    let kind = d
                        .buffers
                        .contains(&self.target.0)
                        .then(|| buffer_kind(&d.a, &d.b, &self.target.0))
                        .flatten();
                    if kind == Some(self.target.1) {
                        self.source = s;
                        self.launch = l;
                        self.a = d.a;
                        self.b = d.b;
                        self.steps += 1;
                        kept = Some(i);
                        "kept".to_string()
                    } else {
                        format!("differs otherwise: {:?} {:?}", d.buffers, kind)
                    }
                }
                Ok(_) => "not needed".into(),
                Err(e) => e,
            };
            self.log.push(json!({"pass": pass, "verdict": verdict}));
        }
        kept
    }

    /// Removes kernel parameters the body never names, with their launch
    /// arguments, one at a time.
    fn drop_unused_params(&mut self) -> bool {
        let mut progress = false;
        loop {
            let Some(mut t) = tree::parse(&self.source) else {
                return progress;
            };
            let Some(f) = tree::triton_kernel(&mut t) else {
                return progress;
            };
            let mut named = std::collections::BTreeSet::new();
            tree::walk_exprs(&mut f.body, &mut |e, _| {
                if let ast::Expr::Name(n) = e {
                    named.insert(n.id.to_string());
                }
            });
            let unused: Vec<usize> = (0..f.args.args.len())
                .filter(|&i| !named.contains(f.args.args[i].def.arg.as_str()))
                .collect();
            let cands: Vec<(String, Json)> = unused
                .iter()
                .filter_map(|&i| {
                    let mut t2 = t.clone();
                    let f2 = tree::triton_kernel(&mut t2)?;
                    let name = f2.args.args.remove(i).def.arg.to_string();
                    let mut l = self.launch.clone();
                    l["args"].as_object_mut()?.remove(&name);
                    Some((unparse::module(&t2, &self.source), l))
                })
                .collect();
            if self.try_batch("unused parameter", cands).is_none() {
                return progress;
            }
            progress = true;
        }
    }

    /// Tries removing each statement, the last first, a batch at a time.
    /// The source is parsed once, and again only after a candidate is
    /// accepted (parsing per candidate made reducing a large program
    /// quadratic).
    fn drop_statements(&mut self) -> bool {
        let mut progress = false;
        let Some(mut t) = tree::parse(&self.source) else {
            return false;
        };
        let mut i = tree::count_stmts(&t);
        while i > 0 && !self.spent() {
            let w = self.oracle.width().min(i);
            let cands: Vec<(String, Json)> = (0..w)
                .filter_map(|k| {
                    let mut t2 = t.clone();
                    tree::remove_stmt(&mut t2, &mut 0, i - 1 - k)
                        .then(|| (unparse::module(&t2, &self.source), self.launch.clone()))
                })
                .collect();
            match self.try_batch("drop statement", cands) {
                Some(k) => {
                    progress = true;
                    i -= 1 + k;
                    match tree::parse(&self.source) {
                        Some(new) => t = new,
                        None => break,
                    }
                }
                None => i -= w,
            }
        }
        progress
    }

    /// Replaces each `if` by its body or its `else` block.
    fn inline_ifs(&mut self) -> bool {
        let mut progress = false;
        let mut i = 0;
        while !self.spent() {
            let Some(t) = tree::parse(&self.source) else {
                break;
            };
            if i >= tree::count_stmts(&t) {
                break;
            }
            let cands: Vec<(String, Json)> = [false, true]
                .into_iter()
                .filter_map(|orelse| {
                    let mut t2 = t.clone();
                    tree::inline_if(&mut t2, &mut 0, i, orelse)
                        .then(|| (unparse::module(&t2, &self.source), self.launch.clone()))
                })
                .collect();
            if cands.is_empty() || self.try_batch("inline if", cands).is_none() {
                i += 1;
            } else {
                progress = true;
            }
        }
        progress
    }

    /// Replaces expressions (pre-order, so the largest first) by ksem's
    /// values for them, a batch at a time.
    fn constant_tiles(&mut self) -> bool {
        if !self.source.contains("triton") {
            return false;
        }
        let mut progress = false;
        let mut i = 0;
        while !self.spent() {
            let Some(mut t) = tree::parse(&self.source) else {
                break;
            };
            let n = tree::count_exprs(&mut t);
            if i >= n {
                break;
            }
            let mut cands = Vec::new();
            let mut at = Vec::new();
            while i < n && cands.len() < self.oracle.width() {
                if let Some((s, l, len)) = probe::constant_tile(&t, &self.source, &self.launch, i) {
                    cands.push((s, l));
                    at.push(i + len);
                }
                i += 1;
            }
            if let Some(k) = self.try_batch("constant tile", cands) {
                progress = true;
                // go on after the replacement's own expressions
                i = at[k];
            }
        }
        progress
    }

    /// Tries replacing each expression by simpler ones (pre-order), parsing
    /// only after an accepted candidate.
    fn simplify_expressions(&mut self) -> bool {
        let mut progress = false;
        let Some(mut t) = tree::parse(&self.source) else {
            return false;
        };
        let mut n = tree::count_exprs(&mut t);
        let mut i = 0;
        while i < n && !self.spent() {
            let mut options = Vec::new();
            tree::walk_exprs(&mut t, &mut |e, idx| {
                if idx == i {
                    options = tree::candidates(e);
                }
            });
            let cands: Vec<(String, Json)> = options
                .into_iter()
                .map(|cand| {
                    let mut t2 = t.clone();
                    tree::walk_exprs(&mut t2, &mut |e, idx| {
                        if idx == i {
                            *e = cand.clone();
                        }
                    });
                    (unparse::module(&t2, &self.source), self.launch.clone())
                })
                .collect();
            let mut accepted = false;
            for chunk in cands.chunks(self.oracle.width()) {
                if self
                    .try_batch("simplify expression", chunk.to_vec())
                    .is_some()
                {
                    accepted = true;
                    break;
                }
            }
            if accepted {
                progress = true;
                match tree::parse(&self.source) {
                    Some(new) => t = new,
                    None => break,
                }
                n = tree::count_exprs(&mut t);
            } else {
                i += 1;
            }
        }
        progress
    }

    /// Halves the grid, the integer constexprs that are powers of two, and
    /// every tile length (`tl.arange(0, N)`: each literal N of the kernel
    /// made N / 2).
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
            if self
                .try_batch("shrink grid", vec![(self.source.clone(), l)])
                .is_none()
            {
                break;
            }
            progress = true;
        }
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
                if self
                    .try_batch("shrink constexpr", vec![(self.source.clone(), l)])
                    .is_none()
                {
                    break;
                }
                progress = true;
            }
        }
        while let Some(c) = self.smaller_tiles() {
            let width = self.oracle.width();
            let cands: Vec<(String, Json)> = c.into_iter().take(width.max(2)).collect();
            if self.try_batch("shrink tile", cands).is_none() {
                break;
            }
            progress = true;
        }
        progress
    }

    /// Candidates with one tile length halved (the largest first).
    fn smaller_tiles(&self) -> Option<Vec<(String, Json)>> {
        let mut t = tree::parse(&self.source)?;
        let mut lengths = std::collections::BTreeSet::new();
        tree::walk_exprs(&mut t, &mut |e, _| {
            if let ast::Expr::Call(c) = e {
                if c.func.to_string().ends_with("arange") {
                    if let Some(n) = c.args.get(1).and_then(int_constant) {
                        if n > 1 && n.is_power_of_two() {
                            lengths.insert(n);
                        }
                    }
                }
            }
        });
        let cands: Vec<(String, Json)> = lengths
            .iter()
            .rev()
            .map(|&n| {
                let mut t2 = t.clone();
                tree::walk_exprs(&mut t2, &mut |e, _| {
                    if int_constant(e) == Some(n) {
                        if let Some(h) = tree::expr(&(n / 2).to_string()) {
                            *e = h;
                        }
                    }
                });
                (unparse::module(&t2, &self.source), self.launch.clone())
            })
            .collect();
        (!cands.is_empty()).then_some(cands)
    }
}

/// The value of an integer literal.
fn int_constant(e: &ast::Expr) -> Option<u64> {
    match e {
        ast::Expr::Constant(c) => match &c.value {
            ast::Constant::Int(i) => i.to_string().parse().ok(),
            _ => None,
        },
        _ => None,
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
    let d = oracle.disagreement(source, launch).ok()?;
    let target = d.buffers.first()?.clone();
    let kind = buffer_kind(&d.a, &d.b, &target)?;
    let mut s = State {
        source: source.to_string(),
        launch: launch.clone(),
        target: (target, kind),
        oracle,
        budget,
        start: Instant::now(),
        a: d.a,
        b: d.b,
        steps: 0,
        tried: 0,
        log: Vec::new(),
    };
    // normalise the source through the unparser first
    if let Some(normal) = normalise(&s.source) {
        s.try_batch("normalise", vec![(normal, s.launch.clone())]);
    }
    loop {
        let mut progress = s.drop_unused_params();
        progress |= s.shrink_launch();
        progress |= s.drop_statements();
        progress |= s.inline_ifs();
        progress |= s.constant_tiles();
        progress |= s.simplify_expressions();
        if !progress || s.spent() {
            break;
        }
    }
    s.drop_unused_params();
    Some(Reduced {
        before: Size::of(source, launch),
        after: Size::of(&s.source, &s.launch),
        source: s.source,
        launch: s.launch,
        a: s.a,
        b: s.b,
        steps: s.steps,
        tried: s.tried,
        log: s.log,
    })
}

#[cfg(test)]
mod tests;
