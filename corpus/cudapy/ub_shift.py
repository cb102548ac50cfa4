"""UB: a shift of an int64 by 64."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def ub_shift(a, out):
    i = cuda.grid(1)
    out[i] = a[i] << a[i + 2]
