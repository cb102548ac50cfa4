//! Stopping and resuming a campaign. With `--out DIR` a campaign keeps
//! `DIR/checkpoint.json`: how many of its programs are done (a prefix:
//! every program below it checked), the summary of exactly those programs,
//! and what identifies the campaign (seed, dialect, shard, backends,
//! generator configuration). `ksem fuzz … --out DIR --resume` starts after
//! that prefix with that summary, so a campaign stopped at any moment and
//! resumed ends with the summary and findings of one uninterrupted run.

use super::gen::Config;
use super::run::{Options, Summary};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::hash::Hasher;
use std::path::{Path, PathBuf};

/// The checkpoint's file in a campaign directory.
pub const CHECKPOINT_FILE: &str = "checkpoint.json";

/// Where a campaign stands.
#[derive(Clone, Debug, Default)]
pub struct Checkpoint {
    /// Programs of this shard done: local indices `0..done` are all checked.
    pub done: u64,
    /// The summary of exactly those programs.
    pub summary: Summary,
}

/// What a checkpoint must match to be resumed by `o`: the same seed,
/// dialect, shard, backends and generator configuration.
pub fn campaign_key(o: &Options) -> Json {
    let mut h = siphasher::sip::SipHasher13::new_with_keys(0, 0);
    h.write(config_key_text(&o.config).as_bytes());
    json!({
        "seed": o.seed,
        "dialect": o.config.dialect.name(),
        "shard": format!("{}/{}", o.shard.0, o.shard.1),
        "backends": format!("{},{}", o.backends.0, o.backends.1),
        "config": format!("{:016x}", h.finish()),
        "inputs": o.inputs.max(1),
    })
}

/// The text of a generator configuration that a campaign key hashes: its
/// `Debug` form, less what the configs before `--swarm` and before the
/// CUDA Python, TileLang and Hidet feature switches did not have where it
/// has its default (so that their checkpoints still resume).
fn config_key_text(c: &Config) -> String {
    let mut text = format!("{c:?}");
    let d = Config::default();
    for default in [
        format!(", cudapy: {:?}", d.cudapy),
        format!(", tilelang: {:?}", d.tilelang),
        format!(", hidet: {:?}", d.hidet),
    ] {
        text = text.replacen(&default, "", 1);
    }
    text.replace(", swarm: false }", " }")
}

/// Writes `dir/checkpoint.json` (through a temporary file and a rename, so
/// a campaign killed while writing leaves the previous checkpoint whole).
pub fn save(dir: &Path, o: &Options, c: &Checkpoint) -> std::io::Result<()> {
    let j = json!({
        "campaign": campaign_key(o),
        "done": c.done,
        "summary": summary_to_json(&c.summary),
    });
    let tmp = dir.join(format!("{CHECKPOINT_FILE}.tmp"));
    std::fs::write(&tmp, serde_json::to_string_pretty(&j).expect("json") + "\n")?;
    std::fs::rename(tmp, dir.join(CHECKPOINT_FILE))
}

/// Reads the checkpoint of `dir` for the campaign `o`; an error says why it
/// cannot be resumed (none there, unreadable, another campaign's).
pub fn load(dir: &Path, o: &Options) -> Result<Checkpoint, String> {
    let path = dir.join(CHECKPOINT_FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: cannot resume: {e}", path.display()))?;
    let bad = |what: &str| format!("{}: cannot resume: {what}", path.display());
    let j: Json = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
    let want = campaign_key(o);
    if j["campaign"] != want {
        return Err(bad(&format!(
            "it belongs to another campaign ({}); this command is {want}",
            j["campaign"]
        )));
    }
    let done = j["done"].as_u64().ok_or_else(|| bad("no \"done\" count"))?;
    let summary = summary_from_json(&j["summary"]).ok_or_else(|| bad("a malformed summary"))?;
    if summary.programs != done {
        return Err(bad("its summary does not count its done programs"));
    }
    if let Some(c) = o.local_count().filter(|&c| c < done) {
        return Err(bad(&format!(
            "{done} programs of this shard are done, more than --count gives it ({c})"
        )));
    }
    Ok(Checkpoint { done, summary })
}

/// Every field of a summary, as JSON that [`summary_from_json`] reads back.
fn summary_to_json(s: &Summary) -> Json {
    json!({
        "programs": s.programs,
        "checks": s.checks,
        "mismatches": s.mismatches,
        "inexact_mismatches": s.inexact_mismatches,
        "ub_skipped": s.ub_skipped,
        "errors": s.errors,
        "seconds": s.seconds,
        "by_feature": s.by_feature,
        "by_bucket": s.by_bucket,
        "bucket_counts": s.bucket_counts,
        "found": s.found.iter().map(|(i, p, x)| json!([i, p, x])).collect::<Vec<_>>(),
        "error_samples": s.error_samples,
        "ub_samples": s.ub_samples,
    })
}

fn summary_from_json(j: &Json) -> Option<Summary> {
    let u = |k: &str| j[k].as_u64();
    let map = |k: &str| -> Option<BTreeMap<String, Json>> {
        Some(j[k].as_object()?.clone().into_iter().collect())
    };
    let samples = |k: &str| -> Option<Vec<(u64, String)>> {
        j[k].as_array()?
            .iter()
            .map(|x| Some((x[0].as_u64()?, x[1].as_str()?.to_string())))
            .collect()
    };
    Some(Summary {
        programs: u("programs")?,
        checks: u("checks")?,
        mismatches: u("mismatches")?,
        inexact_mismatches: u("inexact_mismatches")?,
        ub_skipped: u("ub_skipped")?,
        errors: u("errors")?,
        seconds: j["seconds"].as_f64()?,
        by_feature: map("by_feature")?
            .into_iter()
            .map(|(k, v)| Some((k, (v[0].as_u64()?, v[1].as_u64()?))))
            .collect::<Option<_>>()?,
        by_bucket: map("by_bucket")?
            .into_iter()
            .map(|(b, sigs)| {
                let sigs = sigs
                    .as_object()?
                    .iter()
                    .map(|(s, i)| Some((s.clone(), i.as_u64()?)))
                    .collect::<Option<_>>()?;
                Some((b, sigs))
            })
            .collect::<Option<_>>()?,
        bucket_counts: map("bucket_counts")?
            .into_iter()
            .map(|(k, v)| Some((k, v.as_u64()?)))
            .collect::<Option<_>>()?,
        found: j["found"]
            .as_array()?
            .iter()
            .map(|x| {
                let path = x[1].as_str().map(PathBuf::from);
                Some((x[0].as_u64()?, path, x[2].as_bool()?))
            })
            .collect::<Option<_>>()?,
        error_samples: samples("error_samples")?,
        ub_samples: samples("ub_samples")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A campaign without swarm mode keys as before the switch existed: the
    /// key of `ksem fuzz --seed 5 --backends interp,interp` is the one
    /// ksem at 7e1d934 wrote into its checkpoint.json (measured), and swarm
    /// mode changes it.
    #[test]
    fn the_key_of_a_campaign_without_swarm_is_unchanged() {
        let mut o = Options {
            seed: 5,
            backends: (
                crate::backend::Backend::Interp,
                crate::backend::Backend::Interp,
            ),
            ..Default::default()
        };
        assert_eq!(campaign_key(&o)["config"], "3644930bdeb69703");
        o.config.swarm = true;
        assert_ne!(campaign_key(&o)["config"], "3644930bdeb69703");
        // a CUDA Python, TileLang or Hidet switch turned off changes it too
        o.config.swarm = false;
        for off in [
            |c: &mut Config| c.cudapy.loops = false,
            |c: &mut Config| c.tilelang.ieee = false,
            |c: &mut Config| c.hidet.complex = false,
        ] {
            let mut p = o.clone();
            off(&mut p.config);
            assert_ne!(campaign_key(&p)["config"], "3644930bdeb69703");
        }
    }

    /// Every field survives the file: a resumed campaign starts from the
    /// very summary it stopped with.
    #[test]
    fn summary_round_trips() {
        let mut s = Summary {
            programs: 7,
            checks: 19,
            mismatches: 2,
            inexact_mismatches: 1,
            ub_skipped: 3,
            errors: 1,
            seconds: 1.25,
            ..Default::default()
        };
        s.by_feature.insert("loop".into(), (5, 1));
        s.by_bucket
            .entry("ksem lowering".into())
            .or_default()
            .insert("sig-a".into(), 4);
        s.bucket_counts.insert("ksem lowering".into(), 2);
        s.found
            .push((4, Some(PathBuf::from("out/fuzz_0_4.py")), false));
        s.found.push((6, None, true));
        s.error_samples.push((1, "launch: bad".into()));
        s.ub_samples.push((2, "out-of-bounds at 3:4: x".into()));
        let back = summary_from_json(&summary_to_json(&s)).expect("reads back");
        assert_eq!(format!("{back:?}"), format!("{s:?}"));
    }
}
