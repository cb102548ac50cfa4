//! A kernel of several launches ([`Kernel::then`]): one source that holds
//! the runtime once and one `__global__` function per launch, all with the
//! kernel's signature. The first keeps the name `ksem_kernel`; launch i
//! (from 1) is `ksem_kernel_part{i}` ([`Lowered::then`]). The CUDA runner
//! launches them in order on one stream; the host runner (`host::run_in`)
//! runs each launch's grid to its end before the next begins.
//!
//! Inexactness crosses launches: a launch's stores are analysed knowing
//! which buffers the launches before it may have left inexact elements in.

use super::program::{LResult, LowerError, Lowered, NextEntry};
use super::source::{lower_launch, renamed, split_runtime};
use crate::inexact::Inexact;
use ksem_interp::ir::Kernel;
use std::fmt::Write as _;

/// The `__global__` function of launch `i` (0: the kernel's first).
fn global_name(i: usize) -> String {
    match i {
        0 => "ksem_kernel".into(),
        // (a launch's position, not an op)
        _ => format!("ksem_kernel_part{i}"),
    }
}

/// Lowers every launch of `k` into one source.
pub(super) fn lower(k: &Kernel) -> LResult<Lowered> {
    let launches = k.launches();
    let mut seed = Vec::new();
    let mut analyses = Vec::with_capacity(launches.len());
    for l in &launches {
        let a = Inexact::analyze_after(l, &seed);
        seed = a.param_buffers();
        analyses.push(a);
    }
    let flags = analyses.iter().any(Inexact::any_buffer);
    let parts = launches
        .iter()
        .zip(analyses)
        .map(|(l, a)| lower_launch(l, &a, flags))
        .collect::<LResult<Vec<Lowered>>>()?;
    // SIMT launches each have their own block shape (their bodies do not
    // depend on KSEM_THREADS); tile launches run with the compiled one
    let first = &parts[0];
    if let Some((i, p)) = parts
        .iter()
        .enumerate()
        .find(|(_, p)| p.block.is_some() != first.block.is_some())
    {
        return Err(LowerError {
            span: k.then[i - 1].span,
            message: format!(
                "launch {} is {} but the first is {}: a kernel's launches are all tile programs or all SIMT",
                i + 1,
                if p.block.is_some() { "a SIMT program" } else { "a tile program" },
                if first.block.is_some() { "a SIMT program" } else { "a tile program" },
            ),
        });
    }
    let mut source = String::new();
    let _ = writeln!(
        source,
        "// ksem: a kernel of {} launches, run in order on one stream: {}.",
        parts.len(),
        parts
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{} on grid {:?}", global_name(i), p.grid))
            .collect::<Vec<_>>()
            .join(", then ")
    );
    source.push_str(split_runtime(&first.source).0);
    for (i, p) in parts.iter().enumerate() {
        source.push_str(&renamed(split_runtime(&p.source).1, &global_name(i)));
    }
    Ok(Lowered {
        source,
        entry: first.entry,
        smem_bytes: first.smem_bytes,
        args: first.args.clone(),
        buffers: first.buffers.clone(),
        inexact_flags: flags,
        local_bytes: parts.iter().map(|p| p.local_bytes).max().unwrap_or(0),
        block: first.block,
        grid: first.grid,
        then: parts
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, p)| NextEntry {
                entry: global_name(i),
                grid: p.grid,
                block: p.block,
                smem_bytes: p.smem_bytes,
            })
            .collect(),
    })
}
