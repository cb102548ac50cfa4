//! Shared helpers for ksem's integration tests: building programs and
//! launches, calling the interpreter's library API, locating source positions,
//! asserting diagnostics and UB reports, and running the `ksem` binary.
//!
//! Positions are asserted exactly. To keep the tests readable, a position is
//! written as "the column of `at` in the one line of the source containing
//! `line_needle`" (see [`loc`]); the helper computes the 1-based line and
//! column independently of ksem, so a wrong line or column makes the test fail.

use ksem_interp::eval::RunOptions;
use ksem_interp::launch::{parse_launch, Launch, RunResult, UbReport};
use ksem_interp::span::Diagnostic;
use ksem_interp::Error;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub use ksem_interp;
pub use serde_json;

pub mod dialects;

/// The file name programs are given in diagnostics.
pub const FILE: &str = "kernel.py";

/// The imports every test program starts with (4 lines, the jit decorator on line 5).
pub const PRELUDE: &str = "import triton\nimport triton.language as tl\n\n\n";

// ----- building programs and launches ---------------------------------------

/// Indents every non-empty line of `body` by four spaces.
pub fn indent(body: &str) -> String {
    body.lines()
        .map(|l| {
            if l.trim().is_empty() {
                String::new()
            } else {
                format!("    {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A module with one kernel `kern(PARAMS)` whose body is `body` (written
/// without indentation; it is indented here).
pub fn kernel(params: &str, body: &str) -> String {
    format!(
        "{PRELUDE}@triton.jit\ndef kern({params}):\n{}\n",
        indent(body)
    )
}

/// `{"buffer": {"dtype": D, "data": [...]}}`
pub fn buf(dtype: &str, data: Json) -> Json {
    json!({"buffer": {"dtype": dtype, "data": data}})
}

/// `{"buffer": {"dtype": D, "len": N}}` (zero-filled)
pub fn zeros(dtype: &str, len: usize) -> Json {
    json!({"buffer": {"dtype": dtype, "len": len}})
}

/// `{"scalar": {"dtype": D, "value": V}}`
pub fn scalar(dtype: &str, value: Json) -> Json {
    json!({"scalar": {"dtype": dtype, "value": value}})
}

/// `{"constexpr": V}`
pub fn cx(value: Json) -> Json {
    json!({ "constexpr": value })
}

/// The launch JSON text for a grid and an `args` object.
pub fn launch_json(grid: &[u64], args: Json) -> String {
    json!({"grid": grid, "args": args}).to_string()
}

/// Parses a launch built from a grid and an `args` object (panics if ksem refuses it).
pub fn launch(grid: &[u64], args: Json) -> Launch {
    let text = launch_json(grid, args);
    parse_launch(&text).unwrap_or_else(|e| panic!("test launch refused: {e}\n{text}"))
}

// ----- source positions ----------------------------------------------------

/// The 1-based (line, column) of the first occurrence of `at` in the only line
/// of `src` that contains `line_needle`. Columns count characters.
pub fn loc(src: &str, line_needle: &str, at: &str) -> (u32, u32) {
    let hits: Vec<(usize, &str)> = src
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(line_needle))
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "test bug: {line_needle:?} must occur on exactly one line of\n{src}"
    );
    let (i, text) = hits[0];
    let byte = text
        .find(at)
        .unwrap_or_else(|| panic!("test bug: {at:?} not in line {text:?}"));
    (i as u32 + 1, text[..byte].chars().count() as u32 + 1)
}

/// [`loc`] with the position at the start of `needle` itself.
pub fn loc1(src: &str, needle: &str) -> (u32, u32) {
    loc(src, needle, needle)
}

/// The text of 1-based line `line` of `src`.
pub fn line_text(src: &str, line: u32) -> &str {
    src.lines().nth(line as usize - 1).unwrap_or("")
}

// ----- the library API -------------------------------------------------------

/// Run options for tests: one worker thread, a small loop limit.
pub fn opts() -> RunOptions {
    RunOptions {
        max_loop_iterations: 100_000,
        threads: 1,
        ..Default::default()
    }
}

/// Calls into ksem, turning a panic into a test failure that says so.
pub fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("ksem PANICKED while {what}: {msg}")
        }
    }
}

/// Parses a launch spec (the library's `parse_launch`, panic-guarded).
pub fn try_launch(text: &str) -> Result<Launch, String> {
    no_panic("parsing a launch spec", || parse_launch(text))
}

/// Elaborates `src` (as [`FILE`]) for `l`.
pub fn elaborate(src: &str, l: &Launch) -> Result<ksem_interp::ir::Kernel, Error> {
    elaborate_kernel(src, l, None)
}

/// Elaborates kernel `kernel` (or the one the launch/file implies) of `src`.
pub fn elaborate_kernel(
    src: &str,
    l: &Launch,
    kernel: Option<&str>,
) -> Result<ksem_interp::ir::Kernel, Error> {
    let k = no_panic("elaborating", || {
        ksem_interp::elaborate_source(FILE, src, l, kernel)
    })?;
    // Every program a front end produces must pass the IR verifier.
    if let Err(e) = ksem_interp::ir::verify::verify(&k) {
        panic!(
            "the front end produced an ill-formed program: {}\n{}",
            e.render(FILE, src),
            ksem_interp::pretty::kernel(&k)
        );
    }
    Ok(k)
}

/// Parses, elaborates and runs `src` with [`opts`].
pub fn run(src: &str, l: &Launch) -> Result<RunResult, Error> {
    run_with(src, l, &opts())
}

/// Parses, elaborates and runs `src` with explicit options.
pub fn run_with(src: &str, l: &Launch, o: &RunOptions) -> Result<RunResult, Error> {
    no_panic("running", || ksem_interp::run_source(FILE, src, l, None, o))
}

fn describe_err(e: &Error) -> String {
    e.render()
}

/// The diagnostic of a program ksem must refuse at elaboration.
pub fn refused(src: &str, l: &Launch) -> Diagnostic {
    match elaborate(src, l) {
        Ok(k) => panic!(
            "ksem ACCEPTED a program it must refuse:\n{src}\ntyped program:\n{}",
            ksem_interp::pretty::kernel(&k)
        ),
        Err(Error::Source { diag, .. }) => diag,
        Err(e) => panic!("expected a source error, got: {}", describe_err(&e)),
    }
}

/// The diagnostic of a program that must stop with an error while running
/// (not UB, not success).
pub fn run_refused(src: &str, l: &Launch, o: &RunOptions) -> Diagnostic {
    match run_with(src, l, o) {
        Ok(r) => panic!(
            "ksem ran a program that must be refused; result: {}",
            r.to_json()
        ),
        Err(Error::Source { diag, .. }) => diag,
        Err(e) => panic!("expected a source error, got: {}", describe_err(&e)),
    }
}

/// Asserts that `d` is at `pos`, its message contains every string of `msg`,
/// and (when `help` is given) that it has a help line containing `help`.
/// Also checks the rendered form: `kernel.py:L:C: error: MESSAGE`, the
/// offending source line, a caret under the column, and `help: …`.
pub fn assert_diag(src: &str, d: &Diagnostic, pos: (u32, u32), msg: &[&str], help: Option<&str>) {
    let got = (d.span.line, d.span.col);
    assert_eq!(
        got,
        pos,
        "wrong position for error {:?} (expected line {} col {}, got line {} col {})\nexpected at: {:?}\ngot at:      {:?}",
        d.message,
        pos.0,
        pos.1,
        got.0,
        got.1,
        line_text(src, pos.0),
        line_text(src, got.0)
    );
    for m in msg {
        assert!(
            d.message.contains(m),
            "error message {:?} should contain {m:?}",
            d.message
        );
    }
    if let Some(h) = help {
        match &d.help {
            None => panic!(
                "error {:?} has no help line (expected one containing {h:?})",
                d.message
            ),
            Some(text) => assert!(text.contains(h), "help {text:?} should contain {h:?}"),
        }
    }
    check_rendered(src, d);
}

/// Checks the rendered diagnostic's layout.
pub fn check_rendered(src: &str, d: &Diagnostic) {
    let r = d.render(FILE, src);
    let lines: Vec<&str> = r.lines().collect();
    let head = if d.span.line == 0 {
        // no position in the source (a launch-level problem)
        format!("{FILE}: error: {}", d.message)
    } else {
        format!(
            "{FILE}:{}:{}: error: {}",
            d.span.line, d.span.col, d.message
        )
    };
    assert_eq!(
        lines.first().copied(),
        Some(head.as_str()),
        "rendered:\n{r}"
    );
    // The source excerpt (codespan-reporting: `N │ text`, then carets under
    // the token), when the line exists (not for an empty file).
    if d.span.line >= 1 && src.lines().nth(d.span.line as usize - 1).is_some() {
        let text = line_text(src, d.span.line);
        let gutter = format!("{} │ ", d.span.line);
        let at = lines
            .iter()
            .position(|l| l.trim_start().starts_with(&gutter) && l.ends_with(text.trim_end()))
            .unwrap_or_else(|| panic!("no source line {gutter}{text}:\n{r}"));
        let src_line: Vec<char> = lines[at].chars().collect();
        let text_start = src_line.len() - text.trim_end().chars().count();
        let carets: Vec<char> = lines.get(at + 1).copied().unwrap_or("").chars().collect();
        let first = carets.iter().position(|&c| c == '^');
        assert_eq!(
            first,
            Some(text_start + d.span.col as usize - 1),
            "caret under column {}:\n{r}",
            d.span.col
        );
    }
}

/// Runs `src` and returns the UB it reports (panics when it reports none or fails).
pub fn ub_of(src: &str, l: &Launch) -> Vec<UbReport> {
    match run(src, l) {
        Ok(r) => {
            assert!(
                !r.ub.is_empty(),
                "expected undefined behaviour, ksem reported none; result: {}",
                r.to_json()
            );
            r.ub
        }
        Err(e) => panic!(
            "expected a run with UB, got an error:\n{}",
            describe_err(&e)
        ),
    }
}

/// Runs `src` and returns the result, which must have no UB.
pub fn run_clean(src: &str, l: &Launch) -> RunResult {
    match run(src, l) {
        Ok(r) => {
            assert!(
                r.ub.is_empty(),
                "expected no undefined behaviour, ksem reported: {:?}",
                r.ub
            );
            r
        }
        Err(e) => panic!("expected a clean run, got an error:\n{}", describe_err(&e)),
    }
}

/// Asserts one UB report's kind, position, program instance and element.
pub fn assert_ub(
    src: &str,
    u: &UbReport,
    kind: &str,
    pos: (u32, u32),
    program: [u32; 3],
    element: &[usize],
) {
    assert_eq!(u.kind, kind, "wrong UB kind in {u:?}");
    assert_eq!(
        (u.line, u.col),
        pos,
        "wrong UB position in {u:?}\nexpected at: {:?}\ngot at:      {:?}",
        line_text(src, pos.0),
        line_text(src, u.line)
    );
    assert_eq!(u.program, program, "wrong program instance in {u:?}");
    assert_eq!(u.element, element, "wrong element index in {u:?}");
    assert!(!u.message.is_empty(), "empty UB message in {u:?}");
}

/// The bits of buffer `name` of a result.
pub fn bits(r: &RunResult, name: &str) -> Vec<u64> {
    r.buffers
        .iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no buffer {name} in the result"))
        .bits
        .clone()
}

/// The JSON output of a probe under `tools/probes/` (e.g.
/// `"numba/complex_data.json"`): measured values, read by the tests.
pub fn probe_json(path: &str) -> Json {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tools/probes")
        .join(path);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A JSON list of hex strings (`"0x3f800000"`) as bit patterns.
pub fn hex_list(j: &Json) -> Vec<u64> {
    j.as_array()
        .expect("a list")
        .iter()
        .map(|v| {
            u64::from_str_radix(
                v.as_str().expect("a hex string").trim_start_matches("0x"),
                16,
            )
            .expect("hex")
        })
        .collect()
}

/// A JSON list of booleans as 0/1.
pub fn bool_list(j: &Json) -> Vec<u64> {
    j.as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_bool().expect("a bool") as u64)
        .collect()
}

/// float32 bit patterns of `vals`.
pub fn f32_bits(vals: &[f32]) -> Vec<u64> {
    vals.iter().map(|v| v.to_bits() as u64).collect()
}

// ----- temporary files and the ksem binary ----------------------------------

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh directory under the system temp dir, removed on drop.
pub struct TempDir {
    pub path: PathBuf,
}

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "ksem-tests-{tag}-{}-{n}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir { path }
    }
    /// Writes `name` (relative to the directory) and returns its path.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path.join(name);
        std::fs::write(&p, contents).expect("write temp file");
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The `ksem` binary of this build (`target/debug/ksem` next to the test
/// executable's `deps/` folder, or `$KSEM_BIN`), if it has been built.
/// `cargo test -p ksem-tests` does not build it: run `cargo build` first.
pub fn ksem_bin() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("KSEM_BIN") {
        return Some(PathBuf::from(p));
    }
    let mut candidates = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        if let Some(dir) = exe.parent().and_then(Path::parent) {
            candidates.push(dir.join("ksem"));
        }
    }
    candidates.push(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("target")
            .join("debug")
            .join("ksem"),
    );
    let found = candidates.into_iter().find(|p| p.is_file())?;
    warn_if_stale(&found);
    Some(found)
}

fn newest_source(dir: &Path) -> Option<SystemTime> {
    let mut newest = None;
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        let t = if p.is_dir() {
            newest_source(&p)
        } else if p.extension().is_some_and(|x| x == "rs") {
            e.metadata().and_then(|m| m.modified()).ok()
        } else {
            None
        };
        if let Some(t) = t {
            if newest.is_none_or(|n| t > n) {
                newest = Some(t);
            }
        }
    }
    newest
}

fn warn_if_stale(bin: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let Ok(built) = std::fs::metadata(bin).and_then(|m| m.modified()) else {
        return;
    };
    for d in ["interp/src", "diff/src"] {
        if newest_source(&root.join(d)).is_some_and(|t| t > built) {
            eprintln!(
                "note: {} is older than the sources in {d}; run `cargo build` so the CLI tests test the current code",
                bin.display()
            );
            return;
        }
    }
}

/// The binary for a CLI test; a missing binary fails the test (a skipped
/// test could not fail). `cargo test --workspace` builds it first.
pub fn ksem_or_skip(test: &str) -> Option<PathBuf> {
    let b = ksem_bin();
    assert!(
        b.is_some(),
        "{test}: the ksem binary is not built; run `cargo test --workspace` (or `cargo build -p ksem-diff`) or set KSEM_BIN"
    );
    b
}

/// What a `ksem` invocation did.
#[derive(Debug)]
pub struct CliOutput {
    /// The exit code; None when a signal ended it (a crash).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl CliOutput {
    /// Asserts a clean exit with `code` and no panic message.
    pub fn assert_code(&self, code: i32) {
        assert!(
            !self.stderr.contains("panicked"),
            "ksem PANICKED:\n{}",
            self.stderr
        );
        assert_eq!(
            self.code,
            Some(code),
            "wrong exit status (None = killed by a signal)\nstdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
    }
}

/// Runs `bin` with `args` in `cwd`, killing it after `timeout`.
pub fn run_cli(bin: &Path, cwd: &Path, args: &[&str], timeout: Duration) -> CliOutput {
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ksem");
    // Drain the pipes on threads so a chatty child cannot block.
    let mut so = child.stdout.take().expect("stdout");
    let mut se = child.stderr.take().expect("stderr");
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut so, &mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut se, &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait for ksem") {
            break st;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ksem {args:?} did not finish within {timeout:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    CliOutput {
        code: status.code(),
        stdout: t_out.join().unwrap_or_default(),
        stderr: t_err.join().unwrap_or_default(),
    }
}

/// Writes `kernel.py` and `launch.json` into a fresh temp dir and runs
/// `ksem SUBCOMMAND kernel.py --launch launch.json EXTRA…` there.
pub fn cli_case(bin: &Path, sub: &str, src: &str, launch_text: &str, extra: &[&str]) -> CliOutput {
    let dir = TempDir::new(sub);
    dir.write(FILE, src);
    dir.write("launch.json", launch_text);
    let mut args = vec![sub, FILE, "--launch", "launch.json"];
    args.extend_from_slice(extra);
    run_cli(bin, &dir.path, &args, Duration::from_secs(120))
}
