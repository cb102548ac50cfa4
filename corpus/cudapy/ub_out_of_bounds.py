"""UB: thread 3 reads a[4] of a 4-element array."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def ub_out_of_bounds(a, out):
    i = cuda.grid(1)
    out[i] = a[i + 1]
