//! Expressions of the IR.

use super::kernel::{ArrayId, VarId};
use super::op::*;
use super::stmt::Block;
use super::types::Type;
use crate::span::Span;

/// The combining function of a reduction.
#[derive(Clone, Debug, PartialEq)]
pub enum Combiner {
    Sum,
    /// Float max/min follow `NanMode`.
    Max(NanMode),
    Min(NanMode),
    Xor,
    /// Triton's argmax combine (ties: lowest index); `value` selects the
    /// value half of the (value, index) result instead of the index.
    ArgMax {
        value: bool,
    },
    ArgMin {
        value: bool,
    },
    /// A user combine function: `body` computes `result` from vars `lhs`, `rhs` (0-d).
    Custom {
        lhs: VarId,
        rhs: VarId,
        body: Block,
        result: Box<Expr>,
    },
}

impl Combiner {
    /// How messages name a reduction by this combiner.
    pub fn describe(&self) -> &'static str {
        match self {
            Combiner::Sum => "reduction (sum)",
            Combiner::Max(_) => "reduction (max)",
            Combiner::Min(_) => "reduction (min)",
            Combiner::Xor => "reduction (xor_sum)",
            Combiner::ArgMax { value: false } => "reduction (argmax)",
            Combiner::ArgMin { value: false } => "reduction (argmin)",
            Combiner::ArgMax { value: true } => "reduction (max with index)",
            Combiner::ArgMin { value: true } => "reduction (min with index)",
            Combiner::Custom { .. } => "reduction (custom combine)",
        }
    }
}

/// A user combine function over N operands (`tl.reduce` over a tuple,
/// `tl.associative_scan`): `body` (straight-line `Let`s) computes `results`,
/// N 0-d values whose dtypes are the operands' dtypes, from the 0-d vars
/// `lhs` (the accumulated or lower-index side, one per operand) and `rhs`
/// (the other side). The one-operand `tl.reduce` form is [`Combiner::Custom`].
#[derive(Clone, Debug, PartialEq)]
pub struct Combine {
    pub lhs: Vec<VarId>,
    pub rhs: Vec<VarId>,
    pub body: Block,
    pub results: Vec<Expr>,
}

/// What a negative array index means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NegIndex {
    /// Out of bounds (UB).
    Ub,
    /// Counts from the end (`a[-1]` is the last element), as in Python.
    Wrap,
}

/// A typed expression node.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub span: Span,
}

/// Expression forms. Operands of element-wise nodes have equal shapes
/// except where noted.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A 0-d constant (raw bits of `ty`).
    Const(u64),
    Var(VarId),
    /// The block's index along a dimension (0: x, 1: y, 2: z).
    BlockId(u8),
    /// The number of blocks of the launch along a dimension.
    GridDim(u8),
    /// The thread's index in its block along a dimension (SIMT programs).
    ThreadId(u8),
    /// The number of threads per block along a dimension (SIMT programs).
    BlockDim(u8),
    /// A one-dimensional tile of the int32 values start..end.
    Iota(i64, i64),
    /// A value the language leaves undefined (of shape `ty.shape`): the
    /// `other` of a Triton load that gives none. Its bits are 0, what the
    /// GPU backends give; the interpreter tracks it as undefined
    /// (`eval::undef`), so that its uses are reported.
    Undef,
    /// Broadcast to `ty.shape` (same rank; size-1 dims expand; 0-d splats).
    Broadcast(Box<Expr>),
    /// Same elements in row-major order, new shape `ty.shape`.
    Reshape(Box<Expr>),
    /// Axes permutation: result axis i is operand axis `perm[i]`.
    Permute(Box<Expr>, Vec<usize>),
    Cast(Box<Expr>, CastKind),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Element-wise `cond ? a : b` (cond is bool).
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Fused multiply-add `a*b+c` with one rounding, in the given mode
    /// (round-to-nearest-even but for TileLang's `T.ieee_fmaf(…, "rz")` …).
    Fma(Box<Expr>, Box<Expr>, Box<Expr>, crate::float::Rounding),
    /// Load through a tile of pointers; masked-off lanes take `other` (or 0;
    /// `ExprKind::Undef` where the language leaves them undefined).
    Load {
        ptr: Box<Expr>,
        mask: Option<Box<Expr>>,
        other: Option<Box<Expr>>,
    },
    /// Pointer to element 0 of a shared or local array of the kernel.
    ArrayBase(ArrayId),
    /// Pointer to element `indices` of a row-major array of shape `dims`
    /// starting at `base`; an index outside the dimension is UB
    /// (out-of-bounds index), after negative indices are treated as `neg` says.
    ElemPtr {
        base: Box<Expr>,
        indices: Vec<Expr>,
        dims: Vec<usize>,
        neg: NegIndex,
        /// The element offset once every index is within its dimension:
        /// `None` is row-major; `Some(o)` is an integer expression the front
        /// end computed from the same indices (a layout other than
        /// row-major, e.g. Hidet's column-major or composed layouts).
        offset: Option<Box<Expr>>,
    },
    /// An index into a dimension whose length is a runtime value (a CUDA
    /// Python view with runtime bounds): `index` and `len` are 0-d integers
    /// of one dtype, and so is the value, the index (plus `len` where it is
    /// negative and `neg` is `Wrap`). Outside `[0, len)` it is UB
    /// (out-of-bounds index, reported as of `axis`); the GPU lowering gives
    /// -1 there, which the element pointer it feeds then refuses.
    CheckIndex {
        index: Box<Expr>,
        len: Box<Expr>,
        neg: NegIndex,
        axis: usize,
    },
    /// Atomic read-modify-write of the element at `ptr` (element-wise over a
    /// tile of pointers, lanes in row-major order); the value is the
    /// element's old value. `cmp` is the compared value of `Cas`. Lanes
    /// where `mask` (tile programs only) is false touch no memory and give 0.
    Atomic {
        op: AtomicOp,
        ptr: Box<Expr>,
        val: Box<Expr>,
        cmp: Option<Box<Expr>>,
        mask: Option<Box<Expr>>,
    },
    /// Reduction along `axis` (`None`: all elements) in the canonical order.
    Reduce {
        arg: Box<Expr>,
        axis: Option<usize>,
        keep_dims: bool,
        combiner: Box<Combiner>,
    },
    /// Inclusive scan (prefix combination) along `axis`, in sequential order:
    /// `y[0] = x[0]`, `y[i] = op(y[i-1], x[i])` (with `reverse`, from the last
    /// element: `y[n-1] = x[n-1]`, `y[i] = op(y[i+1], x[i])`). `op` is
    /// `BinOp::Add` or `BinOp::Mul`; the result has the argument's type.
    Scan {
        arg: Box<Expr>,
        axis: usize,
        reverse: bool,
        op: BinOp,
    },
    /// Result `pick` of a reduction of N equally shaped operands along
    /// `axis` with a user [`Combine`], in the canonical tree order of
    /// `Reduce` (the axis is a power of two): for s = n/2, …, 1 and i < s,
    /// the N-tuple at i becomes `combine(tuple[i], tuple[i+s])`; the result
    /// is tuple 0. The type is operand `pick`'s dtype over the other axes.
    TupleReduce {
        args: Vec<Expr>,
        axis: usize,
        combine: Box<Combine>,
        pick: usize,
    },
    /// Result `pick` of an inclusive scan of N equally shaped operands along
    /// `axis` with a user [`Combine`], in `Scan`'s sequential order: tuple
    /// `y[0] = x[0]`, `y[i] = combine(y[i-1], x[i])` (with `reverse`:
    /// `y[n-1] = x[n-1]`, `y[i] = combine(y[i+1], x[i])`), the accumulated
    /// tuple always the left (`lhs`) side. The type is operand `pick`'s.
    TupleScan {
        args: Vec<Expr>,
        axis: usize,
        reverse: bool,
        combine: Box<Combine>,
        pick: usize,
    },
    /// Matrix product over the last two axes, batched over the leading ones:
    /// `a` is `[.., M, K]`, `b` is `[.., K, N]`, `acc` and the result are
    /// `[.., M, N]`, all four of one number dtype (the front end converts the
    /// operands to the accumulator's dtype first). Each result element starts
    /// from `acc[.., i, j]` and then, for k = 0, 1, …, K-1 in ascending order,
    /// `r = r + a[.., i, k] * b[.., k, j]`: every product and every sum is an
    /// ordinary `Mul`/`Add` of the dtype (rounded once each, never fused;
    /// integers wrap). `precision` says how float32 operands are rounded first.
    Dot {
        a: Box<Expr>,
        b: Box<Expr>,
        acc: Box<Expr>,
        precision: DotPrecision,
    },
}
