"""cuda.grid(2) and cuda.gridsize(2) over a 2x3 grid of 4x2 blocks."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def ids_2d(out):
    x, y = cuda.grid(2)
    w, h = cuda.gridsize(2)
    out[y, x] = y * w + x + h * 1000
