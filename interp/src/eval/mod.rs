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
mod regprog;
mod simt;
mod tile;
pub mod undef;

pub use memory::{make_ptr, ptr_parts};
pub use race::IDENTICAL_STORES;
pub use undef::UNINITIALIZED_COPY;

use crate::dtype::DType;
use crate::ir::{Kernel, Model};
use crate::launch::{BufferResult, Launch, RunResult, UbReport};
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
    /// How tile programs run: through their register program where it
    /// covers them (`eval::regprog`), or on the tree evaluator alone.
    pub register_program: ProgramPath,
}

/// How the interpreter runs a tile program's instances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProgramPath {
    /// Through the register program where it covers the kernel, the tree
    /// evaluator for the instances it gives up.
    #[default]
    Register,
    /// On the tree evaluator alone (the meaning the register program must
    /// match).
    Tree,
    /// Through the register program, or stop with an error saying it gave
    /// an instance up or does not cover the kernel (for checking that it
    /// runs).
    RegisterOnly,
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
            register_program: ProgramPath::Register,
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
    in_pool(opts, || {
        let mut p = Prepared::build(kernel, launch, opts);
        let ub = p.launch_in_pool(opts)?;
        Ok(RunResult {
            kernel: kernel.name.clone(),
            backend: "interp".into(),
            buffers: p.mem.into_results(),
            ub,
        })
    })
}

/// `f` on a rayon pool of `opts.threads` workers when that is more than
/// one, else on the current pool.
fn in_pool<R: Send>(
    opts: &RunOptions,
    f: impl FnOnce() -> Result<R, Diagnostic> + Send,
) -> Result<R, Diagnostic> {
    if opts.threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(opts.threads)
            .build()
            .map_err(|e| Diagnostic::new(Span::default(), format!("thread pool: {e}")))?;
        pool.install(f)
    } else {
        f()
    }
}

/// A launch whose buffers are built once and reused: [`Prepared::launch`]
/// runs the kernel on them as they are, [`Prepared::reset`] puts them back
/// into the state a fresh build gives. `ksem bench` times a launch on
/// buffers that already exist, as Triton's figure is.
pub struct Prepared<'a> {
    kernel: &'a Kernel,
    spec: &'a Launch,
    mem: Global,
}

impl<'a> Prepared<'a> {
    /// Builds `launch`'s buffers for `kernel` (on the rayon pool unless
    /// `opts.threads` is 1).
    pub fn new(
        kernel: &'a Kernel,
        launch: &'a Launch,
        opts: &RunOptions,
    ) -> Result<Prepared<'a>, Diagnostic> {
        in_pool(opts, || Ok(Prepared::build(kernel, launch, opts)))
    }

    /// [`Prepared::new`] on the current rayon pool.
    fn build(kernel: &'a Kernel, launch: &'a Launch, opts: &RunOptions) -> Prepared<'a> {
        let mem = Global::new(kernel, launch, opts.threads != 1);
        Prepared {
            kernel,
            spec: launch,
            mem,
        }
    }

    /// Puts every buffer back into its state before the first launch.
    pub fn reset(&mut self) {
        self.mem.reset(self.kernel, self.spec);
    }

    /// Runs the kernel once on the buffers as they are now (after
    /// [`Prepared::new`] or [`Prepared::reset`]: as [`run`] would); the UB
    /// it found.
    pub fn launch(&mut self, opts: &RunOptions) -> Result<Vec<UbReport>, Diagnostic> {
        in_pool(opts, || self.launch_in_pool(opts))
    }

    /// Every buffer's contents now, copied.
    pub fn results(&self) -> Vec<BufferResult> {
        self.mem.results()
    }

    /// [`Prepared::launch`] on the current rayon pool (one thread alone
    /// when `opts.threads` is 1).
    ///
    /// A kernel of several launches runs them in order on the same global
    /// memory; each launch's blocks are checked for UB and races among
    /// themselves (a launch ends before the next begins, so two launches
    /// never race). The first launch that hits UB is the last to run.
    fn launch_in_pool(&mut self, opts: &RunOptions) -> Result<Vec<UbReport>, Diagnostic> {
        let kernel = self.kernel;
        let launches = kernel.launches();
        let run_model = |part: &Kernel, mem: &Global, c: &Contention| match part.model {
            Model::Tile => tile::run(part, part.grid, mem, c, opts),
            Model::Simt => simt::run(part, part.grid, part.block, mem, c, opts),
        };
        let mut ub = Vec::new();
        for (i, part) in launches.iter().enumerate() {
            let first = Contention::default();
            let mut outcomes = run_model(part, &self.mem, &first)?;
            if first.found_any() && contention::results_used(part) {
                // again from the launch's buffers, knowing which old values
                // depend on the order of the updates; the launches before this
                // one replay as they ran (their blocks ran in grid order)
                self.mem.reset(kernel, self.spec);
                for before in &launches[..i] {
                    run_model(before, &self.mem, &Contention::default())?;
                }
                outcomes = run_model(part, &self.mem, &Contention::knowing(first))?;
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
            ub.extend(race::find_races(&self.mem.bufs, &logs, block));
            if !ub.is_empty() {
                break;
            }
        }
        Ok(ub)
    }
}

/// Whether the register program (`eval::regprog`) covers `kernel`: its
/// instances run through it unless one of them leaves what it covers
/// at run time (a partial mask, an access that is not contiguous, UB).
pub fn register_program_covers(kernel: &Kernel) -> bool {
    regprog::compile(kernel).is_some()
}

/// Whether [`for_each_block`] runs the blocks one after another on the
/// calling thread.
pub(crate) fn runs_sequentially(opts: &RunOptions, parallel: bool) -> bool {
    !parallel || opts.threads == 1
}

/// Runs `one` for every block of `grid` (x fastest), in parallel when
/// `parallel` (the blocks cannot observe each other) and the options allow;
/// each worker's blocks share one state `init` makes (scratch reused from
/// block to block).
fn for_each_block<S>(
    grid: [u32; 3],
    opts: &RunOptions,
    parallel: bool,
    init: impl Fn() -> S + Sync + Send,
    one: impl Fn(&mut S, [u32; 3]) -> BlockOutcome + Sync + Send,
) -> Result<Vec<BlockOutcome>, Diagnostic> {
    let pids: Vec<[u32; 3]> = (0..grid[2])
        .flat_map(|z| (0..grid[1]).flat_map(move |y| (0..grid[0]).map(move |x| [x, y, z])))
        .collect();
    // (`run` has installed the pool of `opts.threads`)
    Ok(if runs_sequentially(opts, parallel) {
        let mut state = init();
        pids.into_iter().map(|p| one(&mut state, p)).collect()
    } else {
        pids.into_par_iter().map_init(init, one).collect()
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
