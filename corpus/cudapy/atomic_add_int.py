"""An integer histogram with atomic adds: the totals do not depend on the order."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def atomic_add_int(hist, a):
    i = cuda.grid(1)
    cuda.atomic.add(hist, a[i] % 4, 1)
