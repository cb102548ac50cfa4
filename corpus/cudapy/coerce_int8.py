"""The seed: int8 * int8 computes in int8 (wraps) before the int32 store; modern numba computes in int64 (docs/divergences.md)."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def coerce_int8(a, b, out):
    i = cuda.grid(1)
    out[i] = a[i] * b[i]
