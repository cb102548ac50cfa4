//! Every corpus case through the host build (1 and 4 threads per block) must
//! give the interpreter's bits; every corpus kernel must compile with NVRTC
//! when libnvrtc is loadable.

use ksem_gpu::{cuda, lower, Backend};
use ksem_interp::eval::RunOptions;
use ksem_interp::ir::Kernel;
use ksem_interp::launch::{parse_launch, Launch, RunResult};
use std::path::PathBuf;

struct Case {
    name: String,
    kernel: Kernel,
    launch: Launch,
}

/// Every case of the Triton, CUDA Python and TileLang corpora.
fn corpus() -> Vec<Case> {
    let mut pys: Vec<PathBuf> = Vec::new();
    for d in ["triton", "cudapy", "tilelang", "hidet"] {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus")
            .join(d);
        let here: Vec<PathBuf> = ksem_interp::corpus::case_files(&dir).expect("corpus dir");
        pys.extend(here);
    }
    pys.iter()
        .map(|py| {
            let src = std::fs::read_to_string(py).expect("read program");
            let text = std::fs::read_to_string(py.with_extension("json")).expect("read launch");
            let launch = parse_launch(&text).expect("launch parses");
            let file = py.display().to_string();
            let kernel = ksem_interp::elaborate_source(&file, &src, &launch, None)
                .unwrap_or_else(|e| panic!("{}", e.render()));
            Case {
                name: py.file_stem().unwrap().to_string_lossy().into_owned(),
                kernel,
                launch,
            }
        })
        .collect()
}

fn interp(c: &Case) -> RunResult {
    let opts = RunOptions {
        threads: 1,
        ..Default::default()
    };
    ksem_interp::eval::run(&c.kernel, &c.launch, &opts).expect("interpreter runs")
}

/// Differences between the interpreter's result and a backend's: the one
/// comparison every tool uses (`ksem_interp::compare`), plus the backend
/// must mark inexact every element the interpreter does.
fn compare(want: &RunResult, got: &RunResult) -> Vec<String> {
    let c = ksem_interp::compare::compare(want, got, 8);
    let mut bad: Vec<String> = c.problems.clone();
    for m in &c.mismatches {
        bad.push(format!(
            "{}[{}]: interp {:#x}, {} {:#x}",
            m.buffer, m.index, m.a, got.backend, m.b
        ));
    }
    for (w, g) in want.buffers.iter().zip(&got.buffers) {
        if let Some(i) = (0..w.inexact.len())
            .find(|&i| w.inexact[i] && !g.inexact.get(i).copied().unwrap_or(false))
        {
            bad.push(format!(
                "{}[{i}]: the interpreter marks it inexact, {} does not",
                w.name, got.backend
            ));
        }
    }
    bad
}

fn check_backend(backend: Backend, threads: u32, only: Option<&[&str]>) {
    let mut cases = corpus();
    assert!(cases.len() >= 30, "only {} corpus cases", cases.len());
    if let Some(names) = only {
        cases.retain(|c| names.iter().any(|n| c.name.starts_with(n)));
    }
    let mut failures = Vec::new();
    for c in &cases {
        let want = interp(c);
        if !want.ub.is_empty() {
            // after UB the interpreter stops; a backend's bits are unspecified
            continue;
        }
        let got = match backend {
            Backend::Host => ksem_gpu::run_host_threads(&c.kernel, &c.launch, threads),
            Backend::Cuda => ksem_gpu::run(&c.kernel, &c.launch, backend),
        };
        match got {
            Ok(got) => {
                let bad = compare(&want, &got);
                if !bad.is_empty() {
                    failures.push(format!("{}:\n    {}", c.name, bad.join("\n    ")));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", c.name)),
        }
    }
    println!(
        "{backend:?} ({threads} threads per block): {} of {} corpus cases bit-identical to the interpreter",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases differ on {backend:?} with {threads} threads:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_host_one_thread_matches_interpreter() {
    check_backend(Backend::Host, 1, None);
}

#[test]
fn corpus_host_four_threads_matches_interpreter() {
    check_backend(Backend::Host, 4, None);
}

/// Cases that move values between elements, with a block size that divides nothing.
#[test]
fn corpus_shuffles_host_three_threads_match_interpreter() {
    let shuffles: &[&str] = &[
        "reduce_",
        "bcast_outer",
        "reshape_trans",
        "ptr2d_strides",
        "tutorial_",
        "loop_",
        "masked_",
    ];
    check_backend(Backend::Host, 3, Some(shuffles));
}

/// On a machine with a GPU (and KSEM_TEST_CUDA=1): every corpus case on the GPU.
#[test]
fn corpus_cuda_matches_interpreter() {
    if std::env::var("KSEM_TEST_CUDA").ok().as_deref() != Some("1") {
        println!("SKIPPED corpus_cuda_matches_interpreter: set KSEM_TEST_CUDA=1 on a GPU machine");
        return;
    }
    check_backend(Backend::Cuda, cuda::CUDA_THREADS, None);
}

#[test]
fn corpus_compiles_with_nvrtc() {
    if let Err(e) = cuda::nvrtc_available() {
        println!("SKIPPED corpus_compiles_with_nvrtc: {e}");
        eprintln!("SKIPPED corpus_compiles_with_nvrtc: {e}");
        return;
    }
    let cases = corpus();
    let mut failures = Vec::new();
    for c in &cases {
        let l = lower::lower(&c.kernel).expect("lowers");
        match cuda::nvrtc_compile(&l.source, "sm_90") {
            Ok(cubin) => assert!(!cubin.is_empty()),
            Err(e) => failures.push(format!("{}: {e}", c.name)),
        }
    }
    println!(
        "NVRTC: {} of {} corpus kernels compile for sm_90",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every line of the kernel body names the source line it comes from.
#[test]
fn generated_lines_name_their_source_line() {
    for c in corpus() {
        let src = ksem_gpu::emit_cuda(&c.kernel);
        let body = src
            .split("  // body\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{}: no body", c.name));
        let body = body.split("\n}\n").next().unwrap();
        for line in body.lines() {
            assert!(
                line.contains("  // line "),
                "{}: a line without its source line: {line}",
                c.name
            );
        }
    }
}

/// Without the CUDA driver library the CUDA backend reports it (no panic).
#[test]
fn missing_driver_is_an_error_not_a_panic() {
    if cuda::driver_available().is_ok() {
        println!("SKIPPED missing_driver_is_an_error_not_a_panic: libcuda is present");
        return;
    }
    let c = corpus().into_iter().next().expect("a case");
    match ksem_gpu::run(&c.kernel, &c.launch, Backend::Cuda) {
        Err(ksem_gpu::GpuError::LibraryMissing(m)) => {
            assert!(!m.contains('\n'), "one line: {m}");
            println!("{m}");
        }
        other => panic!("expected LibraryMissing, got {other:?}"),
    }
}
