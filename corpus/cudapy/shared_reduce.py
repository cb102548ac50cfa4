"""Tree reduction in shared memory with barriers; the float32 additions are in a fixed order."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def shared_reduce(a, out):
    s = cuda.shared.array(64, float32)
    i = cuda.threadIdx.x
    s[i] = a[cuda.grid(1)]
    cuda.syncthreads()
    stride = 32
    while stride > 0:
        if i < stride:
            s[i] += s[i + stride]
        cuda.syncthreads()
        stride //= 2
    if i == 0:
        out[cuda.blockIdx.x] = s[0]
