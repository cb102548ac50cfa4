//! The register program's data: scalar slots, lane registers, the operand
//! forms instructions read, and the instruction set.

use crate::dtype::DType;
use crate::float::Rounding;
use crate::ir::{BinOp, CastKind, Combiner, UnOp, VarId};
use crate::span::Span;

/// A scalar slot: one element's bits (a 0-d or one-element value, or the
/// one value a splat gives every lane), with its inexact flag.
pub type Slot = usize;

/// A lane register: the lanes of one tile value, row-major; 32-bit lanes
/// where the value's type is at most 32 bits wide, else 64-bit lanes
/// (64-bit numbers and pointers). Each holds its inexact flag (a value the
/// register program keeps has every lane exact, or every lane inexact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    /// Register `i` of the 32-bit file.
    W32(usize),
    /// Register `i` of the 64-bit file.
    W64(usize),
}

/// Where a lane instruction reads an operand from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// The slot's value in every lane (a broadcast, never copied).
    Splat(Slot),
    /// int32 lanes `base + i` (wrapping), `base` an int32 slot: an
    /// `arange`, shifted by scalars, never materialised unless needed.
    Affine(Slot),
    /// A register's lanes.
    Lanes(Reg),
}

/// The pointers a load or store goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtrSrc {
    /// Lane `i` is pointer `ptr` moved by the int32 lane `base + i`: the
    /// accesses are contiguous when `base + i` does not wrap (decided once
    /// per access, not per lane).
    Affine { ptr: Slot, base: Slot },
    /// Pointers as lanes (or one pointer, for a one-lane access).
    Lanes(Src),
}

/// A load's or store's mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskSrc {
    /// Every lane active.
    All,
    /// The int32 comparison `(base + i) op bound` (`bound op (base + i)`
    /// where not `affine_left`): the active lanes (a prefix, or all, or
    /// none) are counted from the lanes' extremes, once per access.
    AffineCmp {
        op: BinOp,
        base: Slot,
        bound: Slot,
        affine_left: bool,
    },
    /// Bool lanes (or one bool, for a one-lane access).
    Lanes(Src),
}

/// How a value the compiler keeps symbolic becomes lanes
/// ([`Inst::Materialize`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// [`Src::Affine`]'s lanes.
    Affine(Slot),
    /// A slot in every lane.
    Splat(Slot),
    /// [`MaskSrc::AffineCmp`]'s bool lanes.
    Cmp {
        op: BinOp,
        base: Slot,
        bound: Slot,
        affine_left: bool,
    },
    /// [`PtrSrc::Affine`]'s pointer lanes.
    AffinePtr { ptr: Slot, base: Slot },
}

/// What a load's masked-off lanes take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Other {
    /// 0 (the load gives no `other`).
    Absent,
    /// An undefined value (Triton's load without `other`): an instance
    /// where some lane takes it gives up.
    Undef,
    /// The operand's lanes.
    Val(Src),
}

/// Where an instruction whose result may have one lane writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dst {
    /// One lane: a scalar slot.
    Slot(Slot),
    /// A register of `n` lanes.
    Reg(Reg),
}

/// One instruction. Scalar instructions work on slots; lane instructions
/// on `n` lanes, writing a register. Every element value is computed by
/// `crate::ops` (or the pointer rules of `eval::memory`), as the tree
/// evaluator computes it; an instruction whose operands leave the cases it
/// covers (a lane the general rule reports as UB, active lanes that are
/// not a prefix, a non-contiguous access, a buffer holding undefined or
/// inexact elements)
/// gives up the program instance, which the tree evaluator then runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    /// `dst = bits`.
    Const { dst: Slot, bits: u64 },
    /// `dst =` the program's index along `axis`.
    BlockId { dst: Slot, axis: u8 },
    /// `dst =` the grid's size along `axis`.
    GridDim { dst: Slot, axis: u8 },
    /// `dst = op(a, b)` of `d` operands (`od`: the offset's dtype of a
    /// pointer add).
    ScalarBinary {
        op: BinOp,
        d: DType,
        od: DType,
        a: Slot,
        b: Slot,
        dst: Slot,
    },
    /// `dst = op(a)`.
    ScalarUnary {
        op: UnOp,
        d: DType,
        a: Slot,
        dst: Slot,
    },
    /// `dst = cast(a)`.
    ScalarCast {
        kind: CastKind,
        from: DType,
        to: DType,
        a: Slot,
        dst: Slot,
    },
    /// `dst = c ? a : b`.
    ScalarSelect {
        c: Slot,
        a: Slot,
        b: Slot,
        dst: Slot,
    },
    /// `dst = a·b + c`, rounded once.
    ScalarFma {
        d: DType,
        r: Rounding,
        a: Slot,
        b: Slot,
        c: Slot,
        dst: Slot,
    },
    /// `dst = op(a, b)` lane by lane (not pointer adds).
    Binary {
        op: BinOp,
        d: DType,
        /// Whether the operands have 64-bit lanes.
        wa: bool,
        a: Src,
        b: Src,
        n: usize,
        dst: Reg,
    },
    /// `dst = a + b` of pointers `a` and `od` offsets `b` (`bytes`:
    /// `PtrAddBytes`), lane by lane.
    PtrAdd {
        bytes: bool,
        d: DType,
        od: DType,
        a: Src,
        b: Src,
        n: usize,
        dst: Reg,
    },
    /// `dst = op(a)` lane by lane.
    Unary {
        op: UnOp,
        d: DType,
        /// Whether the operand has 64-bit lanes.
        wa: bool,
        a: Src,
        n: usize,
        dst: Reg,
    },
    /// `dst = cast(a)` lane by lane.
    Cast {
        kind: CastKind,
        from: DType,
        to: DType,
        /// Whether the operand has 64-bit lanes.
        wa: bool,
        a: Src,
        n: usize,
        dst: Reg,
    },
    /// `dst = c ? a : b` lane by lane.
    Select {
        c: Src,
        /// Whether the values have 64-bit lanes.
        wa: bool,
        a: Src,
        b: Src,
        n: usize,
        dst: Reg,
    },
    /// `dst = a·b + c` lane by lane, rounded once.
    Fma {
        d: DType,
        r: Rounding,
        /// Whether the operands have 64-bit lanes.
        wa: bool,
        a: Src,
        b: Src,
        c: Src,
        n: usize,
        dst: Reg,
    },
    /// `dst =` the lanes of a symbolic value.
    Materialize { form: Form, n: usize, dst: Reg },
    /// `dst =` the elements the active lanes' pointers reach (a prefix of
    /// the lanes, one element after another, of a buffer holding only
    /// exact, defined ones), logged as one read range at `span`; the other
    /// lanes from `other`.
    Load {
        ptr: PtrSrc,
        mask: MaskSrc,
        other: Other,
        d: DType,
        n: usize,
        dst: Dst,
        span: Span,
    },
    /// `dst =` the reduction of each row of `n` lanes of `src` (the last
    /// axis), in the canonical tree order; `d`: the operand's dtype.
    Reduce {
        comb: Combiner,
        d: DType,
        src: Reg,
        n: usize,
        rows: usize,
        dst: Dst,
    },
    /// Stores the active lanes of `value` (a prefix of the `n` lanes) through
    /// their pointers (one element after another, inside a buffer holding
    /// no undefined element), logged as one write range at `span`. Stores run after
    /// every other instruction of the program instance (see
    /// [`Program::stores`]).
    Store {
        ptr: PtrSrc,
        value: Src,
        mask: MaskSrc,
        n: usize,
        span: Span,
    },
}

/// A tile program compiled once per kernel and launch shape: the
/// instructions that compute (loads included), then the stores.
///
/// The compiler accepts only straight-line programs (lets and stores)
/// where no load follows the first store, so that running every store
/// after the rest changes nothing observable, and every check a store
/// needs is made before the first of them writes: an instance either
/// completes as the tree evaluator would, or gives up before it changed
/// memory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    /// Every instruction but the stores, in order.
    pub insts: Vec<Inst>,
    /// The stores, in program order ([`Inst::Store`] only).
    pub stores: Vec<Inst>,
    /// Scalar slots.
    pub slots: usize,
    /// Lanes of each 32-bit register.
    pub regs32: Vec<usize>,
    /// Lanes of each 64-bit register.
    pub regs64: Vec<usize>,
    /// The slot of each parameter variable the program reads.
    pub params: Vec<(VarId, Slot)>,
    /// Loads and stores: the access ranges an instance logs.
    pub accesses: usize,
}
