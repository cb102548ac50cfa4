"""UB: 3e9 does not fit in the int32 element it is stored into."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def ub_float_to_int(x, out):
    i = cuda.grid(1)
    out[i] = x[i]
