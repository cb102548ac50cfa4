"""A while loop whose trip count differs per thread, with continue and break."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def divergent_loop(out):
    i = cuda.threadIdx.x
    s = 0
    j = 0
    while j < i:
        if j % 2 == 1:
            j += 1
            continue
        s += j
        if s > 20:
            break
        j += 1
    out[i] = s
