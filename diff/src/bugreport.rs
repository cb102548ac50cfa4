//! A `docs/bugs/`-style folder for a finding against a real system
//! (`ksem triage DIR --bug-report OUT`): the program, a standalone script
//! that runs it on the real system alone (no ksem) with the finding's
//! inputs and compares with the expected bits, and a README with what is
//! known (bucket, signature, expected and measured bits, the command that
//! reproduces it under ksem).
//!
//! The folder is a draft: the expected bits in it are ksem's, and
//! `docs/bugs/README.md` asks for bits derived independently (plain Python
//! in the script, the reasoning in the README) and for the script's output
//! on the real system, which the README lists as what remains to be done.
//! Scripts are written for Triton; for the other systems the folder holds
//! the program and launch to write one from.

use crate::triage::{Bucket, Finding};
use ksem_interp::launch::{hex_bits, RunResult};
use serde_json::{json, Value as Json};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Whether a finding is one to report upstream: against a real system and
/// not a documented divergence.
pub fn reportable(f: &Finding) -> bool {
    let real = crate::backend::Backend::parse(&f.backends.1)
        .ok()
        .and_then(crate::backend::Backend::peer)
        .is_some();
    real && !matches!(f.bucket, Bucket::Divergence(_))
}

/// The buffers on which `a` and `b` differ, with the differing indices.
fn differing(a: &RunResult, b: &RunResult) -> Vec<(String, Vec<usize>)> {
    a.buffers
        .iter()
        .filter_map(|ba| {
            let bb = b.buffers.iter().find(|x| x.name == ba.name)?;
            let idx: Vec<usize> = (0..ba.bits.len().min(bb.bits.len()))
                .filter(|&i| ba.bits[i] != bb.bits[i])
                .collect();
            (!idx.is_empty()).then(|| (ba.name.clone(), idx))
        })
        .collect()
}

/// The expected bits of the differing buffers, as the script's JSON.
fn expected_json(a: &RunResult, diff: &[(String, Vec<usize>)]) -> Json {
    let mut o = serde_json::Map::new();
    for (name, _) in diff {
        if let Some(b) = a.buffers.iter().find(|x| &x.name == name) {
            let bits: Vec<String> = b.bits.iter().map(|&x| hex_bits(b.dtype, x)).collect();
            o.insert(
                name.clone(),
                json!({"dtype": b.dtype.json_name(), "bits": bits}),
            );
        }
    }
    Json::Object(o)
}

/// The launch with every buffer given by its initial bits (whatever form
/// the finding's launch used), scalars and constexprs as written.
fn launch_json(raw: &Json, l: &ksem_interp::launch::Launch) -> Json {
    let mut args = serde_json::Map::new();
    for (name, spec) in &l.args {
        let v = match spec {
            ksem_interp::launch::ArgSpec::Buffer { dtype, bits, .. } => {
                let bits: Vec<String> = bits.iter().map(|&x| hex_bits(*dtype, x)).collect();
                json!({"buffer": {"dtype": dtype.json_name(), "bits": bits}})
            }
            _ => raw["args"][name].clone(),
        };
        args.insert(name.clone(), v);
    }
    json!({"kernel": raw.get("kernel"), "grid": raw["grid"], "args": args})
}

/// A writer of a real system's standalone script for a finding: from the
/// finding's name, the program's source, its kernel, the launch with every
/// buffer's initial bits and ksem's expected bits of the differing buffers.
pub type ScriptWriter = fn(&str, &str, &str, &Json, &Json) -> String;

/// The standalone Triton script: the kernel's module, the inputs, ksem's
/// expected bits, and a launch that compares.
pub fn triton_script(
    name: &str,
    source: &str,
    kernel: &str,
    launch: &Json,
    expected: &Json,
) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#""""Finding {name} against Triton, written by `ksem triage --bug-report` (a draft).

Runs the kernel below on real Triton (no ksem) with the finding's inputs and
compares the buffers that differed with EXPECTED. EXPECTED holds ksem's
bits: before filing, compute them independently here (plain Python) and
explain them in README.md. Launched with enable_fp_fusion=False, as ksem's
campaigns run Triton (contraction is docs/divergences.md #3).

Run: python3 repro.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import json

import torch

# ---- the finding's program, verbatim ----
{source}
# ---- the launch ----
LAUNCH = json.loads(r'''{launch}''')
EXPECTED = json.loads(r'''{expected}''')
KERNEL = {kernel}

WIDTH = {{"bool": 8, "int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "float16": 16,
         "bfloat16": 16, "int32": 32, "uint32": 32, "float32": 32, "int64": 64, "uint64": 64,
         "float64": 64, "float8e4nv": 8, "float8e5": 8}}
SIGNED = {{8: torch.int8, 16: torch.int16, 32: torch.int32, 64: torch.int64}}
VIEW = {{"uint8": torch.uint8, "uint16": torch.uint16, "uint32": torch.uint32, "uint64": torch.uint64,
        "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
        "float64": torch.float64, "float8e4nv": torch.float8_e4m3fn, "float8e5": torch.float8_e5m2}}


def make(dtype, bits, dev):
    """A tensor holding exactly these bit patterns."""
    vals = [int(b, 16) for b in bits]
    if dtype == "bool":
        return torch.tensor([v != 0 for v in vals], dtype=torch.bool, device=dev)
    w = WIDTH[dtype]
    signed = [v - (1 << w) if v >> (w - 1) else v for v in vals]
    t = torch.tensor(signed, dtype=SIGNED[w], device=dev)
    return t.view(VIEW[dtype]) if dtype in VIEW else t


def bits_of(dtype, t):
    if dtype == "bool":
        return [int(v) for v in t.to(torch.uint8).cpu().tolist()]
    w = WIDTH[dtype]
    return [v & ((1 << w) - 1) for v in t.view(SIGNED[w]).cpu().tolist()]


def main():
    import triton
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    gpu = torch.cuda.get_device_name() if dev == "cuda" else "cpu (TRITON_INTERPRET=1)"
    print(f"triton {{triton.__version__}}, torch {{torch.__version__}}, CUDA {{torch.version.cuda}}, GPU {{gpu}}")
    args = {{}}
    for name, spec in LAUNCH["args"].items():
        (kind, v), = spec.items()
        if kind == "buffer":
            args[name] = make(v["dtype"], v["bits"], dev)
        elif kind == "scalar":
            args[name] = v["value"]
        else:
            args[name] = v
    KERNEL[tuple(LAUNCH["grid"])](**args, enable_fp_fusion=False)
    wrong = 0
    for name, want in EXPECTED.items():
        got = bits_of(want["dtype"], args[name])
        exp = [int(b, 16) for b in want["bits"]]
        bad = [i for i in range(len(exp)) if got[i] != exp[i]]
        wrong += len(bad)
        print(f"{{name}} ({{want['dtype']}}): {{len(bad)}} of {{len(exp)}} elements differ")
        for i in bad[:16]:
            print(f"  [{{i}}] expected 0x{{exp[i]:x}} got 0x{{got[i]:x}}")
    print("BUG REPRODUCED" if wrong else "NOT REPRODUCED")


if __name__ == "__main__":
    main()
"#,
        launch = serde_json::to_string(launch).expect("json"),
        expected = serde_json::to_string(expected).expect("json"),
    );
    s
}

/// The README of the folder.
fn readme(
    f: &Finding,
    source: &str,
    a: &RunResult,
    b: &RunResult,
    diff: &[(String, Vec<usize>)],
    script: bool,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# {} finding {} (draft)\n\n**Status: draft**, written by `ksem triage --bug-report` from the finding's\nsaved results. Bucket: {}; kind of difference: {}; signature {}.\n",
        f.backends.1,
        f.name,
        f.bucket.name(),
        f.kind.name(),
        f.signature
    );
    let _ = writeln!(s, "## Program\n\n```python\n{}```\n", source);
    let _ = writeln!(s, "## Expected (ksem) and actual ({})\n", b.backend);
    for (name, idx) in diff {
        let (Some(ba), Some(bb)) = (
            a.buffers.iter().find(|x| &x.name == name),
            b.buffers.iter().find(|x| &x.name == name),
        ) else {
            continue;
        };
        let _ = writeln!(
            s,
            "`{name}` ({}): {} elements differ\n\n```",
            ba.dtype.json_name(),
            idx.len()
        );
        for &i in idx.iter().take(16) {
            let _ = writeln!(
                s,
                "[{i}] expected {} {}  actual {} {}",
                ksem_interp::eval::format_value(ba.dtype, ba.bits[i]),
                hex_bits(ba.dtype, ba.bits[i]),
                ksem_interp::eval::format_value(bb.dtype, bb.bits[i]),
                hex_bits(bb.dtype, bb.bits[i])
            );
        }
        let _ = writeln!(s, "```\n");
    }
    let _ = writeln!(
        s,
        "Under ksem: `ksem diff {name}.py --launch {name}.json --backends {},{}`.\n",
        f.backends.0,
        f.backends.1,
        name = f.name
    );
    let _ = writeln!(s, "## To do before filing\n");
    if script {
        let _ = writeln!(
            s,
            "- run `python3 repro.py` on the real system and keep its output as `output.txt`;"
        );
    } else {
        let _ = writeln!(
            s,
            "- write `repro.py` for {} from `{}.py` and `{}.json`, and run it;",
            f.backends.1, f.name, f.name
        );
    }
    let _ = writeln!(
        s,
        "- replace the expected bits (ksem's) by ones computed independently, with the reasoning here;\n- reduce it (`ksem reduce`) if it is not yet, and decide whose bug it is (ptxas at -O0: `DISABLE_PTXAS_OPT=1`);\n- add a row to `docs/divergences.md` and a line to `docs/bugs/README.md`; search upstream's issues."
    );
    s
}

/// Writes the folder for finding `f` of directory `dir` under `out`
/// (`out/<system>-<name>/`); its path.
pub fn write(dir: &Path, f: &Finding, out: &Path) -> Result<PathBuf, String> {
    let saved = crate::triage::read_finding(dir, &f.name)?;
    let file = |ext: &str| {
        let p = dir.join(format!("{}{ext}", f.name));
        std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))
    };
    let source = file(".py")?;
    let raw: Json =
        serde_json::from_str(&file(".json")?).map_err(|e| format!("{}.json: {e}", f.name))?;
    let folder = out.join(format!("{}-{}", f.backends.1, f.name));
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let diff = differing(&saved.a, &saved.b);
    let writer = crate::backend::Backend::parse(&f.backends.1)
        .ok()
        .and_then(crate::backend::Backend::peer)
        .and_then(|p| p.bug_script);
    let script = writer.is_some();
    if let Some(writer) = writer {
        let text = writer(
            &f.name,
            &source,
            &saved.kernel.name,
            &launch_json(&raw, &saved.launch),
            &expected_json(&saved.a, &diff),
        );
        std::fs::write(folder.join("repro.py"), text).map_err(|e| e.to_string())?;
    }
    let put = |n: &str, t: &str| std::fs::write(folder.join(n), t).map_err(|e| e.to_string());
    put(&format!("{}.py", f.name), &source)?;
    put(
        &format!("{}.json", f.name),
        &serde_json::to_string_pretty(&raw).expect("json"),
    )?;
    put(
        "README.md",
        &readme(f, &source, &saved.a, &saved.b, &diff, script),
    )?;
    Ok(folder)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finding against Triton becomes a folder: the program, its launch,
    /// a standalone script (valid Python that needs no ksem, with the
    /// inputs as bits and the expected bits of the differing buffer) and a
    /// README that shows the differing element and what is left to do.
    #[test]
    fn a_triton_finding_becomes_a_bugs_folder() {
        let root = std::env::temp_dir().join(format!("ksem-bugreport-{}", std::process::id()));
        let dir = root.join("found");
        let src = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x_ptr, o_ptr, n):\n    offs = tl.arange(0, 4)\n    x = tl.load(x_ptr + offs)\n    tl.store(o_ptr + offs, x * n)\n";
        let launch = json!({"kernel": "k", "grid": [1], "args": {
            "x_ptr": {"buffer": {"dtype": "int16", "data": [1, -2, 3, -4]}},
            "o_ptr": {"buffer": {"dtype": "int32", "len": 4}},
            "n": {"scalar": {"dtype": "int32", "value": 3}}}});
        let l = ksem_interp::launch::parse_launch(&launch.to_string()).unwrap();
        let k = ksem_interp::elaborate_source("k.py", src, &l, None).unwrap();
        let a = ksem_interp::eval::run(&k, &l, &Default::default()).unwrap();
        let mut b = a.clone();
        b.backend = "triton".into();
        b.buffers[1].bits[2] = 10; // 3 * 3 = 9 expected
        crate::fuzz::save::write_case(&dir, "fuzz_1_2", src, &launch, &a, &b, "test".into())
            .unwrap();
        let f = crate::triage::triage_finding(&dir, "fuzz_1_2", false).unwrap();
        assert!(reportable(&f), "{:?}", f.bucket);
        let folder = write(&dir, &f, &root.join("bugs")).unwrap();
        assert!(folder.ends_with("triton-fuzz_1_2"));
        let script = std::fs::read_to_string(folder.join("repro.py")).unwrap();
        assert!(script.contains(src), "the program verbatim");
        assert!(!script.contains("ksem_interp") && !script.contains("import ksem"));
        assert!(
            script.contains(r#""x_ptr":{"buffer":{"bits":["0x0001","0xfffe","0x0003","0xfffc"]"#),
            "{script}"
        );
        assert!(
            script.contains(
                r#""o_ptr":{"bits":["0x00000003","0xfffffffa","0x00000009","0xfffffff4"]"#
            ),
            "{script}"
        );
        assert!(script.contains("KERNEL = k\n"));
        let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
        assert!(
            readme.contains("[2] expected 9 0x00000009  actual 10 0x0000000a"),
            "{readme}"
        );
        assert!(readme.contains("To do before filing"));
        assert!(folder.join("fuzz_1_2.py").exists() && folder.join("fuzz_1_2.json").exists());
        // valid Python, where a python3 is at hand
        if let Ok(out) = std::process::Command::new("python3")
            .arg("-c")
            .arg("import ast, sys; ast.parse(open(sys.argv[1]).read())")
            .arg(folder.join("repro.py"))
            .output()
        {
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let _ = std::fs::remove_dir_all(&root);
    }
}
