//! What `ksem fuzz --out DIR` records about the campaign itself, beside its
//! findings: `DIR/progress.jsonl`, one line `{"t", "programs", "mismatches"}`
//! every `--checkpoint-every` (2 s unless told; elapsed seconds, programs checked and mismatches so
//! far), and `DIR/summary.json`, the summary line the command prints.
//! `ksem report` plots the first and tabulates the second.

use super::run::{Options, Summary};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file of the time series in a campaign directory.
pub const PROGRESS_FILE: &str = "progress.jsonl";
/// The file of the summary in a campaign directory.
pub const SUMMARY_FILE: &str = "summary.json";
/// The progress log of one campaign directory.
pub struct ProgressLog {
    dir: PathBuf,
    file: Option<std::fs::File>,
    /// The last line written: elapsed seconds and programs.
    last: Option<(f64, u64)>,
    /// Seconds between two progress lines.
    interval_s: f64,
}

impl ProgressLog {
    /// Starts `dir/progress.jsonl` afresh with a line at time 0 (a campaign
    /// that cannot write it still runs: the log is best-effort).
    pub fn create(dir: &Path, every: std::time::Duration) -> ProgressLog {
        let file = std::fs::create_dir_all(dir)
            .and_then(|_| std::fs::File::create(dir.join(PROGRESS_FILE)))
            .ok();
        let mut log = ProgressLog {
            dir: dir.to_path_buf(),
            file,
            last: None,
            interval_s: every.as_secs_f64(),
        };
        log.line(0.0, 0, 0);
        log
    }

    /// Goes on with `dir/progress.jsonl` of a resumed campaign, whose
    /// counts and time continue from `s`.
    pub fn append(dir: &Path, s: &Summary, every: std::time::Duration) -> ProgressLog {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join(PROGRESS_FILE))
            .ok();
        ProgressLog {
            dir: dir.to_path_buf(),
            file,
            last: Some((s.seconds, s.programs)),
            interval_s: every.as_secs_f64(),
        }
    }

    /// Records the running summary when the last line is older than
    /// the interval; true when it wrote one.
    pub fn record(&mut self, s: &Summary) -> bool {
        let due = self
            .last
            .is_none_or(|(t, _)| s.seconds - t >= self.interval_s);
        if due {
            self.line(s.seconds, s.programs, s.mismatches);
        }
        due
    }

    /// Records the final counts (unless the last line has them already:
    /// a second line a moment later would read as a rate of zero) and
    /// writes `summary.json`.
    pub fn finish(mut self, s: &Summary, o: &Options) {
        if self.last.is_none_or(|(_, n)| n != s.programs) {
            self.line(s.seconds, s.programs, s.mismatches);
        }
        let text = serde_json::to_string_pretty(&s.to_json(o)).expect("json");
        let _ = std::fs::write(self.dir.join(SUMMARY_FILE), text + "\n");
    }

    fn line(&mut self, t: f64, programs: u64, mismatches: u64) {
        self.last = Some((t, programs));
        if let Some(f) = &mut self.file {
            let t = (t * 1000.0).round() / 1000.0;
            let _ = writeln!(
                f,
                "{}",
                json!({"t": t, "programs": programs, "mismatches": mismatches})
            );
        }
    }
}
