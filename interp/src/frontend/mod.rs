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

/// One dialect's front end: its name, how a file is recognised as written
/// in it and how it elaborates. [`FRONT_ENDS`] lists them all; everything
/// that depends on the dialect looks its entry up there.
pub struct FrontEnd {
    /// The dialect's name on the command line and in messages.
    pub name: &'static str,
    /// The Python packages whose import marks a file as this dialect.
    pub packages: &'static [&'static str],
    /// The folder (from the repository root) of its corpus: kernels with
    /// launch specs and expected results.
    pub corpus: &'static str,
    /// The module scan and elaboration of a parsed file's kernel for a launch.
    pub elaborate: fn(Source, &Launch, Option<&str>) -> DResult<Kernel>,
}

/// Declares [`Dialect`] and [`FRONT_ENDS`] from one list, so that the enum
/// and the registry cannot fall out of step: a dialect is one line here.
macro_rules! registry {
    ($($(#[$doc:meta])* $variant:ident => $entry:expr,)*) => {
        /// The kernel languages ksem reads, one per entry of [`FRONT_ENDS`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Dialect {
            $($(#[$doc])* $variant,)*
        }

        /// Every dialect's front end, in the order detection tries them
        /// (a file importing the packages of two is read as the first).
        pub const FRONT_ENDS: &[FrontEnd] = &[$($entry,)*];

        impl Dialect {
            /// Every dialect, in the order of [`FRONT_ENDS`].
            pub const ALL: &'static [Dialect] = &[$(Dialect::$variant,)*];
        }
    };
}

registry! {
    /// CUDA Python (numba-cuda, NumbaPro).
    CudaPy => FrontEnd {
        name: "cudapy",
        packages: &["numba", "numbapro"],
        corpus: "corpus/cudapy",
        elaborate: cudapy::elaborate,
    },
    TileLang => FrontEnd {
        name: "tilelang",
        packages: &["tilelang"],
        corpus: "corpus/tilelang",
        elaborate: tilelang::elaborate,
    },
    Triton => FrontEnd {
        name: "triton",
        packages: &["triton"],
        corpus: "corpus/triton",
        elaborate: triton_file,
    },
    /// Hidet script.
    Hidet => FrontEnd {
        name: "hidet",
        packages: &["hidet"],
        corpus: "corpus/hidet",
        elaborate: hidet::elaborate,
    },
}

/// Triton's module scan (with its imports resolved) and elaboration.
fn triton_file(source: Source, launch: &Launch, kernel: Option<&str>) -> DResult<Kernel> {
    let mut m = triton::Module::from_source(source);
    m.resolve_imports();
    triton::elaborate(&m, launch, kernel)
}

impl Dialect {
    /// The dialect a file importing none of the known packages is read as.
    pub const FALLBACK: Dialect = Dialect::Triton;

    /// The dialect's entry in [`FRONT_ENDS`].
    pub fn front_end(self) -> &'static FrontEnd {
        &FRONT_ENDS[self as usize]
    }

    /// The dialect's name on the command line and in messages.
    pub fn name(self) -> &'static str {
        self.front_end().name
    }

    /// The dialect of a name as [`Dialect::name`] gives it.
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.iter().copied().find(|d| d.name() == name)
    }

    /// The dialect a parsed file is written in, from its imports: the first
    /// of [`FRONT_ENDS`] whose packages it imports, else [`Dialect::FALLBACK`].
    pub fn detect(src: &Source) -> DResult<Dialect> {
        let pkgs = py::imported_packages(&src.body);
        let imports = |d: &Dialect| {
            d.front_end()
                .packages
                .iter()
                .any(|p| pkgs.iter().any(|x| x == p))
        };
        Ok(Dialect::ALL
            .iter()
            .copied()
            .find(imports)
            .unwrap_or(Dialect::FALLBACK))
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
    (dialect.front_end().elaborate)(source, launch, kernel)
}
