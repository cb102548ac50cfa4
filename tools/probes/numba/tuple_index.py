# A tuple indexed at run time out of its range (numba-cuda on a GPU), for
# ksem's runtime tuple index (docs/numba-measured.md (l)).
# Usage: python3 tuple_index.py > tuple_index.json
import json

import numpy as np

if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # numpy >= 2.4 removed it; numba-cuda 0.30.4 still uses it
from numba import cuda  # noqa: E402


def body(ary, o):
    x = cuda.threadIdx.x
    o[x] = 1
    o[x] = ary.shape[-x] + 10


out = {}
for name, k in (("nodebug", cuda.jit(body)), ("debug", cuda.jit(debug=True, opt=False)(body))):
    o = np.zeros(4, np.int64)
    try:
        k[1, 4](np.zeros(2), o)
        cuda.synchronize()
        out[name] = {"raised": None, "o": o.tolist()}
    except Exception as e:  # noqa: BLE001
        out[name] = {"raised": type(e).__name__, "str": str(e), "o": o.tolist()}
print(json.dumps(out, indent=1))
