"""UB: a barrier reached by half of the block's threads."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def ub_barrier_divergence(out):
    i = cuda.threadIdx.x
    if i < 16:
        cuda.syncthreads()
    out[i] = i
