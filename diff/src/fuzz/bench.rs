//! `ksem bench --fuzz`: differential fuzzing throughput, the figure issue
//! 27's targets are stated in: programs a second and CPU time a program
//! (ksem and the compilers it runs) for each dialect and number of jobs.
//! Every campaign takes a seed of its own: the host build caches compiled
//! batches by content, so a seed measured twice would measure the cache.

use super::gen::Config;
use super::run::{campaign, Options};
use crate::backend::Backend;
use ksem_interp::frontend::Dialect;
use std::time::Instant;

/// What `ksem bench --fuzz` measures.
#[derive(Clone, Debug)]
pub struct FuzzBench {
    pub backends: (Backend, Backend),
    pub dialects: Vec<Dialect>,
    pub jobs: Vec<usize>,
    /// Programs a campaign.
    pub count: u64,
    /// The first campaign's seed; the others count up from it.
    pub seed: u64,
}

/// One campaign's figures.
#[derive(Clone, Debug)]
pub struct Figure {
    pub dialect: Dialect,
    pub jobs: usize,
    pub seed: u64,
    pub programs: u64,
    pub seconds: f64,
    /// User and system CPU seconds of this process and of the processes it
    /// waited for (the C++ compiler, assembler, linker).
    pub cpu_seconds: f64,
    pub mismatches: u64,
    pub errors: u64,
}

impl Figure {
    /// The line `ksem bench --fuzz` prints.
    pub fn line(&self, backends: (Backend, Backend)) -> String {
        format!(
            "{:<8} {},{} jobs {:>2}: {} programs in {:.2} s, {:.1} programs/s, {:.2} ms CPU a program, {} mismatches, {} errors (seed {})",
            self.dialect.name(),
            backends.0,
            backends.1,
            self.jobs,
            self.programs,
            self.seconds,
            self.programs as f64 / self.seconds.max(1e-9),
            1000.0 * self.cpu_seconds / self.programs.max(1) as f64,
            self.mismatches,
            self.errors,
            self.seed,
        )
    }
}

/// Runs one campaign per dialect and number of jobs, printing each line as
/// it ends; returns the figures.
pub fn run(b: &FuzzBench) -> Vec<Figure> {
    let mut out = Vec::new();
    let mut seed = b.seed;
    for &dialect in &b.dialects {
        for &jobs in &b.jobs {
            let o = Options {
                seed,
                count: Some(b.count),
                backends: b.backends,
                jobs,
                config: Config {
                    dialect,
                    ..Default::default()
                },
                ..Default::default()
            };
            let cpu = cpu_seconds();
            let start = Instant::now();
            let s = campaign(&o, |_| {});
            let f = Figure {
                dialect,
                jobs,
                seed,
                programs: s.programs,
                seconds: start.elapsed().as_secs_f64(),
                cpu_seconds: cpu_seconds() - cpu,
                mismatches: s.mismatches,
                errors: s.errors,
            };
            println!("{}", f.line(b.backends));
            out.push(f);
            seed += 1;
        }
    }
    out
}

/// User and system CPU seconds of this process and its waited-for children
/// (`/proc/self/stat` fields 14 to 17, in clock ticks of 1/100 s, the
/// USER_HZ Linux reports them in); 0 where there is no such file.
pub fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // the command name (field 2) may hold spaces: count after it
            let rest = &s[s.rfind(')')? + 2..];
            let f: Vec<f64> = rest
                .split_whitespace()
                .skip(11)
                .take(4)
                .map(|x| x.parse().ok())
                .collect::<Option<_>>()?;
            Some(f.iter().sum::<f64>() / 100.0)
        })
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CPU clock counts this process's own work.
    #[test]
    fn cpu_seconds_grow_with_work() {
        let a = cpu_seconds();
        let t = Instant::now();
        let mut x = 0u64;
        while t.elapsed().as_millis() < 300 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        std::hint::black_box(x);
        let b = cpu_seconds();
        assert!(b - a >= 0.1, "{a} -> {b}");
    }
}
