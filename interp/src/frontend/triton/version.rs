//! Triton's language rules that changed after 3.6, the release ksem's
//! Triton semantics were measured on. A launch names the release it follows
//! (`"target": {"triton": "3.9"}`; the pytest plugin gives the installed
//! Triton's version); each rule below says from which release it holds, and
//! `docs/semantics.md` ("Triton versions") says how each was found.

/// One rule of Triton's language that a later release changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Unary minus of a float is a sign flip (`fneg`: `-(+0.0)` is -0.0,
    /// a NaN's sign flips too); before, it was `0 - x` (+0.0 for +0.0).
    /// `semantic.minus` emits `create_fneg` from Triton 3.8.0 on (read in
    /// the 3.6.0, 3.7.0, 3.7.1 and 3.8.0 wheels).
    FloatNegFlipsSign,
    /// `tl.atomic_cas` on 16-bit elements runs (a compare of the bits).
    /// Every release's `semantic.atomic_cas` accepts widths 16, 32 and 64,
    /// but Triton 3.6's compiler fails on 16-bit compare-and-swap (measured
    /// on an H100, `docs/divergences.md`), so ksem refuses it for 3.6.
    SixteenBitCas,
    /// `tl.dot`'s smallest reduction size K on NVIDIA GPUs depends on the
    /// operands' width: 4 for 64-bit, 8 for 32-bit, 16 for 16-bit and 32 for
    /// 8-bit operands; before, 16 for every width but 8-bit's 32. The NVIDIA
    /// backend's `min_dot_size` (`backends/nvidia/compiler.py`) gives the
    /// 64- and 32-bit cases from Triton 3.8.0 on (read in the 3.6.0, 3.7.0
    /// and 3.8.0 wheels).
    NarrowDotK,
}

impl Rule {
    /// The first Triton release (major, minor) where the rule holds.
    pub fn since(self) -> (u32, u32) {
        match self {
            Rule::FloatNegFlipsSign => (3, 8),
            Rule::SixteenBitCas => (3, 7),
            Rule::NarrowDotK => (3, 8),
        }
    }
}

/// The Triton release a kernel is elaborated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version(pub (u32, u32));

impl Version {
    /// Whether `rule` holds in this release.
    pub fn has(self, rule: Rule) -> bool {
        self.0 >= rule.since()
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0 .0, self.0 .1)
    }
}
