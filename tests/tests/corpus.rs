//! Replays every corpus case: the interpreter must reproduce the expected
//! bits (exact buffers bit for bit; buffers whose expectation is marked
//! `"exact": false` within the case's ULP bound).

use ksem_interp::dtype::DType;
use ksem_interp::eval::RunOptions;
use ksem_interp::float::ulp_distance;
use ksem_interp::launch::parse_launch;
use serde_json::Value;
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/triton")
}

fn parse_bits(v: &Value) -> u64 {
    let s = v.as_str().expect("bits are hex strings");
    u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex")
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
    let mut bad = Vec::new();
    let want_ub = expected
        .get("ub")
        .and_then(|u| u.as_array())
        .map_or(0, |u| u.len());
    if want_ub != r.ub.len() {
        bad.push(format!("expected {want_ub} UB reports, got {:?}", r.ub));
    }
    for (name, want) in expected["buffers"].as_object().expect("buffers object") {
        let Some(got) = r.buffers.iter().find(|b| &b.name == name) else {
            bad.push(format!("no buffer {name}"));
            continue;
        };
        let d = want["dtype"].as_str().and_then(DType::from_name);
        if d != Some(got.dtype) {
            bad.push(format!(
                "{name}: expected dtype {:?}, got {}",
                want["dtype"],
                got.dtype.json_name()
            ));
            continue;
        }
        let d = got.dtype;
        let Some(bits) = want["bits"].as_array() else {
            bad.push(format!("{name}: the case gives no expected bits"));
            continue;
        };
        if bits.len() != got.bits.len() {
            bad.push(format!(
                "{name}: expected {} elements, got {}",
                bits.len(),
                got.bits.len()
            ));
            continue;
        }
        let exact = want.get("exact").and_then(|e| e.as_bool()).unwrap_or(true);
        let ulp = want.get("ulp").and_then(|u| u.as_u64()).unwrap_or(0);
        for (i, w) in bits.iter().enumerate() {
            let (w, g) = (parse_bits(w), got.bits[i]);
            if w == g {
                continue;
            }
            // `"exact": false` on the expected side: the expectation itself was
            // measured on hardware that approximates; compare within its bound.
            let within = !exact && d.is_float() && ulp_distance(d, w, g) <= ulp;
            if !within {
                bad.push(format!("{name}[{i}]: expected {w:#x}, got {g:#x}"));
            }
        }
    }
    bad
}

#[test]
fn every_corpus_case_reproduces_its_expected_bits() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("corpus dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "py")
                && !p.file_name().unwrap().to_string_lossy().starts_with('_')
        })
        .collect();
    cases.sort();
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
