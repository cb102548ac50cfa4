"""numba-cuda: builtin `max`/`min` by operand types. numba-cuda lowers a
pair of floats (float32/float64) to libdevice's fmax/fmin (a NaN operand
ignored, max(-0.0, 0.0) = +0.0: `cudaimpl.py`), but any other call (a float
with an int, three operands) goes through numba's generic `do_minmax`
(`cpython/builtins.py`): `v if v > acc else acc` pairwise, Python's
algorithm (a NaN first operand propagates, a later one is skipped; equal
values keep the first). Prints one JSON line per case with the result's
bits and the value Python's own max/min gives.
    python3 tools/probes/numba/minmax_mixed.py
"""
import json
import math
import struct
import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; numba-cuda 0.30 still uses it
from numba import cuda


@cuda.jit
def k(f, n, out):
    nan = f[0]
    mz = f[1]  # -0.0
    one = f[2]
    z = n[0]  # int64 0
    out[0] = max(nan, z)
    out[1] = max(z, nan)
    out[2] = min(nan, z)
    out[3] = min(z, nan)
    out[4] = max(mz, z)
    out[5] = max(z, mz)
    out[6] = min(mz, z)
    out[7] = min(z, mz)
    out[8] = max(nan, one)
    out[9] = max(one, nan)
    out[10] = max(mz, 0.0 * one)
    out[11] = min(0.0 * one, mz)
    out[12] = max(nan, one, mz)
    out[13] = max(one, nan, mz)
    out[14] = min(nan, one, mz)
    out[15] = max(mz, 0.0 * one, mz)


CASES = [
    "max(nan, int 0)", "max(int 0, nan)", "min(nan, int 0)", "min(int 0, nan)",
    "max(-0.0, int 0)", "max(int 0, -0.0)", "min(-0.0, int 0)", "min(int 0, -0.0)",
    "max(nan, 1.0)", "max(1.0, nan)", "max(-0.0, 0.0)", "min(0.0, -0.0)",
    "max(nan, 1.0, -0.0)", "max(1.0, nan, -0.0)", "min(nan, 1.0, -0.0)", "max(-0.0, 0.0, -0.0)",
]


def main():
    f = cuda.to_device(np.array([math.nan, -0.0, 1.0]))
    n = cuda.to_device(np.array([0], dtype=np.int64))
    out = cuda.device_array(len(CASES), dtype=np.float64)
    k[1, 1](f, n, out)
    nan = math.nan
    python = [max(nan, 0), max(0, nan), min(nan, 0), min(0, nan), max(-0.0, 0), max(0, -0.0),
              min(-0.0, 0), min(0, -0.0), max(nan, 1.0), max(1.0, nan), max(-0.0, 0.0), min(0.0, -0.0),
              max(nan, 1.0, -0.0), max(1.0, nan, -0.0), min(nan, 1.0, -0.0), max(-0.0, 0.0, -0.0)]
    for c, g, p in zip(CASES, out.copy_to_host().tolist(), python):
        bits = lambda v: "0x%016x" % struct.unpack("<Q", struct.pack("<d", float(v)))[0]
        print(json.dumps({"case": c, "numba": bits(g), "python": bits(p)}))


if __name__ == "__main__":
    main()
