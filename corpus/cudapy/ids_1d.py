"""1-d thread, block and grid ids: every thread writes its own element."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def ids_1d(out):
    i = cuda.grid(1)
    out[i] = cuda.threadIdx.x * 1000 + cuda.blockIdx.x * 100 + cuda.blockDim.x * 10 + cuda.gridDim.x
