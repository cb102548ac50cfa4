"""numba-cuda: `9 // abs(y)` where abs(y) wraps to int64 MIN (y = MIN, or
y = x << (x & 63) with x = -1, fuzz seed 1706 program 185). numba's int
abs is `select(y < 0, 0 - y, y)` with no `nsw` (numbers.py,
int_abs_impl), so abs(MIN) is MIN, defined; Python's floor division gives
9 // MIN = -1 (srem 9, then the sign fix-up). Also `abs(y) < 0` and
`abs(y) % 7` for the same y. Prints one JSON line per kernel and input,
with the value Python's int arithmetic wrapped to int64 gives, and the PTX
lines of the fix-up.
    python3 tools/probes/numba/abs_min_floordiv.py
"""
import json
import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; numba-cuda 0.30 still uses it
from numba import cuda

MIN = -(2**63)


@cuda.jit
def div_abs(a, out):
    i = cuda.grid(1)
    out[i] = 9 // abs(a[i])


@cuda.jit
def div_abs_shift(a, out):
    i = cuda.grid(1)
    x = a[i]
    out[i] = 9 // abs(x << (x & 63))


@cuda.jit
def abs_negative(a, out):
    i = cuda.grid(1)
    out[i] = 1 if abs(a[i]) < 0 else 0


@cuda.jit
def mod_abs(a, out):
    i = cuda.grid(1)
    out[i] = abs(a[i]) % 7


def wrap(v):
    return (v + 2**63) % 2**64 - 2**63


def wabs(y):
    return wrap(abs(y))


EXPECT = {
    "div_abs": lambda y: 9 // wabs(y),
    "div_abs_shift": lambda x: 9 // wabs(wrap(x << (x & 63))),
    "abs_negative": lambda y: int(wabs(y) < 0),
    "mod_abs": lambda y: wabs(y) % 7,
}


def main():
    xs = [MIN, -1, 5, -5, 2**62]
    for k in (div_abs, div_abs_shift, abs_negative, mod_abs):
        a = cuda.to_device(np.array(xs, dtype=np.int64))
        out = cuda.device_array(len(xs), dtype=np.int64)
        k[1, len(xs)](a, out)
        for x, g in zip(xs, out.copy_to_host().tolist()):
            print(json.dumps({"kernel": k.__name__, "x": x, "numba": g, "python_wrapped": EXPECT[k.__name__](x)}))
        ptx = list(k.inspect_asm().values())[0]
        keep = [l.strip() for l in ptx.splitlines() if any(w in l for w in ("rem.", "div.", "abs.", "setp", "xor", "neg."))]
        print(json.dumps({"ptx_" + k.__name__: keep}))


if __name__ == "__main__":
    main()
