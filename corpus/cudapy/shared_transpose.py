"""Transpose through a 2-d shared tile with a module-level constant shape."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

TILE = 4

@cuda.jit
def shared_transpose(a, out):
    t = cuda.shared.array((TILE, TILE), int32)
    x = cuda.threadIdx.x
    y = cuda.threadIdx.y
    bx = cuda.blockIdx.x * TILE
    by = cuda.blockIdx.y * TILE
    t[y, x] = a[by + y, bx + x]
    cuda.syncthreads()
    out[bx + y, by + x] = t[x, y]
