//! The `reducer` target: the test-case reducer on any program, with an
//! oracle the interpreter answers in microseconds (a case is interesting
//! where the kernel leaves some buffer different from how the launch gave
//! it). Findings: a panic or hang in the reducer; a program whose
//! normalised text (parsed and unparsed, the reducer's first step) runs
//! differently from the original; a reduced case that is no longer
//! interesting, or has more statements than the original, or a reduction
//! over its budget.

use crate::{run_options, FILE, LIMITS};
use ksem_diff::reduce::{self, Budget, Disagreement, Oracle};
use ksem_interp::frontend;
use ksem_interp::launch::{parse_launch_with, ArgSpec, Launch, RunResult};
use serde_json::Value as Json;

/// Candidates one reduction may try: small, so one input stays fast.
const BUDGET: Budget = Budget {
    max_tries: 24,
    max_time: None,
};

/// The oracle: the buffers the kernel changed (`a`: after the run; `b`:
/// as the launch gave them).
pub struct ChangesBuffers;

/// Runs a case on the interpreter; `None` where it does not elaborate, fails
/// or has UB.
fn interp(source: &str, l: &Launch) -> Option<RunResult> {
    let k = frontend::elaborate_in(None, FILE, source, l, None).ok()?;
    let r = ksem_interp::eval::run(&k, l, &run_options()).ok()?;
    r.ub.is_empty().then_some(r)
}

/// `after` with every buffer's bits as the launch initialised it.
fn initial(after: &RunResult, l: &Launch) -> RunResult {
    let mut before = after.clone();
    for b in &mut before.buffers {
        if let Some(ArgSpec::Buffer { bits, .. }) = l.arg(&b.name) {
            b.bits.clone_from(bits);
        }
        b.inexact.iter_mut().for_each(|x| *x = false);
    }
    before
}

impl Oracle for ChangesBuffers {
    fn disagreement(&mut self, source: &str, launch: &Json) -> Result<Disagreement, String> {
        let l = parse_launch_with(&launch.to_string(), &LIMITS)?;
        let a = interp(source, &l).ok_or("does not run")?;
        let b = initial(&a, &l);
        let buffers: Vec<String> = a
            .buffers
            .iter()
            .zip(&b.buffers)
            .filter(|(x, y)| x.bits != y.bits)
            .map(|(x, _)| x.name.clone())
            .collect();
        if buffers.is_empty() {
            return Err("no buffer changes".into());
        }
        Ok(Disagreement { buffers, a, b })
    }
}

/// One input: `source` with `launch_json`.
pub fn check(source: &str, launch_json: &str) {
    let Ok(l) = parse_launch_with(launch_json, &LIMITS) else {
        return;
    };
    let Ok(launch) = serde_json::from_str::<Json>(launch_json) else {
        return;
    };
    let Some(original) = interp(source, &l) else {
        return;
    };
    let normal = reduce::normalise(source).expect("a program that elaborates parses");
    match interp(&normal, &l) {
        Some(r) if r.buffers == original.buffers => {}
        other => panic!(
            "normalising changed the program's result\n--- original\n{source}\n--- normalised\n{normal}\n--- result\n{:?}",
            other.map(|r| r.buffers)
        ),
    }
    let Ok(d) = ChangesBuffers.disagreement(source, &launch) else {
        return;
    };
    let target = &d.buffers[0];
    let r = reduce::reduce_with(source, &launch, &mut ChangesBuffers, BUDGET)
        .expect("an interesting case reduces");
    assert!(r.tried <= BUDGET.max_tries, "tried {} candidates", r.tried);
    let again = ChangesBuffers.disagreement(&r.source, &r.launch);
    assert!(
        again.is_ok_and(|d| d.buffers.contains(target)),
        "the reduced case lost the difference on {target}\n{}",
        r.source
    );
    assert!(
        r.steps == 0 || reduce::statements(&r.source) <= reduce::statements(&normal),
        "the reduced case grew\n--- from\n{normal}\n--- to\n{}",
        r.source
    );
}
