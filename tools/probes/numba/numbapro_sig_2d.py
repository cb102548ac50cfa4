# NumbaPro-era style: `numbapro` import, signature string, 2-D array, scalar args, 2-D grid/block.
import numpy as np
from numbapro import cuda, float32, int32


@cuda.jit('void(float32[:,:], float32[:,:], float32, int32)')
def scale_add(a, out, s, k):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = a[i, j] * s + k


@cuda.jit(device=True)
def helper(x):
    return x + 1


if __name__ == "__main__":
    raise SystemExit("must not run on import")
