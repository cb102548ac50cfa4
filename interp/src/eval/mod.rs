//! The evaluator: runs a kernel of the IR over a launch and returns every
//! buffer's final bits, or the undefined behaviour it hit.
//!
//! - `memory`: the launch's global buffers and pointers into them;
//! - `tile`: tile programs, one program instance per block, uniform control flow;
//! - `simt`: SIMT programs, a block as lanes with an active mask;
//! - `race`: data races between blocks on global memory.
//!
//! Element semantics (what `+` of two int8 is) live in `crate::ops`; both
//! models call it, so a rule is decided in one place.

mod contention;
mod memory;
mod race;
mod simt;
mod tile;
pub mod undef;

pub use memory::{make_ptr, ptr_parts};
pub use race::IDENTICAL_STORES;
pub use undef::UNINITIALIZED_COPY;

use crate::dtype::DType;
use crate::ir::{Kernel, Model};
use crate::launch::{Launch, RunResult, UbReport};
use crate::ops;
use crate::span::{Diagnostic, Span};
use contention::Contention;
use memory::{Access, Global};
use rayon::prelude::*;

/// Tunables of a run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Loop iterations one program instance (block) may run before ksem
    /// gives up (a `Stmt::Gemm`'s loops, bounded by its sizes, count none).
    pub max_loop_iterations: u64,
    /// Worker threads (0: rayon's default).
    pub threads: usize,
    /// How a `Stmt::Gemm` runs.
    pub gemm: GemmPath,
}

/// How the interpreter runs a matrix product (`Stmt::Gemm`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GemmPath {
    /// As one operation where it can (a block of one thread, operands
    /// whose elements were all written, no UB), else as its loop nest.
    #[default]
    Fast,
    /// Always as its loop nest (the meaning the fast path must match).
    Reference,
    /// As one operation, or stop with an error saying it could not (for
    /// checking that the fast path runs).
    FastOnly,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            max_loop_iterations: 1 << 24,
            threads: 0,
            gemm: GemmPath::Fast,
        }
    }
}

/// How a statement left the normal flow of its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// On to the next statement.
    Next,
    Break,
    Continue,
    Return,
}

/// Why a block stopped before its end: UB, or an error that ends the run.
pub(crate) enum Stop {
    Ub(Box<UbReport>),
    Error(Diagnostic),
}

/// What running one block left behind.
pub(crate) struct BlockOutcome {
    pub pid: [u32; 3],
    pub stop: Option<Stop>,
    /// Global memory accesses in program order.
    pub log: Vec<Access>,
    /// Device prints, in order.
    pub prints: String,
    /// UB found without stopping the block (a store of an unchanged copy
    /// of uninitialised memory: `undef::UNINITIALIZED_COPY`).
    pub deferred: Vec<UbReport>,
}

/// Runs `kernel` over `launch`'s grid and returns every buffer's final bits.
pub fn run(kernel: &Kernel, launch: &Launch, opts: &RunOptions) -> Result<RunResult, Diagnostic> {
    if opts.threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(opts.threads)
            .build()
            .map_err(|e| Diagnostic::new(Span::default(), format!("thread pool: {e}")))?;
        pool.install(|| run_in_pool(kernel, launch, opts))
    } else {
        run_in_pool(kernel, launch, opts)
    }
}

/// [`run`] on the current rayon pool (one thread alone when `opts.threads` is 1).
///
/// A kernel of several launches runs them in order on the same global
/// memory; each launch's blocks are checked for UB and races among
/// themselves (a launch ends before the next begins, so two launches never
/// race). The first launch that hits UB is the last to run.
fn run_in_pool(
    kernel: &Kernel,
    launch: &Launch,
    opts: &RunOptions,
) -> Result<RunResult, Diagnostic> {
    let parallel = opts.threads != 1;
    let launches = kernel.launches();
    let mut mem = Global::new(kernel, launch, parallel);
    let run_model = |part: &Kernel, mem: &Global, c: &Contention| match part.model {
        Model::Tile => tile::run(part, part.grid, mem, c, opts),
        Model::Simt => simt::run(part, part.grid, part.block, mem, c, opts),
    };
    let mut ub = Vec::new();
    for (i, part) in launches.iter().enumerate() {
        let first = Contention::default();
        let mut outcomes = run_model(part, &mem, &first)?;
        if first.found_any() && contention::results_used(part) {
            // again from the launch's buffers, knowing which old values
            // depend on the order of the updates; the launches before this
            // one replay as they ran (their blocks ran in grid order)
            mem = Global::new(kernel, launch, parallel);
            for before in &launches[..i] {
                run_model(before, &mem, &Contention::default())?;
            }
            outcomes = run_model(part, &mem, &Contention::knowing(first))?;
        }
        let block = (part.model == Model::Simt).then_some(part.block);
        let mut logs = Vec::with_capacity(outcomes.len());
        for o in outcomes {
            eprint!("{}", o.prints);
            for d in o.deferred {
                // one report per place of the launch
                if !ub.iter().any(|u: &UbReport| {
                    (u.kind.as_str(), u.line, u.col) == (d.kind.as_str(), d.line, d.col)
                }) {
                    ub.push(d);
                }
            }
            match o.stop {
                None => {}
                Some(Stop::Ub(u)) => ub.push(*u),
                Some(Stop::Error(d)) => return Err(d),
            }
            logs.push((o.pid, o.log));
        }
        ub.extend(race::find_races(&mem.bufs, &logs, block));
        if !ub.is_empty() {
            break;
        }
    }
    Ok(RunResult {
        kernel: kernel.name.clone(),
        backend: "interp".into(),
        buffers: mem.into_results(),
        ub,
    })
}

/// Runs `one` for every block of `grid` (x fastest), in parallel when
/// `parallel` (the blocks cannot observe each other) and the options allow.
fn for_each_block(
    grid: [u32; 3],
    opts: &RunOptions,
    parallel: bool,
    one: impl Fn([u32; 3]) -> BlockOutcome + Sync + Send,
) -> Result<Vec<BlockOutcome>, Diagnostic> {
    let pids: Vec<[u32; 3]> = (0..grid[2])
        .flat_map(|z| (0..grid[1]).flat_map(move |y| (0..grid[0]).map(move |x| [x, y, z])))
        .collect();
    // (`run` has installed the pool of `opts.threads`)
    Ok(if !parallel || opts.threads == 1 {
        pids.into_iter().map(one).collect()
    } else {
        pids.into_par_iter().map(one).collect()
    })
}

/// A human-readable element value (device print, UB messages).
pub fn format_value(d: DType, bits: u64) -> String {
    if d.is_float() {
        format!("{}", crate::float::to_f64(d, bits))
    } else {
        format!("{}", ops::int_value(d, bits))
    }
}
