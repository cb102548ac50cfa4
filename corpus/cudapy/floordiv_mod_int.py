"""Integer floor division and modulo (Python's rounding)."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def floordiv_mod_int(a, b, q, r):
    i = cuda.grid(1)
    q[i] = a[i] // b[i]
    r[i] = a[i] % b[i]
