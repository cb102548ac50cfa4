"""and/or short-circuit: threads past the end never read a[i]."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def short_circuit(a, out):
    i = cuda.grid(1)
    n = a.shape[0]
    if i < n and a[i] > 0 or i == n:
        out[i] = 1
    else:
        out[i] = 2 if i < n else 3
