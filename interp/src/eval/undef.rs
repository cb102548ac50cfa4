//! Undefined values, tracked per element as MemorySanitizer tracks
//! uninitialised bits (docs/semantics.md, "Undefined values").
//!
//! An element's [`Shadow`] says whether its value is inexact (approximate
//! math) and, when the language leaves it undefined, where it was made (an
//! [`OriginId`] into the block's [`Origins`]). Undefined values may be
//! copied, moved, selected and masked away; arithmetic on them gives
//! undefined values (never the operation's own UB). Their *uses* are UB,
//! reported at the use with the place that made them ([`Use`]).
//!
//! The bits an undefined element holds are those ksem always gave it (0 for
//! a masked-off lane, the buffer's zero for an uninitialised one), so a
//! program whose undefined values never reach a use computes the same bits
//! as before, on the interpreter and in the CUDA lowering alike.

use crate::dtype::DType;
use crate::hazard::{self, DecidingOperand, Hazard};
use crate::ir::BinOp;
use crate::launch::{UbReport, UbSite};
use crate::ops::UbKind;
use crate::span::Span;
use std::ops::{BitOr, BitOrAssign};

/// An element's state beside its bits: inexact or not, and defined or
/// undefined with the place that made it and whether it is still an
/// unchanged copy of what that place made (bit 0: inexact; bit 1: computed
/// from an undefined value; the rest: the origin).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Shadow(u32);

/// The bit of a [`Shadow`] that says an undefined value was computed.
const COMPUTED: u32 = 2;
/// The bits of a [`Shadow`] below its origin.
const ORIGIN_SHIFT: u32 = 2;

impl Shadow {
    /// Defined and exact: the state of almost every element.
    pub const EXACT: Shadow = Shadow(0);
    /// Defined, from approximate math.
    pub const INEXACT: Shadow = Shadow(1);

    /// Undefined, made at `origin`.
    pub fn undefined(origin: OriginId) -> Shadow {
        Shadow(origin.0 << ORIGIN_SHIFT)
    }

    /// The state of a defined element, inexact or not.
    #[inline]
    pub fn from_inexact(inexact: bool) -> Shadow {
        Shadow(inexact as u32)
    }

    /// Whether the value came from approximate math.
    #[inline]
    pub fn inexact(self) -> bool {
        self.0 & 1 != 0
    }

    /// Where the undefined value was made; `None`: it is defined.
    #[inline]
    pub fn origin(self) -> Option<OriginId> {
        self.is_undefined()
            .then_some(OriginId(self.0 >> ORIGIN_SHIFT))
    }

    /// Whether the value is undefined.
    #[inline]
    pub fn is_undefined(self) -> bool {
        self.0 >> ORIGIN_SHIFT != 0
    }

    /// The state of a value an operation computed from this one: an
    /// undefined value is no longer a copy of what its origin made.
    #[inline]
    pub fn computed(self) -> Shadow {
        if self.is_undefined() {
            Shadow(self.0 | COMPUTED)
        } else {
            self
        }
    }

    /// Whether the value is undefined and still an unchanged copy of what
    /// its origin made (moved, loaded, stored, selected, but not computed).
    #[inline]
    pub fn is_copy(self) -> bool {
        self.is_undefined() && self.0 & COMPUTED == 0
    }

    /// The same definedness, marked inexact.
    #[inline]
    pub fn with_inexact(self) -> Shadow {
        Shadow(self.0 | 1)
    }
}

/// The state of a value computed from two: inexact if either is, undefined
/// (the first one's origin) if either is.
impl BitOr for Shadow {
    type Output = Shadow;
    #[inline]
    fn bitor(self, o: Shadow) -> Shadow {
        if self.0 == o.0 {
            return self;
        }
        let origin = if self.is_undefined() { self.0 } else { o.0 } & !1;
        Shadow(origin | ((self.0 | o.0) & 1))
    }
}

impl BitOrAssign for Shadow {
    #[inline]
    fn bitor_assign(&mut self, o: Shadow) {
        *self = *self | o;
    }
}

/// An index into a block's [`Origins`] (never 0: 0 is "defined").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OriginId(u32);

/// What made an undefined value.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A masked-off lane of a load that gives no `other` (Triton's
    /// `tl.load(p, mask=m)`), or the out-of-bounds padding of a
    /// block-pointer load without `padding_option`.
    MaskedLoad,
    /// A read of an element of a launch buffer that the launch left
    /// uninitialised (`"init": "none"`) and nothing had written.
    UninitializedBuffer { buffer: String, element: usize },
    /// An undefined value that went through a lane-crossing operation
    /// (a reduction, a scan, a matrix product) made here from `from`.
    Through { what: &'static str, from: OriginId },
}

/// One origin: the place and what it made.
#[derive(Clone, Debug)]
struct Origin {
    span: Span,
    source: Source,
    /// The lane (thread of the block, SIMT) that made it.
    thread: Option<[u32; 3]>,
}

/// Most origins one block records; past it, a new undefined value of an
/// uninitialised buffer shares the origin its place made first.
const MAX_ORIGINS: usize = 1 << 20;

/// The origins of one block's undefined values.
#[derive(Default)]
pub struct Origins {
    list: Vec<Origin>,
    /// The origin each masked load made (one per place: every run of it
    /// makes the same kind of undefined value).
    masked: Vec<(Span, OriginId)>,
}

impl Origins {
    /// Records that `source` made an undefined value at `span`.
    pub fn make(&mut self, span: Span, source: Source, thread: Option<[u32; 3]>) -> OriginId {
        if source == Source::MaskedLoad {
            if let Some(&(_, id)) = self.masked.iter().find(|(s, _)| *s == span) {
                return id;
            }
        }
        if self.list.len() >= MAX_ORIGINS {
            if let Some(i) = self.list.iter().position(|o| o.span == span) {
                return OriginId(i as u32 + 1);
            }
        }
        let masked = source == Source::MaskedLoad;
        self.list.push(Origin {
            span,
            source,
            thread,
        });
        let id = OriginId(self.list.len() as u32);
        if masked {
            self.masked.push((span, id));
        }
        id
    }

    /// The shadow `s` after a lane-crossing operation `what` at `span`:
    /// an undefined value's origin records the operation it went through
    /// (one new origin per earlier origin, reused through `memo`).
    pub fn through(
        &mut self,
        s: Shadow,
        what: &'static str,
        span: Span,
        memo: &mut Vec<(OriginId, OriginId)>,
    ) -> Shadow {
        let Some(from) = s.origin() else { return s };
        let id = match memo.iter().find(|(f, _)| *f == from) {
            Some(&(_, to)) => to,
            None => {
                let to = self.make(span, Source::Through { what, from }, None);
                memo.push((from, to));
                to
            }
        };
        let again = Shadow::undefined(id).computed();
        if s.inexact() {
            again.with_inexact()
        } else {
            again
        }
    }

    fn get(&self, id: OriginId) -> &Origin {
        &self.list[id.0 as usize - 1]
    }

    /// The UB of using the undefined value of `shadow` as `what` at `span`
    /// (`element`: the lane; `thread`: the SIMT thread using it).
    pub fn report(
        &self,
        shadow: Shadow,
        what: Use,
        span: Span,
        program: [u32; 3],
        element: Vec<usize>,
        thread: Option<[u32; 3]>,
    ) -> UbReport {
        let id = shadow.origin().expect("reports only undefined values");
        let mut chain = String::new();
        let mut cur = self.get(id);
        while let Source::Through { what, from } = &cur.source {
            chain.push_str(&format!(" through the {what} at {}", cur.span));
            cur = self.get(*from);
        }
        let at = cur.span;
        let made = match &cur.source {
            Source::MaskedLoad => format!(
                "a masked-off lane of the load at {at}, which gives no `other` (Triton leaves such lanes undefined)"
            ),
            Source::UninitializedBuffer { buffer, element } => format!(
                "the read at {at} of {buffer}[{element}], which the launch left uninitialised and nothing had written"
            ),
            Source::Through { .. } => unreachable!("the loop above follows these"),
        };
        let copy = if what == Use::StoreValue && self.copies_uninitialized(shadow) {
            UNINITIALIZED_COPY
        } else {
            ""
        };
        let message = format!(
            "{} is an undefined value: it came{chain} from {made}{copy}",
            what.describe()
        );
        let mut r = UbReport::new(
            UbKind::UndefinedValue,
            span.line,
            span.col,
            program,
            element,
            message,
        );
        r.thread = thread;
        r.other = Some(UbSite {
            line: cur.span.line,
            col: cur.span.col,
            program,
            thread: cur.thread,
        });
        r
    }
}

/// The uses of a value that make an undefined one UB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// The value a store writes to memory that outlives the launch.
    StoreValue,
    /// The address of a load, store or atomic.
    Address,
    /// The mask of a load, store or atomic.
    Mask,
    /// A branch's or loop's condition.
    Condition,
    /// A `range` loop's start, end or step.
    LoopBound,
    /// An operand of an atomic operation, or the element it updates.
    Atomic,
    /// The divisor of an integer division or remainder.
    Divisor,
    /// The amount of a shift.
    ShiftAmount,
    /// An index into an array.
    Index,
}

impl Use {
    /// How a report names the use.
    pub fn describe(self) -> &'static str {
        match self {
            Use::StoreValue => "the value stored",
            Use::Address => "the address",
            Use::Mask => "the mask",
            Use::Condition => "the condition",
            Use::LoopBound => "the loop's bound",
            Use::Atomic => "an operand of the atomic",
            Use::Divisor => "the divisor",
            Use::ShiftAmount => "the shift amount",
            Use::Index => "the index",
        }
    }
}

/// The use an operand that decides a hazard alone is.
fn deciding_use(o: DecidingOperand) -> Use {
    match o {
        DecidingOperand::Divisor => Use::Divisor,
        DecidingOperand::ShiftAmount => Use::ShiftAmount,
    }
}

/// The use an undefined *right* operand of `op` on dtype `d` is, as the
/// op's hazards declare (`hazard::binary`): the operand that decides one
/// of them alone (a divisor where a zero divisor is UB, the amount of a
/// shift whose range is checked). `None`: the operation gives an undefined
/// result instead (CUDA Python's `//`, whose zero divisor is defined; a
/// shift that wraps its amount).
pub fn right_operand_use(op: BinOp, d: DType) -> Option<Use> {
    hazard::binary(op, d)
        .iter()
        .find_map(Hazard::deciding_operand)
        .map(deciding_use)
}

/// Whether UB of `kind`, which `op` on dtype `d` reported with an
/// undefined operand, stands: it comes from a hazard its right operand
/// decides alone (that operand is then defined, or it would have been
/// reported as a [`Use`] already), which an undefined left operand does
/// not excuse. Other UB of an operation on an undefined operand
/// (`MIN / -1`) gives an undefined result instead.
pub fn defined_operand_ub(op: BinOp, d: DType, kind: UbKind) -> bool {
    hazard::binary(op, d)
        .iter()
        .any(|h| h.kind() == kind && h.deciding_operand().is_some())
}

/// The shadow of `x op y` (dtype `d`) from the operands' bits and shadows.
/// An undefined operand makes the result undefined, except where the other
/// operand alone decides it, as MemorySanitizer's rules for `and`/`or`: a
/// defined 0 (all bits clear) `and` anything is 0, a defined all-ones `or`
/// anything is all ones (so `(x > 0) & m` is defined where `m` is false).
#[inline]
pub fn binary_shadow(op: BinOp, d: DType, x: u64, y: u64, sx: Shadow, sy: Shadow) -> Shadow {
    if !sx.is_undefined() && !sy.is_undefined() {
        return sx | sy;
    }
    let decides = |v: u64, s: Shadow| {
        !s.is_undefined()
            && match op {
                BinOp::And | BinOp::LogicalAnd => v & d.mask() == 0,
                BinOp::Or | BinOp::LogicalOr => v & d.mask() == d.mask(),
                _ => false,
            }
    };
    if decides(x, sx) {
        sx
    } else if decides(y, sy) {
        sy
    } else {
        (sx | sy).computed()
    }
}

/// The end of the message of a store whose value is an unchanged copy of
/// memory the launch left uninitialised (a kernel copying a `torch.empty`
/// input): such a report does not stop the run, the destination element
/// stays undefined, and the pytest plugin makes it a warning unless
/// `--ksem-strict` (docs/semantics.md, "Undefined values").
pub const UNINITIALIZED_COPY: &str =
    "; it is an unchanged copy of memory the launch left uninitialised";

impl Origins {
    /// Whether a store of the undefined value `s` only copies memory the
    /// launch left uninitialised, unchanged (see [`UNINITIALIZED_COPY`]).
    pub fn copies_uninitialized(&self, s: Shadow) -> bool {
        s.is_copy()
            && s.origin()
                .is_some_and(|id| matches!(self.get(id).source, Source::UninitializedBuffer { .. }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{DivRound, DivZero, IntDiv, ShiftRange};

    #[test]
    fn merging_keeps_the_first_origin_and_either_inexact_flag() {
        let mut o = Origins::default();
        let a = o.make(Span { line: 3, col: 4 }, Source::MaskedLoad, None);
        let b = o.make(Span { line: 5, col: 6 }, Source::MaskedLoad, None);
        let (ua, ub) = (Shadow::undefined(a), Shadow::undefined(b));
        assert_eq!(Shadow::EXACT | Shadow::EXACT, Shadow::EXACT);
        assert_eq!(Shadow::EXACT | Shadow::INEXACT, Shadow::INEXACT);
        assert_eq!((Shadow::INEXACT | ub).origin(), Some(b));
        assert!((Shadow::INEXACT | ub).inexact());
        assert_eq!((ua | ub).origin(), Some(a));
        assert_eq!((ub | ua).origin(), Some(b));
        assert!(!(ua | ub).inexact());
        assert_eq!(ua.with_inexact().origin(), Some(a));
        assert!(!Shadow::INEXACT.is_undefined() && ua.is_undefined());
        // a loaded value is a copy until an operation computes with it
        assert!(ua.is_copy() && !ua.computed().is_copy());
        assert_eq!(ua.computed().origin(), Some(a));
        assert!(!Shadow::INEXACT.computed().is_undefined());
        assert!(!(ua.computed() | ub).is_copy());
        assert!((ub | ua.computed()).is_copy());
    }

    #[test]
    fn a_defined_operand_that_decides_and_or_makes_the_result_defined() {
        let mut o = Origins::default();
        let u = Shadow::undefined(o.make(Span::default(), Source::MaskedLoad, None));
        let e = Shadow::EXACT;
        let b = DType::Bool;
        // false & undef = false, true | undef = true: defined
        assert_eq!(binary_shadow(BinOp::And, b, 0, 1, e, u), e);
        assert_eq!(binary_shadow(BinOp::And, b, 1, 0, u, e), e);
        assert_eq!(binary_shadow(BinOp::LogicalOr, b, 1, 0, e, u), e);
        // true & undef, false | undef: undefined
        assert_eq!(binary_shadow(BinOp::And, b, 1, 1, e, u), u.computed());
        assert_eq!(binary_shadow(BinOp::Or, b, 0, 1, e, u), u.computed());
        // int8: 0 & undef is 0; 0x7f | undef is not all ones; 0xff is
        let i8 = DType::I8;
        assert_eq!(binary_shadow(BinOp::And, i8, 0, 9, e, u), e);
        assert_eq!(binary_shadow(BinOp::Or, i8, 0x7f, 9, e, u), u.computed());
        assert_eq!(binary_shadow(BinOp::Or, i8, 0xff, 9, e, u), e);
        // any other operation: undefined
        assert_eq!(binary_shadow(BinOp::Mul, i8, 0, 9, e, u), u.computed());
        assert_eq!(binary_shadow(BinOp::Add, i8, 0, 9, u, e), u.computed());
        let i32 = DType::I32;
        assert_eq!(right_operand_use(BinOp::Add, i32), None);
        assert_eq!(
            right_operand_use(BinOp::Shl(ShiftRange::Mask), i32),
            None,
            "a masked shift amount gives an undefined result, not UB"
        );
        assert_eq!(
            right_operand_use(BinOp::Shl(ShiftRange::Ub), i32),
            Some(Use::ShiftAmount)
        );
    }

    /// An undefined divisor is UB exactly where the op declares a zero
    /// divisor UB; an undefined dividend excuses `MIN / -1` but not a zero
    /// divisor.
    #[test]
    fn the_hazard_table_decides_an_undefined_operand() {
        let (i32, u8) = (DType::I32, DType::U8);
        let c_div = BinOp::IDiv(IntDiv::TRUNC);
        assert_eq!(right_operand_use(c_div, i32), Some(Use::Divisor));
        assert_eq!(
            right_operand_use(BinOp::IRem(IntDiv::FLOOR), u8),
            Some(Use::Divisor)
        );
        let cudapy = BinOp::IDiv(IntDiv {
            round: DivRound::Floor,
            zero: DivZero::Zero,
        });
        assert_eq!(right_operand_use(cudapy, i32), None, "0 by zero: defined");
        assert!(defined_operand_ub(c_div, i32, UbKind::DivisionByZero));
        assert!(!defined_operand_ub(c_div, i32, UbKind::DivisionOverflow));
        let shl = BinOp::Shl(ShiftRange::Ub);
        assert!(defined_operand_ub(shl, i32, UbKind::ShiftOutOfRange));
        assert!(!defined_operand_ub(cudapy, i32, UbKind::DivisionByZero));
    }

    #[test]
    fn a_report_names_the_use_the_path_and_the_origin() {
        let mut o = Origins::default();
        let load = o.make(Span { line: 7, col: 9 }, Source::MaskedLoad, None);
        let mut memo = Vec::new();
        let s = o.through(
            Shadow::undefined(load),
            "reduction (max)",
            Span { line: 8, col: 11 },
            &mut memo,
        );
        // the same origin through the same operation is one new origin
        let again = o.through(
            Shadow::undefined(load),
            "reduction (max)",
            Span { line: 8, col: 11 },
            &mut memo,
        );
        assert_eq!(s, again);
        let r = o.report(
            s,
            Use::StoreValue,
            Span { line: 9, col: 5 },
            [1, 0, 0],
            vec![],
            None,
        );
        assert_eq!(r.kind, "undefined-value");
        assert_eq!((r.line, r.col), (9, 5));
        let other = r.other.expect("the origin's place");
        assert_eq!((other.line, other.col), (7, 9));
        assert!(r.message.contains("through the reduction (max) at 8:11"));
        assert!(r.message.contains("masked-off lane"));
    }
}
