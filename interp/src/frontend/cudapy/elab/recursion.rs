//! Recursive device functions (numba-cuda compiles self-recursion where
//! its types can be inferred: `fib(n - 1) + fib(n - 2)`). ksem inlines
//! device functions, so it inlines a recursive call up to [`MAX_DEPTH`]
//! nested calls of one function; a thread that reaches a call deeper than
//! that ends there and the run is refused (`exceptions::RECURSION_TOO_DEEP`,
//! the Python package's KsemError; the CLI shows the `__ksem_raise`
//! buffer). Each level copies the body once per call site, so a function
//! that calls itself twice elaborates 2^MAX_DEPTH copies at most.

use super::*;

/// Nested calls of one device function ksem inlines.
pub const MAX_DEPTH: usize = 12;

impl Elab<'_> {
    /// How deep `name` is already being inlined.
    pub(super) fn recursion_depth(&self, name: &str) -> usize {
        self.frames.iter().filter(|fr| fr.name == name).count()
    }

    /// A call of `name` one level deeper than ksem inlines: the thread that
    /// reaches it ends and records the refusal. Its value (never used: the
    /// thread has ended) is a zero of the signature's result type.
    pub(super) fn too_deep(&mut self, name: &str, span: Span) -> Val {
        self.fire_kind(exceptions::RECURSION_TOO_DEEP, true, span);
        let d = match self.m.funcs[name].sig.as_ref().map(|(r, _)| *r) {
            Some(SigType::Scalar(d)) => d,
            _ => DType::I64,
        };
        Val::Num(konst(d, 0, span))
    }
}
