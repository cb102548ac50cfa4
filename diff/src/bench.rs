//! `ksem bench`: interpreter throughput on a fixed set of kernels, side by
//! side with Triton's own interpreter (`TRITON_INTERPRET=1`) when Python
//! with triton and torch is at hand.
//!
//! Every kernel and launch lives in `tools/bench/<name>.{py,json}`: ksem
//! embeds those files and `tools/triton_run.py --wall-time` reads the same
//! files, so both systems run one source and one launch.

use ksem_interp::eval::{Prepared, RunOptions};
use ksem_interp::ir::Kernel;
use ksem_interp::launch::{parse_launch, BufferResult, Launch, RunResult};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// One benchmark: a kernel and launch of `tools/bench/`, and the work one
/// launch does.
struct Case {
    /// The file stem under `tools/bench/`.
    name: &'static str,
    source: &'static str,
    launch: &'static str,
    /// Work items of one launch: elements, or multiply-adds for matmul.
    work: u64,
    /// What `work` counts.
    unit: &'static str,
}

macro_rules! case {
    ($name:literal, $work:expr, $unit:literal) => {
        Case {
            name: $name,
            source: include_str!(concat!("../../tools/bench/", $name, ".py")),
            launch: include_str!(concat!("../../tools/bench/", $name, ".json")),
            work: $work,
            unit: $unit,
        }
    };
}

/// The benchmark kernels, in the order they are reported.
fn cases() -> Vec<Case> {
    vec![
        case!("vector_add", 1 << 24, "elements"),
        case!("softmax", 4096 * 1024, "elements"),
        case!("layer_norm", 4096 * 1024, "elements"),
        case!("matmul", 256 * 256 * 256, "multiply-adds"),
        case!("hash", 1 << 20, "elements"),
    ]
}

/// What `ksem bench` measures and with what.
pub struct BenchOptions {
    /// ksem runs per measurement (the best is reported).
    pub repeat: usize,
    /// Only the kernels named (all when empty).
    pub only: Vec<String>,
    /// The Python that runs Triton's interpreter; `None`: no peer.
    pub python: Option<String>,
    /// Timed Triton interpreter launches per kernel (after one untimed).
    pub peer_runs: usize,
}

/// The best wall time of `repeat` launches of `k` on `threads` workers (0:
/// all cores) on buffers built once: one untimed launch first (as Triton's
/// side has), then before each timed one the buffers are reset to the
/// launch's state. Also the buffers' contents after the last launch.
fn time_ksem(
    k: &Kernel,
    l: &Launch,
    threads: usize,
    repeat: usize,
) -> Result<(f64, Vec<BufferResult>), String> {
    let opts = RunOptions {
        threads,
        ..RunOptions::default()
    };
    let mut p = Prepared::new(k, l, &opts).map_err(|d| d.message)?;
    let launch = |p: &mut Prepared| -> Result<f64, String> {
        let t = Instant::now();
        let ub = p.launch(&opts).map_err(|d| d.message)?;
        let s = t.elapsed().as_secs_f64();
        if !ub.is_empty() {
            return Err(format!("{}: the benchmark kernel hit UB", k.name));
        }
        Ok(s)
    };
    launch(&mut p)?;
    let mut best = f64::INFINITY;
    for _ in 0..repeat.max(1) {
        p.reset();
        best = best.min(launch(&mut p)?);
    }
    Ok((best, p.results()))
}

/// The wall time of one whole [`ksem_interp::eval::run`] of `k` on one
/// thread (building the buffers, the launch, copying them out), and its
/// result: what a reused launch's results must equal bit for bit.
fn fresh_run(k: &Kernel, l: &Launch) -> Result<(f64, RunResult), String> {
    let opts = RunOptions {
        threads: 1,
        ..RunOptions::default()
    };
    let t = Instant::now();
    let r = ksem_interp::eval::run(k, l, &opts).map_err(|d| d.message)?;
    Ok((t.elapsed().as_secs_f64(), r))
}

/// An error unless the buffers a reused launch left (`threads` workers)
/// equal a fresh run's bit for bit, inexact and undefined flags included.
fn check_reuse(
    name: &str,
    threads: usize,
    fresh: &RunResult,
    got: &[BufferResult],
) -> Result<(), String> {
    if !fresh.ub.is_empty() {
        return Err(format!("{name}: the benchmark kernel hit UB"));
    }
    match fresh.buffers.iter().zip(got).find(|(a, b)| a != b) {
        _ if fresh.buffers.len() != got.len() => Err(format!(
            "{name}: reused launch ({threads}t) left {} buffers, a fresh run {}",
            got.len(),
            fresh.buffers.len()
        )),
        Some((a, _)) => Err(format!(
            "{name}: buffer {} after a reused launch ({threads}t) differs from a fresh run's",
            a.name
        )),
        None => Ok(()),
    }
}

/// The repository's `tools/` folder: under the working directory, else
/// where this crate was built from.
fn tools_dir() -> Option<PathBuf> {
    let here = Path::new("tools");
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools");
    [here.to_path_buf(), built]
        .into_iter()
        .find(|d| d.join("triton_run.py").is_file() && d.join("bench").is_dir())
}

/// Why Triton's interpreter cannot be the peer, or `None` when it can.
fn peer_missing(python: &str) -> Option<String> {
    if tools_dir().is_none() {
        return Some("tools/triton_run.py not found (run from the repository root)".into());
    }
    match Command::new(python)
        .args(["-c", "import triton, torch"])
        .output()
    {
        Ok(o) if o.status.success() => None,
        Ok(_) => Some(format!("{python} cannot import triton and torch")),
        Err(e) => Some(format!("{python}: {e}")),
    }
}

/// The best wall time of Triton's interpreter over `runs` launches of `case`.
fn time_peer(python: &str, case: &Case, runs: usize) -> Result<f64, String> {
    let tools = tools_dir().ok_or("tools/ not found")?;
    let bench = tools.join("bench");
    let out = Command::new(python)
        .arg(tools.join("triton_run.py"))
        .arg(bench.join(format!("{}.py", case.name)))
        .arg("--launch")
        .arg(bench.join(format!("{}.json", case.name)))
        .args(["--wall-time", &runs.to_string()])
        .env("TRITON_INTERPRET", "1")
        .output()
        .map_err(|e| format!("{python}: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(3).collect();
        return Err(format!("triton_run.py failed: {}", tail.join(" / ")));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("triton_run.py --wall-time output: {e}"))?;
    v["wall_s_min"]
        .as_f64()
        .ok_or_else(|| "triton_run.py --wall-time gave no wall_s_min".into())
}

/// Runs the benchmarks and prints their figures.
pub fn run(opts: &BenchOptions) -> Result<(), String> {
    let peer = match &opts.python {
        None => Err("not asked for (--no-peer)".to_string()),
        Some(py) => match peer_missing(py) {
            None => Ok(py.as_str()),
            Some(why) => Err(why),
        },
    };
    if let Err(why) = &peer {
        println!("Triton interpreter peer missing: {why}; ksem figures only");
    }
    let all = rayon::current_num_threads();
    println!(
        "ksem: 1 thread and {all} threads (rayon); rates in M work items/s, best of {}",
        opts.repeat.max(1)
    );
    println!(
        "ksem 1t/{all}t time one launch on buffers built once and reset before it (as Triton's \
         time is one launch on tensors that exist), each checked bit for bit against a fresh \
         run; whole run 1t is one fresh eval::run (building and copying out the buffers too)"
    );
    for case in cases() {
        if !opts.only.is_empty() && !opts.only.iter().any(|n| n == case.name) {
            continue;
        }
        let l = parse_launch(case.launch).map_err(|e| format!("{}.json: {e}", case.name))?;
        let k = ksem_interp::elaborate_source(&format!("{}.py", case.name), case.source, &l, None)
            .map_err(|e| e.render())?;
        let rate = |s: f64| case.work as f64 / s / 1e6;
        let (whole, fresh) = fresh_run(&k, &l)?;
        let (one, got) = time_ksem(&k, &l, 1, opts.repeat)?;
        check_reuse(case.name, 1, &fresh, &got)?;
        let (many, got) = time_ksem(&k, &l, 0, opts.repeat)?;
        check_reuse(case.name, all, &fresh, &got)?;
        let (one, many) = (rate(one), rate(many));
        let mut line = format!(
            "{:<11} {:>9} {}: ksem 1t {one:>8.2}  ksem {all}t {many:>8.2}  whole run 1t {:>8.2}",
            case.name,
            case.work,
            case.unit,
            rate(whole)
        );
        match peer {
            Ok(py) => match time_peer(py, &case, opts.peer_runs) {
                Ok(s) => {
                    let t = rate(s);
                    line.push_str(&format!(
                        "  triton-interp {t:>8.3}  ratio 1t {:>7.1}x  {all}t {:>7.1}x",
                        one / t,
                        many / t
                    ));
                }
                Err(e) => line.push_str(&format!("  triton-interp failed: {e}")),
            },
            Err(_) => line.push_str("  triton-interp missing"),
        }
        println!("{line}");
    }
    Ok(())
}

/// Bytes one launch of a memory-bound benchmark kernel moves: vector add
/// reads two buffers and writes one; softmax and layer norm read each
/// element once and write it once (layer norm's weight and bias rows are
/// negligible beside the 4096 × 1024 input).
fn bytes_moved(name: &str, elements: u64) -> u64 {
    match name {
        "vector_add" => 3 * 4 * elements,
        _ => 2 * 4 * elements,
    }
}

/// The lowered benchmark kernels on the GPU (vector add, softmax, layer
/// norm; `only` picks some): each one's time and bandwidth, and its
/// result checked against the interpreter (bit for bit, or within the
/// bound of approximate math); then a device-to-device copy moving vector
/// add's bytes, the bandwidth a memory-bound kernel can reach. Real
/// Triton's times for the same files come from `tools/triton_run.py
/// --time` (docs/gpu-findings.md).
pub fn run_gpu(repeat: u32, only: &[String]) -> Result<(), String> {
    let gbps = |b: u64, ms: f64| b as f64 / (ms * 1e-3) / 1e9;
    let mut add_ms = None;
    for c in cases() {
        let wanted = only.is_empty() || only.iter().any(|o| o == c.name);
        if !wanted || !matches!(c.name, "vector_add" | "softmax" | "layer_norm") {
            continue;
        }
        let l = parse_launch(c.launch)?;
        let k = ksem_interp::elaborate_source(&format!("{}.py", c.name), c.source, &l, None)
            .map_err(|e| e.render())?;
        let lowered = ksem_gpu::lower::lower(&k).map_err(|e| e.to_string())?;
        let (r, ms) =
            ksem_gpu::cuda::time(&lowered, &l, &k.name, repeat).map_err(|e| e.to_string())?;
        let reference =
            ksem_interp::eval::run(&k, &l, &RunOptions::default()).map_err(|d| d.message)?;
        let cmp = ksem_interp::compare::compare(&reference, &r, 0);
        let exact = r
            .buffers
            .iter()
            .zip(&reference.buffers)
            .all(|(a, b)| a.bits == b.bits);
        let agreement = match (exact, cmp.is_match()) {
            (true, _) => "bit for bit".to_string(),
            (false, true) => "within the bound of approximate math".to_string(),
            (false, false) => format!("DIFFERS: {:?} {:?}", cmp.counts, cmp.problems),
        };
        let bytes = bytes_moved(c.name, c.work);
        println!(
            "gpu {} ({} {}, lowered, {} threads/block): {ms:.4} ms = {:.0} GB/s; agrees with interp {agreement}",
            c.name,
            c.work,
            c.unit,
            ksem_gpu::cuda::CUDA_THREADS,
            gbps(bytes, ms)
        );
        if c.name == "vector_add" {
            add_ms = Some((ms, bytes));
        }
    }
    if let Some((ms, bytes)) = add_ms {
        let copy_ms =
            ksem_gpu::cuda::time_copy((bytes / 2) as usize, repeat).map_err(|e| e.to_string())?;
        println!(
            "gpu device-to-device copy of {} MiB (same {} MiB moved): {copy_ms:.4} ms = {:.0} GB/s",
            (bytes / 2) >> 20,
            bytes >> 20,
            gbps(bytes, copy_ms)
        );
        println!(
            "lowered vector_add bandwidth / copy bandwidth = {:.1}%",
            copy_ms / ms * 100.0
        );
    }
    Ok(())
}
