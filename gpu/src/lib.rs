//! ksem's CUDA backend: lowering of the typed program to one CUDA C++ source
//! ([`lower`]), its host build compiled with the machine's C++ compiler
//! ([`host`]), and NVRTC + the CUDA driver through cudarc ([`cuda`]). Both
//! backends return the interpreter's [`RunResult`], so buffers compare bit
//! for bit.

#![warn(missing_docs)]

pub mod args;
pub mod batch;
pub mod cuda;
pub mod host;
pub mod host_compiler;
pub mod host_runtime;
pub mod ids;
pub mod inexact;
pub mod lower;
#[cfg(feature = "planted")]
pub mod planted;

use ksem_interp::ir::Kernel;
use ksem_interp::launch::{Launch, RunResult};

pub use lower::emit_cuda;

/// Where a lowered kernel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The host build with one thread per block (no GPU needed); see
    /// [`run_host_threads`] for more threads per block.
    Host,
    /// The GPU, through NVRTC and the CUDA driver.
    Cuda,
}

impl Backend {
    /// The backend's name in results (`"host"` or `"cuda"`).
    pub fn name(self) -> &'static str {
        match self {
            Backend::Host => "host",
            Backend::Cuda => "cuda",
        }
    }
}

/// Everything that can go wrong in the GPU backend, as one-line messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// The kernel uses something the lowering does not support.
    #[error("cannot lower kernel: {0}")]
    Lower(String),
    /// The launch does not fit the kernel.
    #[error("launch: {0}")]
    Launch(String),
    /// A shared library (libnvrtc, libcuda) cannot be loaded.
    #[error("{0}")]
    LibraryMissing(String),
    /// NVRTC rejected the source or failed.
    #[error("NVRTC: {0}")]
    Nvrtc(String),
    /// A CUDA driver call failed.
    #[error("CUDA: {0}")]
    Cuda(String),
    /// The host C++ compiler failed or is missing.
    #[error("host build: {0}")]
    HostCompile(String),
    /// The host build could not be loaded.
    #[error("host build: cannot load {0}")]
    HostLoad(String),
    /// A file operation failed.
    #[error("i/o: {0}")]
    Io(String),
}

/// Lowers `k` and runs it over `launch` on `backend`. The result has the
/// interpreter's shape; its `ub` list is always empty (the GPU detects no UB;
/// out-of-bounds lanes are skipped and UB operations yield 0), and elements
/// last written by a store of a possibly inexact value are marked inexact.
pub fn run(k: &Kernel, launch: &Launch, backend: Backend) -> Result<RunResult, GpuError> {
    match backend {
        Backend::Host => run_host_threads(k, launch, 1),
        Backend::Cuda => {
            let l = lower_kernel(k)?;
            cuda::run(&l, launch, &k.name)
        }
    }
}

/// [`run`] on the host build compiled with `KSEM_THREADS = threads`: every
/// block runs as that many OS threads meeting at `__syncthreads()`, which
/// checks the lowering's multi-thread index math and barriers without a GPU.
pub fn run_host_threads(k: &Kernel, launch: &Launch, threads: u32) -> Result<RunResult, GpuError> {
    let l = lower_kernel(k)?;
    host::run(&l, launch, &k.name, threads)
}

fn lower_kernel(k: &Kernel) -> Result<lower::Lowered, GpuError> {
    lower::lower(k).map_err(|e| GpuError::Lower(e.to_string()))
}

/// Runs many kernels, lowering each and compiling them together per backend
/// (the fuzzer's path); results are in the order of `items`.
pub fn run_batch(
    items: &[(&Kernel, &Launch)],
    backend: Backend,
) -> Vec<Result<RunResult, GpuError>> {
    let lowered: Vec<Result<lower::Lowered, GpuError>> = items
        .iter()
        .map(|(k, _)| lower::lower(k).map_err(|e| GpuError::Lower(e.to_string())))
        .collect();
    let ok: Vec<(usize, &lower::Lowered)> = lowered
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.as_ref().ok().map(|l| (i, l)))
        // a kernel of several launches compiles alone: its launches'
        // functions keep their names
        .filter(|(_, l)| l.then.is_empty())
        .collect();
    let batch: Vec<(&lower::Lowered, &Launch, &str)> = ok
        .iter()
        .map(|&(i, l)| (l, items[i].1, items[i].0.name.as_str()))
        .collect();
    let mut ran = match backend {
        Backend::Host => batch::run_host(&batch),
        Backend::Cuda => batch::run_cuda(&batch),
    }
    .into_iter();
    lowered
        .into_iter()
        .zip(items)
        .map(|(l, (k, launch))| match l {
            Ok(l) if !l.then.is_empty() => match backend {
                Backend::Host => host::run(&l, launch, &k.name, 1),
                Backend::Cuda => cuda::run(&l, launch, &k.name),
            },
            Ok(_) => ran
                .next()
                .unwrap_or_else(|| Err(GpuError::Launch("batch lost a result".into()))),
            Err(e) => Err(e),
        })
        .collect()
}
