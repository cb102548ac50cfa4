//! Writing a found mismatch as a corpus-ready case.

use super::gen::Program;
use super::run::Options;
use ksem_interp::launch::RunResult;
use serde_json::{json, Map, Value as Json};
use std::path::{Path, PathBuf};

/// The `"expected"` object of a corpus case from a reference result.
pub fn expected_of(r: &RunResult) -> Json {
    let mut bufs = Map::new();
    for b in &r.buffers {
        let mut o = Map::new();
        o.insert("dtype".into(), json!(b.dtype.json_name()));
        o.insert("len".into(), json!(b.bits.len()));
        o.insert(
            "bits".into(),
            json!(b
                .bits
                .iter()
                .map(|&x| ksem_interp::launch::hex_bits(b.dtype, x))
                .collect::<Vec<_>>()),
        );
        if b.inexact.iter().any(|&x| x) {
            o.insert("exact".into(), json!(false));
            o.insert("ulp".into(), json!(ksem_interp::compare::INEXACT_ULP_BOUND));
        }
        bufs.insert(b.name.clone(), Json::Object(o));
    }
    json!({"buffers": bufs, "ub": []})
}

/// Writes `NAME.py`, `NAME.json` (launch + expected + provenance + the command
/// that reproduces it) and `NAME.results.json` (both backends' results).
pub fn write_case(
    dir: &Path,
    name: &str,
    source: &str,
    launch: &Json,
    reference: &RunResult,
    other: &RunResult,
    provenance: String,
) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let py = dir.join(format!("{name}.py"));
    let js = dir.join(format!("{name}.json"));
    std::fs::write(&py, source)?;
    let mut case = launch.clone();
    let obj = case.as_object_mut().expect("launch is an object");
    obj.insert("expected".into(), expected_of(reference));
    obj.insert("provenance".into(), json!(provenance));
    obj.insert(
        "reproduce".into(),
        json!(format!(
            "ksem diff {name}.py --launch {name}.json --backends {},{}",
            reference.backend, other.backend
        )),
    );
    std::fs::write(&js, serde_json::to_string_pretty(&case).expect("json"))?;
    let both = json!({"a": reference.to_json(), "b": other.to_json()});
    std::fs::write(
        dir.join(format!("{name}.results.json")),
        serde_json::to_string(&both).expect("json"),
    )?;
    Ok(py)
}

/// Saves mismatch `index` of a campaign (reduced first when asked).
pub fn save_case(
    dir: &Path,
    o: &Options,
    index: u64,
    p: &Program,
    a: &RunResult,
    b: &RunResult,
) -> std::io::Result<PathBuf> {
    let name = format!("fuzz_{}_{index}", o.seed);
    let (source, launch, a, b, how) = if o.reduce {
        match crate::reduce::reduce(&p.source, &p.launch, o.backends) {
            Some(r) => (
                r.source,
                r.launch,
                r.a,
                r.b,
                format!(", reduced in {} steps", r.steps),
            ),
            None => (
                p.source.clone(),
                p.launch.clone(),
                a.clone(),
                b.clone(),
                String::new(),
            ),
        }
    } else {
        (
            p.source.clone(),
            p.launch.clone(),
            a.clone(),
            b.clone(),
            String::new(),
        )
    };
    let provenance = format!(
        "fuzz: `ksem fuzz --seed {}` program {index}{how}; expected = {} (the reference), {} disagreed",
        o.seed, a.backend, b.backend
    );
    write_case(dir, &name, &source, &launch, &a, &b, provenance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ksem_interp::launch::parse_launch;

    /// A saved finding replays: its JSON (launch, expected, provenance and
    /// the reproducing command) is a launch spec `ksem diff` reads.
    #[test]
    fn a_saved_case_is_a_launch_spec() {
        let dir = std::env::temp_dir().join(format!("ksem-save-{}", std::process::id()));
        let launch = json!({"kernel": "k", "grid": [1], "args": {"o": {"buffer": {"dtype": "int32", "len": 1}}}});
        let r = |backend: &str| RunResult {
            kernel: "k".into(),
            backend: backend.into(),
            buffers: vec![ksem_interp::launch::BufferResult {
                name: "o".into(),
                dtype: ksem_interp::dtype::DType::I32,
                bits: vec![1],
                inexact: vec![false],
                undefined: Vec::new(),
            }],
            ub: vec![],
        };
        write_case(
            &dir,
            "case",
            "src",
            &launch,
            &r("interp"),
            &r("triton"),
            "p".into(),
        )
        .expect("written");
        let text = std::fs::read_to_string(dir.join("case.json")).expect("read");
        assert!(text.contains("\"reproduce\""));
        let l = parse_launch(&text).expect("a saved case parses as a launch spec");
        assert_eq!(l.kernel.as_deref(), Some("k"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
