//! Which kernel of a file a launch elaborates, decided once for every
//! front end: the one named (by `--kernel` or the launch's `"kernel"`),
//! else the file's only kernel; with one message form for a name the file
//! does not define, a file with no kernel and one with several.

use crate::span::{DResult, Diagnostic, Span};

/// How a dialect calls, in messages, the functions a launch may name
/// (`function`) and its kernels (`kernel`).
pub struct Words {
    /// What a launch may name: "@triton.jit function".
    pub function: &'static str,
    /// What the file must have one of: "@cuda.jit kernel".
    pub kernel: &'static str,
}

/// The kernel to elaborate: `want` where given (one of `defined`, the
/// file's functions in source order), else the only one of them that
/// `is_kernel`. Errors point at the file's start.
pub fn pick_kernel(
    want: Option<&str>,
    defined: &[&str],
    is_kernel: impl Fn(&str) -> bool,
    words: Words,
) -> DResult<String> {
    let top = Span { line: 1, col: 1 };
    if let Some(n) = want {
        if defined.contains(&n) {
            return Ok(n.to_string());
        }
        return Err(
            Diagnostic::new(top, format!("no {} named `{n}`", words.function))
                .with_help(format!("the file defines: {}", defined.join(", "))),
        );
    }
    let kernels: Vec<&str> = defined.iter().copied().filter(|n| is_kernel(n)).collect();
    match kernels.as_slice() {
        [one] => Ok(one.to_string()),
        [] => Err(Diagnostic::new(
            top,
            format!("the file has no {}", words.kernel),
        )),
        _ => Err(
            Diagnostic::new(top, "the file has several kernels; say which one").with_help(format!(
                "pass --kernel NAME or \"kernel\" in the launch (one of: {})",
                kernels.join(", ")
            )),
        ),
    }
}
