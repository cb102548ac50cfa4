//! The `ksem` command line: exit codes, output formats, error locations.

use std::path::PathBuf;
use std::process::Command;

fn ksem() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ksem"))
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Writes a program and launch into a fresh temp dir; returns their paths.
fn case(name: &str, src: &str, launch: &str) -> (String, String) {
    let dir = std::env::temp_dir().join(format!("ksem-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (p, l) = (
        dir.join(format!("{name}.py")),
        dir.join(format!("{name}.json")),
    );
    std::fs::write(&p, src).unwrap();
    std::fs::write(&l, launch).unwrap();
    (p.display().to_string(), l.display().to_string())
}

#[test]
fn run_prints_result_json_with_full_width_bits() {
    let c = repo().join("corpus/triton/promo_i32_bf16");
    let out = ksem()
        .args([
            "run",
            &format!("{}.py", c.display()),
            "--launch",
            &format!("{}.json", c.display()),
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["backend"], "interp");
    assert_eq!(j["ub"], serde_json::json!([]));
    let bufs = j["buffers"].as_object().unwrap();
    assert!(!bufs.is_empty());
    for (_, b) in bufs {
        let digits = match b["dtype"].as_str().unwrap() {
            "bfloat16" | "float16" | "int16" | "uint16" => 4,
            "float32" | "int32" | "uint32" => 8,
            "float64" | "int64" | "uint64" => 16,
            _ => 2,
        };
        for bits in b["bits"].as_array().unwrap() {
            let s = bits.as_str().unwrap();
            assert!(s.starts_with("0x") && s.len() == 2 + digits, "{s}");
        }
    }
}

const DIV: &str = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(a_ptr, b_ptr, o_ptr):\n    offs = tl.arange(0, 4)\n    a = tl.load(a_ptr + offs)\n    b = tl.load(b_ptr + offs)\n    tl.store(o_ptr + offs, a // b)\n";

#[test]
fn ub_exits_1_and_names_kind_line_program_and_element() {
    let (p, l) = case(
        "ub",
        DIV,
        r#"{"grid": [2], "args": {"a_ptr": {"buffer": {"dtype": "int32", "data": [1, 2, 3, 4]}}, "b_ptr": {"buffer": {"dtype": "int32", "data": [1, 1, 0, 1]}}, "o_ptr": {"buffer": {"dtype": "int32", "len": 4}}}}"#,
    );
    let out = ksem()
        .args(["run", &p, "--launch", &l, "--json"])
        .output()
        .unwrap();
    // both programs race on o_ptr too, but each stops at the division first
    assert_eq!(out.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ub = &j["ub"][0];
    assert_eq!(ub["kind"], "division-by-zero");
    // `    tl.store(o_ptr + offs, a // b)`: 4 spaces, "tl.store(" (cols 5-13),
    // "o_ptr + offs, " (cols 14-27): the division starts at column 28.
    assert_eq!(
        (ub["line"].as_u64(), ub["col"].as_u64()),
        (Some(9), Some(28))
    );
    assert_eq!(ub["program"], serde_json::json!([0, 0, 0]));
    assert_eq!(ub["element"], serde_json::json!([2]));
    assert_eq!(j["ub"][1]["program"], serde_json::json!([1, 0, 0]));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(":9:28: undefined behaviour: division-by-zero"),
        "{err}"
    );
}

#[test]
fn bad_input_exits_2_with_file_line_col() {
    let (p, l) = case(
        "bad",
        "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(o_ptr):\n    x = tl.arange(0, 4).to(tl.float32)\n    tl.store(o_ptr + tl.arange(0, 4), x & 1)\n",
        r#"{"grid": [1], "args": {"o_ptr": {"buffer": {"dtype": "float32", "len": 4}}}}"#,
    );
    let out = ksem().args(["run", &p, "--launch", &l]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "{p}:7:39: error: invalid operands of type fp32 and int32"
        )),
        "{err}"
    );
    assert!(
        err.contains("    tl.store(o_ptr + tl.arange(0, 4), x & 1)"),
        "{err}"
    );
    assert!(err.contains("help: reinterpret the bits first"), "{err}");
    // malformed launch JSON
    let (_, l2) = case("badjson", "", "{\"grid\": [0]}");
    let out = ksem().args(["run", &p, "--launch", &l2]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("grid[0] is 0"));
}

#[test]
fn check_prints_every_expression_type_at_its_line() {
    let (p, l) = case(
        "check",
        DIV,
        r#"{"grid": [1], "args": {"a_ptr": {"buffer": {"dtype": "int8", "len": 4}}, "b_ptr": {"buffer": {"dtype": "int16", "len": 4}}, "o_ptr": {"buffer": {"dtype": "int32", "len": 4}}}}"#,
    );
    let out = ksem().args(["check", &p, "--launch", &l]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("kernel k(a_ptr: *int8, b_ptr: *int16, o_ptr: *int32)"),
        "{text}"
    );
    // int8 // int16 promotes to int16 and divides with C truncation
    assert!(
        text.contains("div_trunc(convert[NearestEven,Infinity](a."),
        "{text}"
    );
    assert!(text.contains(":int16[4]"), "{text}");
    let store_line = text.lines().find(|l| l.contains("store(")).unwrap();
    assert!(store_line.trim_start().starts_with("9:5"), "{store_line}");
}

#[test]
fn device_print_goes_to_stderr_in_program_order() {
    let (p, l) = case(
        "print",
        "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(o_ptr):\n    pid = tl.program_id(0)\n    tl.device_print(\"pid is\", pid)\n",
        r#"{"grid": [3], "args": {"o_ptr": {"buffer": {"dtype": "int32", "len": 1}}}}"#,
    );
    let out = ksem()
        .args(["run", &p, "--launch", &l, "--threads", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err,
        "pid (0, 0, 0) pid is [0]\npid (1, 0, 0) pid is [1]\npid (2, 0, 0) pid is [2]\n"
    );
}

/// `ksem report` on a worker's directory writes the page (exit 0); on a
/// path that is not a directory it names it and exits 2.
#[test]
fn report_writes_a_page_and_names_a_missing_directory() {
    let dir = std::env::temp_dir().join(format!("ksem-cli-{}-report", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let w = dir.join("w0");
    let out = ksem()
        .args(["fuzz", "--seed", "1", "--count", "6", "--jobs", "1"])
        .args(["--backends", "interp,interp", "--out"])
        .arg(&w)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(w.join("summary.json").is_file() && w.join("progress.jsonl").is_file());
    let page = dir.join("report.html");
    let out = ksem()
        .arg("report")
        .arg(&w)
        .arg("--out")
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"chart-rates\"") && html.contains("No findings."));
    let missing = dir.join("nope");
    let out = ksem().arg("report").arg(&missing).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{}: not a directory", missing.display())),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fuzz campaign killed at an arbitrary moment (SIGKILL: no chance to
/// save anything then) and resumed with `--resume` prints the summary of
/// one uninterrupted run.
#[test]
fn fuzz_killed_and_resumed_ends_like_one_run() {
    let dir = std::env::temp_dir().join(format!("ksem-cli-{}-resume", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = |out: Option<&std::path::Path>| {
        let mut a: Vec<String> = ["fuzz", "--backends", "interp,interp", "--seed", "5"]
            .map(String::from)
            .into();
        a.extend(["--count".into(), "600".into(), "--jobs".into(), "2".into()]);
        if let Some(o) = out {
            a.extend(["--out".into(), o.display().to_string()]);
        }
        a
    };
    // a checkpoint every 10 ms: killed at the first that holds programs,
    // the campaign is far from its end on any machine (600 programs take
    // seconds; the default 2 s period let a fast one finish first)
    let mut first = args(Some(&dir));
    first.extend(["--checkpoint-every".into(), "10ms".into()]);
    let mut child = ksem().args(first).spawn().unwrap();
    let done = || -> Option<u64> {
        let cp = std::fs::read_to_string(dir.join("checkpoint.json")).ok()?;
        serde_json::from_str::<serde_json::Value>(&cp).ok()?["done"].as_u64()
    };
    let t0 = std::time::Instant::now();
    while done().unwrap_or(0) == 0 && t0.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let done = done().expect("a checkpoint");
    assert!(done > 0 && done < 600, "killed at {done} of 600 programs");
    let mut resume = args(Some(&dir));
    resume.push("--resume".into());
    let summary = |a: Vec<String>| {
        let out = ksem().args(a).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        j["seconds"] = 0.into();
        j["programs_per_s"] = 0.into();
        j["checks_per_s"] = 0.into();
        j
    };
    let resumed = summary(resume);
    let one = summary(args(None));
    assert_eq!(resumed["programs"], 600);
    assert_eq!(resumed, one);
    // a shorter campaign cannot resume a longer one's checkpoint: exit 2
    let mut short = args(Some(&dir));
    short[6] = "10".into();
    short.push("--resume".into());
    let out = ksem().args(short).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("more than --count"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--checkpoint-every` takes a duration (`500ms`, `2s`, `1m`); anything
/// else, a negative or an endless one is a usage error (exit 2) naming the
/// value, and the option needs `--out` (where checkpoints go).
#[test]
fn fuzz_checkpoint_every_is_checked() {
    let dir = std::env::temp_dir().join(format!("ksem-cli-{}-every", std::process::id()));
    for bad in ["1x", "-2s", "inf", ""] {
        let out = ksem()
            .args(["fuzz", "--count", "1", "--out"])
            .arg(&dir)
            .arg(format!("--checkpoint-every={bad}"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("bad duration {bad:?}")),
            "{bad:?}: {err}"
        );
    }
    let out = ksem()
        .args(["fuzz", "--count", "1", "--checkpoint-every", "1s"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("required arguments were not provided") && err.contains("--out <OUT>"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
