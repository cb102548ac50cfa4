//! Corpus cases: a launch plus the expected result, and the comparison of a
//! run against it (shared by `ksem corpus check` and the corpus test).

use crate::compare::{agrees, INEXACT_ULP_BOUND};
use crate::dtype::DType;
use crate::launch::RunResult;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

/// A corpus folder's cases, sorted by path: each `.py` program that has its
/// launch (`.json`) beside it; a `.py` without one (a module the cases
/// import, such as `_helpers.py`) is not a case.
pub fn case_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "py") && p.with_extension("json").is_file())
        .collect();
    v.sort();
    Ok(v)
}

/// Differences between a result and a case's `"expected"`. Buffers whose
/// expectation says `"exact": false` compare within the case's `"ulp"`;
/// elements the result marks inexact also get `inexact_slack` ULP (a GPU
/// backend against the interpreter's bits; 0 when replaying the reference).
pub fn check_expected(expected: &Json, r: &RunResult, inexact_slack: u64) -> Vec<String> {
    let mut bad = Vec::new();
    let want_ub: &[Json] = expected
        .get("ub")
        .and_then(|u| u.as_array())
        .map_or(&[], |u| u.as_slice());
    if want_ub.len() != r.ub.len() {
        bad.push(format!(
            "expected {} UB reports, got {}",
            want_ub.len(),
            r.ub.len()
        ));
    }
    // each expected report names its kind and, where given, its line:col
    for (w, u) in want_ub.iter().zip(&r.ub) {
        let kind = w.get("kind").and_then(Json::as_str);
        let at = |k: &str| w.get(k).and_then(Json::as_u64);
        if kind.is_some_and(|k| k != u.kind)
            || at("line").is_some_and(|l| l != u.line as u64)
            || at("col").is_some_and(|c| c != u.col as u64)
        {
            bad.push(format!(
                "expected UB {w}, got {} at {}:{}",
                u.kind, u.line, u.col
            ));
        }
    }
    // after UB the buffers' contents are unspecified: a UB case may omit them
    let bufs = match expected.get("buffers").and_then(|b| b.as_object()) {
        Some(b) => b,
        None if !want_ub.is_empty() => return bad,
        None => return vec!["no expected buffers".into()],
    };
    for (name, want) in bufs {
        let Some(got) = r.buffers.iter().find(|b| &b.name == name) else {
            bad.push(format!("{name}: missing"));
            continue;
        };
        if want["dtype"].as_str().and_then(DType::from_name) != Some(got.dtype) {
            bad.push(format!("{name}: dtype differs"));
            continue;
        }
        let Some(bits) = want["bits"].as_array() else {
            bad.push(format!("{name}: no expected bits"));
            continue;
        };
        if bits.len() != got.bits.len() {
            bad.push(format!(
                "{name}: {} elements expected, {} got",
                bits.len(),
                got.bits.len()
            ));
            continue;
        }
        let exact = want.get("exact").and_then(|e| e.as_bool()).unwrap_or(true);
        let ulp = want.get("ulp").and_then(|u| u.as_u64()).unwrap_or(0);
        let mut n = 0;
        for (i, w) in bits.iter().enumerate() {
            let w = w
                .as_str()
                .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok())
                .unwrap_or(u64::MAX);
            let g = got.bits[i];
            let bound = if !exact || (got.inexact[i] && inexact_slack > 0) {
                ulp.max(if got.inexact[i] { INEXACT_ULP_BOUND } else { 0 })
            } else {
                0
            };
            if !agrees(got.dtype, w, g, bound) {
                n += 1;
                if n <= 3 {
                    bad.push(format!("{name}[{i}]: expected {w:#x}, got {g:#x}"));
                }
            }
        }
        if n > 3 {
            bad.push(format!("{name}: {n} elements differ in all"));
        }
    }
    bad
}
