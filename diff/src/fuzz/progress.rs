//! A campaign with a progress bar (rate and counts) when stderr is a terminal.

use super::run::{campaign, Options, Summary};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Runs the campaign, drawing progress on a terminal.
pub fn run_with_progress(o: &Options) -> Summary {
    let bar = if std::io::stderr().is_terminal() {
        let b = match o.count {
            Some(n) => ProgressBar::new(n),
            None => ProgressBar::new_spinner(),
        };
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {pos} programs ({per_sec}) {msg}",
            )
            .expect("template"),
        );
        b
    } else {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
    };
    let s = campaign(o, |s| {
        bar.set_position(s.programs);
        bar.set_message(format!(
            "mismatches {} ub_skipped {} errors {}",
            s.mismatches, s.ub_skipped, s.errors
        ));
    });
    bar.finish_and_clear();
    s
}
