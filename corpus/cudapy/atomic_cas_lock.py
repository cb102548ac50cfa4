"""compare_and_swap on flag[0]: exactly one thread wins."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def atomic_cas_lock(flag, winners):
    i = cuda.grid(1)
    old = cuda.atomic.compare_and_swap(flag, 0, 1)
    if old == 0:
        cuda.atomic.add(winners, 0, 1)
