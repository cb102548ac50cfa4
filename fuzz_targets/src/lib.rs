//! The bodies of ksem's coverage-guided fuzz targets. The libFuzzer
//! binaries under `fuzz/` (cargo-fuzz, nightly) call [`Target::run`] on every
//! input; the stable test `tests/replay.rs` calls it on every seed and every
//! minimised finding, so a finding once fixed stays fixed in `cargo test`.
//!
//! A target treats an `Err` from ksem (a clear error) as a pass: only a
//! panic, a hang, an out-of-memory or an ill-formed elaborated program (one
//! the IR verifier refuses) is a finding.
//!
//! An input is Python source text, optionally followed by a line starting
//! with [`LAUNCH_MARK`] and the launch JSON; without it the target uses
//! [`DEFAULT_LAUNCH`]. `launch_json` inputs are launch JSON text alone.

use ksem_interp::eval::RunOptions;
use ksem_interp::frontend::{self, Dialect};
use ksem_interp::launch::{parse_launch_with, Launch, LaunchLimits};
use std::path::Path;

pub mod reducer;
pub mod seeds;

/// Separates a program from its launch JSON in one fuzz input.
pub const LAUNCH_MARK: &str = "\n#@launch ";

/// The launch of an input that gives none: two programs of four threads,
/// the parameter names the corpora use most.
pub const DEFAULT_LAUNCH: &str = r#"{"grid":[2],"block":[4],"args":{
 "x":{"buffer":{"dtype":"float32","data":[1,-2,3.5,0,-0.0,1e30,7,8]}},
 "y":{"buffer":{"dtype":"float32","len":8}},
 "out":{"buffer":{"dtype":"int32","len":8}},
 "n":{"scalar":{"dtype":"int32","value":8}},
 "BLOCK":{"constexpr":4}}}"#;

/// The kernel `launch_json` inputs launch.
pub const LAUNCH_KERNEL: &str = "import triton
import triton.language as tl


@triton.jit
def kern(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    tl.store(out + offs, v * 2, mask=m)
";

/// The file name programs get in diagnostics.
pub const FILE: &str = "fuzz.py";

/// Launch caps for fuzzing: small, so that a run stays in milliseconds.
pub const LIMITS: LaunchLimits = LaunchLimits {
    max_programs: 16,
    max_buffer_elems: 1 << 12,
};

/// Run options for fuzzing: one thread, few loop iterations.
pub fn run_options() -> RunOptions {
    RunOptions {
        max_loop_iterations: 256,
        threads: 1,
        ..Default::default()
    }
}

/// The stack the targets run on: the CLI's and the Python package's worker
/// threads give ksem a large one for deeply nested (valid) programs.
pub const STACK: usize = 1 << 30;

/// One fuzz target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Elaboration of a program read as the given dialect.
    Frontend(Dialect),
    /// Launch JSON parsing, then a run of [`LAUNCH_KERNEL`].
    LaunchJson,
    /// Elaboration (dialect from the imports) and a run on the interpreter.
    InterpRun,
    /// [`Target::InterpRun`], then the CUDA lowering built for the host:
    /// where the interpreter finds no UB the two must agree (a mismatch, or
    /// generated C++ the compiler rejects, is a finding).
    InterpVsHost,
    /// The test-case reducer on programs of every dialect, with an oracle
    /// the interpreter answers ([`reducer`]).
    Reducer,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 8] = [
        Target::Frontend(Dialect::Triton),
        Target::Frontend(Dialect::CudaPy),
        Target::Frontend(Dialect::TileLang),
        Target::Frontend(Dialect::Hidet),
        Target::LaunchJson,
        Target::InterpRun,
        Target::InterpVsHost,
        Target::Reducer,
    ];

    /// The target's name (its cargo-fuzz binary, its seed directory).
    pub fn name(self) -> String {
        match self {
            Target::Frontend(d) => format!("frontend_{}", d.name()),
            Target::LaunchJson => "launch_json".into(),
            Target::InterpRun => "interp_run".into(),
            Target::InterpVsHost => "interp_vs_host".into(),
            Target::Reducer => "reducer".into(),
        }
    }

    /// The target of a name as [`Target::name`] gives it.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Runs one input on a thread with [`STACK`]; a panic there is
    /// re-raised here.
    pub fn run(self, data: &[u8]) {
        let data = data.to_vec();
        let worker = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn(move || self.run_here(&data))
            .expect("spawn a fuzz worker");
        if let Err(p) = worker.join() {
            std::panic::resume_unwind(p);
        }
    }

    /// Runs one input on the calling thread.
    pub fn run_here(self, data: &[u8]) {
        let Ok(text) = std::str::from_utf8(data) else {
            return;
        };
        match self {
            Target::Frontend(d) => {
                let (src, launch) = split(text);
                if let Ok(l) = launch {
                    elaborate(Some(d), src, &l);
                }
            }
            Target::InterpRun => {
                let (src, launch) = split(text);
                if let Ok(l) = launch {
                    if let Some(k) = elaborate(None, src, &l) {
                        let _ = ksem_interp::eval::run(&k, &l, &run_options());
                    }
                }
            }
            Target::InterpVsHost => {
                let (src, launch) = split(text);
                if let Ok(l) = launch {
                    if let Some(k) = elaborate(None, src, &l) {
                        interp_vs_host(&k, &l, src);
                    }
                }
            }
            Target::Reducer => {
                let (src, json) = match text.split_once(LAUNCH_MARK) {
                    Some((src, json)) => (src, json),
                    None => (text, DEFAULT_LAUNCH),
                };
                reducer::check(src, json);
            }
            Target::LaunchJson => {
                if let Ok(l) = parse_launch_with(text, &LIMITS) {
                    if let Some(k) = elaborate(None, LAUNCH_KERNEL, &l) {
                        if let Ok(r) = ksem_interp::eval::run(&k, &l, &run_options()) {
                            let _ = r.to_json();
                        }
                    }
                }
            }
        }
    }
}

/// Runs `k` on the interpreter and the host build; panics (a finding) where
/// a UB-free run disagrees or the generated C++ does not compile.
fn interp_vs_host(k: &ksem_interp::ir::Kernel, l: &Launch, src: &str) {
    let Ok(a) = ksem_interp::eval::run(k, l, &run_options()) else {
        return;
    };
    if !a.ub.is_empty() {
        return;
    }
    match ksem_gpu::run(k, l, ksem_gpu::Backend::Host) {
        Ok(b) => {
            let c = ksem_interp::compare::compare(&a, &b, 4);
            if !c.is_match() {
                panic!("interpreter and host build disagree on\n{src}\n{c:?}");
            }
        }
        Err(ksem_gpu::GpuError::HostCompile(m)) => {
            panic!("the generated C++ does not compile: {m}\n{src}")
        }
        // lowering refusals, launches the lowering cannot take
        Err(_) => {}
    }
}

/// The program and the launch of an input.
pub fn split(text: &str) -> (&str, Result<Launch, String>) {
    match text.split_once(LAUNCH_MARK) {
        Some((src, json)) => (src, parse_launch_with(json, &LIMITS)),
        None => (text, parse_launch_with(DEFAULT_LAUNCH, &LIMITS)),
    }
}

/// Joins a program and its launch JSON into one input.
pub fn join(src: &str, launch_json: &str) -> String {
    format!("{src}{LAUNCH_MARK}{launch_json}")
}

/// Elaborates `src` (in `dialect`, or the one its imports say); a program
/// the front end accepts must pass the IR verifier (else: panic, a finding).
fn elaborate(dialect: Option<Dialect>, src: &str, l: &Launch) -> Option<ksem_interp::ir::Kernel> {
    let k = frontend::elaborate_in(dialect, FILE, src, l, None).ok()?;
    if let Err(e) = ksem_interp::ir::verify::verify(&k) {
        panic!(
            "the front end produced an ill-formed program: {}",
            e.render(FILE, src)
        );
    }
    Some(k)
}

/// The repository root (this crate's parent directory).
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate lies in the repository")
}
