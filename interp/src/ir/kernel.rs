//! Kernels: parameters, variables, arrays and the programming model.

use super::stmt::Block;
use super::types::{AddrSpace, Type};
use crate::dtype::DType;
use crate::span::Span;

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
}
