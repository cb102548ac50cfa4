//! Points Python syntax errors where CPython does: at the bracket that was
//! never closed, or at the quote of an unterminated string, rather than at
//! the token where the parser gave up.

/// A bracket or string still open at some point of a source text.
#[derive(Debug, PartialEq)]
enum Open {
    Bracket(usize, char),
    Str(usize),
}

/// Scans `src[..end]`, skipping comments and strings; returns what is left
/// open (innermost last).
fn open_at(src: &str, end: usize) -> Vec<Open> {
    let b = src.as_bytes();
    let mut stack = Vec::new();
    let mut i = 0;
    while i < end.min(b.len()) {
        let c = b[i];
        match c {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                let triple = b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&c);
                let start = i;
                i += if triple { 3 } else { 1 };
                let mut closed = false;
                while i < end.min(b.len()) {
                    if b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if !triple && b[i] == b'\n' {
                        break;
                    }
                    if b[i] == c
                        && (!triple || (b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&c)))
                    {
                        i += if triple { 3 } else { 1 };
                        closed = true;
                        break;
                    }
                    i += 1;
                }
                if !closed {
                    stack.push(Open::Str(start));
                    return stack;
                }
                continue;
            }
            b'(' | b'[' | b'{' => stack.push(Open::Bracket(i, c as char)),
            b')' | b']' | b'}' => {
                if matches!(stack.last(), Some(Open::Bracket(..))) {
                    stack.pop();
                }
            }
            _ => {}
        }
        i += 1;
    }
    stack
}

/// Where and how to report a syntax error the parser found at `offset`.
pub fn locate(src: &str, offset: usize, message: &str) -> (usize, String) {
    let line_start = src[..offset.min(src.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    match open_at(src, offset).pop() {
        Some(Open::Str(at)) => (
            at,
            "invalid Python syntax: unterminated string literal".into(),
        ),
        Some(Open::Bracket(at, c)) if at < line_start => {
            (at, format!("invalid Python syntax: '{c}' was never closed"))
        }
        _ => (offset, format!("invalid Python syntax: {message}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts the offset and message `locate` gives for a parser error
    /// `token` at the first `c` of `src`.
    fn check(src: &str, c: char, token: &str, want_at: usize, want: &str) {
        let (at, msg) = locate(src, src.find(c).unwrap(), token);
        assert_eq!((at, msg.as_str()), (want_at, want));
    }

    #[test]
    fn unclosed_bracket_on_an_earlier_line() {
        let src = "x = (1 + 2\ny = 3\n";
        check(
            src,
            'y',
            "unexpected token",
            4,
            "invalid Python syntax: '(' was never closed",
        );
    }

    #[test]
    fn unterminated_string() {
        let src = "f(\"abc)\ny = 3\n";
        check(
            src,
            'y',
            "EOL",
            2,
            "invalid Python syntax: unterminated string literal",
        );
    }

    #[test]
    fn brackets_inside_strings_and_comments_do_not_count() {
        let src = "x = '(' # (\ny = 3 +\n";
        let (at, msg) = locate(src, src.len() - 1, "unexpected newline");
        assert_eq!(at, src.len() - 1);
        assert!(msg.starts_with("invalid Python syntax"));
    }
}
