//! A campaign with a progress bar (rate, counts and the time left) when
//! stderr is a terminal; `fuzz --out` also records progress in the
//! directory (`progress.jsonl`) for logs and the report page.

use super::run::{campaign, Options, Summary};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Runs the campaign, drawing progress on a terminal.
pub fn run_with_progress(o: &Options) -> Summary {
    let bar = if std::io::stderr().is_terminal() {
        let (b, template) = match o.count {
            // the programs of this shard, and the time they will take at this rate
            Some(_) => (
                ProgressBar::new(o.local_count().unwrap_or(0)),
                "{spinner} [{elapsed_precise}] {pos}/{len} programs ({per_sec}, ETA {eta}) {msg}",
            ),
            None => (
                ProgressBar::new_spinner(),
                "{spinner} [{elapsed_precise}] {pos} programs ({per_sec}) {msg}",
            ),
        };
        b.set_style(ProgressStyle::with_template(template).expect("template"));
        b
    } else {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
    };
    // a resumed campaign: its rate and ETA from this run's programs only
    if let Some(c) = &o.resume {
        bar.set_position(c.done);
        bar.reset_eta();
    }
    let started = std::time::Instant::now();
    let s = campaign(o, |s| {
        bar.set_position(s.programs);
        // a campaign bounded by time: the time left
        let left = o
            .time
            .map(|t| {
                format!(
                    ", {:.0} s left",
                    (t.as_secs_f64() - started.elapsed().as_secs_f64()).max(0.0)
                )
            })
            .unwrap_or_default();
        bar.set_message(format!(
            "mismatches {} ub_skipped {} errors {}{left}",
            s.mismatches, s.ub_skipped, s.errors
        ));
    });
    bar.finish_and_clear();
    s
}
