"""numba-cuda 0.30.4 on the GPU: values of numpy ufuncs and the math functions
ksem added (docs/numba-measured.md, "ufuncs and math functions"). Writes JSON to
argv[1]; a second argument: 40 values only (a quick check under the simulator).

ex: exact functions vs the CPU's (numpy/math): mismatches (first 8 listed)
ul: approximate functions: max ulp distance from the CPU's double result
fx: frexp/ldexp/modf/nextafter/remainder at special values (bits)
h10: cuda.fp16.hexp10 on all 65536 halves: max ulp from round(10**x)
exc: a `raise` without debug: does the thread go on? (out[0] after)
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


def ulp(a, b, dt):
    ib = np.int64 if dt == np.float64 else np.int32
    a, b = a.astype(dt).view(ib).astype(np.int64), b.astype(dt).view(ib).astype(np.int64)
    a = np.where(a < 0, np.int64(np.iinfo(ib).min) - a, a)
    b = np.where(b < 0, np.int64(np.iinfo(ib).min) - b, b)
    return np.abs(a - b)


for dt, x, y in ((np.float64, V64, W64), (np.float32, V32, W32)):
    d = dt.__name__
    for n, ex, ref in (
        ("deg2rad", "np.deg2rad(x[i])", lambda: np.deg2rad(x)), ("rad2deg", "np.rad2deg(x[i])", lambda: np.rad2deg(x)),
        ("remainder", "math.remainder(x[i], y[i])", lambda: np.array([math.remainder(p, q) if not (math.isinf(p) or q == 0 or math.isnan(p) or math.isnan(q)) else np.nan for p, q in zip(x.astype(float), y.astype(float))], dt)),
        ("nextafter", "math.nextafter(x[i], y[i])", lambda: np.nextafter(x, y)), ("fmod", "math.fmod(x[i], y[i])", lambda: np.fmod(x, y)),
        ("modf0", "math.modf(x[i])[0]", lambda: np.modf(x)[0]), ("modf1", "math.modf(x[i])[1]", lambda: np.modf(x)[1]),
        ("frexp0", "math.frexp(x[i])[0]", lambda: np.frexp(x)[0]), ("frexp1", "math.frexp(x[i])[1]", lambda: np.frexp(x)[1].astype(dt)),
        ("ldexp", "math.ldexp(x[i], y[i])", lambda: np.ldexp(x, E)),
        ("hypot_np", "np.hypot(x[i], y[i])", lambda: np.hypot(x, y)),
    ):
        try:
            g, r = launch1(ex, x, dt, E if n == "ldexp" else y), ref().astype(dt)
            bad = np.nonzero((g.view(IB[dt]) != r.view(IB[dt])) & ~(np.isnan(g) & np.isnan(r)))[0]
            R["ex"][f"{n}/{d}"] = [int(bad.size)] + [[float(x[i]), float(y[i]), float(g[i]), float(r[i])] for i in bad[:8]]
        except Exception as e:
            R["ex"][f"{n}/{d}"] = "ERR " + type(e).__name__ + " " + str(e)[:200]
    for n, ex, ref in (("hypot", "math.hypot(x[i], y[i])", lambda: np.hypot(x.astype(float), y.astype(float))), ("erfc", "math.erfc(x[i])", lambda: np.array([math.erfc(v) for v in x.astype(float)])),
                       ("gamma", "math.gamma(x[i])", lambda: np.array([math.gamma(v) if v > 0 and v < 172 else np.nan for v in x.astype(float)])),
                       ("lgamma", "math.lgamma(x[i])", lambda: np.array([math.lgamma(v) if v > 0 else np.nan for v in x.astype(float)]))):
        try:
            g, r = launch1(ex, x, dt, y), ref()
            ok = np.isfinite(r) & np.isfinite(g)
            u = ulp(g[ok], r[ok], dt)
            R["ul"][f"{n}/{d}"] = [int(u.max()), int(np.sum(u > 0)), int(ok.sum()), int(np.sum(np.isfinite(r) != np.isfinite(g)))]
        except Exception as e:
            R["ul"][f"{n}/{d}"] = "ERR " + type(e).__name__ + " " + str(e)[:200]
    S = np.array(SPEC, dt)
    for ex in ("math.frexp(x[i])[0]", "math.frexp(x[i])[1]", "math.ldexp(x[i], 1000)", "math.ldexp(x[i], -1100)", "math.ldexp(x[i], -140)", "math.modf(x[i])[0]", "math.modf(x[i])[1]", "math.nextafter(x[i], 0.0)", "math.remainder(x[i], 1.5)"):
        try:
            R["fx"][f"{ex}/{d}"] = [float(v) for v in launch1(ex, S, dt)]
        except Exception as e:
            R["fx"][f"{ex}/{d}"] = "ERR " + type(e).__name__ + " " + str(e)[:200]
R["fx"]["spec"] = SPEC
try:
    h = np.arange(65536, dtype=np.uint16).view(np.float16)
    g = launch1("cuda.fp16.hexp10(x[i])", h, np.float16)
    r = (10.0 ** h.astype(np.float64)).astype(np.float16)
    ok = np.isfinite(r) & np.isfinite(g)
    u = ulp(g[ok].astype(np.float32), r[ok].astype(np.float32), np.float32) >> 13
    R["h10"] = [int(u.max()), int(np.sum(u > 0)), int(ok.sum()), int(np.sum(np.isfinite(r) != np.isfinite(g)))]
except Exception as e:
    R["h10"] = "ERR " + type(e).__name__ + " " + str(e)[:200]
try:
    k = cuda.jit(fn("def f(x, o):\n if x[0] == 1:\n  raise ValueError('boom')\n o[0] = 5"))
    o = np.zeros(1, np.int64)
    k[1, 1](np.ones(1, np.int64), o)
    R["exc"] = int(o[0])
except Exception as e:
    R["exc"] = "ERR " + type(e).__name__ + " " + str(e)[:200]
json.dump(R, open(sys.argv[1], "w"), indent=0)
