//! The frames of a SIMT front end that inlines its device functions (CUDA
//! Python, Hidet): one frame per function being elaborated, the kernel's
//! at the bottom. An inlined function runs in a one-trip loop; its
//! `return` sets the function's "returned" flag and leaves that loop, and a
//! loop inside it that a `return` left is followed by `if done { break }`.
//! The dialect keeps its names (`S`) and its other results (`R`) in the
//! frame; what every inlining front end does with a frame is here.

use super::simt::{self, Blocks};
use crate::dtype::DType;
use crate::ir::{build, Stmt, Type, VarId};
use crate::span::{DResult, Span};
use std::ops::{Deref, DerefMut};

/// The inlining state of a function being inlined; `R` is the dialect's
/// own state of its results (complex parts, a tuple, a declared type).
pub struct Inline<R> {
    /// Set when the function has returned (checked after inner loops).
    pub done: VarId,
    /// The scalar result variable, made at the first `return` of a value.
    pub ret: Option<VarId>,
    /// The dialect's other result state.
    pub more: R,
}

impl<R> Deref for Inline<R> {
    type Target = R;
    fn deref(&self) -> &R {
        &self.more
    }
}

impl<R> DerefMut for Inline<R> {
    fn deref_mut(&mut self) -> &mut R {
        &mut self.more
    }
}

/// One function being elaborated: the kernel (`inline` is `None`) or an
/// inlined function; `S` is the dialect's state of its names, which the
/// frame derefs to.
pub struct Frame<S, R> {
    /// The function's name.
    pub name: String,
    /// Loops of this function enclosing the current statement.
    pub loops: usize,
    /// The inlining state; `None` in the kernel's own frame.
    pub inline: Option<Inline<R>>,
    /// The dialect's names and scopes.
    pub scope: S,
}

impl<S, R> Deref for Frame<S, R> {
    type Target = S;
    fn deref(&self) -> &S {
        &self.scope
    }
}

impl<S, R> DerefMut for Frame<S, R> {
    fn deref_mut(&mut self) -> &mut S {
        &mut self.scope
    }
}

impl<S, R> Frame<S, R> {
    /// The frame of kernel `name`, with its parameters' names in `scope`.
    pub fn kernel(name: &str, scope: S) -> Self {
        Frame {
            name: name.to_string(),
            loops: 0,
            inline: None,
            scope,
        }
    }
}

/// An elaborator that inlines functions: it owns a stack of [`Frame`]s
/// (the last is the function being elaborated).
pub trait Frames: Blocks {
    /// The dialect's names of one function.
    type Scope;
    /// The dialect's result state of an inlined function.
    type Ret;

    /// The frames, innermost last.
    fn frames(&self) -> &Vec<Frame<Self::Scope, Self::Ret>>;
    /// The frames, to change.
    fn frames_mut(&mut self) -> &mut Vec<Frame<Self::Scope, Self::Ret>>;

    /// The frame of the function being elaborated.
    fn frame(&mut self) -> &mut Frame<Self::Scope, Self::Ret> {
        self.frames_mut()
            .last_mut()
            .expect("a function is being elaborated")
    }

    /// Whether a loop of the current function encloses this statement
    /// (a `break` of an inlined function's body cannot leave its caller's
    /// loop).
    fn loop_open(&self) -> bool {
        self.frames().last().map_or(0, |f| f.loops) > 0
    }

    /// After a loop inside an inlined function: a `return` in it left only
    /// that loop, so leave the function's one-trip loop too.
    fn after_loop(&mut self) {
        let done = self
            .frames()
            .last()
            .and_then(|f| f.inline.as_ref())
            .map(|inl| inl.done);
        self.leave_if_returned(done);
    }

    /// Inlines function `name` at a call: its frame (names `scope`, result
    /// state `more`), its body elaborated by `body` into a one-trip loop
    /// emitted here, after its "returned" flag is cleared. Gives back the
    /// function's inlining state (its results).
    fn inline_call(
        &mut self,
        name: &str,
        (scope, more): (Self::Scope, Self::Ret),
        body: impl FnOnce(&mut Self) -> DResult<()>,
        span: Span,
    ) -> DResult<Inline<Self::Ret>>
    where
        Self: Sized,
    {
        let done = self.new_var(&format!("{name}.done"), Type::scalar(DType::Bool));
        self.emit(Stmt::Let(done, build::konst(DType::Bool, 0, span)));
        self.frames_mut().push(Frame {
            name: name.to_string(),
            loops: 0,
            inline: Some(Inline {
                done,
                ret: None,
                more,
            }),
            scope,
        });
        let (r, block) = self.collect(body);
        let frame = self.frames_mut().pop().expect("pushed above");
        r?;
        let once = self.new_var("_once", Type::scalar(DType::I32));
        self.emit(simt::once_loop(once, block, span));
        Ok(frame.inline.expect("an inlined frame"))
    }

    /// The inlined function's scalar result variable: the one its first
    /// `return` of a value made, else a fresh `name.ret` of dtype `d`.
    fn result_var(&mut self, d: DType) -> VarId {
        let frame = self.frames().last().expect("a frame");
        let name = format!("{}.ret", frame.name);
        if let Some(id) = frame.inline.as_ref().and_then(|i| i.ret) {
            return id;
        }
        let id = self.new_var(&name, Type::scalar(d));
        if let Some(inl) = &mut self.frame().inline {
            inl.ret = Some(id);
        }
        id
    }

    /// The end of a `return` in an inlined function whose "returned" flag
    /// is `done`: the flag is set and its one-trip loop is left.
    fn leave_function(&mut self, done: VarId, span: Span) {
        self.emit(Stmt::Let(done, build::konst(DType::Bool, 1, span)));
        self.emit(Stmt::Break);
    }
}

/// Implements [`Frames`] for an elaborator type whose field `frames` is
/// its stack of frames, with the dialect's scope and result types.
macro_rules! impl_frames {
    ($t:ty, $scope:ty, $ret:ty) => {
        impl $crate::frontend::py::inline::Frames for $t {
            type Scope = $scope;
            type Ret = $ret;
            fn frames(&self) -> &Vec<$crate::frontend::py::inline::Frame<$scope, $ret>> {
                &self.frames
            }
            fn frames_mut(
                &mut self,
            ) -> &mut Vec<$crate::frontend::py::inline::Frame<$scope, $ret>> {
                &mut self.frames
            }
        }
    };
}
pub(crate) use impl_frames;
