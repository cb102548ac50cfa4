"""Negative indices count from the end."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def negative_index(a, out):
    i = cuda.grid(1)
    out[i] = a[-1 - i]
