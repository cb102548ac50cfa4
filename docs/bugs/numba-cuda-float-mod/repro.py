"""numba-cuda: float `%` (and `//`) on the GPU is not Python's: 1e30 % 3.0
gives 2^46 = 70368744177664.0, 1e300 % 1e-300 gives -inf, 2.0 % inf gives NaN.

numba compiles Python's float divmod, whose remainder step is LLVM `frem`;
NVPTX expands `frem` to |x| - floor(|x| / |y|) * |y| (ptxas then fuses the
multiply-subtract), which is not the exact remainder when |x| / |y| is large
or inexact. Python's float % is exact (C fmod, then the sign fix-up), and the
remainder of a positive divisor lies in [0, y). The expected values are
CPython's own `//` and `%` of the same doubles; numba's CPU target
(`numba.njit`) is a second control.

Run on a GPU machine: python3 repro.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import math

import numpy as np

if not hasattr(np, "row_stack"):
    # numba-cuda 0.30.4 registers an overload of np.row_stack, which numpy 2.5
    # removed: without this alias its first kernel compile raises AttributeError.
    np.row_stack = np.vstack

import numba  # noqa: E402
from numba import cuda  # noqa: E402

X = [1e30, 1e300, 2.0, -2.0, 1e17, -7.5, 1.0, 5.0]
Y = [3.0, 1e-300, math.inf, math.inf, 3.0, 2.0, 0.1, 3.0]


@cuda.jit
def divmod_gpu(x, y, q, r):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] // y[i]
        r[i] = x[i] % y[i]


@numba.njit
def divmod_cpu(x, y, q, r):
    for i in range(x.size):
        q[i] = x[i] // y[i]
        r[i] = x[i] % y[i]


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


def main():
    from importlib.metadata import version
    dev = cuda.get_current_device()
    name = getattr(dev, "name", "(simulator)")
    name = name.decode() if isinstance(name, bytes) else name
    print(f"numba {numba.__version__}, numba-cuda {version('numba-cuda')}, numpy {np.__version__}, GPU {name}")
    x, y = np.array(X), np.array(Y)
    q, r = cuda.device_array(len(X)), cuda.device_array(len(X))
    divmod_gpu[1, len(X)](cuda.to_device(x), cuda.to_device(y), q, r)
    gq, gr = q.copy_to_host().tolist(), r.copy_to_host().tolist()
    cq, cr = np.zeros(len(X)), np.zeros(len(X))
    divmod_cpu(x, y, cq, cr)
    cq, cr = cq.tolist(), cr.tolist()
    wrong = 0
    for i, (a, b) in enumerate(zip(X, Y)):
        wq, wr = a // b, a % b  # CPython: exact
        ok = same(gq[i], wq) and same(gr[i], wr)
        wrong += not ok
        print(f"{a!r} // {b!r}, % : expected {wq!r}, {wr!r}; numba CPU {cq[i]!r}, {cr[i]!r}; "
              f"numba-cuda {gq[i]!r}, {gr[i]!r} {'right' if ok else 'WRONG'}")
    print(f"BUG REPRODUCED: {wrong} of {len(X)} float divmods differ from Python" if wrong else "NOT REPRODUCED")


if __name__ == "__main__":
    main()
