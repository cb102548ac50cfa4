//! Broken kernels never make ksem panic: every corpus case (Triton, CUDA
//! Python, TileLang) is mutated (a line deleted, the file cut short, a number replaced by an edge
//! value, an operator swapped) and each mutant is elaborated and run; it may
//! run, report UB or be refused, but never panic. The mutants are
//! deterministic, so a failure names the mutant that reproduces it.

use ksem_interp::launch::parse_launch;
use ksem_tests::*;
use std::path::PathBuf;

/// The cases of corpus/DIALECT: (name, source, launch text).
fn cases(dialect: &str) -> Vec<(String, String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(dialect);
    let mut out: Vec<(String, String, String)> = ksem_interp::corpus::case_files(&dir)
        .expect("corpus dir")
        .into_iter()
        .map(|p| {
            let src = std::fs::read_to_string(&p).expect("source");
            let launch = std::fs::read_to_string(p.with_extension("json")).expect("launch");
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                src,
                launch,
            )
        })
        .collect();
    out.sort();
    out
}

/// The mutants of `src`: each line deleted, the file cut after each line,
/// each number replaced by 0, -1 and 2^40, each of a few operators swapped.
fn mutants(src: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    for i in 0..lines.len() {
        let mut v = lines.clone();
        v.remove(i);
        out.push((format!("line {} deleted", i + 1), v.join("\n")));
        out.push((format!("cut after line {}", i + 1), lines[..=i].join("\n")));
    }
    // numbers and operators, one occurrence at a time
    let swaps: &[(&str, &[&str])] = &[
        ("+", &["//", "-", "<<"]),
        ("*", &["%", "/"]),
        ("<", &[">=", "=="]),
        ("(", &["[", ""]),
        (":", &["", "::"]),
    ];
    for (from, tos) in swaps {
        for (k, (at, _)) in src.match_indices(from).enumerate().take(12) {
            for to in *tos {
                let mut m = src.to_string();
                m.replace_range(at..at + from.len(), to);
                out.push((format!("{from:?} #{k} -> {to:?}"), m));
            }
        }
    }
    let bytes = src.as_bytes();
    let mut i = 0;
    let mut k = 0;
    while i < bytes.len() && k < 12 {
        if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
            let end = (i..bytes.len())
                .find(|&j| !bytes[j].is_ascii_digit())
                .unwrap_or(bytes.len());
            for to in ["0", "-1", "1099511627776"] {
                let mut m = src.to_string();
                m.replace_range(i..end, to);
                out.push((format!("number #{k} -> {to}"), m));
            }
            k += 1;
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn mutated_tilelang_never_panics() {
    mutate_corpus("tilelang");
}

#[test]
fn mutated_cuda_python_never_panics() {
    mutate_corpus("cudapy");
}

#[test]
fn mutated_hidet_never_panics() {
    mutate_corpus("hidet");
}

#[test]
fn mutated_triton_never_panics() {
    mutate_corpus("triton");
}

fn mutate_corpus(dialect: &str) {
    let opts = ksem_interp::eval::RunOptions {
        threads: 1,
        max_loop_iterations: 20_000,
        ..Default::default()
    };
    let mut runs = 0;
    let mut outcomes = [0usize; 3];
    for (name, src, launch) in cases(dialect) {
        let l = parse_launch(&launch).expect("corpus launch parses");
        for (what, m) in mutants(&src) {
            let r = no_panic(&format!("running {name} with {what}"), || {
                ksem_interp::run_source("kernel.py", &m, &l, None, &opts)
            });
            runs += 1;
            match r {
                Ok(r) if r.ub.is_empty() => outcomes[0] += 1,
                Ok(_) => outcomes[1] += 1,
                Err(_) => outcomes[2] += 1,
            }
        }
    }
    eprintln!(
        "{dialect}: {runs} mutants: {} ran, {} reported UB, {} refused",
        outcomes[0], outcomes[1], outcomes[2]
    );
    // the mutations must reach every outcome, or they test nothing
    assert!(runs > 1000, "{runs}");
    assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
}
