//! How a generator feature shows in a printed program: the text tests that
//! each generator's knobs (`gen::Knob::shows`) are made of. A knob's test
//! need not find every use of its feature, only never find one in a
//! program generated without it (and find one in some program with it).

/// Whether `src` contains any of `needles`.
pub fn any(src: &str, needles: &[&str]) -> bool {
    needles.iter().any(|n| src.contains(n))
}

/// Whether some line of `src`, indentation left out, starts with `prefix`.
pub fn line_starts(src: &str, prefix: &str) -> bool {
    src.lines().any(|l| l.trim_start().starts_with(prefix))
}

/// Whether some line of `src` that `keep` accepts contains any of `needles`.
pub fn in_lines(src: &str, keep: impl Fn(&str) -> bool, needles: &[&str]) -> bool {
    src.lines().filter(|l| keep(l)).any(|l| any(l, needles))
}

/// Whether `src` has an `if` statement other than a loop's `if c: break`
/// or `if c: continue`.
pub fn branch(src: &str) -> bool {
    let lines: Vec<&str> = src.lines().map(str::trim).collect();
    lines.iter().enumerate().any(|(k, l)| {
        l.starts_with("if ")
            && !matches!(lines.get(k + 1).copied(), Some("break") | Some("continue"))
    })
}

/// Whether a line is in a function's body (indented), not an import or a
/// module constant.
pub fn indented(l: &str) -> bool {
    l.starts_with(' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tests_look_where_they_say() {
        let src = "x = 1\n    if (a < b):\n        y = a // b\n";
        assert!(any(src, &["//", "%"]) && !any(src, &["%"]));
        assert!(line_starts(src, "if ") && line_starts(src, "y ="));
        assert!(!line_starts(src, "for "));
        assert!(in_lines(src, |l| l.contains('y'), &["//"]));
        assert!(!in_lines(src, |l| l.contains("if"), &["//"]));
        assert!(branch(src));
        assert!(!branch("    if (x > 1):\n        break\n"));
        assert!(indented(" x") && !indented("K1 = 3"));
    }
}
