//! Replays every corpus case: the interpreter must reproduce the expected
//! bits (exact buffers bit for bit; buffers whose expectation is marked
//! `"exact": false` within the case's ULP bound), with the comparison
//! `ksem corpus check` uses.

use ksem_interp::eval::RunOptions;
use ksem_interp::launch::parse_launch;
use serde_json::Value;
use std::path::PathBuf;

fn corpus_dir(dialect: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(dialect)
}

/// Checks one case; returns the mismatches found.
fn check_case(py: &PathBuf, json: &PathBuf) -> Vec<String> {
    let src = std::fs::read_to_string(py).expect("read program");
    let text = std::fs::read_to_string(json).expect("read launch");
    let spec: Value = serde_json::from_str(&text).expect("case JSON parses");
    let Some(expected) = spec.get("expected") else {
        return vec![format!("{} has no \"expected\"", json.display())];
    };
    assert!(
        spec.get("provenance").and_then(|p| p.as_str()).is_some(),
        "{} needs a provenance line",
        json.display()
    );
    let launch = parse_launch(&text).expect("launch parses");
    let opts = RunOptions {
        threads: 1,
        ..Default::default()
    };
    let file = py.display().to_string();
    let r = match ksem_interp::run_source(&file, &src, &launch, None, &opts) {
        Ok(r) => r,
        Err(e) => return vec![e.render()],
    };
    ksem_interp::corpus::check_expected(expected, &r, 0)
}

#[test]
fn every_triton_corpus_case_reproduces_its_expected_bits() {
    check_corpus("triton");
}

#[test]
fn every_cudapy_corpus_case_reproduces_its_expected_bits() {
    check_corpus("cudapy");
}

#[test]
fn every_tilelang_corpus_case_reproduces_its_expected_bits() {
    check_corpus("tilelang");
}

#[test]
fn every_hidet_corpus_case_reproduces_its_expected_bits() {
    check_corpus("hidet");
}

fn check_corpus(dialect: &str) {
    let cases: Vec<PathBuf> =
        ksem_interp::corpus::case_files(&corpus_dir(dialect)).expect("corpus dir");
    assert!(
        cases.len() >= 30,
        "the corpus has {} cases; at least 30 expected",
        cases.len()
    );
    let mut failures = Vec::new();
    for py in &cases {
        let json = py.with_extension("json");
        let bad = check_case(py, &json);
        if !bad.is_empty() {
            failures.push(format!("{}:\n  {}", py.display(), bad.join("\n  ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
