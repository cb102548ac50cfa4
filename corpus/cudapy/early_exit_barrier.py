"""Threads 12..15 return before the barrier; the 12 that remain meet at it
(a returned thread no longer counts, as on sm_70 and later) and read each
other's shared elements. By hand: out[t] = s[11 - t] = 2 * a[11 - t] for
t < 12, and out[12..16] keep their 0."""
from numba import cuda, int32


@cuda.jit
def early_exit_barrier(a, out):
    s = cuda.shared.array(16, int32)
    t = cuda.threadIdx.x
    if t >= 12:
        return
    s[t] = a[t] * 2
    cuda.syncthreads()
    out[t] = s[11 - t]
