"""numba-cuda 0.30.4 on the GPU: result types of numpy ufuncs and math functions
in kernels (docs/numba-measured.md, "ufuncs and math functions"): compile_ptx of
a device function per argument type; and whether np.X(float) equals math.X(float)
bit for bit on 4096 values (the same libdevice function). Writes JSON to argv[1]. Run with
ufunc_math_values.py (the values).
"""
import json, math, sys, warnings
import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; numba-cuda 0.30.4 still uses it
from numba import cuda, types as T
warnings.simplefilter("ignore")
R = {"t": {}, "eq": {}, "ex": {}, "ul": {}, "fx": {}}


def fn(src):
    g = {"np": np, "math": math, "cuda": cuda}
    exec(src, g)
    return g["f"]


UN = "sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh log log2 log10 deg2rad rad2deg degrees radians logical_not invert".split()
BI = "arctan2 hypot equal less logical_and logical_xor bitwise_and fmax fmin maximum".split()
TY = "int32 uint64 float32 float64".split()
MU = "erfc gamma lgamma".split()
MB = "hypot remainder nextafter ldexp".split()
for n in UN + MU + ["frexp", "modf"]:
    call = f"np.{n}(x)" if n in UN else f"math.{n}(x)"
    for t in TY:
        try:
            R["t"][f"{n}({t})"] = str(cuda.compile_ptx(fn(f"def f(x):\n return {call}"), (getattr(T, t),), device=True)[1])
        except Exception as e:
            R["t"][f"{n}({t})"] = "ERR " + type(e).__name__
PAIRS = [("int32", "int32"), ("int64", "float32"), ("float32", "float64"), ("int64", "uint64"), ("float32", "float32"), ("float32", "int32")]
for n in BI + MB:
    call = f"np.{n}(x, y)" if n in BI else f"math.{n}(x, y)"
    for a, b in PAIRS:
        try:
            R["t"][f"{n}({a},{b})"] = str(cuda.compile_ptx(fn(f"def f(x, y):\n return {call}"), (getattr(T, a), getattr(T, b)), device=True)[1])
        except Exception as e:
            R["t"][f"{n}({a},{b})"] = "ERR " + type(e).__name__

rng = np.random.default_rng(1)
SPEC = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 1e-40, 1e-310, 5e-324, 3e38, 1e308, 2.5, -2.5, 3.5, 1e20]
V64 = np.concatenate([SPEC, rng.uniform(-10, 10, 2000), rng.uniform(-1, 1, 1000), np.exp(rng.uniform(-700, 700, 1079))])
V32 = V64.astype(np.float32)
W64 = np.concatenate([SPEC[::-1], rng.uniform(-10, 10, 2000), rng.uniform(-1, 1, 1000), np.exp(rng.uniform(-700, 700, 1079))])
W32 = W64.astype(np.float32)
if len(sys.argv) > 2:  # a quick check under the simulator
    V64, V32, W64, W32 = V64[:40], V32[:40], W64[:40], W32[:40]
E = rng.integers(-1200, 1200, V64.size).astype(np.int32)
IB = {np.float64: np.int64, np.float32: np.int32, np.float16: np.int16}


def launch1(expr, x, out_dtype, y=None):
    k = cuda.jit(fn("def f(x, y, o):\n i = cuda.grid(1)\n if i < o.size:\n  o[i] = " + expr))
    o = np.zeros(x.size, dtype=out_dtype)
    k[(x.size + 127) // 128, 128](x, x if y is None else y, o)
    return o


for dt, x, y in ((np.float64, V64, W64), (np.float32, V32, W32)):
    d = dt.__name__
    for n in "sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh log log2 log10".split():
        m = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh"}.get(n, n)
        try:
            a, b = launch1(f"np.{n}(x[i])", x, dt), launch1(f"math.{m}(x[i])", x, dt)
            R["eq"][f"{n}/{d}"] = int(np.sum((a.view(IB[dt]) != b.view(IB[dt])) & ~(np.isnan(a) & np.isnan(b))))
        except Exception as e:
            R["eq"][f"{n}/{d}"] = "ERR " + type(e).__name__ + " " + str(e)[:200]
json.dump(R, open(sys.argv[1], "w"), indent=0)
