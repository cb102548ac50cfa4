//! The host build: the generated CUDA source compiled as C++ with the
//! machine's compiler under a small prelude (`host_prelude.h`), loaded with
//! libloading, and run program instance by program instance. With
//! `KSEM_THREADS` = 1 a block is one call; with more, each block runs as that
//! many OS threads meeting at `__syncthreads()`, which exercises the
//! lowering's multi-thread index math and barriers without a GPU.

use crate::args::{marshal, unmarshal};
use crate::host_compiler::{Compiler, CompilerKind};
use crate::lower::{ArgSlot, Lowered, RUNTIME};
use crate::{host_runtime, GpuError};
use ksem_interp::launch::{Launch, RunResult};
use std::collections::hash_map::DefaultHasher;
use std::ffi::c_void;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The prelude that makes the CUDA source plain C++.
pub const HOST_PRELUDE: &str = include_str!("host_prelude.h");

/// The compiler flags of the host build (besides `-DKSEM_THREADS` and the
/// optimisation level).
pub const HOST_FLAGS: &[&str] = &[
    "-std=c++17",
    "-ffp-contract=off",
    // directed-rounding intrinsics switch the rounding mode (host_prelude.h)
    "-frounding-math",
    "-fno-fast-math",
    "-shared",
    "-fPIC",
    "-pthread",
    "-w",
    "-pipe",
    "-fno-exceptions",
    "-fno-asynchronous-unwind-tables",
    "-DKSEM_HOST",
];

/// A host build's statics (`__shared__`, blockIdx) are process-wide: one run at a time.
static RUN_LOCK: Mutex<()> = Mutex::new(());
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// The C++ compiler of the host build (`host_compiler.rs`).
pub use crate::host_compiler::compiler;

fn cache_dir() -> PathBuf {
    std::env::temp_dir().join("ksem-gpu-host")
}

/// Writes `contents` to `path` unless it already holds them (atomically).
fn write_once(path: &Path, contents: &str) -> Result<(), GpuError> {
    if std::fs::read_to_string(path).is_ok_and(|c| c == contents) {
        return Ok(());
    }
    let tmp = path.with_extension(format!(
        "tmp{}.{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&tmp, contents).map_err(|e| io_err(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| io_err(path, e))
}

fn io_err(p: &Path, e: std::io::Error) -> GpuError {
    GpuError::Io(format!("{}: {e}", p.display()))
}

/// Compiles a generated source into a shared library with `KSEM_THREADS = threads`
/// (cached by content under the temp dir) and returns its path.
pub fn compile(source: &str, threads: u32) -> Result<PathBuf, GpuError> {
    compile_opt(source, threads, "-O2")
}

/// [`compile`] at optimisation level `opt` (`-O0` compiles a batch of
/// fuzzer kernels several times faster; the semantics do not change, the
/// generated code has no UB and is contraction-free at any level).
pub fn compile_opt(source: &str, threads: u32, opt: &str) -> Result<PathBuf, GpuError> {
    let cxx = compiler()?;
    #[cfg(feature = "planted")]
    let plant = crate::planted::define();
    #[cfg(not(feature = "planted"))]
    let plant: Option<&str> = None;
    let dir = cache_dir();
    std::fs::create_dir_all(&dir).map_err(|e| io_err(&dir, e))?;
    // The runtime's instances come from the host runtime library where the
    // compiler is one that can build it, else from each build.
    let library = match cxx.kind {
        CompilerKind::Other => None,
        _ => runtime_library(&dir, &cxx, plant),
    };
    let mut h = DefaultHasher::new();
    let linked = library.as_ref().map(|l| l.display().to_string());
    (
        source,
        HOST_PRELUDE,
        HOST_FLAGS,
        threads,
        &cxx,
        opt,
        plant,
        &linked,
    )
        .hash(&mut h);
    let key = format!("{:016x}", h.finish());
    let so = dir.join(format!("k{key}.so"));
    if so.exists() {
        return Ok(so);
    }
    evict(&dir);
    let defines = [format!("-DKSEM_THREADS={threads}")];
    let link_flag: &[&str] = if library.is_some() {
        &[host_runtime::LINKED]
    } else {
        &[]
    };
    let flags = |c: &mut Command| {
        c.arg(opt)
            .args(HOST_FLAGS)
            .args(plant)
            .args(&defines)
            .args(link_flag);
    };
    // The runtime comes precompiled where the compiler can, else as text.
    let runtime = match &library {
        Some(_) => host_runtime::linked_header(),
        None => RUNTIME.to_string(),
    };
    let (include, body) = match precompiled_runtime(&dir, &cxx, &flags, &runtime) {
        Some(header) if source.contains(RUNTIME.as_str()) => {
            (header, source.replacen(RUNTIME.as_str(), "", 1))
        }
        _ => (
            text_header(&dir, "prelude", HOST_PRELUDE)?,
            source.to_string(),
        ),
    };
    // One source and one output per compile: two compiles of the same
    // kernel (two threads, or two processes sharing the cache) must not
    // delete each other's source.
    let unique = format!(
        "{}.{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let src = dir.join(format!("k{key}.{unique}.cpp"));
    std::fs::write(&src, &body).map_err(|e| io_err(&src, e))?;
    let tmp_so = dir.join(format!("k{key}.{unique}.so.tmp"));
    let mut cmd = cxx.command();
    flags(&mut cmd);
    cmd.arg("-include")
        .arg(&include)
        .arg("-o")
        .arg(&tmp_so)
        .arg(&src);
    // the library by its path: the build records it (DT_NEEDED) and loading
    // the build loads it
    cmd.args(&library);
    run_compiler(&mut cmd, &cxx, &src)?;
    std::fs::rename(&tmp_so, &so).map_err(|e| io_err(&so, e))?;
    // the source stays only when it failed to compile (to read the error)
    let _ = std::fs::remove_file(&src);
    Ok(so)
}

/// Runs a compile of `src`; its first error line where it fails.
fn run_compiler(cmd: &mut Command, cxx: &Compiler, src: &Path) -> Result<(), GpuError> {
    let cxx = cxx.display();
    let out = cmd
        .output()
        .map_err(|e| GpuError::HostCompile(format!("cannot run {cxx}: {e}")))?;
    if out.status.success() {
        return Ok(());
    }
    let log = String::from_utf8_lossy(&out.stderr).to_string();
    let first = log
        .lines()
        .find(|l| l.contains("error"))
        .unwrap_or_else(|| log.lines().next().unwrap_or("(no output)"));
    Err(GpuError::HostCompile(format!(
        "{cxx} failed on {}: {}",
        src.display(),
        first.trim()
    )))
}

/// The host runtime library (`host_runtime.rs`) for `cxx` and the planted
/// bug `plant`, built once (at -O2) into the cache and shared by every
/// process; `None` where it cannot be built (each build then instantiates
/// the runtime itself).
fn runtime_library(dir: &Path, cxx: &Compiler, plant: Option<&str>) -> Option<PathBuf> {
    static BUILDING: Mutex<()> = Mutex::new(());
    let mut cmd = cxx.command();
    cmd.arg("-O2")
        .args(HOST_FLAGS)
        .args(plant)
        .args([host_runtime::LINKED, host_runtime::LIBRARY]);
    let source = format!("{HOST_PRELUDE}\n{}", host_runtime::library_source());
    let mut h = DefaultHasher::new();
    (format!("{cmd:?}"), &source).hash(&mut h);
    let dir = std::fs::canonicalize(dir).ok()?;
    let lib = dir.join(format!("runtime_{:016x}.rtso", h.finish()));
    if lib.exists() {
        return Some(lib);
    }
    // one build at a time: in this process, then across processes
    let _guard = BUILDING.lock().unwrap_or_else(|p| p.into_inner());
    let lock = std::fs::File::create(lib.with_extension("lock")).ok()?;
    lock.lock().ok()?;
    if lib.exists() {
        return Some(lib);
    }
    let src = text_header(&dir, "runtime_lib", &source).ok()?;
    build_into(&mut cmd, "c++", &src, &lib).then_some(lib)
}

/// Runs `cmd` on `input` (as language `lang`) into a temporary beside
/// `out`, then renames it to `out`, so that no process ever sees a partial
/// output; whether `out` now holds it.
fn build_into(cmd: &mut Command, lang: &str, input: &Path, out: &Path) -> bool {
    let tmp = PathBuf::from(format!(
        "{}.{}.{}.tmp",
        out.display(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let ok = cmd
        .arg("-x")
        .arg(lang)
        .arg("-o")
        .arg(&tmp)
        .arg(input)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok || std::fs::rename(&tmp, out).is_err() {
        let _ = std::fs::remove_file(&tmp);
        return false;
    }
    true
}

/// `contents` as a header file of the cache named by its hash.
fn text_header(dir: &Path, stem: &str, contents: &str) -> Result<PathBuf, GpuError> {
    let mut h = DefaultHasher::new();
    contents.hash(&mut h);
    let path = dir.join(format!("{stem}_{:016x}.h", h.finish()));
    write_once(&path, contents)?;
    Ok(path)
}

/// The prelude and the runtime as one header, precompiled (GCC's `.gch`,
/// Clang's `.pch`, each driver finding its own beside the header that
/// `-include` names; built once per compiler and flag set) so that a
/// compile parses only its kernels; `None` where the compiler is neither or
/// precompiling fails.
fn precompiled_runtime(
    dir: &Path,
    cxx: &Compiler,
    flags: &dyn Fn(&mut Command),
    runtime: &str,
) -> Option<PathBuf> {
    let (ext, pch_flags): (&str, &[&str]) = match cxx.kind {
        CompilerKind::Gcc => ("gch", &[]),
        // the runtime's template instances compiled once, not per batch
        CompilerKind::Clang => ("pch", &["-fpch-instantiate-templates"]),
        CompilerKind::Other => return None,
    };
    let mut cmd = cxx.command();
    flags(&mut cmd);
    cmd.args(pch_flags);
    let mut h = DefaultHasher::new();
    format!("{cmd:?}").hash(&mut h);
    let header = text_header(
        dir,
        &format!("runtime_{:016x}", h.finish()),
        &format!("{HOST_PRELUDE}\n{runtime}\n"),
    )
    .ok()?;
    let pch = PathBuf::from(format!("{}.{ext}", header.display()));
    if pch.exists() {
        return Some(header);
    }
    build_into(&mut cmd, "c++-header", &header, &pch).then_some(header)
}

/// Most compiled kernels kept in the cache; beyond it the oldest half goes.
const CACHE_LIMIT: usize = 2000;
/// Most precompiled runtimes kept (tens of MB each; one per flag set).
const PCH_LIMIT: usize = 12;

fn evict(dir: &Path) {
    evict_ext(dir, "so", CACHE_LIMIT);
    evict_ext(dir, "gch", PCH_LIMIT);
    evict_ext(dir, "pch", PCH_LIMIT);
    evict_ext(dir, "rtso", PCH_LIMIT);
}

/// Removes the oldest half of the files ending in `.ext` once there are more than `limit`.
fn evict_ext(dir: &Path, ext: &str, limit: usize) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .collect();
    if files.len() <= limit {
        return;
    }
    files.sort();
    for (_, p) in &files[..files.len() / 2] {
        let _ = std::fs::remove_file(p);
    }
}

/// The prelude's `ksem_host_run`: kernel, arguments, grid, block, stack bytes.
type HostRun =
    unsafe extern "C" fn(HostKernel, *mut *mut c_void, u32, u32, u32, u32, u32, u32, u64) -> i32;
/// A kernel of a host build: `ksem_kernel(void** a)`.
type HostKernel = unsafe extern "C" fn(*mut *mut c_void);

/// Stack bytes for each host thread: the kernel's tiles plus a margin.
fn stack_bytes(l: &Lowered) -> u64 {
    let b = l.local_bytes as u64 + (16 << 20);
    b.div_ceil(1 << 16) << 16
}

/// Runs a lowered kernel on the host build with `threads` threads per block.
pub fn run(
    l: &Lowered,
    launch: &Launch,
    kernel: &str,
    threads: u32,
) -> Result<RunResult, GpuError> {
    if threads == 0 {
        return Err(GpuError::Launch("KSEM_THREADS must be at least 1".into()));
    }
    let threads = l.threads(threads);
    let lib = HostLibrary::load(&compile(&l.source, threads)?)?;
    run_in(&lib, l.entry, l, launch, kernel, threads)
}

/// A host build loaded into this process (once for all the kernels of a
/// batch: loading it per kernel costs more than running a small one).
pub struct HostLibrary {
    lib: libloading::Library,
    path: PathBuf,
}

impl HostLibrary {
    /// Loads the shared library `so` that [`compile`] built.
    pub fn load(so: &Path) -> Result<HostLibrary, GpuError> {
        // SAFETY: `so` is a host build of generated code: loading it runs
        // no initialisers beyond the C++ runtime's own.
        let lib = unsafe { libloading::Library::new(so) }
            .map_err(|e| GpuError::HostLoad(format!("{}: {e}", so.display())))?;
        Ok(HostLibrary {
            lib,
            path: so.to_path_buf(),
        })
    }
}

/// Runs the kernel whose first launch is the function `symbol` of the loaded
/// build `lib` (its other launches are `l.then`'s), with `threads` threads
/// per block of a tile program.
pub fn run_in(
    lib: &HostLibrary,
    symbol: &str,
    l: &Lowered,
    launch: &Launch,
    kernel: &str,
    threads: u32,
) -> Result<RunResult, GpuError> {
    let mut m = marshal(l, launch)?;
    let mut inexact: Vec<Vec<u8>> = m.lens.iter().map(|&n| vec![0u8; n.max(1)]).collect();
    // Every argument value lives in one of these until the call returns.
    let mut ptrs: Vec<*mut c_void> = Vec::with_capacity(l.args.len());
    let mut lens: Vec<i64> = Vec::with_capacity(l.args.len());
    for a in &l.args {
        ptrs.push(match a {
            ArgSlot::Buffer { buffer } => m.buffers[*buffer].as_mut_ptr() as *mut c_void,
            ArgSlot::Inexact { buffer } => inexact[*buffer].as_mut_ptr() as *mut c_void,
            _ => std::ptr::null_mut(),
        });
        lens.push(match a {
            ArgSlot::Len { buffer } => m.lens[*buffer] as i64,
            _ => 0,
        });
    }
    let mut argv: Vec<*mut c_void> = Vec::with_capacity(l.args.len());
    for (i, a) in l.args.iter().enumerate() {
        argv.push(match a {
            ArgSlot::Buffer { .. } | ArgSlot::Inexact { .. } => {
                &mut ptrs[i] as *mut *mut c_void as *mut c_void
            }
            ArgSlot::Len { .. } => &mut lens[i] as *mut i64 as *mut c_void,
            ArgSlot::Scalar { .. } => &mut m.scalars[i] as *mut u64 as *mut c_void,
        });
    }
    // each launch: its function, grid and block, run to its end in order
    let tile = [threads, 1, 1];
    let mut launches = vec![(symbol.to_string(), l.grid, l.block.unwrap_or(tile))];
    launches.extend(
        l.then
            .iter()
            .map(|e| (e.entry.clone(), e.grid, e.block.unwrap_or(tile))),
    );
    {
        let _guard = RUN_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let so = lib.path.display();
        let sym = |name: &str| format!("{name}\0").into_bytes();
        // SAFETY: the library is the host build of `l.source`: `ksem_host_run`
        // is the prelude's, and each launch's function reads exactly the
        // argument slots of `l.args` through `argv` (each pointing at a live
        // value of the slot's C type, little-endian) and accesses buffers only
        // within their lengths.
        unsafe {
            let run: libloading::Symbol<HostRun> = lib
                .lib
                .get(&sym("ksem_host_run"))
                .map_err(|e| GpuError::HostLoad(format!("{so}: {e}")))?;
            let stack = stack_bytes(l);
            for (name, g, b) in &launches {
                let f: libloading::Symbol<HostKernel> = lib
                    .lib
                    .get(&sym(name))
                    .map_err(|e| GpuError::HostLoad(format!("{so}: {e}")))?;
                let rc = run(
                    *f,
                    argv.as_mut_ptr(),
                    g[0],
                    g[1],
                    g[2],
                    b[0],
                    b[1],
                    b[2],
                    stack,
                );
                if rc != 0 {
                    return Err(GpuError::HostLoad(format!(
                        "{so}: cannot start {} threads with {stack}-byte stacks (errno {rc})",
                        b[0] * b[1] * b[2]
                    )));
                }
            }
        }
    }
    // drop the padding byte of empty buffers
    for (f, &n) in inexact.iter_mut().zip(&m.lens) {
        f.truncate(n);
    }
    Ok(unmarshal(
        l,
        kernel,
        "host",
        &m.buffers,
        l.inexact_flags.then_some(&inexact[..]),
    ))
}
