//! UB reports rendered in rustc style (codespan-reporting): the primary
//! span where the UB happens and, for a data race, a secondary span at the
//! other access, each naming the program instance and thread.

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::NoColor};
use ksem_interp::launch::UbReport;
use std::ops::Range;

/// The byte range of the token starting at 1-based `line`:`col` (columns
/// count characters) of `src`; an empty range at the end where out of range.
fn token_at(src: &str, line: u32, col: u32) -> Range<usize> {
    let mut start = 0;
    for (i, l) in src.split_inclusive('\n').enumerate() {
        if i + 1 == line as usize {
            let from = l
                .char_indices()
                .nth(col.saturating_sub(1) as usize)
                .map_or(l.len(), |(b, _)| b);
            let rest = &l[from..];
            let len = rest
                .find(|c: char| c.is_whitespace() || c == '(' || c == ',' || c == ')')
                .unwrap_or(rest.len())
                .max(rest.chars().next().map_or(0, char::len_utf8));
            return start + from..start + from + len;
        }
        start += l.len();
    }
    src.len()..src.len()
}

fn who(program: [u32; 3], thread: Option<[u32; 3]>) -> String {
    let p = format!("program ({},{},{})", program[0], program[1], program[2]);
    match thread {
        Some(t) => format!("{p}, thread ({},{},{})", t[0], t[1], t[2]),
        None => p,
    }
}

/// `u` rendered against the source it was found in.
pub fn ub_report(file: &str, src: &str, u: &UbReport) -> String {
    let f = SimpleFile::new(file, src);
    let mut labels = vec![Label::primary((), token_at(src, u.line, u.col))
        .with_message(format!("{} here", who(u.program, u.thread)))];
    if let Some(o) = &u.other {
        labels.push(
            Label::secondary((), token_at(src, o.line, o.col))
                .with_message(format!("the other access: {}", who(o.program, o.thread))),
        );
    }
    let mut notes = vec![u.message.clone()];
    if !u.element.is_empty() {
        notes.push(format!("element {:?}", u.element));
    }
    let d = Diagnostic::error()
        .with_message(format!("undefined behaviour: {}", u.kind))
        .with_labels(labels)
        .with_notes(notes);
    let mut out = NoColor::new(Vec::new());
    let config = term::Config::default();
    if term::emit(&mut out, &config, &f, &d).is_err() {
        return format!(
            "{file}:{}:{}: undefined behaviour: {}\n",
            u.line, u.col, u.kind
        );
    }
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ksem_interp::launch::UbSite;

    #[test]
    fn a_race_shows_both_accesses() {
        let src = "def k(o):\n    s[i] = i\n    o[i] = s[i + 1]\n";
        let mut u = UbReport::new(
            "data-race",
            3,
            12,
            [0, 0, 0],
            vec![1],
            "data race on shared0[1]".into(),
        );
        u.thread = Some([0, 0, 0]);
        u.other = Some(UbSite {
            line: 2,
            col: 5,
            program: [0, 0, 0],
            thread: Some([1, 0, 0]),
        });
        let r = ub_report("k.py", src, &u);
        assert!(
            r.starts_with("error: undefined behaviour: data-race"),
            "{r}"
        );
        assert!(r.contains("k.py:3:12"), "{r}");
        assert!(r.contains("program (0,0,0), thread (0,0,0) here"), "{r}");
        assert!(
            r.contains("the other access: program (0,0,0), thread (1,0,0)"),
            "{r}"
        );
        assert!(
            r.contains("s[i] = i") && r.contains("o[i] = s[i + 1]"),
            "{r}"
        );
        assert_eq!(token_at(src, 2, 5), 14..18);
    }
}
