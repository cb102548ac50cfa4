"""atomic.inc wraps to 0 past 9 and atomic.dec wraps to 9 at 0: 25 incs from 0 end at 25 mod 10 = 5, 25 decs from 0 end at 9 - 24 mod 10 = 5."""
from numba import cuda, int16, int32, int64, uint32, float32, float64
import math

@cuda.jit
def atomic_inc_dec(u):
    cuda.atomic.inc(u, 0, 9)
    cuda.atomic.dec(u, 1, 9)
