//! Dynamic shared memory: `cuda.shared.array(0, dtype)` is an array over
//! the bytes the launch gives each block (`k[grid, block, stream, nbytes]`,
//! the launch's `"shared_bytes"`), `nbytes / itemsize` elements (the
//! remainder is unused). Every such declaration of a kernel, its device
//! functions included, is the same memory (numba-cuda: they all alias the
//! one `extern __shared__` array), so ksem gives them one array. Memory
//! holds typed numbers: declarations of two different dtypes, which would
//! reinterpret each other's bytes, are refused.

use super::*;

impl Elab<'_> {
    /// The dynamic shared array seen as `d` elements.
    pub(super) fn dynamic_shared(&mut self, d: DType, span: Span) -> DResult<Val> {
        let id = match self.dynamic {
            Some((id, d0)) if d0 == d => id,
            Some((_, d0)) => {
                return err(
                    span,
                    format!(
                        "this dynamic shared array of {} aliases the kernel's dynamic shared array of {}; ksem's memory holds typed numbers and cannot reinterpret them (declare every cuda.shared.array(0, …) of one dtype)",
                        Named(d),
                        Named(d0)
                    ),
                )
            }
            None => {
                let size = u64::from(d.storage_bits() / 8);
                let n = (self.shared_bytes / size) as usize;
                self.arrays.push(ArrayDecl {
                    name: "dynamic_shared".into(),
                    dtype: d,
                    space: AddrSpace::Shared,
                    shape: vec![n],
                    span,
                });
                let id = self.arrays.len() - 1;
                self.dynamic = Some((id, d));
                id
            }
        };
        let n = self.arrays[id].shape[0];
        let base = array_base(id, d, AddrSpace::Shared, span);
        Ok(Val::Array(ArrayVal {
            base,
            dtype: d,
            shape: vec![n],
            pairs: Pairs::No,
            view: None,
        }))
    }
}
