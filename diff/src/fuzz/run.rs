//! The campaign runner: generate programs, run each on two backends,
//! compare, and keep every mismatch (reduced) as a corpus-ready case.

use super::gen::{generate, Config, Program};
use crate::backend::Backend;
use crate::compare::{compare, Comparison};
use ksem_interp::eval::RunOptions;
use ksem_interp::launch::{parse_launch, RunResult};
use rayon::prelude::*;
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What one campaign does.
#[derive(Clone, Debug)]
pub struct Options {
    pub seed: u64,
    /// Stop after this many programs…
    pub count: Option<u64>,
    /// …or after this much time (checked between batches).
    pub time: Option<Duration>,
    pub backends: (Backend, Backend),
    pub jobs: usize,
    /// Where mismatches are written (corpus format).
    pub out: Option<PathBuf>,
    pub config: Config,
    /// Reduce every mismatch before writing it.
    pub reduce: bool,
}

/// The verdict on one generated program.
#[derive(Clone, Debug)]
pub enum Outcome {
    Match,
    Mismatch(Box<(Comparison, RunResult, RunResult)>),
    /// The interpreter reported UB (kind and message): the generator failed
    /// to neutralise something.
    UbSkipped(String),
    /// The program did not elaborate or a backend failed.
    Error(String),
}

/// Groups per job in one round (more than one, so that a slow group does
/// not leave the other cores idle for long at the end of a round).
const GROUPS_PER_JOB: u64 = 2;

/// A program elaborated and run on the reference side, waiting for the other.
struct Pending {
    kernel: ksem_interp::typed::Kernel,
    launch: ksem_interp::launch::Launch,
    a: RunResult,
}

/// The first stage: elaborate and run on backend `a`.
fn first(p: &Program, a: Backend) -> Result<Pending, Outcome> {
    let launch =
        parse_launch(&p.launch.to_string()).map_err(|e| Outcome::Error(format!("launch: {e}")))?;
    let kernel = ksem_interp::elaborate_source("fuzz.py", &p.source, &launch, None)
        .map_err(|e| Outcome::Error(e.render()))?;
    let r = a
        .run(&kernel, &launch, &RUN_OPTS)
        .map_err(|e| Outcome::Error(format!("{a}: {e}")))?;
    if let Some(u) = r.ub.first() {
        return Err(Outcome::UbSkipped(format!(
            "{} at {}:{}: {}",
            u.kind, u.line, u.col, u.message
        )));
    }
    Ok(Pending {
        kernel,
        launch,
        a: r,
    })
}

/// The verdict once both results are in.
fn verdict(a: RunResult, b: Result<RunResult, String>, backend: Backend) -> Outcome {
    let b = match b {
        Ok(b) => b,
        Err(e) => return Outcome::Error(format!("{backend}: {e}")),
    };
    if let Some(u) = b.ub.first() {
        return Outcome::UbSkipped(format!("{} at {}:{}: {}", u.kind, u.line, u.col, u.message));
    }
    let c = compare(&a, &b, 8);
    if c.is_match() {
        Outcome::Match
    } else {
        Outcome::Mismatch(Box::new((c, a, b)))
    }
}

const RUN_OPTS: RunOptions = RunOptions {
    threads: 1,
    max_loop_iterations: 1 << 16,
};

/// Checks a round of programs in groups of `group`, in parallel: each group
/// runs on the reference side, then on the other side compiled together.
/// Groups are independent, so the cores stay busy until the round's last.
fn check_round(programs: &[Program], backends: (Backend, Backend), group: usize) -> Vec<Outcome> {
    programs
        .par_chunks(group.max(1))
        .flat_map_iter(|chunk| check_group(chunk, backends))
        .collect()
}

/// Checks programs that the second backend compiles together.
fn check_group(programs: &[Program], backends: (Backend, Backend)) -> Vec<Outcome> {
    let firsts: Vec<Result<Pending, Outcome>> =
        programs.iter().map(|p| first(p, backends.0)).collect();
    let items: Vec<(&ksem_interp::typed::Kernel, &ksem_interp::launch::Launch)> = firsts
        .iter()
        .filter_map(|f| f.as_ref().ok())
        .map(|pd| (&pd.kernel, &pd.launch))
        .collect();
    let mut seconds = backends.1.run_batch(&items, &RUN_OPTS).into_iter();
    firsts
        .into_iter()
        .map(|f| match f {
            Err(o) => o,
            Ok(pd) => {
                let b = seconds.next().expect("one result per ready program");
                verdict(pd.a, b, backends.1)
            }
        })
        .collect()
}

/// Counts of a campaign.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub programs: u64,
    pub mismatches: u64,
    /// Mismatches only in elements derived from approximate math.
    pub inexact_mismatches: u64,
    pub ub_skipped: u64,
    pub errors: u64,
    pub seconds: f64,
    /// feature -> (programs, mismatches)
    pub by_feature: BTreeMap<&'static str, (u64, u64)>,
    /// Indices of the mismatching programs, where they were written, and
    /// whether only inexact elements differ.
    pub found: Vec<(u64, Option<PathBuf>, bool)>,
    /// The first few error messages.
    pub error_samples: Vec<String>,
    /// The first few UB reports of skipped programs.
    pub ub_samples: Vec<String>,
}

impl Summary {
    pub fn to_json(&self, o: &Options) -> Json {
        let feats: serde_json::Map<String, Json> = self
            .by_feature
            .iter()
            .map(|(k, (n, m))| (k.to_string(), json!({"programs": n, "mismatches": m})))
            .collect();
        json!({
            "seed": o.seed,
            "backends": format!("{},{}", o.backends.0, o.backends.1),
            "programs": self.programs,
            "seconds": (self.seconds * 1000.0).round() / 1000.0,
            "programs_per_s": if self.seconds > 0.0 { (self.programs as f64 / self.seconds * 10.0).round() / 10.0 } else { 0.0 },
            "mismatches": self.mismatches,
            "inexact_mismatches": self.inexact_mismatches,
            "ub_skipped": self.ub_skipped,
            "errors": self.errors,
            "by_feature": feats,
        })
    }
}

/// Runs a campaign.
pub fn campaign(o: &Options, mut on_batch: impl FnMut(&Summary)) -> Summary {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.jobs.max(1))
        .build()
        .expect("thread pool");
    let start = Instant::now();
    let mut s = Summary::default();
    let mut next = 0u64;
    loop {
        let group = o.backends.1.batch_size();
        let batch = GROUPS_PER_JOB * group as u64 * o.jobs.max(1) as u64;
        let end = match o.count {
            Some(c) => (next + batch).min(c),
            None => next + batch,
        };
        if next >= end {
            break;
        }
        let results: Vec<(u64, Program, Outcome)> = pool.install(|| {
            let programs: Vec<Program> = (next..end)
                .into_par_iter()
                .map(|i| generate(&o.config, o.seed, i))
                .collect();
            let outcomes = check_round(&programs, o.backends, group);
            (next..end)
                .zip(programs)
                .zip(outcomes)
                .map(|((i, p), v)| (i, p, v))
                .collect()
        });
        for (i, p, v) in results {
            s.programs += 1;
            let bad = matches!(v, Outcome::Mismatch(_));
            for f in &p.features {
                let e = s.by_feature.entry(f).or_default();
                e.0 += 1;
                e.1 += bad as u64;
            }
            match v {
                Outcome::Match => {}
                Outcome::UbSkipped(u) => {
                    s.ub_skipped += 1;
                    if s.ub_samples.len() < 5 {
                        s.ub_samples.push(format!("program {i}: {u}"));
                    }
                }
                Outcome::Error(e) => {
                    s.errors += 1;
                    if s.error_samples.len() < 5 {
                        s.error_samples.push(format!("program {i}: {e}"));
                    }
                }
                Outcome::Mismatch(m) => {
                    let inexact = m.0.is_inexact_only();
                    s.mismatches += 1;
                    s.inexact_mismatches += inexact as u64;
                    let path = o
                        .out
                        .as_ref()
                        .and_then(|dir| super::save::save_case(dir, o, i, &p, &m.1, &m.2).ok());
                    s.found.push((i, path, inexact));
                }
            }
        }
        next = end;
        s.seconds = start.elapsed().as_secs_f64();
        on_batch(&s);
        if o.time.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
    }
    s.seconds = start.elapsed().as_secs_f64();
    s
}
