"""Divergent if/elif/else with Python floor // and % on negatives; threads past the end return early."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def divergent_if(a, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    v = a[i]
    if v % 3 == 0:
        out[i] = v // 3
    elif v % 3 == 1:
        out[i] = -v
    else:
        out[i] = v * v
