"""UB: two blocks write the same element."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def ub_global_race(out):
    out[0] = cuda.blockIdx.x
