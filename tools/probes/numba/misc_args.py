# numba_run.py check: bool and float16 buffers, a negative int8 scalar, a uint64 scalar, a 2-D grid.
from numba import cuda


@cuda.jit
def misc(flags, h, out8, out64, k, big):
    i, j = cuda.grid(2)
    n = flags.size
    t = i * 2 + j
    if t < n:
        if flags[t]:
            out8[t] = k
        else:
            out8[t] = -k
        h[t] = h[t] * h[t]
        out64[t] = big + t
