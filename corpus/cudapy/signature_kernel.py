"""An explicit signature string; float32 * float32 stored to int32 truncates toward zero."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit("void(float32[:], int32[:], float32)")
def signature_kernel(x, out, scale):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * scale
