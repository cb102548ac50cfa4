# Standalone probe (GPU machine with numba-cuda 0.30.4): complex numbers in
# CUDA Python, bit for bit. For complex64 and complex128: `+ - * /`, unary
# `-`, `abs`, `==`/`!=`, `.conjugate()` over every pair of a table of
# parts (signed zeros, infinities, NaN, large and small finite values), a
# division by zero (output prefilled with a sentinel), `**` on a few
# operands, the result types of mixed operations (observed through
# rounding), conversions to complex, and the cmath functions on the
# suite's values. Prints one JSON object; every float as its bits in hex.
#   python3 complex_data.py > complex_data.json
import cmath
import itertools
import json
import math

import numpy as np

if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; numba-cuda 0.30 still uses it
from numba import cuda  # noqa: E402

PARTS = [0.0, -0.0, 1.0, -1.0, 1.5, -3.5, math.inf, -math.inf, math.nan, 1e-30, 3e38]
VALUES = [complex(x, y) for x in PARTS for y in PARTS]
# finite operands whose products show contraction into fma
RAND = np.random.default_rng(7)
FINITE = [complex(a, b) for a, b in RAND.uniform(-4, 4, size=(64, 2))]


def hexes(a):
    a = np.ascontiguousarray(a)
    w = {4: np.uint32, 8: np.uint64}[a.dtype.itemsize // (2 if a.dtype.kind == "c" else 1)]
    v = a.view(w).reshape(-1)
    return [hex(int(x)) for x in v]


@cuda.jit
def binops(x, y, add, sub, mul, div, eq, ne):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        add[i] = a + b
        sub[i] = a - b
        mul[i] = a * b
        div[i] = a / b
        eq[i] = a == b
        ne[i] = a != b


@cuda.jit
def unops(x, neg, conj, ab, re, im):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        neg[i] = -a
        conj[i] = a.conjugate()
        ab[i] = abs(a)
        re[i] = a.real
        im[i] = a.imag


@cuda.jit
def powk(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] ** y[i]


@cuda.jit
def mixed(c64, f64, f32, i64, i32, out):
    # out is complex128: each slot's rounding shows the type it computed in
    out[0] = c64[0] + f64[0]
    out[1] = c64[0] * f64[0]
    out[2] = c64[0] + f32[0]
    out[3] = c64[0] + i64[0]
    out[4] = c64[0] + i32[0]
    out[5] = c64[0] + 1e-10
    out[6] = complex(f32[0], f32[0]) + 1e-10
    out[7] = complex(i32[0], i32[0]) + 1e-10
    out[8] = c64[0] + 1e-10j
    out[9] = c64[0] * 2


@cuda.jit
def conv(h, f, d, o64, o128):
    o64[0] = np.complex64(h[0])
    o64[1] = np.complex64(f[0])
    o64[2] = np.complex64(d[0])
    o128[0] = np.complex128(h[0])
    o128[1] = np.complex128(f[0])
    o128[2] = np.complex128(d[0])
    o64[3] = d[0]
    o128[3] = f[0]
    o64[4] = complex(d[0], f[0])


def run_binops(dt, pairs):
    x = np.array([p[0] for p in pairs], dtype=dt)
    y = np.array([p[1] for p in pairs], dtype=dt)
    n = len(pairs)
    outs = [np.full(n, complex(7, 7), dtype=dt) for _ in range(4)] + [np.zeros(n, np.bool_) for _ in range(2)]
    binops[(n + 255) // 256, 256](x, y, *outs)
    return {
        "x": hexes(x), "y": hexes(y),
        "add": hexes(outs[0]), "sub": hexes(outs[1]), "mul": hexes(outs[2]), "div": hexes(outs[3]),
        "eq": [bool(v) for v in outs[4]], "ne": [bool(v) for v in outs[5]],
    }


def run_unops(dt, vals):
    x = np.array(vals, dtype=dt)
    fdt = np.float32 if dt == np.complex64 else np.float64
    n = len(vals)
    neg, conj = np.zeros(n, dt), np.zeros(n, dt)
    ab, re, im = np.zeros(n, fdt), np.zeros(n, fdt), np.zeros(n, fdt)
    unops[(n + 255) // 256, 256](x, neg, conj, ab, re, im)
    return {"x": hexes(x), "neg": hexes(neg), "conj": hexes(conj), "abs": hexes(ab), "real": hexes(re), "imag": hexes(im)}


CMATH = ["exp", "log", "log10", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan",
         "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]


def cmath_kernel(name):
    ns = {"cuda": cuda, "cmath": cmath}
    exec(f"def k(x, out):\n    i = cuda.grid(1)\n    if i < x.size:\n        out[i] = cmath.{name}(x[i])\n", ns)
    return cuda.jit(ns["k"])


@cuda.jit
def cmath_misc(x, isnan, isinf, isfin, phase, polar_r, polar_p, rect):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        isnan[i] = cmath.isnan(a)
        isinf[i] = cmath.isinf(a)
        isfin[i] = cmath.isfinite(a)
        phase[i] = cmath.phase(a)
        r, p = cmath.polar(a)
        polar_r[i] = r
        polar_p[i] = p
        rect[i] = cmath.rect(a.real, a.imag)


def main():
    out = {}
    pairs = list(itertools.product(VALUES, VALUES)) + list(zip(FINITE, FINITE[::-1]))
    for dt, name in [(np.complex64, "c64"), (np.complex128, "c128")]:
        out["binops_" + name] = run_binops(dt, pairs)
        out["unops_" + name] = run_unops(dt, VALUES + FINITE)
        px = [complex(1.5, -0.5), complex(0, 0), complex(0, 1), complex(2, 3), complex(-1, 0), complex(0.5, 0.25)]
        py = [complex(2, 0), complex(0, 0), complex(1, 0), complex(0.5, -1.5), complex(0.5, 0), complex(3, 0)]
        x, y = np.array(px, dt), np.array(py, dt)
        r = np.zeros(len(px), dt)
        powk[1, len(px)](x, y, r)
        out["pow_" + name] = {"x": hexes(x), "y": hexes(y), "r": hexes(r)}
        fdt = np.float32 if dt == np.complex64 else np.float64
        cm = {"x": hexes(np.array(VALUES, dt))}
        xv = np.array(VALUES, dt)
        for f in CMATH:
            o = np.zeros(len(VALUES), dt)
            try:
                cmath_kernel(f)[1, len(VALUES)](xv, o)
                cm[f] = hexes(o)
            except Exception as e:  # noqa: BLE001
                cm[f] = "error: " + str(e).splitlines()[0]
        n = len(VALUES)
        bs = [np.zeros(n, np.bool_) for _ in range(3)]
        fs = [np.zeros(n, fdt) for _ in range(3)]
        rect = np.zeros(n, dt)
        cmath_misc[1, n](xv, *bs, *fs, rect)
        cm["isnan"], cm["isinf"], cm["isfinite"] = ([bool(v) for v in b] for b in bs)
        cm["phase"], cm["polar_r"], cm["polar_phi"] = (hexes(f) for f in fs)
        cm["rect"] = hexes(rect)
        out["cmath_" + name] = cm
    # mixed types
    c64 = np.array([complex(1.0, 1.0)], np.complex64)
    f64 = np.array([1.0 + 2.0**-40], np.float64)
    f32 = np.array([1.0], np.float32)
    i64 = np.array([2**40 + 1], np.int64)
    i32 = np.array([2**24 + 1], np.int32)
    o = np.zeros(10, np.complex128)
    mixed[1, 1](c64, f64, f32, i64, i32, o)
    out["mixed"] = {"out": hexes(o)}
    h = np.array([3.21], np.float16)
    f = np.array([3.21], np.float32)
    d = np.array([3.21], np.float64)
    o64, o128 = np.zeros(5, np.complex64), np.zeros(4, np.complex128)
    conv[1, 1](h, f, d, o64, o128)
    out["conv"] = {"o64": hexes(o64), "o128": hexes(o128)}
    print(json.dumps(out))


main()
