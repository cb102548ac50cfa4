"""/ of int32 by int32 is float32 (the seed); float32 / int32 is float64."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def truediv_types(a, b, f, out):
    i = cuda.grid(1)
    out[i, 0] = a[i] / b[i]
    out[i, 1] = f[i] / a[i]
