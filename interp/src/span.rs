//! Source positions and the diagnostics that point at them.

use std::fmt;

/// A 1-based line and column in a source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Maps byte offsets of a source text to line and column.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(src: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }
    /// The span of a byte offset (columns count characters, from 1).
    pub fn span(&self, src: &str, offset: usize) -> Span {
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let col = src
            .get(start..offset.min(src.len()))
            .map_or(offset - start, |s| s.chars().count());
        Span {
            line: line as u32,
            col: col as u32 + 1,
        }
    }
}

/// What a diagnostic is about: the input is wrong, or it uses a construct
/// ksem does not support (and the help names the supported alternative).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiagKind {
    #[default]
    Error,
    Unsupported,
}

/// A user-facing error: `file:line:col: error: message`, the source line, and a hint.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub span: Span,
    pub message: String,
    /// The supported alternative, when there is one.
    pub help: Option<String>,
    pub kind: DiagKind,
}

/// The error `msg` at `span`: how every front end refuses.
pub fn err<T>(span: Span, msg: impl Into<String>) -> DResult<T> {
    Err(Diagnostic::new(span, msg))
}

/// The error `msg` at `span`, with the supported alternative `help`.
pub fn err_help<T>(span: Span, msg: impl Into<String>, help: impl Into<String>) -> DResult<T> {
    Err(Diagnostic::new(span, msg).with_help(help))
}

impl Diagnostic {
    pub fn new(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            span,
            message: message.into(),
            help: None,
            kind: DiagKind::Error,
        }
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    /// The same diagnostic, marked as reporting an unsupported construct.
    pub fn unsupported(mut self) -> Diagnostic {
        self.kind = DiagKind::Unsupported;
        self
    }
    /// Renders the diagnostic against the source it points into
    /// ([`crate::render::diagnostic`]).
    pub fn render(&self, file: &str, src: &str) -> String {
        crate::render::diagnostic(file, src, self)
    }
}

/// Result of a step that can fail with a diagnostic.
pub type DResult<T> = Result<T, Diagnostic>;
