//! Seed inputs of each target, built from the repository's corpora
//! (`corpus/<dialect>/*.py` with their launch JSON), plus the saved inputs
//! under `fuzz/seeds/<target>/` and the minimised findings under
//! `fuzz/regressions/<target>/`.

use crate::{join, Target, DEFAULT_LAUNCH};
use ksem_interp::frontend::Dialect;
use serde_json::Value as Json;
use std::path::Path;

/// A named input.
pub struct Seed {
    pub name: String,
    pub data: Vec<u8>,
}

/// The launch keys of a corpus case (its expected result and provenance left out).
const LAUNCH_KEYS: [&str; 6] = ["kernel", "grid", "block", "factory_args", "args", "config"];

/// The launch JSON of a corpus case, on one line.
fn launch_of(case: &Json) -> String {
    let mut o = serde_json::Map::new();
    for k in LAUNCH_KEYS {
        if let Some(v) = case.get(k) {
            o.insert(k.to_string(), v.clone());
        }
    }
    Json::Object(o).to_string()
}

/// Every `corpus/<dialect>/NAME.py` with its `NAME.json`, as (name, program, launch).
fn corpus_cases(root: &Path, d: Dialect) -> Vec<(String, String, String)> {
    let dir = root.join("corpus").join(d.name());
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return out;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for py in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
    {
        let Ok(json) = std::fs::read_to_string(py.with_extension("json")) else {
            continue;
        };
        let (Ok(src), Ok(case)) = (
            std::fs::read_to_string(py),
            serde_json::from_str::<Json>(&json),
        ) else {
            continue;
        };
        let stem = py.file_stem().unwrap().to_string_lossy().into_owned();
        out.push((format!("{}_{stem}", d.name()), src, launch_of(&case)));
    }
    out
}

/// The inputs of `dir` (none if it does not exist), in name order.
fn saved(dir: &Path) -> Vec<Seed> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| Seed {
            name: p.display().to_string(),
            data: std::fs::read(&p).expect("read a saved fuzz input"),
        })
        .collect()
}

/// The seeds a target's corpus starts from, built from `corpus/`.
pub fn corpus_seeds(root: &Path, t: Target) -> Vec<Seed> {
    let dialects: Vec<Dialect> = match t {
        Target::Frontend(d) => vec![d],
        Target::InterpRun | Target::InterpVsHost | Target::LaunchJson | Target::Reducer => vec![
            Dialect::Triton,
            Dialect::CudaPy,
            Dialect::TileLang,
            Dialect::Hidet,
        ],
    };
    let mut out = Vec::new();
    if t == Target::LaunchJson {
        out.push(Seed {
            name: "default_launch".into(),
            data: DEFAULT_LAUNCH.as_bytes().to_vec(),
        });
    }
    for d in dialects {
        for (name, src, launch) in corpus_cases(root, d) {
            let data = match t {
                Target::LaunchJson => launch,
                _ => join(&src, &launch),
            };
            out.push(Seed {
                name,
                data: data.into_bytes(),
            });
        }
    }
    out
}

/// The saved seeds and minimised findings of a target
/// (`fuzz/seeds/<target>/`, `fuzz/regressions/<target>/`).
pub fn saved_inputs(root: &Path, t: Target) -> Vec<Seed> {
    let mut out = saved(&root.join("fuzz/seeds").join(t.name()));
    out.extend(saved(&root.join("fuzz/regressions").join(t.name())));
    out
}
