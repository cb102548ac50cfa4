"""UB: thread 2 reads s[5], which no thread wrote."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def ub_uninitialized_shared(out):
    s = cuda.shared.array(8, int32)
    i = cuda.threadIdx.x
    if i != 5:
        s[i] = i
    cuda.syncthreads()
    out[i] = s[7 - i]
