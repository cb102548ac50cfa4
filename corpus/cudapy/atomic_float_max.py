"""Atomic max/min on float32 (order-independent without NaNs)."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def atomic_float_max(m, a):
    i = cuda.grid(1)
    cuda.atomic.max(m, 0, a[i])
    cuda.atomic.min(m, 1, a[i])
