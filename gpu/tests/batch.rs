//! Many kernels in one host compile (the fuzzer's path, `batch::run_host`):
//! SIMT kernels of every block size share the compile of the tile programs,
//! a kernel that breaks the compile costs only itself, and every result is
//! the one the interpreter gives, bit for bit.

use ksem_gpu::batch;
use ksem_gpu::lower::{self, Lowered};
use ksem_interp::eval::RunOptions;
use ksem_interp::ir::Kernel;
use ksem_interp::launch::{parse_launch, Launch, RunResult};

/// A tile program: Y = X * 3 + 1 over 16 int32 lanes, two programs.
const TILE: &str = r#"import triton
import triton.language as tl


@triton.jit
def tile(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) * 3 + 1)
"#;

/// A SIMT kernel of `threads` threads a block: each thread writes its
/// element to shared memory, meets the others at the barrier and reads back
/// its mirror image, so a wrong block size or barrier changes B.
fn simt(threads: usize) -> String {
    format!(
        r#"import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor(({n},), "int32"), B: T.Tensor(({n},), "int32")):
    with T.Kernel(2, threads={threads}) as bx:
        tx = T.get_thread_binding(0)
        S = T.alloc_shared(({threads},), "int32")
        S[tx] = A[bx * {threads} + tx] * 2 + bx
        T.sync_threads()
        B[bx * {threads} + tx] = S[{last} - tx] - tx
"#,
        n = 2 * threads,
        last = threads - 1,
    )
}

fn case(file: &str, src: &str, launch: &str) -> (Kernel, Launch) {
    let launch = parse_launch(launch).expect("launch parses");
    let k = ksem_interp::elaborate_source(file, src, &launch, None)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    (k, launch)
}

fn tile_case() -> (Kernel, Launch) {
    case(
        "tile.py",
        TILE,
        r#"{"grid": [2], "args": {
            "x_ptr": {"buffer": {"dtype": "int32", "len": 16, "init": {"random": {"seed": 3, "low": -1000, "high": 1000}}}},
            "y_ptr": {"buffer": {"dtype": "int32", "len": 16}},
            "BLOCK": {"constexpr": 8}}}"#,
    )
}

fn simt_case(threads: usize) -> (Kernel, Launch) {
    let n = 2 * threads;
    case(
        "simt.py",
        &simt(threads),
        &format!(
            r#"{{"args": {{
            "A": {{"buffer": {{"dtype": "int32", "len": {n}, "init": {{"random": {{"seed": {threads}, "low": -99, "high": 99}}}}}}}},
            "B": {{"buffer": {{"dtype": "int32", "len": {n}}}}}}}}}"#
        ),
    )
}

fn interp(k: &Kernel, l: &Launch) -> RunResult {
    let opts = RunOptions {
        threads: 1,
        ..Default::default()
    };
    ksem_interp::eval::run(k, l, &opts).expect("interpreter runs")
}

/// Every buffer's bits, by name.
fn bits(r: &RunResult) -> Vec<(String, Vec<u64>)> {
    r.buffers
        .iter()
        .map(|b| (b.name.clone(), b.bits.clone()))
        .collect()
}

/// `l` with a kernel part that no C++ compiler accepts.
fn broken(l: &Lowered) -> Lowered {
    let mut b = l.clone();
    b.source
        .push_str("\nstatic int ksem_broken = this_name_is_not_declared;\n");
    b
}

/// A tile program and SIMT programs of 32, 64 and 128 threads a block
/// compile with one `KSEM_THREADS` (the SIMT sources do not read it; their
/// host entries carry their block shapes), and run as the interpreter does.
#[test]
fn simt_kernels_of_every_block_size_share_one_compile() {
    let cases = [tile_case(), simt_case(32), simt_case(64), simt_case(128)];
    let lowered: Vec<Lowered> = cases
        .iter()
        .map(|(k, _)| lower::lower(k).expect("lowers"))
        .collect();
    for (l, threads) in lowered.iter().zip([1, 32, 64, 128]) {
        assert_eq!(l.threads(1), threads);
        assert_eq!(batch::compile_threads(l, 1), 1, "{}", l.source);
    }
    // a SIMT source that reads a KSEM_THREADS-dependent macro keeps its own
    let mut reads = lowered[1].clone();
    reads.source.push_str("\n// KSEM_SLOTS(4)\n");
    assert_eq!(batch::compile_threads(&reads, 1), 32);
    let items: Vec<(&Lowered, &Launch, &str)> = lowered
        .iter()
        .zip(&cases)
        .map(|(l, (k, launch))| (l, launch, k.name.as_str()))
        .collect();
    for ((r, (k, launch)), threads) in batch::run_host(&items)
        .iter()
        .zip(&cases)
        .zip([1, 32, 64, 128])
    {
        let r = r
            .as_ref()
            .unwrap_or_else(|e| panic!("{threads} threads: {e}"));
        assert_eq!(bits(r), bits(&interp(k, launch)), "{threads} threads");
    }
    // B[t] of block b = 2·A[b·n + n-1-t] + b - t: the barrier held
    let (k, launch) = &cases[1];
    let r = interp(k, launch);
    let buf = |name: &str| -> Vec<i64> {
        let b = r.buffers.iter().find(|b| b.name == name).expect("buffer");
        b.bits.iter().map(|&x| x as u32 as i32 as i64).collect()
    };
    let (a, b) = (buf("A"), buf("B"));
    for blk in 0..2 {
        for t in 0..32 {
            let want = 2 * a[blk * 32 + 31 - t] + blk as i64 - t as i64;
            assert_eq!(b[blk * 32 + t], want);
        }
    }
}

/// One kernel that breaks the batch's compile: it alone fails (with the
/// compiler's error), and every other kernel of the batch, before and after
/// it, of either kind, still runs and gives the interpreter's bits.
#[test]
fn a_kernel_that_breaks_the_compile_loses_no_other() {
    let cases = [
        tile_case(),
        simt_case(32),
        simt_case(64),
        tile_case(),
        simt_case(128),
    ];
    let mut lowered: Vec<Lowered> = cases
        .iter()
        .map(|(k, _)| lower::lower(k).expect("lowers"))
        .collect();
    lowered[2] = broken(&lowered[2]);
    let items: Vec<(&Lowered, &Launch, &str)> = lowered
        .iter()
        .zip(&cases)
        .map(|(l, (k, launch))| (l, launch, k.name.as_str()))
        .collect();
    let results = batch::run_host(&items);
    assert_eq!(results.len(), cases.len());
    for (i, (r, (k, launch))) in results.iter().zip(&cases).enumerate() {
        match (i, r) {
            (2, Err(ksem_gpu::GpuError::HostCompile(e))) => {
                assert!(e.contains("this_name_is_not_declared"), "{e}")
            }
            (2, other) => panic!("the broken kernel gave {other:?}"),
            (_, Err(e)) => panic!("kernel {i} lost: {e}"),
            (_, Ok(r)) => assert_eq!(bits(r), bits(&interp(k, launch)), "kernel {i}"),
        }
    }
    // a batch of the broken kernel alone reports the same error
    let alone = batch::run_host(&items[2..3]);
    assert!(
        matches!(&alone[0], Err(ksem_gpu::GpuError::HostCompile(e)) if e.contains("this_name_is_not_declared"))
    );
}

/// A host build takes the runtime's dtype-indexed instances from the host
/// runtime library (`host_runtime.rs`): the build records the library as
/// needed and defines none of the instances it calls (`ksem_iadd<KI32>`,
/// `ksem_ld<KI32>`), so g++ never instantiates the runtime per batch. Where
/// the compiler is neither GCC nor Clang there is no library to check.
#[test]
fn a_host_build_links_the_runtime_instances_instead_of_compiling_them() {
    let cxx = ksem_gpu::host::compiler().expect("a C++ compiler");
    if cxx.kind == ksem_gpu::host_compiler::CompilerKind::Other {
        eprintln!("SKIPPED: {} builds no runtime library", cxx.display());
        return;
    }
    let (k, l) = tile_case();
    let lowered = lower::lower(&k).expect("lowers");
    let so = ksem_gpu::host::compile_opt(&lowered.source, 1, "-O0").expect("compiles");
    let bytes = std::fs::read(&so).expect("the build is readable");
    let has = |s: &str| bytes.windows(s.len()).any(|w| w == s.as_bytes());
    assert!(
        has(".rtso"),
        "{} does not name the runtime library",
        so.display()
    );
    // the instances appear only as names to bind (the dynamic symbol
    // table), never with code: their mangled names are in the build, and
    // the library defines them
    let lib = std::fs::read_dir(so.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "rtso"))
        .expect("the runtime library is in the cache");
    let lib_bytes = std::fs::read(&lib).unwrap();
    // binutils' nm, where it is installed, lists what the build defines
    let defined = std::process::Command::new("nm")
        .arg("--defined-only")
        .arg(&so)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).to_string());
    for mangled in ["_Z9ksem_iaddILi3EEyyy", "_Z7ksem_ldILi3EEyRK8ksem_memy"] {
        assert!(has(mangled), "the build does not call {mangled}");
        if let Some(d) = &defined {
            assert!(!d.contains(mangled), "the build compiled {mangled} itself");
        }
        assert!(
            lib_bytes
                .windows(mangled.len())
                .any(|w| w == mangled.as_bytes()),
            "the library does not define {mangled}"
        );
    }
    // and the build still computes what the interpreter does
    let got = batch::run_host(&[(&lowered, &l, "tile")]);
    let got = got[0].as_ref().expect("runs");
    assert_eq!(bits(got), bits(&interp(&k, &l)));
}
