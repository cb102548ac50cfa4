//! The kinds of undefined behaviour ksem reports, as one table (Miri's
//! closed enum of terminations): each kind declares its name in reports,
//! the dialect rule that makes it UB, and the section of
//! `docs/semantics.md` that says so. The evaluators report a kind where
//! they find it (`ops.rs` for element operations, `eval/` for memory,
//! races, barriers and undefined values); `render::ub_report` shows its rule
//! and section under every report.

/// One kind's row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UbInfo {
    /// The kind's name in UB reports (the result JSON's `"kind"`).
    pub name: &'static str,
    /// Which dialect rule makes it UB, as a sentence.
    pub rule: &'static str,
    /// The anchor of its section in `docs/semantics.md` (GitHub's slug of
    /// the heading).
    pub section: &'static str,
}

/// Declares [`UbKind`], its [`UbKind::ALL`] and its [`UbKind::info`] from
/// one list, so that a kind cannot exist without its row.
macro_rules! ub_kinds {
    ($(
        $(#[doc = $doc:literal])*
        $kind:ident {
            name: $name:literal,
            rule: $rule:literal,
            section: $section:literal $(,)?
        }
    )*) => {
        /// Kinds of undefined behaviour a run can hit.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum UbKind {
            $($(#[doc = $doc])* $kind,)*
        }

        impl UbKind {
            /// Every kind, in the table's order.
            pub const ALL: &'static [UbKind] = &[$(UbKind::$kind,)*];

            /// The kind's row of the table.
            pub fn info(self) -> UbInfo {
                match self {
                    $(UbKind::$kind => UbInfo {
                        name: $name,
                        rule: $rule,
                        section: $section,
                    },)*
                }
            }
        }
    };
}

ub_kinds! {
    /// An integer division by zero.
    DivisionByZero {
        name: "division-by-zero",
        rule: "Triton lowers an integer `//` of tensors to LLVM's `sdiv`/`udiv` and TileLang and Hidet to C's `/`, which leave a zero divisor undefined (CUDA Python defines it as 0)",
        section: "division-by-zero",
    }
    /// An integer remainder by zero.
    RemainderByZero {
        name: "remainder-by-zero",
        rule: "Triton lowers an integer `%` of tensors to LLVM's `srem`/`urem` and TileLang and Hidet to C's `%`, which leave a zero divisor undefined (CUDA Python defines it as 0)",
        section: "remainder-by-zero",
    }
    /// Signed `MIN / -1` or `MIN % -1`.
    DivisionOverflow {
        name: "division-overflow",
        rule: "signed `MIN / -1` and `MIN % -1` overflow, which LLVM's `sdiv`/`srem` (Triton) and C (TileLang, Hidet) leave undefined (CUDA Python defines them as MIN and 0)",
        section: "division-overflow",
    }
    /// A signed `+ - *` whose result leaves its dtype's range.
    SignedOverflow {
        name: "signed-overflow",
        rule: "CUDA Python's `+ - *` of signed integers lower to LLVM's `add`/`sub`/`mul nsw` (numba-cuda's `_int_arith_flags`), whose signed overflow is poison: the optimiser may assume it never happens (numba's documentation: arithmetic operations \"can wrapround or produce undefined results or overflow\")",
        section: "signed-overflow",
    }
    /// A shift amount below 0 or at least the width.
    ShiftOutOfRange {
        name: "shift-out-of-range",
        rule: "a shift amount below 0 or at least the operand's width is poison in LLVM's `shl`/`lshr`/`ashr` (Triton, CUDA Python) and undefined in C (TileLang, Hidet)",
        section: "shift-out-of-range",
    }
    /// A float→int conversion of NaN or of a value out of the target's range.
    FloatToIntOutOfRange {
        name: "float-to-int-out-of-range",
        rule: "a float -> int conversion of NaN, or of a value outside the target's range after truncation, is poison in LLVM's `fptosi`/`fptoui` (Triton, CUDA Python) and undefined in C (TileLang, Hidet)",
        section: "float-to-int-out-of-range",
    }
    /// A load outside its buffer.
    OutOfBoundsLoad {
        name: "out-of-bounds-load",
        rule: "a load outside its buffer reads memory the launch did not give the kernel, which no dialect defines (on the GPU: another allocation's bits or an illegal-address fault)",
        section: "out-of-bounds-load",
    }
    /// A store or atomic outside its buffer.
    OutOfBoundsStore {
        name: "out-of-bounds-store",
        rule: "a store or atomic outside its buffer writes memory the launch did not give the kernel, which no dialect defines (on the GPU: another allocation's bits or an illegal-address fault)",
        section: "out-of-bounds-store",
    }
    /// Two unordered accesses to one element, one a write.
    DataRace {
        name: "data-race",
        rule: "two accesses to one element, at least one a write and not both atomic, from different program instances or from threads of a block with no barrier between them, have no defined result in CUDA's memory model (every dialect)",
        section: "data-race",
    }
    /// A `range()` loop with a step of 0.
    ZeroStep {
        name: "zero-range-step",
        rule: "`range()` with a step of 0 raises in Python, which a compiled kernel cannot do: the dialects' compiled loops give a zero step no meaning (a C loop with it never ends)",
        section: "zero-range-step",
    }
    /// An array index outside its dimension.
    OutOfBoundsIndex {
        name: "out-of-bounds-index",
        rule: "an array index outside its dimension addresses another element or memory outside the array, which CUDA Python (numba does not check bounds), TileLang and Hidet leave undefined, even where the offset stays inside the storage",
        section: "out-of-bounds-index",
    }
    /// A barrier reached by only some of the block's live threads.
    BarrierDivergence {
        name: "barrier-divergence",
        rule: "CUDA allows `__syncthreads()` (CUDA Python's `cuda.syncthreads()`, TileLang's `T.sync_threads()`, Hidet's `syncthreads()`) in conditional code only where every live thread of the block reaches it",
        section: "barrier-divergence",
    }
    /// Reading shared or local memory that was never written.
    UninitializedRead {
        name: "uninitialized-read",
        rule: "shared and local memory start uninitialised in every SIMT dialect: a read of an element no thread has written has no defined value",
        section: "uninitialized-read",
    }
    /// A pointer moved by a number of bytes that is not a whole number of
    /// its elements.
    MisalignedPointer {
        name: "misaligned-pointer",
        rule: "memory holds typed numbers: a pointer moved by a number of bytes that is not a whole number of its elements (Hidet's `void_p`) addresses no element, and C gives an access through it no meaning",
        section: "misaligned-pointer",
    }
    /// The difference of two pointers into different buffers (C: only
    /// pointers into one array object may be subtracted).
    UnrelatedPointers {
        name: "unrelated-pointer-difference",
        rule: "C (Hidet) defines the difference `p - q` of two pointers only where both point into one array object",
        section: "unrelated-pointer-difference",
    }
    /// A use (a stored value, an address, a condition, a divisor, …) of
    /// a value the language leaves undefined (`eval::undef`).
    UndefinedValue {
        name: "undefined-value",
        rule: "a value the language leaves undefined (a masked-off lane of a load without `other`, an element of uninitialised memory) may be copied and computed with, but a use that decides what the program does (a stored value, an address, a mask, a condition, a divisor) has no defined result",
        section: "undefined-values-every-dialect",
    }
}

impl UbKind {
    /// The kind's name in UB reports.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The kind of a report's name; `None` for a name no kind has.
    pub fn from_name(name: &str) -> Option<UbKind> {
        UbKind::ALL.iter().copied().find(|k| k.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// GitHub's anchor of a Markdown heading's text: lowercase, spaces as
    /// hyphens, every other character but letters, digits, `-` and `_`
    /// left out.
    fn slug(heading: &str) -> String {
        heading
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                // (a character, not a kind: GitHub drops punctuation)
                _ => None,
            })
            .collect()
    }

    /// The anchors of every heading of `docs/semantics.md`.
    fn semantics_anchors() -> BTreeSet<String> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/semantics.md");
        let text = std::fs::read_to_string(path).expect("docs/semantics.md is readable");
        text.lines()
            .filter_map(|l| l.strip_prefix('#'))
            .map(|l| slug(l.trim_start_matches('#')))
            .collect()
    }

    #[test]
    fn the_slug_is_githubs() {
        assert_eq!(
            slug(" Undefined values (every dialect)"),
            "undefined-values-every-dialect"
        );
        assert_eq!(slug(" `data-race`"), "data-race");
        assert_eq!(slug(" `tl.dot`"), "tldot");
    }

    #[test]
    fn every_kind_points_at_a_section_of_the_semantics() {
        let anchors = semantics_anchors();
        for k in UbKind::ALL {
            let s = k.info().section;
            assert!(
                anchors.contains(s),
                "{k:?}: docs/semantics.md has no section #{s}"
            );
        }
    }

    #[test]
    fn every_kind_has_one_name_and_a_rule() {
        let mut names = BTreeSet::new();
        for &k in UbKind::ALL {
            let i = k.info();
            assert!(names.insert(i.name), "{k:?}: name {} twice", i.name);
            assert_eq!(UbKind::from_name(i.name), Some(k));
            assert!(!i.rule.is_empty() && !i.rule.ends_with('.'), "{k:?}");
        }
        assert_eq!(UbKind::from_name("no-such-kind"), None);
    }
}
