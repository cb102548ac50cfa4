"""A float literal is float64: x * 0.1 computes in float64 and rounds once on the float32 store."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def coerce_float32_literal(x, out):
    i = cuda.grid(1)
    out[i] = x[i] * 0.1
