//! The campaign runner: generate programs, run each on two backends,
//! compare, and keep every mismatch (reduced) as a corpus-ready case.

use super::checkpoint::Checkpoint;
use super::gen::{generate, Config, Program};
use super::inputs::input_sets;
use crate::backend::Backend;
use ksem_interp::compare::{compare, Comparison};
use ksem_interp::eval::RunOptions;
use ksem_interp::launch::{parse_launch_json, RunResult};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
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
    /// This worker's part of the campaign, `(i, n)`: the programs whose
    /// index is `i` modulo `n` (`(0, 1)`: all). N workers with shards
    /// `0/N … N-1/N` check exactly the programs one worker would.
    pub shard: (u64, u64),
    /// The GPUs the cuda backend runs on: worker `k` uses `devices[k % n]`.
    pub devices: Vec<usize>,
    /// Where a resumed campaign starts (its checkpoint); `None`: from the
    /// first program.
    pub resume: Option<Checkpoint>,
    /// Input sets each program is checked on (`fuzz --inputs`, at least 1):
    /// the program's own launch and `inputs - 1` others over the same
    /// compiled kernel ([`super::inputs`]).
    pub inputs: u32,
    /// How often the progress log and checkpoint in `out` are written.
    pub checkpoint_every: Duration,
}

/// One worker, no limits, interp against itself, no output, the whole
/// campaign, GPU 0: the fields a campaign usually leaves as they are.
impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 0,
            count: None,
            time: None,
            backends: (Backend::Interp, Backend::Interp),
            jobs: 1,
            out: None,
            config: Config::default(),
            reduce: false,
            shard: (0, 1),
            devices: vec![0],
            resume: None,
            inputs: 1,
            checkpoint_every: Duration::from_secs(2),
        }
    }
}

impl Options {
    /// The campaign index of this shard's `j`-th program.
    fn index(&self, j: u64) -> u64 {
        self.shard.0 + j * self.shard.1.max(1)
    }

    /// How many programs this shard checks under `count` (`None`: no limit).
    pub fn local_count(&self) -> Option<u64> {
        let (i, n) = (self.shard.0, self.shard.1.max(1));
        self.count
            .map(|c| if c > i { (c - i).div_ceil(n) } else { 0 })
    }
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

/// A program elaborated and run on the reference side over its input
/// sets, waiting for the other side.
struct Pending {
    kernel: ksem_interp::ir::Kernel,
    /// The input sets the reference side ran without UB: launch JSON, the
    /// parsed launch and the reference result.
    sets: Vec<(Json, ksem_interp::launch::Launch, RunResult)>,
}

/// The first stage: elaborate (the program's own launch) and run every
/// input set on backend `a`. UB on the program's own launch skips the
/// program; on another input set, that set.
fn first(p: &Program, launches: &[Json], a: Backend) -> Result<Pending, Outcome> {
    let launch =
        parse_launch_json(&p.launch).map_err(|e| Outcome::Error(format!("launch: {e}")))?;
    let kernel = ksem_interp::elaborate_source("fuzz.py", &p.source, &launch, None)
        .map_err(|e| Outcome::Error(e.render()))?;
    if let Some(ir) = &p.ir {
        ksem_interp::ir::canon::same_program(ir, &kernel)
            .map_err(|e| Outcome::Error(format!("round trip: {e}")))?;
    }
    let mut sets = Vec::with_capacity(launches.len());
    for (j, json) in launches.iter().enumerate() {
        let l = if j == 0 {
            launch.clone()
        } else {
            parse_launch_json(json).map_err(|e| Outcome::Error(format!("input set {j}: {e}")))?
        };
        let r = a
            .run(&kernel, &l, &RUN_OPTS)
            .map_err(|e| Outcome::Error(format!("{a}: {e}")))?;
        match r.ub.first() {
            Some(u) if j == 0 => {
                return Err(Outcome::UbSkipped(format!(
                    "{} at {}:{}: {}",
                    u.kind, u.line, u.col, u.message
                )))
            }
            Some(_) => {}
            None => sets.push((json.clone(), l, r)),
        }
    }
    Ok(Pending { kernel, sets })
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
    gemm: ksem_interp::eval::GemmPath::Fast,
    register_program: ksem_interp::eval::ProgramPath::Register,
};

/// One program's verdict over its input sets: the first set that does not
/// match decides (its launch given where it is not the program's own), else
/// a match; and how many sets were compared.
struct Checked {
    outcome: Outcome,
    launch: Option<Json>,
    checks: u64,
}

/// Checks programs that the second backend compiles together (a program's
/// input sets share one compiled kernel).
fn check_group(
    programs: &[Program],
    launches: &[Vec<Json>],
    backends: (Backend, Backend),
) -> Vec<Checked> {
    let firsts: Vec<Result<Pending, Outcome>> = programs
        .iter()
        .zip(launches)
        .map(|(p, ls)| first(p, ls, backends.0))
        .collect();
    let mut seconds = match backends.1.peer() {
        // a real system runs the sources themselves
        Some(peer) => {
            let sources: Vec<(&str, &Json)> = programs
                .iter()
                .zip(&firsts)
                .filter_map(|(p, f)| f.as_ref().ok().map(|pd| (p, pd)))
                .flat_map(|(p, pd)| pd.sets.iter().map(|s| (p.source.as_str(), &s.0)))
                .collect();
            crate::peer::run_batch(peer, &sources)
        }
        None => {
            let items: Vec<(&ksem_interp::ir::Kernel, &ksem_interp::launch::Launch)> = firsts
                .iter()
                .filter_map(|f| f.as_ref().ok())
                .flat_map(|pd| pd.sets.iter().map(|s| (&pd.kernel, &s.1)))
                .collect();
            backends.1.run_batch(&items, &RUN_OPTS)
        }
    }
    .into_iter();
    firsts
        .into_iter()
        .map(|f| match f {
            Err(outcome) => Checked {
                outcome,
                launch: None,
                checks: 0,
            },
            Ok(pd) => {
                let mut checked = Checked {
                    outcome: Outcome::Match,
                    launch: None,
                    checks: 0,
                };
                for (j, (json, _, a)) in pd.sets.into_iter().enumerate() {
                    let b = seconds.next().expect("one result per input set");
                    if !matches!(checked.outcome, Outcome::Match) {
                        continue;
                    }
                    let v = verdict(a, b, backends.1);
                    checked.checks += matches!(v, Outcome::Match | Outcome::Mismatch(_)) as u64;
                    if !matches!(v, Outcome::Match) {
                        checked.outcome = v;
                        checked.launch = (j > 0).then_some(json);
                    }
                }
                checked
            }
        })
        .collect()
}

/// Counts of a campaign.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub programs: u64,
    /// Input sets compared on both backends (`programs` × `--inputs`, less
    /// those skipped for UB or errors).
    pub checks: u64,
    pub mismatches: u64,
    /// Mismatches only in elements derived from approximate math.
    pub inexact_mismatches: u64,
    pub ub_skipped: u64,
    pub errors: u64,
    pub seconds: f64,
    /// feature -> (programs, mismatches)
    pub by_feature: BTreeMap<String, (u64, u64)>,
    /// Triage bucket -> the mismatches' signatures (duplicates share one)
    /// -> the lowest program with it; the mismatch count per bucket is
    /// `bucket_counts`.
    pub by_bucket: BTreeMap<String, BTreeMap<String, u64>>,
    /// Triage bucket -> mismatches.
    pub bucket_counts: BTreeMap<String, u64>,
    /// Indices of the mismatching programs, where they were written, and
    /// whether only inexact elements differ.
    pub found: Vec<(u64, Option<PathBuf>, bool)>,
    /// The lowest-numbered programs' error messages (a few).
    pub error_samples: Vec<(u64, String)>,
    /// The lowest-numbered skipped programs' UB reports (a few).
    pub ub_samples: Vec<(u64, String)>,
}

impl Summary {
    pub fn to_json(&self, o: &Options) -> Json {
        let feats: serde_json::Map<String, Json> = self
            .by_feature
            .iter()
            .map(|(k, (n, m))| (k.clone(), json!({"programs": n, "mismatches": m})))
            .collect();
        let buckets: serde_json::Map<String, Json> = self
            .by_bucket
            .iter()
            .map(|(b, sigs)| {
                let n = self.bucket_counts.get(b).copied().unwrap_or(0);
                let examples: Vec<u64> = sigs.values().copied().collect();
                (
                    b.clone(),
                    json!({"mismatches": n, "distinct": sigs.len(), "examples": examples}),
                )
            })
            .collect();
        json!({
            "seed": o.seed,
            "dialect": o.config.dialect.name(),
            "shard": format!("{}/{}", o.shard.0, o.shard.1),
            "backends": format!("{},{}", o.backends.0, o.backends.1),
            "programs": self.programs,
            "checks": self.checks,
            "inputs": o.inputs.max(1),
            "seconds": (self.seconds * 1000.0).round() / 1000.0,
            "programs_per_s": if self.seconds > 0.0 { (self.programs as f64 / self.seconds * 10.0).round() / 10.0 } else { 0.0 },
            "checks_per_s": if self.seconds > 0.0 { (self.checks as f64 / self.seconds * 10.0).round() / 10.0 } else { 0.0 },
            "mismatches": self.mismatches,
            "inexact_mismatches": self.inexact_mismatches,
            "ub_skipped": self.ub_skipped,
            "errors": self.errors,
            "by_feature": feats,
            "by_bucket": buckets,
        })
    }
}

/// Runs a campaign: `jobs` workers take groups of programs in index order
/// (so the programs checked are always a prefix of the campaign, whatever
/// the number of jobs), each checking its group on its own; `on_group` sees
/// the running summary after every group. With `o.out` the campaign keeps
/// a checkpoint there; with `o.resume` it starts from one.
pub fn campaign(o: &Options, on_group: impl FnMut(&Summary) + Send) -> Summary {
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let resumed = o.resume.clone().unwrap_or_default();
    let base = resumed.done;
    let group = group_size(
        o.backends.1.batch_size() as u64,
        o.local_count().map(|c| c.saturating_sub(base)),
        o.jobs.max(1) as u64,
    );
    let offset = resumed.summary.seconds;
    let log = o.out.as_deref().map(|d| {
        if o.resume.is_some() {
            super::log::ProgressLog::append(d, &resumed.summary, o.checkpoint_every)
        } else {
            super::log::ProgressLog::create(d, o.checkpoint_every)
        }
    });
    let shared = Mutex::new(Shared {
        total: resumed.summary.clone(),
        prefix: resumed,
        pending: BTreeMap::new(),
        on_group,
        log,
    });
    std::thread::scope(|scope| {
        for k in 0..o.jobs.max(1) {
            let next = &next;
            let shared = &shared;
            scope.spawn(move || loop {
                if let Some(&d) = o.devices.get(k % o.devices.len().max(1)) {
                    ksem_gpu::cuda::use_device(d);
                }
                if o.time.is_some_and(|t| start.elapsed() >= t) {
                    break;
                }
                let lo = base + next.fetch_add(1, Ordering::Relaxed) * group;
                let hi = match o.local_count() {
                    Some(c) if lo >= c => break,
                    Some(c) => (lo + group).min(c),
                    None => lo + group,
                };
                let indices: Vec<u64> = (lo..hi).map(|j| o.index(j)).collect();
                let programs: Vec<Program> = indices
                    .iter()
                    .map(|&i| generate(&o.config, o.seed, i))
                    .collect();
                let launches: Vec<Vec<Json>> = programs
                    .iter()
                    .zip(&indices)
                    .map(|(p, &i)| {
                        let k = o.inputs.max(1);
                        input_sets(&p.launch, o.seed, i, k, o.config.avoid_divergences())
                    })
                    .collect();
                let checked = check_group(&programs, &launches, o.backends);
                let mut done = Summary::default();
                for ((i, p), c) in indices.into_iter().zip(&programs).zip(checked) {
                    done.add(Record::new(o, i, p, c));
                }
                let mut guard = shared.lock().unwrap_or_else(|p| p.into_inner());
                guard.finished(o, lo..hi, done, offset + start.elapsed().as_secs_f64());
            });
        }
    });
    let mut sh = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    sh.total.finish();
    sh.total.seconds = offset + start.elapsed().as_secs_f64();
    sh.prefix.summary.seconds = sh.total.seconds;
    if let Some(log) = sh.log {
        log.finish(&sh.total, o);
    }
    if let Some(dir) = &o.out {
        let _ = super::checkpoint::save(dir, o, &sh.prefix);
    }
    sh.total
}

/// Programs a worker takes at a time: the backend's batch, or fewer where
/// `count` programs in batches would leave some of the `jobs` idle while
/// the last batches run (384 programs in batches of 128 on 2 jobs: the
/// third batch runs alone). The batches are made equal and their number a
/// multiple of `jobs`, as few as the batch size allows.
fn group_size(batch: u64, count: Option<u64>, jobs: u64) -> u64 {
    match count {
        Some(c) if c > 0 => {
            let rounds = c.div_ceil(batch * jobs);
            c.div_ceil(rounds * jobs).clamp(1, batch)
        }
        _ => batch,
    }
}

/// What the workers of a campaign share.
struct Shared<F> {
    /// Every program checked so far.
    total: Summary,
    /// The done prefix of the campaign (what a checkpoint holds).
    prefix: Checkpoint,
    /// Groups done above the prefix, by their first local index: their
    /// local range end and summary.
    pending: BTreeMap<u64, (u64, Summary)>,
    on_group: F,
    log: Option<super::log::ProgressLog>,
}

impl<F: FnMut(&Summary)> Shared<F> {
    /// Takes in a group's summary: the running total, the done prefix (the
    /// group and any done after it, once every group before is in), the
    /// progress line and checkpoint, and the caller's callback.
    fn finished(&mut self, o: &Options, local: std::ops::Range<u64>, s: Summary, now: f64) {
        self.total.merge(&s);
        self.total.seconds = now;
        self.pending.insert(local.start, (local.end, s));
        while let Some((end, s)) = self.pending.remove(&self.prefix.done) {
            self.prefix.summary.merge(&s);
            self.prefix.done = end;
        }
        self.prefix.summary.seconds = now;
        if let Some(log) = &mut self.log {
            if log.record(&self.total) {
                if let Some(dir) = &o.out {
                    let _ = super::checkpoint::save(dir, o, &self.prefix);
                }
            }
        }
        (self.on_group)(&self.total);
    }
}

/// One program's verdict, with where its mismatch (if any) was written and
/// its triage (bucket name, signature).
struct Record {
    index: u64,
    checks: u64,
    features: Vec<String>,
    outcome: Outcome,
    saved: Option<PathBuf>,
    triage: Option<(String, String)>,
}

impl Record {
    fn new(o: &Options, i: u64, p: &Program, c: Checked) -> Record {
        // a mismatch on another input set is that set's case
        let other;
        let p = match c.launch {
            Some(launch) => {
                other = Program {
                    launch,
                    ..p.clone()
                };
                &other
            }
            None => p,
        };
        let outcome = c.outcome;
        let saved = match (&outcome, &o.out) {
            (Outcome::Mismatch(m), Some(dir)) => {
                super::save::save_case(dir, o, i, p, &m.1, &m.2).ok()
            }
            _ => None,
        };
        let triage = match &outcome {
            Outcome::Mismatch(m) => Some(triage_mismatch(p, saved.as_deref(), &m.1, &m.2)),
            _ => None,
        };
        Record {
            index: i,
            checks: c.checks,
            features: p.features.iter().map(|f| f.to_string()).collect(),
            outcome,
            saved,
            triage,
        }
    }
}

/// The bucket and signature of a mismatch: of the saved (reduced) finding
/// where there is one, else of the program as generated.
fn triage_mismatch(
    p: &Program,
    saved: Option<&std::path::Path>,
    a: &RunResult,
    b: &RunResult,
) -> (String, String) {
    use crate::triage;
    let gpu = crate::backend::gpu_present();
    if let Some((dir, name)) = saved.and_then(triage::split_finding_path) {
        if let Ok(f) = triage::triage_finding(&dir, &name, gpu) {
            return (f.bucket.name(), f.signature);
        }
    }
    let parsed = parse_launch_json(&p.launch).ok().and_then(|l| {
        ksem_interp::elaborate_source("fuzz.py", &p.source, &l, None)
            .ok()
            .map(|k| (k, l))
    });
    match (parsed, triage::diff_kind(a, b)) {
        (Some((k, l)), Some(kind)) => {
            let rerun = triage::Rerun {
                kernel: &k,
                launch: &l,
                gpu,
                files: Some((&p.source, &p.launch)),
            };
            (
                triage::bucket(kind, a, b, &rerun).name(),
                triage::signature(&k, kind),
            )
        }
        _ => ("undecided (cannot rerun)".into(), String::new()),
    }
}

/// Samples of errors and UB reports kept in the summary.
const SAMPLES: usize = 5;

impl Summary {
    fn add(&mut self, r: Record) {
        let i = r.index;
        self.programs += 1;
        self.checks += r.checks;
        let bad = matches!(r.outcome, Outcome::Mismatch(_));
        for f in r.features {
            let e = self.by_feature.entry(f).or_default();
            e.0 += 1;
            e.1 += bad as u64;
        }
        match r.outcome {
            Outcome::Match => {}
            Outcome::UbSkipped(u) => {
                self.ub_skipped += 1;
                self.ub_samples.push((i, u));
            }
            Outcome::Error(e) => {
                self.errors += 1;
                self.error_samples.push((i, e));
            }
            Outcome::Mismatch(m) => {
                let inexact = m.0.is_inexact_only();
                self.mismatches += 1;
                self.inexact_mismatches += inexact as u64;
                self.found.push((i, r.saved, inexact));
                if let Some((bucket, sig)) = r.triage {
                    *self.bucket_counts.entry(bucket.clone()).or_default() += 1;
                    let first = self
                        .by_bucket
                        .entry(bucket)
                        .or_default()
                        .entry(sig)
                        .or_insert(i);
                    *first = (*first).min(i);
                }
            }
        }
        // the lowest-numbered samples, whatever order groups finish in
        self.keep_lowest_samples();
    }

    /// Adds another part of the campaign's counts (its samples kept where
    /// they are among the lowest-numbered).
    pub fn merge(&mut self, o: &Summary) {
        self.programs += o.programs;
        self.checks += o.checks;
        self.mismatches += o.mismatches;
        self.inexact_mismatches += o.inexact_mismatches;
        self.ub_skipped += o.ub_skipped;
        self.errors += o.errors;
        for (f, (n, m)) in &o.by_feature {
            let e = self.by_feature.entry(f.clone()).or_default();
            e.0 += n;
            e.1 += m;
        }
        for (b, sigs) in &o.by_bucket {
            let mine = self.by_bucket.entry(b.clone()).or_default();
            for (sig, &i) in sigs {
                let first = mine.entry(sig.clone()).or_insert(i);
                *first = (*first).min(i);
            }
        }
        for (b, n) in &o.bucket_counts {
            *self.bucket_counts.entry(b.clone()).or_default() += n;
        }
        self.found.extend(o.found.iter().cloned());
        self.error_samples.extend(o.error_samples.iter().cloned());
        self.ub_samples.extend(o.ub_samples.iter().cloned());
        self.keep_lowest_samples();
    }

    fn keep_lowest_samples(&mut self) {
        for v in [&mut self.ub_samples, &mut self.error_samples] {
            v.sort_by_key(|x| x.0);
            v.truncate(SAMPLES);
        }
    }

    /// Puts the found programs in index order.
    fn finish(&mut self) {
        self.found.sort_by_key(|f| f.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(programs: u64, errors: u64) -> Summary {
        Summary {
            programs,
            errors,
            error_samples: vec![(programs, format!("e{programs}"))],
            ..Default::default()
        }
    }

    /// Equal groups, a multiple of the jobs in number, none above the
    /// batch; without a count (or with too few programs) the batch itself.
    #[test]
    fn groups_keep_every_job_busy_to_the_end() {
        assert_eq!(group_size(256, Some(384), 2), 192);
        assert_eq!(group_size(256, Some(384), 1), 192);
        assert_eq!(group_size(128, Some(384), 2), 96);
        assert_eq!(group_size(128, Some(1536), 2), 128);
        assert_eq!(group_size(8, Some(1000), 16), 8);
        assert_eq!(group_size(256, Some(3), 2), 2);
        assert_eq!(group_size(256, None, 2), 256);
        assert_eq!(group_size(256, Some(0), 2), 256);
        for (batch, count, jobs) in [(256, 1000, 2), (16, 1537, 2), (8, 5000, 16), (128, 7, 4)] {
            let g = group_size(batch, Some(count), jobs);
            assert!((1..=batch).contains(&g));
            // no more rounds of groups over the jobs than full batches need
            let (groups, rounds) = (count.div_ceil(g), count.div_ceil(batch * jobs));
            assert_eq!(groups.div_ceil(jobs), rounds, "{batch} {count} {jobs}: {g}");
        }
    }

    /// Groups finish out of order; the done prefix (what a checkpoint
    /// holds) takes a group only once every group before it is in, and then
    /// holds exactly their counts.
    #[test]
    fn the_done_prefix_waits_for_earlier_groups() {
        let o = Options::default();
        let mut seen = Vec::new();
        let mut sh = Shared {
            total: Summary::default(),
            prefix: Checkpoint::default(),
            pending: BTreeMap::new(),
            on_group: |s: &Summary| seen.push(s.programs),
            log: None,
        };
        sh.finished(&o, 8..16, part(8, 1), 1.0);
        assert_eq!((sh.prefix.done, sh.prefix.summary.programs), (0, 0));
        sh.finished(&o, 16..20, part(4, 0), 2.0);
        assert_eq!(sh.prefix.done, 0);
        sh.finished(&o, 0..8, part(8, 2), 3.0);
        assert_eq!((sh.prefix.done, sh.prefix.summary.programs), (20, 20));
        assert_eq!(sh.prefix.summary.errors, 3);
        assert_eq!(sh.total.programs, 20);
        // the lowest-numbered samples first, whatever the finishing order
        let firsts: Vec<u64> = sh
            .prefix
            .summary
            .error_samples
            .iter()
            .map(|e| e.0)
            .collect();
        assert_eq!(firsts, vec![4, 8, 8]);
        drop(sh);
        assert_eq!(seen, vec![8, 12, 20]);
    }
}
