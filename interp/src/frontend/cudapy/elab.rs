//! Placeholder while the elaborator is written.
use super::Module;
use crate::ir::Kernel;
use crate::launch::Launch;
use crate::span::{DResult, Diagnostic, Span};

pub struct Elab<'m> {
    m: &'m Module,
}

impl<'m> Elab<'m> {
    pub fn new(m: &'m Module) -> Self {
        Elab { m }
    }
    pub fn kernel(&self, name: &str, _launch: &Launch) -> DResult<Kernel> {
        let _ = self.m;
        Err(Diagnostic::new(
            Span { line: 1, col: 1 },
            format!("CUDA Python kernel `{name}` is not supported yet"),
        ))
    }
}
