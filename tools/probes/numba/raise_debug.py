# What the host sees when a kernel raises (numba-cuda on a GPU), for ksem's
# `raise`/`assert` (docs/numba-measured.md (l)). Usage: python3 raise_debug.py > raise_debug.json
import json
import traceback

import numpy as np

if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; numba-cuda 0.30.4 still uses it
from numba import cuda  # noqa: E402


class MyError(Exception):
    pass


MSG = "Device Function Error"
out = {}


def launch(name, k, *args, cfg=(1, 1)):
    try:
        k[cfg](*args)
        cuda.synchronize()
        r = {"raised": None}
    except Exception as e:  # noqa: BLE001
        r = {"raised": type(e).__name__, "str": str(e)}
    for i, a in enumerate(args):
        if isinstance(a, np.ndarray):
            r[f"arg{i}"] = a.tolist() if a.size <= 8 else [i for i, x in enumerate(a.tolist()) if x == 0]
    out[name] = r


@cuda.jit(device=True)
def f_nodebug():
    raise ValueError(MSG)


@cuda.jit(device=True, debug=True, opt=False)
def f_debug():
    raise ValueError(MSG)


@cuda.jit(debug=True, opt=False)
def k_dev_nodebug(o):
    f_nodebug()
    o[0] = 5


@cuda.jit(debug=True, opt=False)
def k_dev_debug(o):
    f_debug()
    o[0] = 5


@cuda.jit(debug=True, opt=False)
def k_noargs(o):
    raise MyError


@cuda.jit(debug=True, opt=False)
def k_assert(o, x):
    assert x[0] > 0
    o[0] = 5


@cuda.jit(debug=True, opt=False)
def k_assert_msg(o, x):
    assert x[0] > 0, "x must be positive"
    o[0] = 5


@cuda.jit(debug=True, opt=False)
def k_many(o):
    t = cuda.threadIdx.x
    b = cuda.blockIdx.x
    if t == 37 or (b == 1 and t == 5):
        raise MyError("many")
    o[b * 64 + t] = 1


@cuda.jit
def k_many_nodebug(o):
    t = cuda.threadIdx.x
    b = cuda.blockIdx.x
    if t == 37 or (b == 1 and t == 5):
        raise MyError("many")
    o[b * 64 + t] = 1


@cuda.jit(device=True)
def g(x):
    if x == 1:
        raise ValueError("g")
    return x + 1


@cuda.jit
def k_dev_nodebug_kernel(o, x):
    o[0] = g(x[0])
    o[1] = 7


def main():
    launch("device_raise_kernel_debug", k_dev_nodebug, np.zeros(1, np.int32))
    launch("device_debug_raise_kernel_debug", k_dev_debug, np.zeros(1, np.int32))
    launch("raise_class_noargs", k_noargs, np.zeros(1, np.int32))
    launch("assert_nomsg", k_assert, np.zeros(1, np.int32), np.array([-1], np.int32))
    launch("assert_msg", k_assert_msg, np.zeros(1, np.int32), np.array([-1], np.int32))
    launch("assert_passes", k_assert_msg, np.zeros(1, np.int32), np.array([1], np.int32))
    launch("many_threads", k_many, np.zeros(128, np.int32), cfg=(2, 64))
    launch("many_threads_nodebug", k_many_nodebug, np.zeros(128, np.int32), cfg=(2, 64))
    launch("device_raise_nodebug", k_dev_nodebug_kernel, np.zeros(2, np.int32), np.array([1], np.int32))


try:
    main()
except Exception:  # noqa: BLE001
    out["probe_error"] = traceback.format_exc()
print(json.dumps(out, indent=1))
