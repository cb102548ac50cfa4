//! Diagnostics and UB reports as text, in rustc style (codespan-reporting).
//! A source error starts with the one line DESIGN.md fixes,
//! `file:line:col: error: message`, then shows the source with the span
//! underlined and the supported alternative as `= help:`. A UB report has
//! the primary span where the UB happens and, for a data race, a secondary
//! span at the other access, each naming the program instance and thread;
//! its helps are its kind's row of the UB table (`ub.rs`): the rule that
//! makes it UB and the section of docs/semantics.md that says so.

use crate::launch::UbReport;
use crate::ops::UbKind;
use crate::span::Diagnostic;
use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::NoColor};
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
            let rest = l[from..].trim_end_matches(['\n', '\r']);
            if rest.is_empty() {
                // past the end of the line: an empty label there
                return start + from..start + from;
            }
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

/// `r` as plain text against `src`; `None` where codespan cannot (a span
/// outside the file).
fn emit(file: &str, src: &str, r: &Report<()>) -> Option<String> {
    let f = SimpleFile::new(file, src);
    let mut out = NoColor::new(Vec::new());
    term::emit(&mut out, &term::Config::default(), &f, r).ok()?;
    Some(String::from_utf8_lossy(&out.into_inner()).into_owned())
}

/// `d` rendered against the source it points into: the first line is
/// `file:line:col: error: message` (a position of line 0 means none and is
/// left out), then the source excerpt and the help.
pub fn diagnostic(file: &str, src: &str, d: &Diagnostic) -> String {
    let mut out = if d.span.line == 0 {
        format!("{file}: error: {}\n", d.message)
    } else {
        format!(
            "{file}:{}:{}: error: {}\n",
            d.span.line, d.span.col, d.message
        )
    };
    let help: Vec<String> = d.help.iter().map(|h| format!("help: {h}")).collect();
    if d.span.line > 0 && d.span.line as usize <= src.lines().count() {
        let r = Report::error()
            .with_labels(vec![Label::primary(
                (),
                token_at(src, d.span.line, d.span.col),
            )])
            .with_notes(help.clone());
        if let Some(text) = emit(file, src, &r) {
            // codespan's own header line repeats what the first line says
            out.push_str(text.split_once('\n').map_or("", |(_, body)| body));
            return out;
        }
    }
    for h in help {
        out.push_str(&h);
        out.push('\n');
    }
    out
}

/// The one-line form of a UB report: `file:line:col: undefined behaviour:
/// kind: message (program (x,y,z)[, thread (x,y,z)], element [..])`.
pub fn ub_headline(file: &str, u: &UbReport) -> String {
    format!(
        "{file}:{}:{}: undefined behaviour: {}: {} ({}, element {:?})",
        u.line,
        u.col,
        u.kind,
        u.message,
        who(u.program, u.thread),
        u.element
    )
}

/// `u` rendered against the source it was found in.
pub fn ub_report(file: &str, src: &str, u: &UbReport) -> String {
    let mut labels = vec![Label::primary((), token_at(src, u.line, u.col))
        .with_message(format!("{} here", who(u.program, u.thread)))];
    if let Some(o) = &u.other {
        let what = if u.ub_kind() == Some(UbKind::UndefinedValue) {
            "the undefined value was made here"
        } else {
            "the other access"
        };
        labels.push(
            Label::secondary((), token_at(src, o.line, o.col))
                .with_message(format!("{what}: {}", who(o.program, o.thread))),
        );
    }
    let mut notes = vec![u.message.clone()];
    if !u.element.is_empty() {
        notes.push(format!("element {:?}", u.element));
    }
    if let Some(k) = u.ub_kind() {
        let info = k.info();
        notes.push(format!("help: undefined because {}", info.rule));
        notes.push(format!("help: see docs/semantics.md#{}", info.section));
    }
    let r = Report::error()
        .with_message(format!("undefined behaviour: {}", u.kind))
        .with_labels(labels)
        .with_notes(notes);
    emit(file, src, &r).unwrap_or_else(|| {
        format!(
            "{file}:{}:{}: undefined behaviour: {}\n",
            u.line, u.col, u.kind
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::UbSite;
    use crate::span::Span;

    #[test]
    fn a_source_error_keeps_its_first_line_and_underlines_the_token() {
        let src = "def k(o):\n    x = lambda y: y\n";
        let d = Diagnostic::new(Span { line: 2, col: 9 }, "`lambda` is not supported")
            .with_help("define a function");
        let r = diagnostic("k.py", src, &d);
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(
            lines[0], "k.py:2:9: error: `lambda` is not supported",
            "{r}"
        );
        assert!(r.contains("x = lambda y: y"), "{r}");
        // the caret run starts under column 9 of the source line ("lambda")
        let src_line = lines.iter().position(|l| l.contains("x = lambda")).unwrap();
        let text_at = lines[src_line].find("x = lambda").unwrap() + 4;
        let carets = lines[src_line + 1];
        assert_eq!(carets.find('^'), Some(text_at), "{r}");
        assert_eq!(carets.matches('^').count(), "lambda".len(), "{r}");
        assert!(r.contains("= help: define a function"), "{r}");
    }

    #[test]
    fn an_error_without_a_position_is_one_line() {
        let d = Diagnostic::new(Span::default(), "no kernel");
        assert_eq!(diagnostic("k.py", "", &d), "k.py: error: no kernel\n");
    }

    #[test]
    fn a_race_shows_both_accesses() {
        let src = "def k(o):\n    s[i] = i\n    o[i] = s[i + 1]\n";
        let mut u = UbReport::new(
            UbKind::DataRace,
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

    #[test]
    fn a_report_says_which_rule_makes_it_ub_and_where_the_docs_say_so() {
        let src = "def k(o, n):\n    o[0] = 1 // n\n";
        let u = UbReport::new(
            UbKind::DivisionByZero,
            2,
            14,
            [0, 0, 0],
            vec![],
            "IDiv of int32 values 1 and 0".into(),
        );
        let r = ub_report("k.py", src, &u);
        let rule = UbKind::DivisionByZero.info().rule;
        assert!(
            r.contains(&format!("= help: undefined because {rule}")),
            "{r}"
        );
        assert!(
            r.contains("= help: see docs/semantics.md#division-by-zero"),
            "{r}"
        );
        // the one-line form stays one line
        assert_eq!(
            ub_headline("k.py", &u),
            "k.py:2:14: undefined behaviour: division-by-zero: IDiv of int32 values 1 and 0 (program (0,0,0), element [])"
        );
    }
}
