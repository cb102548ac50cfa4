# Standalone probe (GPU machine with numba-cuda): float atomic add/sub at the
# edges ops::atomic_rmw decides (float32 subnormals, NaN pairs in float64),
# through numba's cuda.atomic.add/sub. Prints one JSON object of bits.
#   python3 atomic_add_float_edges.py
import json
import struct

import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; numba-cuda 0.30 still uses it
from numba import cuda  # noqa: E402


@cuda.jit
def add_k(m, v):
    i = cuda.grid(1)
    if i < m.size:
        cuda.atomic.add(m, i, v[i])


@cuda.jit
def sub_k(m, v):
    i = cuda.grid(1)
    if i < m.size:
        cuda.atomic.sub(m, i, v[i])


def run(kernel, dtype, idt, mem, val):
    m = np.array(mem, dtype=idt).view(dtype)
    v = np.array(val, dtype=idt).view(dtype)
    dm = cuda.to_device(m)
    kernel[1, len(mem)](dm, cuda.to_device(v))
    return [int(x) for x in dm.copy_to_host().view(idt)]


F32 = [0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x3F800000, 0x7FC00000, 0xFFC00001, 0x80000000, 0x00000000]
pairs32 = [(a, b) for a in F32 for b in F32]
F64 = [1, 1 << 63, 0x3FF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001]
pairs64 = [(a, b) for a in F64 for b in F64]
out = {}
for name, k in [("add", add_k), ("sub", sub_k)]:
    out[name + "_f32"] = {"mem": [a for a, _ in pairs32], "val": [b for _, b in pairs32],
                          "final": run(k, np.float32, np.uint32, [a for a, _ in pairs32], [b for _, b in pairs32])}
    out[name + "_f64"] = {"mem": [a for a, _ in pairs64], "val": [b for _, b in pairs64],
                          "final": run(k, np.float64, np.uint64, [a for a, _ in pairs64], [b for _, b in pairs64])}
print(json.dumps(out))
