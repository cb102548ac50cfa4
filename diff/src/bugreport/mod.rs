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
//! A script is written for every real system (Triton, numba-cuda, TileLang,
//! Hidet: `script.rs`); where the launch has arguments a script cannot pass,
//! the folder holds the program and launch to write one from.

use crate::triage::{Bucket, Finding};
use ksem_interp::launch::{hex_bits, RunResult};
use serde_json::{json, Value as Json};
use std::fmt::Write;
use std::path::{Path, PathBuf};

pub mod script;

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

/// The launch with every buffer given by its initial bits and shape
/// (whatever form the finding's launch used) and every scalar by its bits
/// beside its value as written; constexprs, the grid, the block and
/// factory arguments as written. `Err`: an argument a script cannot pass
/// (complex, record, text, datetime buffers, views).
fn launch_json(raw: &Json, l: &ksem_interp::launch::Launch) -> Result<Json, String> {
    use ksem_interp::launch::ArgSpec;
    let mut args = serde_json::Map::new();
    for (name, spec) in &l.args {
        let v = match spec {
            ArgSpec::Buffer { complex: true, .. }
            | ArgSpec::Buffer {
                record: Some(_), ..
            }
            | ArgSpec::Buffer { text: Some(_), .. }
            | ArgSpec::Buffer { time: Some(_), .. }
            | ArgSpec::Buffer { view: Some(_), .. } => {
                return Err(format!(
                    "`{name}` is a complex, record, text, datetime or view argument"
                ))
            }
            ArgSpec::Buffer {
                dtype, bits, shape, ..
            } => {
                let bits: Vec<String> = bits.iter().map(|&x| hex_bits(*dtype, x)).collect();
                let mut b = json!({"dtype": dtype.json_name(), "bits": bits});
                if let Some(shape) = shape {
                    b["shape"] = json!(shape);
                }
                json!({ "buffer": b })
            }
            ArgSpec::Scalar { dtype, bits } => {
                let written = &raw["args"][name];
                let value = written.pointer("/scalar/value").unwrap_or(written);
                json!({"scalar": {"dtype": dtype.json_name(), "value": value,
                                  "bits": hex_bits(*dtype, *bits)}})
            }
            ArgSpec::Constexpr(_) => raw["args"][name].clone(),
        };
        args.insert(name.clone(), v);
    }
    let mut out = json!({"kernel": raw.get("kernel"), "grid": raw["grid"], "args": args});
    for key in ["block", "factory_args"] {
        if let Some(v) = raw.get(key) {
            out[key] = v.clone();
        }
    }
    Ok(out)
}

/// The README of the folder.
fn readme(
    f: &Finding,
    source: &str,
    a: &RunResult,
    b: &RunResult,
    diff: &[(String, Vec<usize>)],
    no_script: Option<String>,
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
    if no_script.is_none() {
        let _ = writeln!(
            s,
            "- run `python3 repro.py` on the real system and keep its output as `output.txt`;"
        );
    } else {
        let _ = writeln!(
            s,
            "- write `repro.py` for {} from `{}.py` and `{}.json` (none was written: {}), and run it;",
            f.backends.1,
            f.name,
            f.name,
            no_script.unwrap_or_default()
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
    let peer = crate::backend::Backend::parse(&f.backends.1)
        .ok()
        .and_then(crate::backend::Backend::peer);
    let script = match peer {
        None => Err(format!("{} is not a real system", f.backends.1)),
        Some(peer) => launch_json(&raw, &saved.launch).map(|launch| {
            script::script(
                peer.bug_script,
                &script::Fill {
                    name: &f.name,
                    source: &source,
                    kernel: &saved.kernel.name,
                    launch: &launch,
                    expected: &expected_json(&saved.a, &diff),
                },
            )
        }),
    };
    if let Ok(text) = &script {
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
        &readme(f, &source, &saved.a, &saved.b, &diff, script.err()),
    )?;
    Ok(folder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// A finding of `program` (launch `launch`) against `system`: ksem's
    /// run, and the system's made to differ in element `elem` of buffer
    /// `buf` (`bits` instead). Written as `fuzz --out` writes it, triaged,
    /// and turned into a folder; (the folder, the scratch root).
    fn folder_of(
        system: &str,
        program: &str,
        launch: Json,
        (buf, elem, bits): (usize, usize, u64),
    ) -> (PathBuf, PathBuf) {
        let root =
            std::env::temp_dir().join(format!("ksem-bugreport-{system}-{}", std::process::id()));
        let dir = root.join("found");
        let l = ksem_interp::launch::parse_launch(&launch.to_string()).unwrap();
        let k = ksem_interp::elaborate_source("k.py", program, &l, None)
            .unwrap_or_else(|e| panic!("{}", e.render()));
        let a = ksem_interp::eval::run(&k, &l, &Default::default()).unwrap();
        let mut b = a.clone();
        b.backend = system.into();
        b.buffers[buf].bits[elem] = bits;
        crate::fuzz::save::write_case(&dir, "fuzz_1_2", program, &launch, &a, &b, "test".into())
            .unwrap();
        let f = crate::triage::triage_finding(&dir, "fuzz_1_2", false).unwrap();
        assert!(reportable(&f), "{:?}", f.bucket);
        let folder = write(&dir, &f, &root.join("bugs")).unwrap();
        assert!(folder.ends_with(format!("{system}-fuzz_1_2")));
        assert!(folder.join("fuzz_1_2.py").exists() && folder.join("fuzz_1_2.json").exists());
        (folder, root)
    }

    /// What every system's script must be: the program verbatim, no ksem,
    /// the inputs and the differing buffer's expected bits, valid Python
    /// (where a python3 is at hand).
    fn check_script(folder: &Path, program: &str, inputs: &str, expected: &str) -> String {
        let script = std::fs::read_to_string(folder.join("repro.py")).unwrap();
        assert!(script.contains(program), "the program verbatim:\n{script}");
        assert!(!script.contains("ksem_interp") && !script.contains("import ksem"));
        assert!(!script.contains("__PROGRAM__") && !script.contains("__COMMON__"));
        assert!(script.contains(inputs), "{inputs} in\n{script}");
        assert!(script.contains(expected), "{expected} in\n{script}");
        if let Ok(out) = Command::new("python3")
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
        let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
        assert!(readme.contains("run `python3 repro.py` on the real system"));
        script
    }

    /// Runs the folder's script on the real system where its Python has it
    /// (the peer's Python: `$KSEM_<SYSTEM>_PYTHON`, `$PYTHON`, `python3`;
    /// Triton's interpreter and numba's simulator stand in for a GPU): the
    /// system computes what ksem does, so NOT REPRODUCED; then with one
    /// expected element changed to `wrong`, BUG REPRODUCED naming that
    /// element. Says SKIPPED where the system is not installed.
    fn run_on_system(backend: &str, module: &str, folder: &Path, right: &str, wrong: &str) {
        let python = crate::backend::Backend::parse(backend)
            .unwrap()
            .peer()
            .unwrap()
            .python();
        let has = Command::new(&python)
            .args(["-c", &format!("import {module}")])
            .env("NUMBA_ENABLE_CUDASIM", "1")
            .output()
            .is_ok_and(|o| o.status.success());
        if !has {
            eprintln!("SKIPPED: {python} has no {module}; the script was not run");
            return;
        }
        let run = || {
            let out = Command::new(&python)
                .arg(folder.join("repro.py"))
                .env("TRITON_INTERPRET", "1")
                .env("NUMBA_ENABLE_CUDASIM", "1")
                .output()
                .unwrap();
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(out.status.success(), "{text}");
            text
        };
        let agree = run();
        assert!(agree.contains("NOT REPRODUCED"), "{agree}");
        let script = std::fs::read_to_string(folder.join("repro.py")).unwrap();
        let changed = script.replacen(right, wrong, 1);
        assert_ne!(changed, script, "{right} in the script");
        std::fs::write(folder.join("repro.py"), changed).unwrap();
        let differ = run();
        assert!(differ.contains("BUG REPRODUCED"), "{differ}");
        assert!(differ.contains("1 of 4 elements differ"), "{differ}");
        eprintln!("ran the {backend} script on {python}: NOT REPRODUCED, then BUG REPRODUCED");
    }

    /// One system's finding: its program and launch, in which element 2 of
    /// the second buffer differs (10 instead of `right`), and what the
    /// script must hold.
    struct Case<'a> {
        system: &'a str,
        /// The module whose import says the system is installed.
        module: &'a str,
        program: &'a str,
        launch: Json,
        /// The first buffer's argument, as the script's launch holds it.
        inputs: &'a str,
        /// The second buffer's expected bits, as the script holds them.
        expected: &'a str,
        /// How the script names the kernel.
        kernel_line: &'a str,
        /// Element 2's expected bits, as the script holds them.
        right: &'a str,
    }

    /// Writes `c`'s folder, checks its script (and `more` of the folder and
    /// script), then runs it on the system where installed.
    fn check_case(c: Case, more: impl Fn(&Path, &str)) {
        let (folder, root) = folder_of(c.system, c.program, c.launch, (1, 2, 10));
        let script = check_script(&folder, c.program, c.inputs, c.expected);
        assert!(script.contains(c.kernel_line), "{script}");
        more(&folder, &script);
        run_on_system(c.system, c.module, &folder, c.right, "\"0x00000008\"");
        let _ = std::fs::remove_dir_all(&root);
    }

    /// A finding against Triton becomes a folder: the program, its launch,
    /// a standalone script (valid Python that needs no ksem, with the
    /// inputs as bits and the expected bits of the differing buffer) and a
    /// README that shows the differing element and what is left to do.
    #[test]
    fn a_triton_finding_becomes_a_bugs_folder() {
        check_case(
            Case {
                system: "triton",
                module: "triton",
                program: "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x_ptr, o_ptr, n):\n    offs = tl.arange(0, 4)\n    x = tl.load(x_ptr + offs)\n    tl.store(o_ptr + offs, x * n)\n",
                launch: json!({"kernel": "k", "grid": [1], "args": {
                    "x_ptr": {"buffer": {"dtype": "int16", "data": [1, -2, 3, -4]}},
                    "o_ptr": {"buffer": {"dtype": "int32", "len": 4}},
                    "n": {"scalar": {"dtype": "int32", "value": 3}}}}),
                inputs: r#""x_ptr":{"buffer":{"bits":["0x0001","0xfffe","0x0003","0xfffc"]"#,
                // 3 * 3 = 9 expected; the system says 10
                expected: r#""o_ptr":{"bits":["0x00000003","0xfffffffa","0x00000009","0xfffffff4"]"#,
                kernel_line: "KERNEL = k\n",
                right: "\"0x00000009\"",
            },
            |folder, script| {
                let scalar = r#""n":{"scalar":{"bits":"0x00000003","dtype":"int32","value":3}}"#;
                assert!(script.contains(scalar));
                let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
                assert!(
                    readme.contains("[2] expected 9 0x00000009  actual 10 0x0000000a"),
                    "{readme}"
                );
                assert!(readme.contains("To do before filing"));
            },
        );
    }

    /// numba-cuda: the kernel is launched with the launch's grid and block,
    /// arrays keep their shape, scalars are NumPy scalars of their dtype.
    #[test]
    fn a_numba_finding_gets_a_numba_script() {
        check_case(
            Case {
                system: "numba",
                module: "numba.cuda",
                program: "from numba import cuda\n\n\n@cuda.jit\ndef k(x, o, n):\n    i, j = cuda.grid(2)\n    o[i, j] = x[i, j] * n - j\n",
                launch: json!({"kernel": "k", "grid": [1, 1], "block": [2, 2], "args": {
                    "x": {"buffer": {"dtype": "int16", "data": [1, -2, 3, -4], "shape": [2, 2]}},
                    "o": {"buffer": {"dtype": "int32", "len": 4, "shape": [2, 2]}},
                    "n": {"scalar": {"dtype": "int32", "value": 3}}}}),
                inputs: r#""x":{"buffer":{"bits":["0x0001","0xfffe","0x0003","0xfffc"],"dtype":"int16","shape":[2,2]}}"#,
                // o = x * 3 - j: [3, -7, 9, -13]
                expected: r#""o":{"bits":["0x00000003","0xfffffff9","0x00000009","0xfffffff3"]"#,
                kernel_line: "KERNEL_NAME = \"k\"\n",
                right: "\"0x00000009\"",
            },
            |_, script| assert!(script.contains(r#""block":[2,2]"#)),
        );
    }

    /// TileLang: the prim_func's buffers are reshaped to their declared
    /// shapes, the kernel compiled for the C target as campaigns run it.
    #[test]
    fn a_tilelang_finding_gets_a_tilelang_script() {
        check_case(
            Case {
                system: "tilelang",
                module: "tilelang",
                program: "import tilelang\nimport tilelang.language as T\n\n\n@T.prim_func\ndef main(X: T.Tensor((2, 2), \"int16\"), O: T.Tensor((2, 2), \"int32\")):\n    with T.Kernel(1, threads=1) as bx:\n        for i, j in T.grid(2, 2):\n            O[i, j] = T.Cast(\"int32\", X[i, j]) * 3 - j\n",
                launch: json!({"args": {
                    "X": {"buffer": {"dtype": "int16", "data": [1, -2, 3, -4]}},
                    "O": {"buffer": {"dtype": "int32", "len": 4}}}}),
                inputs: r#""X":{"buffer":{"bits":["0x0001","0xfffe","0x0003","0xfffc"],"dtype":"int16"}}"#,
                // O = X * 3 - j: [3, -7, 9, -13]
                expected: r#""O":{"bits":["0x00000003","0xfffffff9","0x00000009","0xfffffff3"]"#,
                kernel_line: "KERNEL_NAME = \"main\"\n",
                right: "\"0x00000009\"",
            },
            |_, _| {},
        );
    }

    /// Hidet: a cpu_kernel called with pointers to the buffers' bits and its
    /// scalars as numbers.
    #[test]
    fn a_hidet_finding_gets_a_hidet_script() {
        check_case(
            Case {
                system: "hidet",
                module: "hidet",
                program: "import hidet\nfrom hidet.lang import attrs\nfrom hidet.lang.types import i16, i32\n\nwith hidet.script_module() as script_module:\n    @hidet.script\n    def k(x: i16[4], o: i32[4], n: i32):\n        attrs.func_kind = 'cpu_kernel'\n        for i in range(4):\n            o[i] = i32(x[i]) * n - i\n\nmodule = script_module.build()\n",
                launch: json!({"args": {
                    "x": {"buffer": {"dtype": "int16", "data": [1, -2, 3, -4]}},
                    "o": {"buffer": {"dtype": "int32", "len": 4}},
                    "n": {"scalar": {"dtype": "int32", "value": 3}}}}),
                inputs: r#""x":{"buffer":{"bits":["0x0001","0xfffe","0x0003","0xfffc"],"dtype":"int16"}}"#,
                // o = x * 3 - i: [3, -7, 7, -15]
                expected: r#""o":{"bits":["0x00000003","0xfffffff9","0x00000007","0xfffffff1"]"#,
                kernel_line: "KERNEL_NAME = \"k\"\n",
                right: "\"0x00000007\"",
            },
            |_, _| {},
        );
    }
}
