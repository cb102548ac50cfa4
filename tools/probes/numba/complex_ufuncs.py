# Standalone probe (GPU machine with numba-cuda 0.30.4): numpy ufuncs on
# complex64/complex128 in a kernel, bit for bit: the unary loops numba has
# its own routines for (sinh, cosh, tanh, arccosh, log2, log10) and sin
# (cmath's routine), on every complex of complex_data.py's table of parts;
# comparisons, logical_and, maximum/minimum/fmax/fmin on pairs of a
# smaller table. Prints one JSON object; floats as bits in hex.
#   python3 complex_ufuncs.py > complex_ufuncs.json
import itertools, json, math
import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack
from numba import cuda  # noqa: E402

P = [0.0, -0.0, 1.0, -1.0, 1.5, -3.5, math.inf, -math.inf, math.nan, 1e-30, 3e38]
V = [complex(x, y) for x in P for y in P]
S = [0.0, -0.0, 1.0, 2.0, math.inf, math.nan]
W = [complex(x, y) for x in S for y in S]
PAIRS = list(itertools.product(W, W))
U1 = ["sin", "sinh", "cosh", "tanh", "arccosh", "log2", "log10"]
U2 = ["less", "greater_equal", "equal", "logical_and", "maximum", "minimum", "fmax", "fmin"]


def hexes(a):
    a = np.ascontiguousarray(a)
    if a.dtype == np.bool_:
        return [bool(v) for v in a]
    w = {4: np.uint32, 8: np.uint64}[a.dtype.itemsize // (2 if a.dtype.kind == "c" else 1)]
    return [hex(int(v)) for v in a.view(w).reshape(-1)]


def kern(name, nin):
    ns = {"np": np, "cuda": cuda}
    args = ", ".join(f"a{i}" for i in range(nin))
    exec(f"def k({args}, o):\n    np.{name}({args}, o)\n", ns)
    return cuda.jit(ns["k"])


out = {}
for dt, tag in [(np.complex64, "c64"), (np.complex128, "c128")]:
    x = np.array(V, dt)
    r = {"x": hexes(x)}
    for f in U1:
        o = np.zeros_like(x)
        kern(f, 1)[1, 1](x, o)
        r[f] = hexes(o)
    a = np.array([p[0] for p in PAIRS], dt)
    b = np.array([p[1] for p in PAIRS], dt)
    r["a"], r["b"] = hexes(a), hexes(b)
    for f in U2:
        o = np.zeros(len(PAIRS), np.bool_ if f in ("less", "greater_equal", "equal", "logical_and") else dt)
        kern(f, 2)[1, 1](a, b, o)
        r[f] = hexes(o)
    out[tag] = r
print(json.dumps(out))
