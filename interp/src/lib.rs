//! ksem's reference interpreter: the IR, exact element semantics, the front
//! ends (one per dialect), and the evaluator.

pub mod compare;
pub mod complex;
pub mod corpus;
pub mod dtype;
pub mod eval;
pub mod float;
pub mod frontend;
pub mod hazard;
pub mod ieee;
pub mod ir;
pub mod launch;
pub mod ops;
pub mod pretty;
pub mod render;
pub mod span;
pub mod ub;

use span::Diagnostic;

/// Everything that can go wrong before or while running a program, with
/// enough context to print `file:line:col: error: …`.
#[derive(Debug)]
pub enum Error {
    /// A file could not be read.
    Io { path: String, message: String },
    /// The launch spec is malformed.
    Launch { path: String, message: String },
    /// The program is malformed, unsupported or ill-typed (or stopped at run time).
    Source {
        file: String,
        src: String,
        diag: Diagnostic,
    },
}

impl Error {
    /// The message as printed on stderr.
    pub fn render(&self) -> String {
        match self {
            Error::Io { path, message } => format!("{path}: error: {message}\n"),
            Error::Launch { path, message } => format!("{path}: error: {message}\n"),
            Error::Source { file, src, diag } => diag.render(file, src),
        }
    }
}

/// Parses a program and elaborates its kernel for a launch.
pub fn elaborate_source(
    file: &str,
    src: &str,
    launch: &launch::Launch,
    kernel: Option<&str>,
) -> Result<ir::Kernel, Error> {
    let wrap = |diag| Error::Source {
        file: file.to_string(),
        src: src.to_string(),
        diag,
    };
    frontend::elaborate(file, src, launch, kernel).map_err(wrap)
}

/// Parses, elaborates and runs a program on the interpreter.
pub fn run_source(
    file: &str,
    src: &str,
    launch: &launch::Launch,
    kernel: Option<&str>,
    opts: &eval::RunOptions,
) -> Result<launch::RunResult, Error> {
    let k = elaborate_source(file, src, launch, kernel)?;
    eval::run(&k, launch, opts).map_err(|diag| Error::Source {
        file: file.to_string(),
        src: src.to_string(),
        diag,
    })
}
