//! The typed program: the one contract between elaboration, the evaluator
//! and the CUDA lowering. Every implicit conversion is an explicit node,
//! every operation carries its exact meaning, dtype, shape and source span.

use crate::dtype::DType;
use crate::float::{Overflow, Rounding};
use crate::span::Span;

/// Index of a variable slot of a kernel.
pub type VarId = usize;

/// Element type of a tile: a number or a pointer to numbers of a dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    Num(DType),
    Ptr(DType),
}

/// Element type plus shape (empty shape: a 0-d value, e.g. `program_id`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    pub elem: Elem,
    pub shape: Vec<usize>,
}

impl Type {
    pub fn num(d: DType, shape: Vec<usize>) -> Type {
        Type {
            elem: Elem::Num(d),
            shape,
        }
    }
    pub fn scalar(d: DType) -> Type {
        Type::num(d, vec![])
    }
    /// The numeric dtype (for pointers: the pointee's dtype).
    pub fn dtype(&self) -> DType {
        match self.elem {
            Elem::Num(d) | Elem::Ptr(d) => d,
        }
    }
    pub fn is_ptr(&self) -> bool {
        matches!(self.elem, Elem::Ptr(_))
    }
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }
    pub fn with_shape(&self, shape: Vec<usize>) -> Type {
        Type {
            elem: self.elem,
            shape,
        }
    }
    pub fn with_elem(&self, elem: Elem) -> Type {
        Type {
            elem,
            shape: self.shape.clone(),
        }
    }
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.elem {
            Elem::Num(d) => write!(f, "{d}")?,
            Elem::Ptr(d) => write!(f, "*{d}")?,
        }
        if !self.shape.is_empty() {
            let dims: Vec<String> = self.shape.iter().map(|d| d.to_string()).collect();
            write!(f, "[{}]", dims.join(","))?;
        }
        Ok(())
    }
}

/// Integer division rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DivRound {
    /// C semantics: toward zero (remainder has the dividend's sign).
    Trunc,
    /// Python semantics: toward -inf (remainder has the divisor's sign).
    Floor,
}

/// Right-shift fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShrKind {
    Arith,
    Logical,
}

/// NaN handling of float minimum/maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NanMode {
    /// IEEE minNum/maxNum: a NaN operand yields the other operand.
    Ignore,
    /// Any NaN operand yields NaN.
    Propagate,
}

/// Binary operations; both operands have the same type as each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Float division, correctly rounded.
    FDiv,
    /// Integer division.
    IDiv(DivRound),
    /// Integer remainder matching `IDiv` of the same rounding.
    IRem(DivRound),
    /// Float remainder: C `fmod` (sign of the dividend).
    FRem,
    And,
    Or,
    Xor,
    Shl,
    Shr(ShrKind),
    Min(NanMode),
    Max(NanMode),
    /// Comparisons produce bool; float comparisons are ordered (NaN: false) except `Ne`.
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Pointer plus integer offset (counted in elements).
    PtrAdd,
    /// Logical and/or of bools.
    LogicalAnd,
    LogicalOr,
}

impl BinOp {
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// Math functions. The GPU approximates those marked inexact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    Exp,
    Exp2,
    Log,
    Log2,
    Sqrt,
    SqrtRn,
    Rsqrt,
    Sin,
    Cos,
    Sigmoid,
    Erf,
    Floor,
    Ceil,
    Abs,
}

impl MathFn {
    /// Whether the result is an approximation on the GPU (compared within a ULP bound).
    pub fn is_inexact(self) -> bool {
        !matches!(
            self,
            MathFn::SqrtRn | MathFn::Floor | MathFn::Ceil | MathFn::Abs | MathFn::Sqrt
        )
    }
    pub fn name(self) -> &'static str {
        match self {
            MathFn::Exp => "exp",
            MathFn::Exp2 => "exp2",
            MathFn::Log => "log",
            MathFn::Log2 => "log2",
            MathFn::Sqrt => "sqrt",
            MathFn::SqrtRn => "sqrt_rn",
            MathFn::Rsqrt => "rsqrt",
            MathFn::Sin => "sin",
            MathFn::Cos => "cos",
            MathFn::Sigmoid => "sigmoid",
            MathFn::Erf => "erf",
            MathFn::Floor => "floor",
            MathFn::Ceil => "ceil",
            MathFn::Abs => "abs",
        }
    }
}

/// Unary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Bitwise not (`~`).
    Not,
    /// Logical not of a bool.
    LogicalNot,
    Math(MathFn),
}

/// Kinds of conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastKind {
    /// Value conversion: ints wrap/extend, float→int truncates (UB when out of
    /// range or NaN), to float rounds as given, to bool is `!= 0`.
    Convert(Rounding, Overflow),
    /// Reinterpret the bits (same width).
    Bitcast,
}

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
    ProgramId(u8),
    NumPrograms(u8),
    /// int32 values start..end (one-dimensional).
    Arange(i64, i64),
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
    /// Fused multiply-add `a*b+c` with one rounding.
    Fma(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Load through a tile of pointers; masked-off lanes take `other` (or 0).
    Load {
        ptr: Box<Expr>,
        mask: Option<Box<Expr>>,
        other: Option<Box<Expr>>,
    },
    /// Reduction along `axis` (`None`: all elements) in the canonical order.
    Reduce {
        arg: Box<Expr>,
        axis: Option<usize>,
        keep_dims: bool,
        combiner: Box<Combiner>,
    },
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// Set a variable.
    Let(VarId, Expr),
    Store {
        ptr: Expr,
        value: Expr,
        mask: Option<Expr>,
        span: Span,
    },
    If {
        cond: Expr,
        then_body: Block,
        else_body: Block,
    },
    /// `for var in range(start, end, step)` (Python range semantics; step != 0).
    For {
        var: VarId,
        start: Expr,
        end: Expr,
        step: Expr,
        body: Block,
        span: Span,
    },
    While {
        cond: Expr,
        body: Block,
        span: Span,
    },
    Break,
    Continue,
    /// `tl.device_print(prefix, args...)`: to stderr.
    Print {
        prefix: String,
        args: Vec<Expr>,
        span: Span,
    },
}

/// A sequence of statements.
pub type Block = Vec<Stmt>;

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

/// An elaborated kernel, ready to evaluate or lower.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    pub params: Vec<Param>,
    /// Type and name of every variable slot.
    pub vars: Vec<(String, Type)>,
    pub body: Block,
}
