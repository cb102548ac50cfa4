"""float32(-abs(i)) for i = 0 is +0.0: -abs(0) is the int64 0, and an
integer 0 converts to +0.0. Found by `ksem fuzz --dialect cudapy` (seed 0,
program 1530) on the GPU, which gave -0.0 (docs/gpu-findings.md)."""
from numba import cuda, float32


@cuda.jit
def gpu_neg_abs_zero(out):
    i = cuda.grid(1)
    out[i] = float32(-abs(i))
