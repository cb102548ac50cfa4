//! The CUDA backend: NVRTC compiles the generated source to a cubin, the
//! driver API (through cudarc, loaded dynamically) runs it on the GPU with
//! one thread block of [`CUDA_THREADS`] threads per program instance.
//!
//! cudarc panics when it cannot load a library, so every entry point first
//! asks whether libnvrtc / libcuda can be loaded and turns their absence
//! into a [`GpuError::LibraryMissing`] that says how to point ksem at them.

use crate::args::{marshal, unmarshal};
use crate::lower::{ArgSlot, Lowered};
use crate::GpuError;
use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::{result as nvrtc, sys as nvrtc_sys};
use ksem_interp::launch::{Launch, RunResult};
use std::ffi::{c_char, CStr, CString};
use std::sync::{Arc, Mutex};

/// Threads per block of GPU runs.
pub const CUDA_THREADS: u32 = 128;

/// Static shared memory a kernel may use without opting in (bytes).
const DEFAULT_SMEM_LIMIT: usize = 48 * 1024;

/// Checks that libnvrtc can be loaded.
pub fn nvrtc_available() -> Result<(), GpuError> {
    // SAFETY: only tries to dlopen the candidate library names.
    if unsafe { nvrtc_sys::is_culib_present() } {
        Ok(())
    } else {
        Err(GpuError::LibraryMissing(
            "libnvrtc (NVRTC, e.g. libnvrtc.so.13) cannot be loaded: add its directory to \
             LD_LIBRARY_PATH (e.g. /usr/local/cuda/lib64, or site-packages/nvidia/cu13/lib after \
             `pip install nvidia-cuda-nvrtc`)"
                .into(),
        ))
    }
}

/// Checks that the CUDA driver library can be loaded.
pub fn driver_available() -> Result<(), GpuError> {
    // SAFETY: only tries to dlopen the candidate library names.
    if unsafe { cudarc::driver::sys::is_culib_present() } {
        Ok(())
    } else {
        Err(GpuError::LibraryMissing(
            "libcuda (the CUDA driver, libcuda.so.1) cannot be loaded: this machine has no \
             NVIDIA driver, or its directory (e.g. /usr/lib/x86_64-linux-gnu) is not on \
             LD_LIBRARY_PATH"
                .into(),
        ))
    }
}

/// The NVRTC options ksem compiles with: no contraction, C++17, every
/// function a device function, `KSEM_THREADS = threads`.
/// `KSEM_NVRTC_OPTIONS` (whitespace-separated) is appended, e.g. to compare
/// optimisation levels when a GPU result is in doubt.
pub fn nvrtc_options(arch: &str, threads: u32) -> Vec<String> {
    let mut o = vec![
        "--fmad=false".into(),
        format!("-arch={arch}"),
        format!("-DKSEM_THREADS={threads}"),
        "-default-device".into(),
        "--std=c++17".into(),
    ];
    if let Ok(extra) = std::env::var("KSEM_NVRTC_OPTIONS") {
        o.extend(extra.split_whitespace().map(str::to_string));
    }
    o
}

/// Compiles a generated source with NVRTC for `arch` with `KSEM_THREADS` =
/// [`CUDA_THREADS`]: a cubin for a real architecture (`sm_90`), PTX text for
/// a virtual one (`compute_90`). Needs libnvrtc, not a GPU.
pub fn nvrtc_compile(src: &str, arch: &str) -> Result<Vec<u8>, GpuError> {
    nvrtc_compile_threads(src, arch, CUDA_THREADS)
}

/// [`nvrtc_compile`] with a chosen block size.
pub fn nvrtc_compile_threads(src: &str, arch: &str, threads: u32) -> Result<Vec<u8>, GpuError> {
    nvrtc_available()?;
    let csrc =
        CString::new(src).map_err(|_| GpuError::Nvrtc("the source contains a NUL byte".into()))?;
    let name = CString::new("ksem_kernel.cu").expect("no NUL");
    let prog = nvrtc::create_program(&csrc, Some(&name))
        .map_err(|e| GpuError::Nvrtc(format!("nvrtcCreateProgram: {e}")))?;
    let opts = nvrtc_options(arch, threads);
    // SAFETY: `prog` is a live program created above; it is destroyed once below.
    let out = unsafe {
        let r = match nvrtc::compile_program(prog, &opts) {
            Err(e) => {
                let log = nvrtc::get_program_log(prog)
                    .map(|l| CStr::from_ptr(l.as_ptr()).to_string_lossy().into_owned())
                    .unwrap_or_default();
                let first = log
                    .lines()
                    .find(|l| l.contains("error"))
                    .unwrap_or_else(|| log.lines().next().unwrap_or(""))
                    .trim()
                    .to_string();
                Err(GpuError::Nvrtc(format!(
                    "compile failed ({e:?}) with {}: {first}",
                    opts.join(" ")
                )))
            }
            Ok(()) if arch.starts_with("sm_") => get_cubin(prog),
            Ok(()) => nvrtc::get_ptx(prog)
                .map(|p| {
                    p.iter()
                        .take_while(|&&c| c != 0)
                        .map(|&c| c as u8)
                        .collect()
                })
                .map_err(|e| GpuError::Nvrtc(format!("nvrtcGetPTX: {e}"))),
        };
        let _ = nvrtc::destroy_program(prog);
        r
    };
    out
}

/// The cubin of a compiled program.
///
/// # Safety
/// `prog` must be a successfully compiled NVRTC program.
unsafe fn get_cubin(prog: nvrtc_sys::nvrtcProgram) -> Result<Vec<u8>, GpuError> {
    let mut size = 0usize;
    nvrtc_sys::nvrtcGetCUBINSize(prog, &mut size)
        .result()
        .map_err(|e| GpuError::Nvrtc(format!("nvrtcGetCUBINSize: {e}")))?;
    let mut buf = vec![0u8; size];
    nvrtc_sys::nvrtcGetCUBIN(prog, buf.as_mut_ptr() as *mut c_char)
        .result()
        .map_err(|e| GpuError::Nvrtc(format!("nvrtcGetCUBIN: {e}")))?;
    Ok(buf)
}

static CONTEXTS: Mutex<Vec<Option<Arc<CudaContext>>>> = Mutex::new(Vec::new());

thread_local! {
    /// The GPU this thread's runs use ([`use_device`]; 0 unless set).
    static DEVICE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Makes this thread's GPU runs use device `ordinal` (`ksem fuzz --devices`
/// gives each worker thread one of the listed devices).
pub fn use_device(ordinal: usize) {
    DEVICE.with(|d| d.set(ordinal));
}

/// The number of CUDA devices the driver sees.
pub fn device_count() -> Result<usize, GpuError> {
    driver_available()?;
    CudaContext::device_count()
        .map(|n| n as usize)
        .map_err(cuda_err("counting CUDA devices"))
}

fn cuda_err(what: &str) -> impl Fn(cudarc::driver::DriverError) -> GpuError + '_ {
    move |e| GpuError::Cuda(format!("{what}: {e:?}"))
}

/// The primary context of this thread's device (created once per process
/// and device).
fn context() -> Result<Arc<CudaContext>, GpuError> {
    driver_available()?;
    let ordinal = DEVICE.with(|d| d.get());
    let mut c = CONTEXTS.lock().unwrap_or_else(|p| p.into_inner());
    if c.len() <= ordinal {
        c.resize(ordinal + 1, None);
    }
    if let Some(ctx) = &c[ordinal] {
        return Ok(ctx.clone());
    }
    let ctx = CudaContext::new(ordinal)
        .map_err(|e| GpuError::Cuda(format!("cannot open CUDA device {ordinal}: {e:?}")))?;
    c[ordinal] = Some(ctx.clone());
    Ok(ctx)
}

/// The `sm_XY` architecture of this thread's device.
pub fn device_arch() -> Result<String, GpuError> {
    let ctx = context()?;
    let (maj, min) = ctx
        .compute_capability()
        .map_err(cuda_err("compute capability"))?;
    Ok(format!("sm_{maj}{min}"))
}

/// Runs a lowered kernel on this thread's GPU (0 unless [`use_device`]).
pub fn run(l: &Lowered, launch: &Launch, kernel: &str) -> Result<RunResult, GpuError> {
    nvrtc_available()?;
    let ctx = context()?;
    let arch = device_arch()?;
    let cubin = nvrtc_compile_threads(&l.source, &arch, l.threads(CUDA_THREADS))?;
    let module = ctx
        .load_module(cudarc::nvrtc::Ptx::from_binary(cubin))
        .map_err(cuda_err("loading the cubin"))?;
    run_in(&ctx, &module, l.entry, l, launch, kernel)
}

/// Compiles one source (e.g. a batch from [`crate::batch`]) for this device's
/// architecture and loads it.
pub fn load(source: &str) -> Result<(Arc<CudaContext>, Arc<cudarc::driver::CudaModule>), GpuError> {
    nvrtc_available()?;
    let ctx = context()?;
    let arch = device_arch()?;
    let cubin = nvrtc_compile(source, &arch)?;
    let module = ctx
        .load_module(cudarc::nvrtc::Ptx::from_binary(cubin))
        .map_err(cuda_err("loading the cubin"))?;
    Ok((ctx, module))
}

/// Runs lowered kernel `l`, whose `__global__` function in `module` is `entry`.
pub fn run_in(
    ctx: &Arc<CudaContext>,
    module: &Arc<cudarc::driver::CudaModule>,
    entry: &str,
    l: &Lowered,
    launch: &Launch,
    kernel: &str,
) -> Result<RunResult, GpuError> {
    run_timed(ctx, module, entry, l, launch, kernel, 0).map(|(r, _)| r)
}

/// Compiles and runs kernel `l`, then launches it `reps` more times between
/// two CUDA events; returns the result of the first launch and the mean
/// time of the others in milliseconds (for kernels whose repeated launches
/// are idempotent, such as the benchmarks').
pub fn time(
    l: &Lowered,
    launch: &Launch,
    kernel: &str,
    reps: u32,
) -> Result<(RunResult, f64), GpuError> {
    let (ctx, module) = load(&l.source)?;
    let (r, ms) = run_timed(&ctx, &module, l.entry, l, launch, kernel, reps.max(1))?;
    Ok((r, ms.unwrap_or(f64::NAN)))
}

/// Mean milliseconds of a device-to-device copy of `bytes` bytes (the
/// bandwidth yardstick of the benchmarks).
pub fn time_copy(bytes: usize, reps: u32) -> Result<f64, GpuError> {
    let ctx = context()?;
    let stream = ctx.default_stream();
    let src = stream
        .alloc_zeros::<u8>(bytes)
        .map_err(cuda_err("allocating"))?;
    let mut dst = stream
        .alloc_zeros::<u8>(bytes)
        .map_err(cuda_err("allocating"))?;
    stream
        .memcpy_dtod(&src, &mut dst)
        .map_err(cuda_err("copying"))?;
    let flags = Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT);
    let start = stream
        .record_event(flags)
        .map_err(cuda_err("recording an event"))?;
    for _ in 0..reps.max(1) {
        stream
            .memcpy_dtod(&src, &mut dst)
            .map_err(cuda_err("copying"))?;
    }
    let end = stream
        .record_event(flags)
        .map_err(cuda_err("recording an event"))?;
    let ms = start.elapsed_ms(&end).map_err(cuda_err("timing"))? as f64;
    Ok(ms / reps.max(1) as f64)
}

/// The `__global__` function `entry` of `module`, allowed `smem` bytes of
/// dynamic shared memory per block.
fn function(
    module: &Arc<cudarc::driver::CudaModule>,
    entry: &str,
    smem: usize,
) -> Result<cudarc::driver::CudaFunction, GpuError> {
    let f = module
        .load_function(entry)
        .map_err(cuda_err("finding the kernel function"))?;
    if smem > DEFAULT_SMEM_LIMIT {
        f.set_attribute(
            cudarc::driver::sys::CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            smem as i32,
        )
        .map_err(|e| {
            GpuError::Cuda(format!(
                "the kernel needs {smem} bytes of shared memory per block: {e:?}"
            ))
        })?;
    }
    Ok(f)
}

#[allow(clippy::too_many_arguments)]
fn run_timed(
    ctx: &Arc<CudaContext>,
    module: &Arc<cudarc::driver::CudaModule>,
    entry: &str,
    l: &Lowered,
    launch: &Launch,
    kernel: &str,
    reps: u32,
) -> Result<(RunResult, Option<f64>), GpuError> {
    // the kernel's launches, in order: (function, grid, shared memory)
    let block_dim = |b: Option<[u32; 3]>| match b {
        Some(b) => (b[0], b[1], b[2]),
        None => (CUDA_THREADS, 1, 1),
    };
    // (function, grid, block, shared memory)
    let mut calls = vec![(
        function(module, entry, l.smem_bytes)?,
        l.grid,
        block_dim(l.block),
        l.smem_bytes,
    )];
    for next in &l.then {
        let f = function(module, &next.entry, next.smem_bytes)?;
        calls.push((f, next.grid, block_dim(next.block), next.smem_bytes));
    }
    let m = marshal(l, launch)?;
    let stream = ctx.default_stream();
    let mut dbufs = Vec::with_capacity(m.buffers.len());
    let mut dflags = Vec::new();
    for (b, bytes) in m.buffers.iter().enumerate() {
        let mut padded = bytes.clone();
        if padded.is_empty() {
            padded.push(0);
        }
        dbufs.push(
            stream
                .clone_htod(&padded)
                .map_err(cuda_err("copying a buffer in"))?,
        );
        if l.inexact_flags {
            dflags.push(
                stream
                    .alloc_zeros::<u8>(m.lens[b].max(1))
                    .map_err(cuda_err("allocating inexact flags"))?,
            );
        }
    }
    let lens: Vec<i64> = m.lens.iter().map(|&n| n as i64).collect();
    let launch_all = || -> Result<(), GpuError> {
        for (f, g, block_dim, smem) in &calls {
            let mut builder = stream.launch_builder(f);
            for (i, a) in l.args.iter().enumerate() {
                match a {
                    ArgSlot::Buffer { buffer } => builder.arg(&dbufs[*buffer]),
                    ArgSlot::Len { buffer } => builder.arg(&lens[*buffer]),
                    ArgSlot::Scalar { .. } => builder.arg(&m.scalars[i]),
                    ArgSlot::Inexact { buffer } => builder.arg(&dflags[*buffer]),
                };
            }
            let cfg = LaunchConfig {
                grid_dim: (g[0], g[1], g[2]),
                block_dim: *block_dim,
                shared_mem_bytes: *smem as u32,
            };
            // SAFETY: the argument slots pushed above match the generated
            // kernel's signature one for one (every launch of a kernel has
            // the same; scalars as little-endian 64-bit holders whose first
            // bytes are the value), and the kernel accesses buffers only
            // within the lengths it is given.
            unsafe { builder.launch(cfg) }.map_err(cuda_err("launching the kernel"))?;
        }
        Ok(())
    };
    // one stream: each launch starts after the one before it has ended
    launch_all()?;
    stream
        .synchronize()
        .map_err(cuda_err("running the kernel"))?;
    let mut ms = None;
    if reps > 0 {
        let flags = Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT);
        let start = stream
            .record_event(flags)
            .map_err(cuda_err("recording an event"))?;
        for _ in 0..reps {
            launch_all()?;
        }
        let end = stream
            .record_event(flags)
            .map_err(cuda_err("recording an event"))?;
        ms = Some(start.elapsed_ms(&end).map_err(cuda_err("timing"))? as f64 / reps as f64);
    }
    let mut out = Vec::with_capacity(dbufs.len());
    for (b, d) in dbufs.iter().enumerate() {
        let mut v = stream
            .clone_dtoh(d)
            .map_err(cuda_err("copying a buffer out"))?;
        v.truncate(m.buffers[b].len());
        out.push(v);
    }
    let mut flags = Vec::new();
    for (b, d) in dflags.iter().enumerate() {
        let mut v = stream
            .clone_dtoh(d)
            .map_err(cuda_err("copying flags out"))?;
        v.truncate(m.lens[b]);
        flags.push(v);
    }
    Ok((
        unmarshal(
            l,
            kernel,
            "cuda",
            &out,
            l.inexact_flags.then_some(&flags[..]),
        ),
        ms,
    ))
}
