//! The Python tools beside ksem check themselves: `--selftest` of
//! `tools/triton_run.py` (bit encodings, and the survey mode's stubs and
//! blanked host decorators) and `tools/numba_run.py` (bit encodings). Both
//! need only the standard library; without `python3` the test says SKIPPED.

use std::path::Path;
use std::process::Command;

fn selftest(tool: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let Ok(out) = Command::new("python3")
        .arg(root.join("tools").join(tool))
        .arg("--selftest")
        .output()
    else {
        eprintln!("SKIPPED: no python3 to run {tool} --selftest");
        return;
    };
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{tool} --selftest failed:\n{text}");
    assert!(text.contains("selftest: all checks passed"), "{text}");
}

#[test]
fn triton_run_selftest() {
    selftest("triton_run.py");
}

#[test]
fn numba_run_selftest() {
    selftest("numba_run.py");
}
