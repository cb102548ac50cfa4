//! `ksem._ksem`: the native half of ksem's Python package. It takes a
//! kernel's source, a launch spec (JSON text, read by the launch parser so
//! that errors name the argument they are about) and the buffers' contents
//! as raw bytes, elaborates and runs the kernel on the reference
//! interpreter, and hands back every buffer's final bytes and the UB found.
//! Everything Python-facing (arrays, decorators, exceptions' use) is in
//! `python/ksem/`.

mod bits;
mod cache;

use ksem_interp::eval::RunOptions;
use ksem_interp::frontend::{py::Source, Dialect};
use ksem_interp::launch::{parse_launch, ArgSpec, Launch, RunResult, UbReport};
use ksem_interp::span::DiagKind;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::sync::Arc;

create_exception!(
    ksem,
    KsemError,
    PyException,
    "Bad input to ksem: the message is ksem's diagnostic (file:line:col)."
);
create_exception!(
    ksem,
    UnsupportedSyntax,
    KsemError,
    "The kernel uses a construct ksem does not support; the message names the supported alternative."
);
create_exception!(
    ksem,
    UndefinedBehavior,
    KsemError,
    "The run hit undefined behaviour; the message is ksem's UB report."
);

/// Stack for parsing and elaborating: deeply nested (valid) Python builds
/// deep syntax trees, as in the `ksem` binary.
const WORKER_STACK: usize = 1 << 30;

/// What went wrong, before it becomes a Python exception.
enum Failure {
    Unsupported(String),
    Input(String),
    Internal,
}

impl Failure {
    fn from_error(e: ksem_interp::Error) -> Failure {
        let text = e.render();
        match e {
            ksem_interp::Error::Source { diag, .. } if diag.kind == DiagKind::Unsupported => {
                Failure::Unsupported(text)
            }
            _ => Failure::Input(text),
        }
    }

    fn into_py(self) -> PyErr {
        match self {
            Failure::Unsupported(m) => UnsupportedSyntax::new_err(m.trim_end().to_string()),
            Failure::Input(m) => KsemError::new_err(m.trim_end().to_string()),
            Failure::Internal => KsemError::new_err(
                "ksem: internal error (a bug in ksem; please report it with the input)",
            ),
        }
    }
}

/// The dialect named by the host, or `None` to recognise it from the imports.
fn dialect_arg(name: Option<&str>) -> PyResult<Option<Dialect>> {
    name.map(|n| {
        Dialect::from_name(n).ok_or_else(|| {
            KsemError::new_err(format!(
                "unknown dialect {n:?} (choose triton, cudapy, tilelang or hidet)"
            ))
        })
    })
    .transpose()
}

/// The launch: the spec's JSON through the launch parser, then each
/// buffer's contents from the bytes the host passed.
fn build_launch(
    file: &str,
    launch_json: &str,
    buffers: &[(String, Bound<'_, PyBytes>)],
) -> Result<Launch, Failure> {
    let launch_err = |m: String| Failure::Input(format!("{file}: error: launch: {m}"));
    let mut launch = parse_launch(launch_json).map_err(launch_err)?;
    for (name, data) in buffers {
        let Some((_, ArgSpec::Buffer { dtype, bits, .. })) = launch
            .args
            .iter_mut()
            .chain(launch.constants.iter_mut())
            .find(|(n, _)| n == name)
        else {
            return Err(launch_err(format!(
                "args.{name}: bytes given for an argument that is not a buffer"
            )));
        };
        let got = bits::from_bytes(*dtype, data.as_bytes())
            .map_err(|m| launch_err(format!("args.{name}.buffer: {m}")))?;
        if got.len() != bits.len() {
            return Err(launch_err(format!(
                "args.{name}.buffer: {} elements given, \"len\" says {}",
                got.len(),
                bits.len()
            )));
        }
        *bits = got;
    }
    Ok(launch)
}

/// Runs `work` on a thread with a deep stack; a panic is an internal
/// error, never a crash of the Python process.
fn on_worker<T: Send>(work: impl FnOnce() -> Result<T, Failure> + Send) -> Result<T, Failure> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(WORKER_STACK)
            .spawn_scoped(s, work)
            .map_err(|_| Failure::Internal)?
            .join()
            .unwrap_or(Err(Failure::Internal))
    })
}

/// Elaborates (or takes from the cache) and runs the launch's kernel on
/// the interpreter.
fn elaborate_and_run(
    dialect: Option<Dialect>,
    file: &str,
    src: &str,
    launch_json: &str,
    launch: &Launch,
    opts: &RunOptions,
) -> Result<RunResult, Failure> {
    let key = cache::Key::new(file, src, dialect, launch_json);
    let k = match cache::get(&key) {
        Some(k) => k,
        None => {
            let kernel = launch.kernel.as_deref();
            let k = ksem_interp::frontend::elaborate_in(dialect, file, src, launch, kernel)
                .map_err(|diag| source_failure(file, src, diag))?;
            let k = Arc::new(k);
            cache::put(key, k.clone());
            k
        }
    };
    ksem_interp::eval::run(&k, launch, opts).map_err(|diag| source_failure(file, src, diag))
}

fn source_failure(file: &str, src: &str, diag: ksem_interp::span::Diagnostic) -> Failure {
    Failure::from_error(ksem_interp::Error::Source {
        file: file.to_string(),
        src: src.to_string(),
        diag,
    })
}

/// One UB report as a dict: the result JSON's fields plus `text`, ksem's
/// diagnostic (the one-line headline, then the source excerpt).
fn ub_dict<'py>(
    py: Python<'py>,
    file: &str,
    src: &str,
    u: &UbReport,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", &u.kind)?;
    d.set_item("line", u.line)?;
    d.set_item("col", u.col)?;
    d.set_item("program", u.program.to_vec())?;
    d.set_item("thread", u.thread.map(|t| t.to_vec()))?;
    d.set_item("element", u.element.clone())?;
    d.set_item("message", &u.message)?;
    let other = u.other.as_ref().map(|o| {
        (
            o.line,
            o.col,
            o.program.to_vec(),
            o.thread.map(|t| t.to_vec()),
        )
    });
    d.set_item("other", other)?;
    let text = format!(
        "{}\n{}",
        ksem_interp::render::ub_headline(file, u),
        ksem_interp::render::ub_report(file, src, u)
    );
    d.set_item("text", text.trim_end())?;
    Ok(d)
}

/// Runs `kernel` of `src` (file name `file`, for diagnostics) for the
/// launch `launch_json`, with buffer contents given as raw little-endian
/// bytes by name. Returns `{"kernel", "buffers": [(name, dtype, bytes,
/// inexact_indices, undefined_indices)], "ub": [dict]}`; raises `KsemError` /
/// `UnsupportedSyntax` for bad input.
#[pyfunction]
#[pyo3(signature = (file, src, launch_json, buffers, dialect=None, max_loop_iterations=1 << 24, threads=0))]
#[allow(clippy::too_many_arguments)]
fn run<'py>(
    py: Python<'py>,
    file: &str,
    src: &str,
    launch_json: &str,
    buffers: Vec<(String, Bound<'py, PyBytes>)>,
    dialect: Option<&str>,
    max_loop_iterations: u64,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let dialect = dialect_arg(dialect)?;
    let launch = build_launch(file, launch_json, &buffers).map_err(Failure::into_py)?;
    drop(buffers);
    let opts = RunOptions {
        max_loop_iterations,
        threads,
        ..Default::default()
    };
    let result = py
        .detach(|| on_worker(|| elaborate_and_run(dialect, file, src, launch_json, &launch, &opts)))
        .map_err(Failure::into_py)?;
    let out = PyDict::new(py);
    out.set_item("kernel", &result.kernel)?;
    let bufs = PyList::empty(py);
    for b in &result.buffers {
        let bytes = PyBytes::new(py, &bits::to_bytes(b.dtype, &b.bits));
        let inexact: Vec<usize> = (0..b.inexact.len()).filter(|&i| b.inexact[i]).collect();
        let undefined: Vec<usize> = (0..b.undefined.len()).filter(|&i| b.undefined[i]).collect();
        bufs.append((
            b.name.as_str(),
            b.dtype.json_name(),
            bytes,
            inexact,
            undefined,
        ))?;
    }
    out.set_item("buffers", bufs)?;
    let ub = PyList::empty(py);
    for u in &result.ub {
        ub.append(ub_dict(py, file, src, u)?)?;
    }
    out.set_item("ub", ub)?;
    Ok(out)
}

/// The dialect `src` is written in, recognised from its imports (as `ksem
/// run` does): `"triton"`, `"cudapy"`, `"tilelang"` or `"hidet"`.
#[pyfunction]
fn detect_dialect(file: &str, src: &str) -> PyResult<&'static str> {
    on_worker(|| {
        let source = Source::parse(file, src).map_err(|d| source_failure(file, src, d))?;
        Dialect::detect(&source)
            .map(Dialect::name)
            .map_err(|d| source_failure(file, src, d))
    })
    .map_err(Failure::into_py)
}

/// The native module.
#[pymodule]
fn _ksem(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("KsemError", py.get_type::<KsemError>())?;
    m.add("UnsupportedSyntax", py.get_type::<UnsupportedSyntax>())?;
    m.add("UndefinedBehavior", py.get_type::<UndefinedBehavior>())?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(detect_dialect, m)?)?;
    Ok(())
}
