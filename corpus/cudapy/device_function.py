"""Device functions with early returns, one from inside a loop."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit(device=True)
def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x

@cuda.jit(device=True)
def first_above(a, t):
    for k in range(a.shape[0]):
        if a[k] > t:
            return k
    return -1

@cuda.jit
def device_function(a, out):
    i = cuda.grid(1)
    out[i] = clamp(a[i], -3, 3) * 100 + first_above(a, a[i])
