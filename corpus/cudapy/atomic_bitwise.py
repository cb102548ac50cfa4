"""Atomic or/and/xor of bit masks."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def atomic_bitwise(b):
    i = cuda.threadIdx.x
    cuda.atomic.or_(b, 0, 1 << i)
    cuda.atomic.and_(b, 1, ~(1 << i))
    cuda.atomic.xor(b, 2, 1 << (i % 3))
