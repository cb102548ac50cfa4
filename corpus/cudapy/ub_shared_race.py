"""UB: a read of a neighbour's shared element with no barrier after its write (a data race)."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def ub_shared_race(out):
    s = cuda.shared.array(8, int32)
    i = cuda.threadIdx.x
    s[i] = i
    out[i] = s[(i + 1) % 8]
