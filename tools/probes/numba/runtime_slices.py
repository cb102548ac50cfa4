# Slices with runtime bounds, `.view(dtype)` of a runtime-length slice and
# `reshape` with a runtime shape (numba-cuda on a GPU), for ksem's runtime
# views (docs/numba-measured.md (m)).
# Usage: python3 runtime_slices.py > runtime_slices.json
import json

import numpy as np

if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; numba-cuda 0.30.4 still uses it
from numba import cuda  # noqa: E402

out = {}


def slices(step):
    # o[0] = len(v); o[1 + j] = v[j]
    src = f"""
def k(a, s, e, o):
    v = a[s:e:{step}]
    o[0] = len(v)
    for j in range(len(v)):
        o[1 + j] = v[j]
def k_open_start(a, e, o):
    v = a[:e:{step}]
    o[0] = len(v)
    for j in range(len(v)):
        o[1 + j] = v[j]
def k_open_stop(a, s, o):
    v = a[s::{step}]
    o[0] = len(v)
    for j in range(len(v)):
        o[1 + j] = v[j]
"""
    ns = {}
    exec(src, ns)
    return cuda.jit(ns["k"]), cuda.jit(ns["k_open_start"]), cuda.jit(ns["k_open_stop"])


a = np.arange(10, dtype=np.int64) * 10
bounds = [-20, -11, -10, -3, -1, 0, 1, 3, 9, 10, 11, 20]
for step in (1, 2, -1, -3):
    k, ko_s, ko_e = slices(step)
    rows = []
    for s in bounds:
        for e in bounds:
            o = np.full(12, -7, np.int64)
            k[1, 1](a, s, e, o)
            rows.append([s, e, o.tolist()])
    out[f"a[s:e:{step}]"] = rows
    out[f"a[:e:{step}]"] = []
    out[f"a[s::{step}]"] = []
    for b in bounds:
        o = np.full(12, -7, np.int64)
        ko_s[1, 1](a, b, o)
        out[f"a[:e:{step}]"].append([b, o.tolist()])
        o = np.full(12, -7, np.int64)
        ko_e[1, 1](a, b, o)
        out[f"a[s::{step}]"].append([b, o.tolist()])


def view_int32(b, s, e, o):
    o[0] = 1
    v = b[s:e].view(np.int32)
    o[1] = len(v)
    o[2] = v[0]


def reshape2(a, shape, o):
    o[0] = 1
    y = a.reshape(shape)
    o[1] = y.shape[0]
    o[2] = y.shape[1]
    o[3] = y[y.shape[0] - 1, y.shape[1] - 1]


def run(name, fn, args, o):
    for dbg in (False, True):
        k = cuda.jit(debug=True, opt=False)(fn) if dbg else cuda.jit(fn)
        oo = o.copy()
        key = f"{name} debug={dbg}"
        try:
            k[1, 1](*args, oo)
            cuda.synchronize()
            out[key] = {"raised": None, "o": oo.tolist()}
        except Exception as ex:  # noqa: BLE001
            out[key] = {"raised": type(ex).__name__, "str": str(ex)[:300], "o": oo.tolist()}


bytes_ = np.arange(16, dtype=np.uint8)
run("view int32 [4:12]", view_int32, (bytes_, 4, 12), np.zeros(3, np.int64))
run("view int32 [4:10]", view_int32, (bytes_, 4, 10), np.zeros(3, np.int64))
run("view int32 [1:9]", view_int32, (bytes_, 1, 9), np.zeros(3, np.int64))
run("view int32 [4:4]", view_int32, (bytes_, 4, 4), np.zeros(3, np.int64))
a24 = np.arange(24, dtype=np.int64)
for shape in ((4, 6), (-1, 8), (5, 6), (-1, 5), (-1, -1), (-2, -12), (0, -1)):
    run(f"reshape {shape}", reshape2, (a24, shape), np.zeros(4, np.int64))
print(json.dumps(out, indent=0))
