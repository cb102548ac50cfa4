"""A device function signature "int16(int16, int16)": the addition wraps in int16."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit("int16(int16, int16)", device=True)
def add16(x, y):
    return x + y

@cuda.jit
def signature_device(a, out):
    i = cuda.grid(1)
    out[i] = add16(a[i], a[i])
