"""numba-cuda: signed int64 `+ - *` are `nsw` (numba/cuda/cpython/numbers.py,
`_int_arith_flags`), so an overflow is LLVM poison and the optimiser may
assume it never happens. Each kernel computes the same thing two ways: a
comparison the optimiser can decide from `nsw` (`x + 1 > x`, folded to True)
and the bits of the wrapped value, for inputs that overflow and inputs that
do not; uint64 (no `nsw`) as the control. Also the session-17 finding
`abs(min(-16, x) * 16)` (seed 1705 program 1884). Prints one JSON line per
kernel and input (`wrap`: two's-complement, what ksem computed before N23
was decided), and whether the LLVM IR has `nsw` on the operation.
    python3 tools/probes/numba/nsw_overflow.py
"""
import json
import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; numba-cuda 0.30 still uses it
from numba import cuda

MAX = 2**63 - 1


def wrap(v):
    return (v + 2**63) % 2**64 - 2**63


@cuda.jit
def gt_after_add(a, out):
    i = cuda.grid(1)
    x = a[i]
    out[i] = 1 if x + 1 > x else 0


@cuda.jit
def gt_after_add_u(a, out):
    i = cuda.grid(1)
    x = a[i]
    out[i] = 1 if x + 1 > x else 0


@cuda.jit
def lt_after_mul(a, out):
    i = cuda.grid(1)
    x = a[i]
    out[i] = 1 if x * 2 < 0 else 0


@cuda.jit
def abs_of_product(a, out):
    i = cuda.grid(1)
    out[i] = abs(min(-16, a[i]) * 16)


def run(k, xs, dtype):
    a = cuda.to_device(np.array(xs, dtype=dtype))
    out = cuda.device_array(len(xs), dtype=np.int64)
    k[1, len(xs)](a, out)
    return out.copy_to_host().tolist()


def nsw_lines(k):
    try:
        ir = list(k.inspect_llvm().values())[0]
    except Exception as e:  # noqa: BLE001
        return ["inspect_llvm failed: %r" % e]
    return sorted({l.strip() for l in ir.splitlines() if " nsw " in l and ("add" in l or "mul" in l)})[:6]


def main():
    xs = [5, -5, MAX, MAX - 1, 2**62, -(2**63)]
    for i, g in enumerate(run(gt_after_add, xs, np.int64)):
        x = xs[i]
        print(json.dumps({"kernel": "gt_after_add", "x": x, "numba": g, "wrap": int(wrap(x + 1) > x)}))
    us = [5, 2**64 - 1]
    for i, g in enumerate(run(gt_after_add_u, us, np.uint64)):
        x = us[i]
        print(json.dumps({"kernel": "gt_after_add_u", "x": x, "numba": g, "wrap": int((x + 1) % 2**64 > x)}))
    for i, g in enumerate(run(lt_after_mul, xs, np.int64)):
        x = xs[i]
        print(json.dumps({"kernel": "lt_after_mul", "x": x, "numba": g, "wrap": int(wrap(x * 2) < 0)}))
    ys = [7, -20, -(2**59) - 1, -(2**62), -(2**63)]
    for i, g in enumerate(run(abs_of_product, ys, np.int64)):
        y = ys[i]
        p = wrap(min(-16, y) * 16)
        print(json.dumps({"kernel": "abs_of_product", "x": y, "numba": g, "wrap": wrap(abs(p))}))
    for k in (gt_after_add, gt_after_add_u, lt_after_mul, abs_of_product):
        print(json.dumps({"nsw_" + k.__name__: nsw_lines(k)}))


if __name__ == "__main__":
    main()
