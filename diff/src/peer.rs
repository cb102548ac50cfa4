//! Real systems as backends ("peers"): a file runs on real Triton
//! (`tools/triton_run.py`, a GPU machine with torch and Triton), on real
//! numba-cuda (`tools/numba_run.py`, a GPU machine with numba-cuda) or on real
//! TileLang's C target (`tools/tilelang_run.py`, any machine with
//! `pip install tilelang`) or on real Hidet's `cpu_kernel` build
//! (`tools/hidet_run.py`, any machine with `pip install hidet` and g++), and
//! ksem reads back the runner's result JSON.
//! The real systems detect no UB and cannot tell exact from approximate
//! elements, so their results carry neither.

use ksem_interp::dtype::DType;
use ksem_interp::launch::{BufferResult, RunResult};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A real system ksem can run a file on: its runner and what a campaign
/// against it needs. Each dialect's bundle in [`crate::registry`] holds
/// its peer.
pub struct Peer {
    /// The backend's name on the command line (`--backends interp,triton`)
    /// and in results.
    pub backend: &'static str,
    /// The real system's name in messages.
    pub system: &'static str,
    /// The runner script under `tools/`.
    pub script: &'static str,
    /// The environment variable that overrides the runner's path.
    pub path_var: &'static str,
    /// The environment variable naming the Python that has the real system
    /// installed (they often live in virtual environments), where it has
    /// one; else `$PYTHON`, else `python3`.
    pub python_var: Option<&'static str>,
    /// Arguments the runner needs besides the program and launch (Triton's
    /// prints text unless asked for the result JSON).
    pub extra_args: &'static [&'static str],
    /// What a batch line passes besides the program and launch, as JSON
    /// text: real Triton and numba-cuda compile without contracting
    /// `a * b + c` into an fma (divergences #3 and N21, which would
    /// otherwise be most of what a campaign finds).
    pub batch_options: Option<&'static str>,
    /// Whether the runner has a long-lived serve mode ([`Worker`]).
    pub serves: bool,
    /// Programs a batch: one Python process (the real system imported
    /// once) runs them all.
    pub batch_size: usize,
    /// The environment that makes the real system pass `-O0` to ptxas
    /// (the same PTX otherwise), for triage; empty where it has none.
    pub ptxas_o0_env: &'static [(&'static str, &'static str)],
    /// The documented divergences (`docs/divergences.md`) whose operations
    /// triage recognises in the IR.
    pub divergences: &'static [crate::divergence::Row],
    /// The documented divergences a kind of difference alone explains
    /// (the row labels, e.g. NaN bits: `#13, #22`).
    pub kind_divergences: &'static [(crate::triage::DiffKind, &'static str)],
    /// The template of the standalone script that reproduces a finding on
    /// the system alone (`bugreport::script`).
    pub bug_script: &'static str,
}

impl PartialEq for Peer {
    fn eq(&self, other: &Peer) -> bool {
        self.backend == other.backend
    }
}

impl Peer {
    /// The Python that has the real system installed: `$python_var` where
    /// the peer has one, else `$PYTHON`, else `python3`.
    pub(crate) fn python(&self) -> String {
        let own = self.python_var.and_then(|v| std::env::var(v).ok());
        own.or_else(|| std::env::var("PYTHON").ok())
            .unwrap_or_else(|| "python3".into())
    }

    /// What a batch line passes besides the program and launch.
    fn batch_options(&self) -> Option<Json> {
        self.batch_options
            .map(|t| serde_json::from_str(t).expect("a peer's batch options are JSON"))
    }

    /// Where the runner is: its variable, else under the current directory
    /// or a directory above the `ksem` executable.
    fn runner(&self) -> Result<PathBuf, String> {
        if let Ok(p) = std::env::var(self.path_var) {
            return Ok(PathBuf::from(p));
        }
        let rel = Path::new("tools").join(self.script);
        if rel.exists() {
            return Ok(rel);
        }
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        exe.ancestors()
            .map(|d| d.join(&rel))
            .find(|p| p.exists())
            .ok_or_else(|| {
                format!(
                    "tools/{} not found: run from the repository root or set {}",
                    self.script, self.path_var
                )
            })
    }
}

/// Runs `program` with the launch spec at `launch` on `peer`.
pub fn run(
    peer: &'static Peer,
    program: &str,
    launch: &str,
    kernel: Option<&str>,
) -> Result<RunResult, String> {
    let tool = peer.runner()?;
    let mut cmd = Command::new(peer.python());
    cmd.arg(&tool)
        .arg(program)
        .arg("--launch")
        .arg(launch)
        .args(peer.extra_args);
    if let Some(k) = kernel {
        cmd.arg("--kernel").arg(k);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("(no output)");
        return Err(format!("{} failed: {}", tool.display(), last.trim()));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    parse_result(&text)
}

/// Runs many programs (source text, launch JSON) on `peer` in one process
/// (`--batch`; TileLang's import alone takes seconds): the sources go to a
/// temporary directory, the results come back one line each, in order.
pub fn run_batch(peer: &'static Peer, items: &[(&str, &Json)]) -> Vec<Result<RunResult, String>> {
    run_batch_env(peer, items, &[])
}

/// [`run_batch`] with environment variables set for the runner (e.g.
/// Triton's `DISABLE_PTXAS_OPT=1`).
pub fn run_batch_env(
    peer: &'static Peer,
    items: &[(&str, &Json)],
    env: &[(&str, &str)],
) -> Vec<Result<RunResult, String>> {
    let fail = |e: String| items.iter().map(|_| Err(e.clone())).collect();
    let tool = match peer.runner() {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let dir = std::env::temp_dir().join(format!(
        "ksem-peer-{}-{}",
        std::process::id(),
        BATCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return fail(format!("{}: {e}", dir.display()));
    }
    let mut lines = Vec::with_capacity(items.len());
    for (i, (src, launch)) in items.iter().enumerate() {
        let path = dir.join(format!("p{i}.py"));
        if let Err(e) = std::fs::write(&path, src) {
            return fail(format!("{}: {e}", path.display()));
        }
        let mut line = serde_json::json!({"program": path.display().to_string(), "launch": launch});
        if let Some(o) = peer.batch_options() {
            line["options"] = o;
        }
        lines.push(line.to_string());
    }
    // cases the runner has not answered yet; a case it hangs on (TileLang's
    // compiler can take minutes on some programs) is given up after
    // case_limit() and the runner restarts with the cases after it
    let mut results: Vec<Result<RunResult, String>> = Vec::with_capacity(items.len());
    while results.len() < items.len() {
        let rest = &lines[results.len()..];
        let list = dir.join(format!("batch{}.jsonl", results.len()));
        if let Err(e) = std::fs::write(&list, rest.join("\n") + "\n") {
            let _ = std::fs::remove_dir_all(&dir);
            return fail(format!("{}: {e}", list.display()));
        }
        if let Err(e) = stream_batch(peer, &tool, &list, rest.len(), env, &mut results) {
            // the case being run when the runner stopped or hung
            results.push(Err(e));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    results
}

/// Longest time one case of a batch may take before it is given up:
/// `$KSEM_PEER_CASE_LIMIT` seconds, else 120.
fn case_limit() -> std::time::Duration {
    let s = std::env::var("KSEM_PEER_CASE_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(120);
    std::time::Duration::from_secs(s)
}

/// Runs the runner on the batch file `list` of `n` cases, appending each
/// answer to `results` as it comes; an error names why the runner stopped
/// before answering them all (a hang past [`case_limit`] kills it).
fn stream_batch(
    peer: &'static Peer,
    tool: &Path,
    list: &Path,
    n: usize,
    env: &[(&str, &str)],
    results: &mut Vec<Result<RunResult, String>>,
) -> Result<(), String> {
    use std::process::Stdio;
    let mut child = Command::new(peer.python())
        .envs(env.iter().copied())
        .arg(tool)
        .arg("--batch")
        .arg(list)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (rx, reader) = line_reader(stdout);
    let mut answered = 0;
    let outcome = loop {
        if answered == n {
            break Ok(());
        }
        match rx.recv_timeout(case_limit()) {
            Ok(l) => {
                results.push(answer(&l));
                answered += 1;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                break Err(format!(
                    "{} took more than {} s on this program",
                    peer.system,
                    case_limit().as_secs()
                ))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                break Err(format!("{} stopped early", tool.display()))
            }
        }
    };
    let _ = child.kill();
    let status = child.wait();
    let _ = reader.join();
    // a runner that answered its last case and asked to be restarted (a
    // launch failure left its GPU context unusable) goes on with the rest
    let restart = status.is_ok_and(|s| s.code() == Some(RESTART_EXIT));
    match outcome {
        Err(_) if restart && answered > 0 => Ok(()),
        o => o,
    }
}

/// The exit code with which a runner ends a batch after answering a case
/// whose launch failed: start it again with the cases after that one
/// (`tools/numba_run.py`, `RESTART_EXIT`).
const RESTART_EXIT: i32 = 75;

/// A long-lived runner process (`--serve`): cases go to its stdin as JSON
/// lines and come back one result line each, so a sequence of small runs
/// (the reducer's candidates) pays the real system's import once.
pub struct Worker {
    peer: &'static Peer,
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
    dir: PathBuf,
    cases: u64,
}

impl Worker {
    /// Starts `peer`'s runner in serve mode (only runners that have one:
    /// Triton's).
    pub fn start(peer: &'static Peer) -> Result<Worker, String> {
        use std::process::Stdio;
        if !peer.serves {
            return Err(format!("{} has no long-lived runner", peer.system));
        }
        let tool = peer.runner()?;
        let mut child = Command::new(peer.python())
            .arg(&tool)
            .arg("--serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (lines, _reader) = line_reader(stdout);
        let dir = std::env::temp_dir().join(format!(
            "ksem-worker-{}-{}",
            std::process::id(),
            BATCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Worker {
            peer,
            child,
            stdin,
            lines,
            dir,
            cases: 0,
        })
    }

    /// Runs `source` with launch spec `launch` (with the peer's campaign
    /// options, as a batch would); a case that takes longer than
    /// [`case_limit`] is an error and stops the worker.
    pub fn run(&mut self, source: &str, launch: &Json) -> Result<RunResult, String> {
        use std::io::Write;
        self.cases += 1;
        let path = self.dir.join(format!("c{}.py", self.cases));
        std::fs::write(&path, source).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut line = serde_json::json!({"program": path.display().to_string(), "launch": launch});
        if let Some(o) = self.peer.batch_options() {
            line["options"] = o;
        }
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("{} worker: {e}", self.peer.system))?;
        let line = self
            .lines
            .recv_timeout(case_limit())
            .map_err(|_| format!("{} worker gave no answer", self.peer.system));
        let _ = std::fs::remove_file(&path);
        answer(&line?)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The lines a runner prints, sent one by one as they come (the thread ends
/// with the runner's output or when the receiver is dropped).
fn line_reader(
    stdout: std::process::ChildStdout,
) -> (
    std::sync::mpsc::Receiver<String>,
    std::thread::JoinHandle<()>,
) {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (rx, reader)
}

/// One answer line of a runner: its result JSON, or the `{"error": …}` it
/// printed for a case it could not run.
fn answer(line: &str) -> Result<RunResult, String> {
    let v: Json = serde_json::from_str(line).map_err(|e| format!("result line: {e}"))?;
    match v.get("error").and_then(Json::as_str) {
        Some(e) => Err(e.to_string()),
        None => parse_result(line),
    }
}

/// Batches run so far by this process (names their temporary directories).
static BATCHES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Reads a result JSON (DESIGN.md "Interfaces") as printed by the runners.
pub fn parse_result(text: &str) -> Result<RunResult, String> {
    let v: Json = serde_json::from_str(text).map_err(|e| format!("result JSON: {e}"))?;
    let field = |k: &str| v.get(k).ok_or_else(|| format!("result JSON: no \"{k}\""));
    let bufs = field("buffers")?
        .as_object()
        .ok_or("result JSON: \"buffers\" is not an object")?;
    let mut buffers = Vec::new();
    for (name, b) in bufs {
        let dtype = b
            .get("dtype")
            .and_then(Json::as_str)
            .and_then(DType::from_name)
            .ok_or_else(|| format!("result JSON: buffer {name} has no known dtype"))?;
        let bits: Vec<u64> = b
            .get("bits")
            .and_then(Json::as_array)
            .ok_or_else(|| format!("result JSON: buffer {name} has no bits"))?
            .iter()
            .map(|x| {
                x.as_str()
                    .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok())
                    .ok_or_else(|| format!("result JSON: buffer {name}: bad bits {x}"))
            })
            .collect::<Result<_, _>>()?;
        buffers.push(BufferResult {
            name: name.clone(),
            dtype,
            inexact: vec![false; bits.len()],
            undefined: Vec::new(),
            bits,
        });
    }
    Ok(RunResult {
        kernel: field("kernel")?.as_str().unwrap_or("").to_string(),
        backend: field("backend")?.as_str().unwrap_or("numba").to_string(),
        buffers,
        ub: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A runner that hangs on one case is given up on that case only: the
    /// batch restarts with the cases after it.
    #[test]
    fn a_hanging_case_is_given_up_and_the_rest_still_run() {
        let dir = std::env::temp_dir().join(format!("ksem-fake-peer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let runner = dir.join("fake_run.py");
        std::fs::write(
            &runner,
            "import json, sys, time\n\
             for line in open(sys.argv[2]):\n\
             \x20   case = json.loads(line)\n\
             \x20   if 'HANG' in open(case['program']).read():\n\
             \x20       time.sleep(60)\n\
             \x20   print(json.dumps({'kernel': 'k', 'backend': 'tilelang', 'buffers': {'o': {'dtype': 'int32', 'bits': ['0x00000001']}}, 'ub': []}), flush=True)\n",
        )
        .unwrap();
        std::env::set_var("KSEM_TILELANG_RUN", &runner);
        std::env::set_var("KSEM_PEER_CASE_LIMIT", "2");
        let launch = serde_json::json!({"args": {}});
        let items = [("ok", &launch), ("HANG", &launch), ("ok", &launch)];
        let start = std::time::Instant::now();
        let r = run_batch(
            crate::registry::peer_of(ksem_interp::frontend::Dialect::TileLang),
            &items,
        );
        assert_eq!(r.len(), 3);
        assert!(r[0].is_ok() && r[2].is_ok(), "{r:?}");
        assert!(
            r[1].as_ref()
                .is_err_and(|e| e.contains("took more than 2 s")),
            "{r:?}"
        );
        assert!(start.elapsed() < std::time::Duration::from_secs(30));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A runner that answers a case and exits with `RESTART_EXIT` (its GPU
    /// context lost to a failed launch) is started again with the cases
    /// after that one: each case gets its own answer, none is lost.
    #[test]
    fn a_runner_that_asks_for_a_restart_goes_on_with_the_next_case() {
        let dir = std::env::temp_dir().join(format!("ksem-fake-restart-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let runner = dir.join("fake_numba.py");
        std::fs::write(
            &runner,
            "import json, os, sys\n\
             for line in open(sys.argv[2]):\n\
             \x20   case = json.loads(line)\n\
             \x20   if 'FAULT' in open(case['program']).read():\n\
             \x20       print(json.dumps({'error': 'CudaAPIError: illegal address'}), flush=True)\n\
             \x20       sys.exit(75)\n\
             \x20   print(json.dumps({'kernel': 'k', 'backend': 'numba', 'buffers': {'o': {'dtype': 'int32', 'bits': ['0x%08x' % os.getpid()]}}, 'ub': []}), flush=True)\n",
        )
        .unwrap();
        std::env::set_var("KSEM_NUMBA_RUN", &runner);
        let launch = serde_json::json!({"args": {}});
        let items = [
            ("ok", &launch),
            ("FAULT", &launch),
            ("ok", &launch),
            ("ok", &launch),
        ];
        let r = run_batch(
            crate::registry::peer_of(ksem_interp::frontend::Dialect::CudaPy),
            &items,
        );
        assert_eq!(r.len(), 4);
        assert!(
            r[1].as_ref().is_err_and(|e| e.contains("illegal address")),
            "{r:?}"
        );
        let pid = |i: usize| r[i].as_ref().expect("answered").buffers[0].bits[0];
        // the cases after the fault ran in a second process, together
        assert_ne!(pid(0), pid(2));
        assert_eq!(pid(2), pid(3));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The long-lived worker answers case after case from one process, and
    /// a case it hangs on is an error, not a hang.
    #[test]
    fn a_worker_answers_many_cases_and_gives_up_on_a_hanging_one() {
        let dir = std::env::temp_dir().join(format!("ksem-fake-worker-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let runner = dir.join("fake_serve.py");
        std::fs::write(
            &runner,
            "import json, os, sys, time\n\
             assert sys.argv[1] == '--serve'\n\
             for line in sys.stdin:\n\
             \x20   case = json.loads(line)\n\
             \x20   assert case['options'] == {'enable_fp_fusion': False}\n\
             \x20   src = open(case['program']).read()\n\
             \x20   if 'HANG' in src:\n\
             \x20       time.sleep(60)\n\
             \x20   print(json.dumps({'kernel': 'k', 'backend': 'triton', 'buffers': {'o': {'dtype': 'int32', 'bits': ['0x%08x' % os.getpid(), '0x%08x' % len(src)]}}, 'ub': []}), flush=True)\n",
        )
        .unwrap();
        std::env::set_var("KSEM_TRITON_RUN", &runner);
        std::env::set_var("KSEM_PEER_CASE_LIMIT", "2");
        let launch = serde_json::json!({"args": {}});
        let mut w = Worker::start(crate::registry::peer_of(
            ksem_interp::frontend::Dialect::Triton,
        ))
        .expect("worker");
        let a = w.run("ab", &launch).expect("first");
        let b = w.run("abcd", &launch).expect("second");
        // one process (same pid), each case its own source
        assert_eq!(a.buffers[0].bits[0], b.buffers[0].bits[0]);
        assert_eq!((a.buffers[0].bits[1], b.buffers[0].bits[1]), (2, 4));
        let start = std::time::Instant::now();
        let e = w.run("HANG", &launch).expect_err("a hang is an error");
        assert!(e.contains("no answer"), "{e}");
        assert!(start.elapsed() < std::time::Duration::from_secs(30));
        drop(w);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn reads_the_runners_result_json() {
        let r = parse_result(r#"{"kernel": "k", "backend": "numba", "buffers": {"out": {"dtype": "int32", "len": 2, "bits": ["0x00000001", "0xffffffff"]}}, "ub": []}"#).unwrap();
        assert_eq!(r.buffers[0].name, "out");
        assert_eq!(r.buffers[0].dtype, DType::I32);
        assert_eq!(r.buffers[0].bits, vec![1, 0xffff_ffff]);
        assert!(parse_result(r#"{"kernel": "k"}"#).is_err());
        assert!(parse_result(r#"{"kernel": "k", "backend": "numba", "buffers": {"o": {"dtype": "int99", "bits": []}}}"#).is_err());
    }
}
