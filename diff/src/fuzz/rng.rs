//! The fuzzer's deterministic random source.

use ksem_interp::launch::SplitMix64;

/// A seeded generator; `(seed, index)` fixes every choice of one program.
pub struct Rng(SplitMix64);

impl Rng {
    /// The generator of program `index` of the campaign `seed`.
    pub fn new(seed: u64, index: u64) -> Rng {
        let mut mix = SplitMix64(seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F));
        let s = mix.next_u64();
        Rng(SplitMix64(s))
    }
    /// The next 64 random bits. (Not `Iterator::next`: the stream never
    /// ends, and an `Option` at every call site would say otherwise.)
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 * 2f64.powi(-53) < p
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}
