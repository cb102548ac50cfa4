"""Approximate float32 math, compared within a ULP bound."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def math_approx(x, out):
    i = cuda.grid(1)
    v = x[i]
    out[i, 0] = math.sin(v)
    out[i, 1] = math.exp(v)
    out[i, 2] = math.log(v)
    out[i, 3] = math.atan2(v, 0.5)
    out[i, 4] = math.tanh(v)
    out[i, 5] = math.pow(v, 1.5)
