//! The backends a program can run on, by name.

use crate::peer::Peer;
use crate::registry;
use ksem_interp::eval::RunOptions;
use ksem_interp::frontend::Dialect;
use ksem_interp::ir::Kernel;
use ksem_interp::launch::{Launch, RunResult};
use std::fmt;

/// A backend that runs typed programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The reference interpreter.
    Interp,
    /// The CUDA lowering compiled for the host (one thread per block).
    Host,
    /// The CUDA lowering on the GPU.
    Cuda,
    /// The real system of a dialect (its bundle's peer in
    /// [`crate::registry`]): real Triton or numba-cuda on the GPU, real
    /// TileLang's C target or Hidet's `cpu_kernel` build on the CPU. It runs
    /// source files: in `ksem run` and `ksem diff`, and in campaigns
    /// through the batch runner.
    Real(Dialect),
}

impl Backend {
    /// The backend of a name as [`Backend`]'s `Display` gives it.
    pub fn parse(s: &str) -> Result<Backend, String> {
        match s {
            "interp" => Ok(Backend::Interp),
            "host" => Ok(Backend::Host),
            "cuda" => Ok(Backend::Cuda),
            other => registry::BUNDLES
                .iter()
                .find(|b| b.peer.backend == other)
                .map(|b| Backend::Real(b.dialect))
                .ok_or_else(|| {
                    let names: Vec<&str> = ["interp", "host", "cuda"]
                        .into_iter()
                        .chain(registry::BUNDLES.iter().map(|b| b.peer.backend))
                        .collect();
                    let (last, first) = names.split_last().expect("backends");
                    format!(
                        "unknown backend {other:?} (choose {} or {last})",
                        first.join(", ")
                    )
                }),
        }
    }

    /// Parses `a,b`.
    pub fn parse_pair(s: &str) -> Result<(Backend, Backend), String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        match parts.as_slice() {
            [a, b] => Ok((Backend::parse(a)?, Backend::parse(b)?)),
            _ => Err(format!(
                "--backends takes two names separated by a comma, got {s:?}"
            )),
        }
    }

    /// The pair `diff` and `fuzz` compare when none is given: interp against
    /// the GPU where one is present, else against the host build.
    pub fn default_pair() -> (Backend, Backend) {
        if gpu_present() {
            (Backend::Interp, Backend::Cuda)
        } else {
            (Backend::Interp, Backend::Host)
        }
    }

    /// Runs `k` over `launch`; errors are one-line messages.
    pub fn run(self, k: &Kernel, launch: &Launch, opts: &RunOptions) -> Result<RunResult, String> {
        match self {
            Backend::Interp => ksem_interp::eval::run(k, launch, opts)
                .map_err(|d| format!("{}:{}: {}", d.span.line, d.span.col, d.message)),
            Backend::Host => {
                ksem_gpu::run(k, launch, ksem_gpu::Backend::Host).map_err(|e| e.to_string())
            }
            Backend::Cuda => {
                ksem_gpu::run(k, launch, ksem_gpu::Backend::Cuda).map_err(|e| e.to_string())
            }
            Backend::Real(_) => Err(format!(
                "the {self} backend runs source files: use it with ksem run or ksem diff"
            )),
        }
    }

    /// Runs the program in file `program` (elaborated as `k`) with the
    /// launch spec read from `launch_path`: a real system (triton, numba, tilelang, hidet)
    /// runs the file itself, the others the elaborated kernel.
    pub fn run_file(
        self,
        program: &str,
        launch_path: &str,
        kernel: Option<&str>,
        k: &Kernel,
        launch: &Launch,
        opts: &RunOptions,
    ) -> Result<RunResult, String> {
        match self {
            Backend::Real(d) => {
                crate::peer::run(registry::peer_of(d), program, launch_path, kernel)
            }
            b => b.run(k, launch, opts),
        }
    }
}

impl Backend {
    /// Programs compiled together in one batch: many for the host build
    /// (each g++ run loads the precompiled runtime, instantiates the runtime
    /// templates its kernels use and links, about 0.3 s of CPU, then about
    /// 14 ms a kernel: docs/benchmarks.md), few for NVRTC (whose time grows
    /// with the kernels alone), so that compiles share the cores evenly. A
    /// campaign with a count makes its groups smaller where that keeps
    /// every job busy to the end (`fuzz::run`). The interpreter compiles
    /// nothing: small groups only spread the work evenly over the jobs.
    pub fn batch_size(self) -> usize {
        match self {
            Backend::Interp => 16,
            Backend::Host => 256,
            Backend::Cuda => 8,
            Backend::Real(d) => registry::peer_of(d).batch_size,
        }
    }

    /// The real system this backend runs source files on, if it is one.
    pub fn peer(self) -> Option<&'static Peer> {
        match self {
            Backend::Real(d) => Some(registry::peer_of(d)),
            _ => None,
        }
    }

    /// Runs many programs; the GPU-side backends compile them together.
    pub fn run_batch(
        self,
        items: &[(&Kernel, &Launch)],
        opts: &RunOptions,
    ) -> Vec<Result<RunResult, String>> {
        let gpu = match self {
            Backend::Interp | Backend::Real(_) => {
                return items.iter().map(|(k, l)| self.run(k, l, opts)).collect()
            }
            Backend::Host => ksem_gpu::Backend::Host,
            Backend::Cuda => ksem_gpu::Backend::Cuda,
        };
        ksem_gpu::run_batch(items, gpu)
            .into_iter()
            .map(|r| r.map_err(|e| e.to_string()))
            .collect()
    }
}

/// Whether this machine has a GPU the cuda backend can run on.
pub fn gpu_present() -> bool {
    ksem_gpu::cuda::driver_available().is_ok() && ksem_gpu::cuda::device_arch().is_ok()
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::Interp => "interp",
            Backend::Host => "host",
            Backend::Cuda => "cuda",
            Backend::Real(d) => registry::peer_of(*d).backend,
        })
    }
}
