//! `ksem corpus check`: replays a corpus directory on each backend against
//! the expected bits of every case.

use crate::backend::Backend;
use ksem_interp::corpus::{case_files, check_expected};
use ksem_interp::eval::RunOptions;
use ksem_interp::launch::parse_launch;
use ksem_interp::Error;
use serde_json::Value as Json;
use std::path::Path;
use std::process::ExitCode;

/// Replays `dir`; exit 1 on any regression.
pub fn check(dir: &str, backends: Option<&str>) -> Result<ExitCode, Error> {
    let list: Vec<Backend> = match backends {
        Some(s) => s
            .split(',')
            .map(|b| Backend::parse(b.trim()))
            .collect::<Result<_, _>>()
            .map_err(|m| Error::Launch {
                path: "ksem".into(),
                message: m,
            })?,
        None => {
            let mut v = vec![Backend::Interp, Backend::Host];
            if Backend::default_pair().1 == Backend::Cuda {
                v.push(Backend::Cuda);
            }
            v
        }
    };
    let files = case_files(Path::new(dir)).map_err(|e| Error::Io {
        path: dir.into(),
        message: e.to_string(),
    })?;
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for py in &files {
        let src = std::fs::read_to_string(py).map_err(|e| Error::Io {
            path: py.display().to_string(),
            message: e.to_string(),
        })?;
        let js = py.with_extension("json");
        let text = std::fs::read_to_string(&js).map_err(|e| Error::Io {
            path: js.display().to_string(),
            message: e.to_string(),
        })?;
        let spec: Json = serde_json::from_str(&text).map_err(|e| Error::Launch {
            path: js.display().to_string(),
            message: e.to_string(),
        })?;
        let Some(expected) = spec.get("expected") else {
            continue;
        };
        let l = parse_launch(&text).map_err(|m| Error::Launch {
            path: js.display().to_string(),
            message: m,
        })?;
        let file = py.display().to_string();
        let k = ksem_interp::elaborate_source(&file, &src, &l, None)?;
        let has_ub = expected
            .get("ub")
            .and_then(|u| u.as_array())
            .is_some_and(|u| !u.is_empty());
        for b in &list {
            if has_ub && *b != Backend::Interp {
                // only the reference detects UB; the other backends' bits are unspecified
                skipped += 1;
                continue;
            }
            // a real system (numba, tilelang) runs the file itself
            let js_path = js.display().to_string();
            let outcome = b.run_file(&file, &js_path, None, &k, &l, &RunOptions::default());
            let bad = match outcome {
                Ok(r) => check_expected(expected, &r, ksem_interp::compare::INEXACT_ULP_BOUND),
                Err(e) if b.peer().is_some() && e.contains("refused") => {
                    // e.g. T.ieee_* on TileLang's C target: nothing to compare
                    println!("SKIP {file} on {b}: {e}");
                    skipped += 1;
                    continue;
                }
                Err(e) => vec![e],
            };
            if bad.is_empty() {
                passed += 1;
            } else {
                failed += 1;
                println!("FAIL {file} on {b}:\n  {}", bad.join("\n  "));
            }
        }
    }
    let names: Vec<String> = list.iter().map(|b| b.to_string()).collect();
    println!(
        "corpus {dir}: {} cases x [{}]: {passed} passed, {failed} failed, {skipped} skipped (UB cases on backends that do not detect UB, programs a real system refuses)",
        files.len(),
        names.join(", ")
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
