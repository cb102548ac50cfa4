//! Kernels: parameters, variables, arrays and the programming model.

use super::stmt::Block;
use super::types::{AddrSpace, Type};
use crate::dtype::DType;
use crate::span::Span;
use std::borrow::Cow;

/// Index of a variable slot of a kernel.
pub type VarId = usize;

/// How a kernel parameter is passed.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// A buffer: the variable holds a 0-d pointer to element 0.
    Pointer(DType),
    /// A runtime scalar (0-d tensor).
    Scalar(DType),
    /// Folded at elaboration; no variable.
    Constexpr,
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
    /// The variable that holds it (not for constexprs).
    pub var: Option<VarId>,
}

/// The programming model of a kernel (DESIGN.md "Two programming models").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Model {
    /// One program instance per block computes on whole tiles; control flow
    /// depends only on 0-d values.
    Tile,
    /// Every thread of a block runs the same scalar code; control flow may
    /// diverge between threads.
    Simt,
}

/// Index of an array declaration of a kernel.
pub type ArrayId = usize;

/// A statically shaped array in shared (per block) or local (per thread) memory.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayDecl {
    pub name: String,
    pub dtype: DType,
    pub space: AddrSpace,
    pub shape: Vec<usize>,
    pub span: Span,
}

impl ArrayDecl {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }
    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An elaborated kernel, ready to evaluate or lower.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    pub model: Model,
    /// Blocks of the launch (x, y, z) the kernel was elaborated for.
    pub grid: [u32; 3],
    /// Threads per block (x, y, z); `[1, 1, 1]` for tile programs.
    pub block: [u32; 3],
    pub params: Vec<Param>,
    /// Buffer parameters the kernel makes itself (TileLang's `T.empty`
    /// outputs), with their element counts: where the launch passes no
    /// buffer of that name, a zeroed one is made and reported.
    pub fresh: Vec<(String, usize)>,
    /// Shared and local arrays, allocated at kernel entry.
    pub arrays: Vec<ArrayDecl>,
    /// Type and name of every variable slot.
    pub vars: Vec<(String, Type)>,
    pub body: Block,
    /// Further launches that run after this one, in order, on the same
    /// arguments (TileLang's second `with T.Kernel(…)`): each sees every
    /// global write of the launches before it. Empty for a kernel of one
    /// launch.
    pub then: Vec<NextLaunch>,
}

/// A launch of a kernel after its first: its own grid, threads, arrays,
/// variables and body, on the kernel's parameters. Its variable table
/// holds each parameter's variable at the same slot as the kernel's.
#[derive(Clone, Debug, PartialEq)]
pub struct NextLaunch {
    /// Blocks of this launch (x, y, z).
    pub grid: [u32; 3],
    /// Threads per block (x, y, z).
    pub block: [u32; 3],
    pub arrays: Vec<ArrayDecl>,
    pub vars: Vec<(String, Type)>,
    pub body: Block,
    /// Where the launch begins in the source.
    pub span: Span,
}

impl Kernel {
    /// A SIMT kernel of one launch (`grid` blocks of `block` threads) on
    /// `params`, with the buffers it makes itself (`fresh`), its arrays,
    /// variables and body: what the SIMT front ends build.
    pub fn simt(
        name: &str,
        (grid, block): ([u32; 3], [u32; 3]),
        params: Vec<Param>,
        fresh: Vec<(String, usize)>,
        arrays: Vec<ArrayDecl>,
        vars: Vec<(String, Type)>,
        body: Block,
    ) -> Kernel {
        Kernel {
            name: name.to_string(),
            model: Model::Simt,
            grid,
            block,
            params,
            fresh,
            arrays,
            vars,
            body,
            then: vec![],
        }
    }

    /// Every launch of the kernel, in the order they run, each as a kernel
    /// of one launch with the kernel's name, model and parameters: what the
    /// evaluator runs and the lowering emits one after the other.
    pub fn launches(&self) -> Vec<Cow<'_, Kernel>> {
        if self.then.is_empty() {
            return vec![Cow::Borrowed(self)];
        }
        let first = Kernel {
            then: Vec::new(),
            ..self.clone()
        };
        let rest = self.then.iter().map(|l| Kernel {
            name: self.name.clone(),
            model: self.model,
            grid: l.grid,
            block: l.block,
            params: self.params.clone(),
            fresh: self.fresh.clone(),
            arrays: l.arrays.clone(),
            vars: l.vars.clone(),
            body: l.body.clone(),
            then: Vec::new(),
        });
        std::iter::once(first).chain(rest).map(Cow::Owned).collect()
    }
}
