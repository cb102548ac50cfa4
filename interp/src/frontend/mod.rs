//! Front ends: one per dialect, each elaborating a Python source file into
//! the IR for a launch. They share the Python-subset machinery of `py`;
//! the dialect of a file is recognised from its imports.

pub mod cudapy;
pub mod hidet;
pub mod py;
pub mod tilelang;
pub mod triton;

use crate::ir::Kernel;
use crate::launch::Launch;
use crate::span::{DResult, Diagnostic, Span};
use py::Source;

/// The kernel languages ksem reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Triton,
    /// CUDA Python (numba-cuda, NumbaPro).
    CudaPy,
    TileLang,
    /// Hidet script.
    Hidet,
}

impl Dialect {
    /// The dialect's name on the command line and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Triton => "triton",
            Dialect::CudaPy => "cudapy",
            Dialect::TileLang => "tilelang",
            Dialect::Hidet => "hidet",
        }
    }

    /// The dialect of a name as [`Dialect::name`] gives it.
    pub fn from_name(name: &str) -> Option<Dialect> {
        [
            Dialect::Triton,
            Dialect::CudaPy,
            Dialect::TileLang,
            Dialect::Hidet,
        ]
        .into_iter()
        .find(|d| d.name() == name)
    }

    /// The dialect a parsed file is written in, from its imports; a file
    /// that imports none of the known packages is read as Triton.
    pub fn detect(src: &Source) -> DResult<Dialect> {
        let pkgs = py::imported_packages(&src.body);
        let has = |p: &str| pkgs.iter().any(|x| x == p);
        if has("numba") || has("numbapro") {
            return Ok(Dialect::CudaPy);
        }
        if has("tilelang") {
            return Ok(Dialect::TileLang);
        }
        if has("triton") {
            return Ok(Dialect::Triton);
        }
        if has("hidet") {
            return Ok(Dialect::Hidet);
        }
        Ok(Dialect::Triton)
    }
}

/// The launch geometry (grid, block) of a kernel: what the source fixes
/// (`fixed_*`, e.g. TileLang's `T.Kernel(…)`) or else what the launch
/// gives; where both give one they must agree. A block left out is one thread.
pub fn geometry(
    launch: &Launch,
    fixed_grid: Option<([u32; 3], Span)>,
    fixed_block: Option<([u32; 3], Span)>,
) -> DResult<([u32; 3], [u32; 3])> {
    fn pick(
        what: &str,
        given: Option<[u32; 3]>,
        fixed: Option<([u32; 3], Span)>,
    ) -> DResult<Option<[u32; 3]>> {
        Ok(match (given, fixed) {
            (Some(g), Some((f, span))) if g != f => {
                return Err(Diagnostic::new(
                    span,
                    format!("the launch's {what} {g:?} disagrees with the kernel's {f:?}"),
                )
                .with_help(format!("leave \"{what}\" out of the launch, or give {f:?}")))
            }
            (_, Some((f, _))) => Some(f),
            (g, None) => g,
        })
    }
    let grid = pick("grid", launch.grid, fixed_grid)?.ok_or_else(|| {
        Diagnostic::new(Span::default(), "the launch has no \"grid\"")
            .with_help("give \"grid\": [x, y, z] in the launch spec")
    })?;
    let block = pick("block", launch.block, fixed_block)?.unwrap_or([1, 1, 1]);
    Ok((grid, block))
}

/// Parses `src`, recognises its dialect and elaborates its kernel for `launch`.
/// What a run should say besides its results: for an autotuned Triton
/// kernel, which config runs (`None` otherwise or where the file does not
/// elaborate; the elaboration reports those errors).
pub fn run_note(file: &str, src: &str, launch: &Launch, kernel: Option<&str>) -> Option<String> {
    let source = Source::parse(file, src).ok()?;
    if Dialect::detect(&source).ok()? != Dialect::Triton {
        return None;
    }
    let m = triton::Module::from_source(source);
    let name = triton::pick_kernel(&m, kernel.or(launch.kernel.as_deref())).ok()?;
    let top = Span { line: 1, col: 1 };
    triton::autotune::choose(&m, &name, launch, top)
        .ok()
        .flatten()
        .map(|c| c.describe())
}

pub fn elaborate(file: &str, src: &str, launch: &Launch, kernel: Option<&str>) -> DResult<Kernel> {
    elaborate_in(None, file, src, launch, kernel)
}

/// [`elaborate`] in a given dialect (`None`: recognised from the imports),
/// for a host that knows which language its kernel is written in (the
/// Python package's `ksem.triton.jit` / `ksem.cuda.jit`).
pub fn elaborate_in(
    dialect: Option<Dialect>,
    file: &str,
    src: &str,
    launch: &Launch,
    kernel: Option<&str>,
) -> DResult<Kernel> {
    let source = Source::parse(file, src)?;
    let dialect = match dialect {
        Some(d) => d,
        None => Dialect::detect(&source)?,
    };
    match dialect {
        Dialect::Triton => {
            let mut m = triton::Module::from_source(source);
            m.resolve_imports();
            triton::elaborate(&m, launch, kernel)
        }
        Dialect::CudaPy => cudapy::elaborate(source, launch, kernel),
        Dialect::TileLang => tilelang::elaborate(source, launch, kernel),
        Dialect::Hidet => hidet::elaborate(source, launch, kernel),
    }
}
