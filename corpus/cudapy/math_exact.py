"""Correctly rounded math: sqrt, fabs, floor, ceil, copysign, fmod."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def math_exact(x, out):
    i = cuda.grid(1)
    out[i, 0] = math.sqrt(x[i])
    out[i, 1] = math.fabs(x[i])
    out[i, 2] = math.floor(x[i])
    out[i, 3] = math.ceil(x[i])
    out[i, 4] = math.copysign(2.0, x[i])
    out[i, 5] = math.fmod(x[i], 0.75)
