"""A per-thread local array."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def local_array(out):
    t = cuda.local.array(5, int64)
    i = cuda.grid(1)
    for k in range(5):
        t[k] = i * k
    s = 0
    for k in range(5):
        s += t[4 - k] * (k + 1)
    out[i] = s
