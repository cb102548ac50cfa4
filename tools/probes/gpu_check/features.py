# Kernels of the CUDA Python features added in session 13 (numpy ufuncs,
# exact math functions, complex arithmetic, slices, dynamic shared memory),
# run on ksem's interpreter and on its CUDA lowering by
# tools/probes/gpu_check/run.sh (`ksem diff --backends interp,cuda`), to
# check that the lowering computes what the interpreter does.
import cmath
import math

import numpy as np
from numba import cuda


@cuda.jit
def ufuncs(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = np.sin(x[i]) + np.hypot(x[i], y[i])
        out[1, i] = np.arctan2(x[i], y[i]) * np.float32(2.0)
        out[2, i] = np.fmax(x[i], y[i]) - np.fmin(x[i], y[i])
        out[3, i] = np.log10(abs(x[i]) + np.float32(1.0))
        out[4, i] = np.logical_and(x[i] > 0, y[i] > 0) + np.invert(np.int32(i))


@cuda.jit
def exact_math(x, m, e, out):
    i = cuda.grid(1)
    if i < x.size:
        f, k = math.frexp(x[i])
        m[i] = f
        e[i] = k
        fr, wh = math.modf(x[i])
        out[0, i] = math.ldexp(fr, 3) + wh
        out[1, i] = math.nextafter(x[i], 0.0)
        out[2, i] = math.remainder(x[i], 0.75)


@cuda.jit
def complex_ops(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        z = a[i] * b[i] + a[i] / b[i]
        out[i] = z - complex(abs(a[i]), 0.0) + a[i].conjugate()


@cuda.jit
def slices(a, out):
    i = cuda.grid(1)
    v = a[1::2]
    r = a[::-1]
    if i < v.size:
        out[i] = v[i] * 10 + r[i]


@cuda.jit
def dyn_shared(a, out):
    s = cuda.shared.array(0, dtype=np.float32)
    i = cuda.threadIdx.x
    s[i] = a[i] * 2
    cuda.syncthreads()
    out[i] = s[(i + 1) % cuda.blockDim.x]


@cuda.jit
def complex_math(a, out):
    i = cuda.grid(1)
    if i < a.size:
        z = a[i]
        out[0, i] = cmath.exp(z) + cmath.sqrt(z) * cmath.log(z)
        out[1, i] = cmath.asinh(z) - cmath.tan(z)
        out[2, i] = z ** (0.5 + 0.25j) + np.sin(z)
        out[3, i] = complex(*cmath.polar(z)) + cmath.rect(abs(z), 1.25)
