//! `ksem corpus check`: replays a corpus directory on each backend against
//! the expected bits of every case.

use crate::backend::Backend;
use ksem_interp::dtype::DType;
use ksem_interp::eval::RunOptions;
use ksem_interp::float::ulp_distance;
use ksem_interp::launch::{parse_launch, RunResult};
use ksem_interp::Error;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Differences between a result and a case's `"expected"`.
pub fn check_expected(expected: &Json, r: &RunResult) -> Vec<String> {
    let mut bad = Vec::new();
    let want_ub = expected
        .get("ub")
        .and_then(|u| u.as_array())
        .map_or(0, |u| u.len());
    if (want_ub == 0) != r.ub.is_empty() {
        bad.push(format!("expected {want_ub} UB reports, got {}", r.ub.len()));
    }
    let Some(bufs) = expected.get("buffers").and_then(|b| b.as_object()) else {
        return vec!["no expected buffers".into()];
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
            let approx_ok = (!exact || got.inexact[i])
                && got.dtype.is_float()
                && ulp_distance(got.dtype, w, g)
                    <= ulp.max(if got.inexact[i] {
                        crate::compare::INEXACT_ULP_BOUND
                    } else {
                        0
                    });
            if w != g && !approx_ok {
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

fn cases(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "py") && p.with_extension("json").is_file())
        .collect();
    v.sort();
    Ok(v)
}

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
    let files = cases(Path::new(dir)).map_err(|e| Error::Io {
        path: dir.into(),
        message: e.to_string(),
    })?;
    let (mut passed, mut failed) = (0, 0);
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
        for b in &list {
            let outcome = b.run(&k, &l, &RunOptions::default());
            let bad = match outcome {
                Ok(r) => check_expected(expected, &r),
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
        "corpus {dir}: {} cases x [{}]: {passed} passed, {failed} failed",
        files.len(),
        names.join(", ")
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
