"""Finding __NAME__ against numba-cuda, written by `ksem triage --bug-report` (a draft).

Runs the kernel below on real numba-cuda (no ksem) with the finding's inputs
and compares the buffers that differed with EXPECTED. EXPECTED holds ksem's
bits: before filing, compute them independently here (plain Python) and
explain them in README.md. Arrays go to the kernel as NumPy arrays (numba
copies them to the device and back); scalars as NumPy scalars of their
launch dtype, as ksem's campaigns pass them.

Run: python3 repro.py   on a machine with a CUDA GPU (prints BUG REPRODUCED /
NOT REPRODUCED, exits 0; NUMBA_ENABLE_CUDASIM=1 python3 repro.py runs
numba's simulator instead)
"""
import inspect
import json
import os

import numpy as np

# ---- the finding's program, verbatim ----
# __PROGRAM__
# ---- the launch ----
PROGRAM = dict(globals())  # the program's names, before this script's own
LAUNCH = json.loads(r'''__LAUNCH__''')
EXPECTED = json.loads(r'''__EXPECTED__''')
KERNEL_NAME = "__KERNEL__"

# __COMMON__

UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def make(dtype, bits, shape):
    """A NumPy array holding exactly these bit patterns."""
    vals = [int(b, 16) for b in bits]
    if dtype == "bool":
        a = np.array([v != 0 for v in vals], dtype=np.bool_)
    else:
        a = np.array(vals, dtype=UINT[WIDTH[dtype]]).view(np.dtype(dtype))
    return a.reshape(shape) if shape is not None else a


def bits_of(dtype, a):
    flat = np.ascontiguousarray(a).reshape(-1)
    if dtype == "bool":
        return [int(v) for v in flat]
    return [int(v) for v in flat.view(UINT[WIDTH[dtype]])]


def main():
    import numba
    from numba import cuda
    sim = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
    gpu = "numba's simulator (NUMBA_ENABLE_CUDASIM=1)" if sim else cuda.get_current_device().name
    if isinstance(gpu, bytes):
        gpu = gpu.decode()
    print(f"numba {numba.__version__}, numpy {np.__version__}, GPU {gpu}")
    kernel = PROGRAM[KERNEL_NAME]
    params = list(inspect.signature(kernel.py_func).parameters)
    arrays, values = {}, []
    for name in params:
        (kind, v), = LAUNCH["args"][name].items()
        if kind == "buffer":
            arrays[name] = make(v["dtype"], v["bits"], v.get("shape"))
            values.append(arrays[name])
        else:
            values.append(np.dtype(v["dtype"]).type(scalar_of(v["dtype"], v["bits"])))
    kernel[tuple(LAUNCH["grid"]), tuple(LAUNCH["block"])](*values)
    report({name: bits_of(want["dtype"], arrays[name]) for name, want in EXPECTED.items()})


if __name__ == "__main__":
    main()
