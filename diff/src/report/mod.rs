//! `ksem report DIR…`: one self-contained HTML page for a fuzz campaign,
//! one directory per worker (shard) as `ksem fuzz --out DIR` writes it:
//! programs/s over time per worker, mismatches per triage bucket, the
//! features exercised, and every finding with its source and both
//! backends' bits side by side, differing elements highlighted.
//!
//! The charts are SVG drawn in Rust by `plotters` and inlined in the page,
//! so the page needs neither network nor scripts; the HTML is built with
//! `maud`, which escapes every interpolated string (program text cannot
//! inject markup).

mod charts;
mod page;
#[cfg(test)]
mod tests;

use crate::fuzz::log::{PROGRESS_FILE, SUMMARY_FILE};
use crate::triage::{self, Finding};
use ksem_interp::launch::RunResult;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

/// One line of a worker's `progress.jsonl`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Seconds since the worker started.
    pub t: f64,
    /// Programs checked so far.
    pub programs: u64,
    /// Mismatches so far.
    pub mismatches: u64,
}

/// A worker's mean rate over one interval between two progress lines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The interval, in seconds since the worker started.
    pub from: f64,
    pub to: f64,
    /// Programs per second over it.
    pub rate: f64,
}

/// A finding as the page shows it.
pub struct FindingView {
    /// Its triage: kind, bucket, signature.
    pub triage: Finding,
    /// The program text (`NAME.py`).
    pub source: String,
    /// The command that replays it and where it came from (`NAME.json`).
    pub reproduce: Option<String>,
    pub provenance: Option<String>,
    /// The reference's and the other backend's results.
    pub a: RunResult,
    pub b: RunResult,
}

/// One campaign directory (one worker or shard, or a merged directory).
pub struct Campaign {
    /// The directory as given on the command line.
    pub dir: String,
    /// `summary.json`, where the worker wrote one.
    pub summary: Option<Json>,
    /// `progress.jsonl`, in time order.
    pub progress: Vec<Sample>,
    pub findings: Vec<FindingView>,
    /// Files that could not be read (shown on the page).
    pub errors: Vec<String>,
}

impl Campaign {
    /// Reads a campaign directory; each finding is triaged as `ksem triage`
    /// does (rerunning it where this machine can when `gpu`…).
    pub fn read(dir: &Path, gpu: bool) -> Result<Campaign, String> {
        if !dir.is_dir() {
            return Err(format!("{}: not a directory", dir.display()));
        }
        let mut errors = Vec::new();
        let summary = match std::fs::read_to_string(dir.join(SUMMARY_FILE)) {
            Ok(text) => match serde_json::from_str(&text) {
                Ok(v) => Some(v),
                Err(e) => {
                    errors.push(format!("{SUMMARY_FILE}: {e}"));
                    None
                }
            },
            Err(_) => None,
        };
        let progress = match std::fs::read_to_string(dir.join(PROGRESS_FILE)) {
            Ok(text) => parse_progress(&text).unwrap_or_else(|e| {
                errors.push(format!("{PROGRESS_FILE}: {e}"));
                Vec::new()
            }),
            Err(_) => Vec::new(),
        };
        let (found, triage_errors) = triage::triage_dir(dir, gpu);
        errors.extend(triage_errors);
        let mut findings = Vec::new();
        for f in found {
            match FindingView::read(dir, f) {
                Ok(v) => findings.push(v),
                Err(e) => errors.push(e),
            }
        }
        Ok(Campaign {
            dir: dir.display().to_string(),
            summary,
            progress,
            findings,
            errors,
        })
    }

    /// Programs per second between consecutive progress lines.
    pub fn rates(&self) -> Vec<Step> {
        self.progress
            .windows(2)
            .filter(|w| w[1].t > w[0].t)
            .map(|w| {
                let dp = w[1].programs.saturating_sub(w[0].programs) as f64;
                Step {
                    from: w[0].t,
                    to: w[1].t,
                    rate: dp / (w[1].t - w[0].t),
                }
            })
            .collect()
    }

    /// Mismatches per triage bucket: the worker's own counts from
    /// `summary.json` (every mismatch, duplicates included), else the
    /// findings of the directory.
    pub fn bucket_counts(&self) -> Vec<(String, u64)> {
        if let Some(b) = self
            .summary
            .as_ref()
            .and_then(|s| s.get("by_bucket"))
            .and_then(Json::as_object)
        {
            return b
                .iter()
                .map(|(k, v)| (k.clone(), v["mismatches"].as_u64().unwrap_or(0)))
                .collect();
        }
        let mut m = std::collections::BTreeMap::<String, u64>::new();
        for f in &self.findings {
            *m.entry(f.triage.bucket.name()).or_default() += 1;
        }
        m.into_iter().collect()
    }

    /// Programs and mismatches per feature, from `summary.json`.
    pub fn feature_counts(&self) -> Vec<(String, u64, u64)> {
        let Some(f) = self
            .summary
            .as_ref()
            .and_then(|s| s.get("by_feature"))
            .and_then(Json::as_object)
        else {
            return Vec::new();
        };
        f.iter()
            .map(|(k, v)| {
                let n = |key: &str| v[key].as_u64().unwrap_or(0);
                (k.clone(), n("programs"), n("mismatches"))
            })
            .collect()
    }
}

impl FindingView {
    fn read(dir: &Path, triage: Finding) -> Result<FindingView, String> {
        let name = triage.name.clone();
        let saved = triage::read_finding(dir, &name)?;
        let path = |ext: &str| dir.join(format!("{name}{ext}"));
        let source = std::fs::read_to_string(path(".py"))
            .map_err(|e| format!("{}: {e}", path(".py").display()))?;
        let spec: Json = std::fs::read_to_string(path(".json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Json::Null);
        let text = |k: &str| spec.get(k).and_then(Json::as_str).map(str::to_string);
        Ok(FindingView {
            source,
            reproduce: text("reproduce"),
            provenance: text("provenance"),
            a: saved.a,
            b: saved.b,
            triage,
        })
    }
}

/// Parses `progress.jsonl` (blank lines aside), sorted by time.
pub fn parse_progress(text: &str) -> Result<Vec<Sample>, String> {
    let mut v = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let j: Json = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        let (Some(t), Some(programs), Some(mismatches)) = (
            j["t"].as_f64(),
            j["programs"].as_u64(),
            j["mismatches"].as_u64(),
        ) else {
            return Err(format!("line {}: want t, programs, mismatches", i + 1));
        };
        v.push(Sample {
            t,
            programs,
            mismatches,
        });
    }
    v.sort_by(|a, b| a.t.total_cmp(&b.t));
    Ok(v)
}

/// Reads the campaign directories and writes the page to `out`.
pub fn write(dirs: &[PathBuf], out: &Path, gpu: bool) -> Result<Vec<Campaign>, String> {
    let campaigns = dirs
        .iter()
        .map(|d| Campaign::read(d, gpu))
        .collect::<Result<Vec<_>, _>>()?;
    let html = page::render(&campaigns);
    std::fs::write(out, html).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(campaigns)
}
