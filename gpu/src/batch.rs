//! Many kernels in one compilation: the shared runtime once, then every
//! kernel under its own names, so one C++ compile or one NVRTC program
//! serves a whole batch (fuzzing would otherwise spend its time compiling).

use crate::lower::{push_renamed, split_runtime, Lowered};
use crate::GpuError;
use ksem_interp::launch::{Launch, RunResult};

/// The `__global__` function of kernel `i` of a batch.
pub fn entry(i: usize) -> String {
    format!("ksem_kernel_{i}")
}

/// One source holding every kernel of `parts`, renamed by position.
pub fn source(parts: &[&Lowered]) -> String {
    let split: Vec<(&str, &str)> = parts.iter().map(|l| split_runtime(&l.source)).collect();
    // the joined source's size known first: one allocation, no copies
    let runtime = split.first().map_or("", |s| s.0);
    let size = runtime.len() + split.iter().map(|s| s.1.len() + 64).sum::<usize>();
    let mut out = String::with_capacity(size);
    out.push_str(runtime);
    for (i, (_, kernel)) in split.iter().enumerate() {
        push_renamed(&mut out, kernel, &entry(i));
    }
    out
}

/// The distinct kernels of `parts` (equal generated sources compile once:
/// a fuzzed program's input sets share their kernel) and, for each part,
/// its position among them.
fn distinct<'a>(parts: &[&'a Lowered]) -> (Vec<&'a Lowered>, Vec<usize>) {
    let mut seen: std::collections::HashMap<&str, usize> = Default::default();
    let mut uniq = Vec::new();
    let pos = parts
        .iter()
        .map(|l| {
            *seen.entry(l.source.as_str()).or_insert_with(|| {
                uniq.push(*l);
                uniq.len() - 1
            })
        })
        .collect();
    (uniq, pos)
}

/// Runs every lowered kernel of a batch on the host, compiling together the
/// kernels that compile with the same `KSEM_THREADS` ([`compile_threads`]:
/// one for tile programs and for SIMT programs of any block size, whose
/// host entries carry their own). Where a compile fails, its kernels are
/// compiled again in halves, down to each alone, so one bad kernel cannot
/// change another's verdict.
pub fn run_host(items: &[(&Lowered, &Launch, &str)]) -> Vec<Result<RunResult, GpuError>> {
    let mut groups: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
    for (i, (l, _, _)) in items.iter().enumerate() {
        groups.entry(compile_threads(l, 1)).or_default().push(i);
    }
    let mut out: Vec<Option<Result<RunResult, GpuError>>> = items.iter().map(|_| None).collect();
    for (threads, idx) in groups {
        let group: Vec<(&Lowered, &Launch, &str)> = idx.iter().map(|&i| items[i]).collect();
        for (i, r) in idx
            .into_iter()
            .zip(run_host_group(&group, threads, group.len() > 1))
        {
            out[i] = Some(r);
        }
    }
    out.into_iter()
        .map(|r| r.unwrap_or_else(|| Err(GpuError::Launch("batch lost a result".into()))))
        .collect()
}

/// The `KSEM_THREADS` kernel `l` of a host batch compiles with, where tile
/// programs use `tile`: a SIMT program's own block size if its source reads
/// the macro, else `tile` too (the host runner passes its block shape to
/// the launcher, which sets the threads and barriers of each block at run
/// time), so that SIMT programs of every block size share one compile.
pub fn compile_threads(l: &Lowered, tile: u32) -> u32 {
    if l.block.is_some() && reads_threads(split_runtime(&l.source).1) {
        l.threads(tile)
    } else {
        tile
    }
}

/// Whether kernel text uses a macro whose value depends on `KSEM_THREADS`
/// (runtime.cuh: the slot loops and thread index of tile programs).
fn reads_threads(kernel: &str) -> bool {
    const MACROS: [&str; 6] = [
        "KSEM_THREADS",
        "KSEM_SLOTS",
        "KSEM_TID",
        "KSEM_I",
        "KSEM_FOR",
        "KSEM_WORK",
    ];
    kernel
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|word| MACROS.contains(&word))
}

/// [`run_host`] for kernels that all compile with `threads`. A failed
/// compile of several kernels is retried in halves; a kernel that fails in
/// a batch of its own is built alone as [`crate::host::run`] builds it
/// (`retry_alone`: unless it was the whole batch), whose error it reports.
fn run_host_group(
    items: &[(&Lowered, &Launch, &str)],
    threads: u32,
    retry_alone: bool,
) -> Vec<Result<RunResult, GpuError>> {
    let parts: Vec<&Lowered> = items.iter().map(|(l, _, _)| *l).collect();
    let (uniq, pos) = distinct(&parts);
    let lib = crate::host::compile_opt(&source(&uniq), threads, "-O0")
        .and_then(|so| crate::host::HostLibrary::load(&so));
    match lib {
        Ok(lib) => items
            .iter()
            .zip(pos)
            .map(|((l, launch, k), i)| {
                crate::host::run_in(&lib, &entry(i), l, launch, k, l.threads(threads))
            })
            .collect(),
        Err(_) if uniq.len() > 1 => {
            let (a, b) = items.split_at(items.len() / 2);
            let mut out = run_host_group(a, threads, true);
            out.extend(run_host_group(b, threads, true));
            out
        }
        Err(_) if retry_alone => items
            .iter()
            .map(|(l, launch, k)| crate::host::run(l, launch, k, threads))
            .collect(),
        Err(e) => items.iter().map(|_| Err(e.clone())).collect(),
    }
}

/// Runs every lowered kernel of a batch on the GPU from one NVRTC program
/// (each alone if the batch fails to compile).
pub fn run_cuda(items: &[(&Lowered, &Launch, &str)]) -> Vec<Result<RunResult, GpuError>> {
    let parts: Vec<&Lowered> = items.iter().map(|(l, _, _)| *l).collect();
    let (uniq, pos) = distinct(&parts);
    match crate::cuda::load(&source(&uniq)) {
        Ok((ctx, module)) => items
            .iter()
            .zip(pos)
            .map(|((l, launch, k), i)| crate::cuda::run_in(&ctx, &module, &entry(i), l, launch, k))
            .collect(),
        Err(_) if items.len() > 1 => items
            .iter()
            .map(|(l, launch, k)| crate::cuda::run(l, launch, k))
            .collect(),
        Err(e) => vec![Err(e)],
    }
}
