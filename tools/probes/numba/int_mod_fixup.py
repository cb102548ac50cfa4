"""numba-cuda: Python's int64 `%` (srem, then `+ y` where the remainder's
sign differs from the divisor's) on the GPU, in a plain kernel and in the
shape fuzz seed 1705 program 10 found it wrong in (dividend `max(~x, 11)`,
divisor `x * c`). Expected values: Python's own `%` on the same ints.
Prints one JSON line per case and the PTX lines of the fix-up.
    python3 tools/probes/numba/int_mod_fixup.py
"""
import json
import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; numba-cuda 0.30 still uses it
from numba import cuda, int64


@cuda.jit
def plain(a, b, out):
    i = cuda.grid(1)
    out[i] = a[i] % b[i]


@cuda.jit
def fuzz_shape(a0, out):
    i = cuda.grid(1)
    x0 = a0[i]
    out[i] = max((~x0), abs(11)) % (x0 * (i if (5.4375 == i) else (-20)))


def wrap(v):
    return (v + 2**63) % 2**64 - 2**63


def main():
    xs = [7252804452067290945, -7120892511998806644, 5, -5, 7, -7, 123456789, -987654321]
    out = cuda.device_array(len(xs), dtype=np.int64)
    fuzz_shape[1, len(xs)](cuda.to_device(np.array(xs, dtype=np.int64)), out)
    got = out.copy_to_host().tolist()
    for i, x in enumerate(xs):
        a, b = max(~x, 11), wrap(x * (-20))
        want = a % b if b else 0
        print(json.dumps({"kernel": "fuzz_shape", "x0": x, "a": a, "b": b, "python": want, "numba": got[i]}))
    a = np.array([wrap(max(~x, 11)) for x in xs], dtype=np.int64)
    b = np.array([wrap(x * -20) for x in xs], dtype=np.int64)
    out2 = cuda.device_array(len(xs), dtype=np.int64)
    plain[1, len(xs)](cuda.to_device(a), cuda.to_device(b), out2)
    for i, g in enumerate(out2.copy_to_host().tolist()):
        want = int(a[i]) % int(b[i]) if b[i] else 0
        print(json.dumps({"kernel": "plain", "a": int(a[i]), "b": int(b[i]), "python": want, "numba": g}))
    for k in (plain, fuzz_shape):
        ptx = list(k.inspect_asm().values())[0]
        print(json.dumps({"ptx_" + k.__name__: [l.strip() for l in ptx.splitlines() if "rem" in l or "xor" in l or "setp" in l or "mul.lo.s64" in l]}))


if __name__ == "__main__":
    main()
