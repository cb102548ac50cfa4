"""Shifts and bitwise operators on int32 with int64 literals (the result is int64)."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def bitwise_shift(a, out):
    i = cuda.grid(1)
    x = a[i]
    out[i] = ((x << 3) ^ (x >> 2)) & 0xFFFF | (x & 7)
