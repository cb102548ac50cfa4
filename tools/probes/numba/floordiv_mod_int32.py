# Probe (a): integer // and % with negative operands, int32 arrays; q/r stored to int32, qw/rw to int64.
from numba import cuda


@cuda.jit
def floordiv_mod(x, y, q, r, qw, rw):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] // y[i]
        r[i] = x[i] % y[i]
        qw[i] = x[i] // y[i]
        rw[i] = x[i] % y[i]
