"""The ptxas int16 negation miscompile (repro_ptx.py) reached from numba-cuda.

numba types `-x` of an int16 as int16 (it wraps: -(-32768) = -32768) and the
store into an int64 array sign-extends it. For x = [-32768, 1, -1, 0] the
only right results are [-32768, -1, 1, 0]. numba's own CPU target
(`numba.njit`) compiles the same function as a control.

Run: python3 repro_numba.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import numpy as np

if not hasattr(np, "row_stack"):
    # numba-cuda 0.30.4 registers an overload of np.row_stack, which numpy 2.5
    # removed: without this alias its first kernel compile raises AttributeError.
    np.row_stack = np.vstack

import numba  # noqa: E402
from numba import cuda  # noqa: E402


@cuda.jit
def neg_widen_gpu(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = -x[i]


@numba.njit
def neg_widen_cpu(x, out):
    for i in range(x.size):
        out[i] = -x[i]


def main():
    from importlib.metadata import version
    dev = cuda.get_current_device()
    name = dev.name.decode() if isinstance(dev.name, bytes) else dev.name
    print(f"numba {numba.__version__}, numba-cuda {version('numba-cuda')}, GPU {name}, "
          f"compute capability {dev.compute_capability}")
    xs = np.array([-32768, 1, -1, 0], dtype=np.int16)
    want = [(((-int(v)) & 0xFFFF) ^ 0x8000) - 0x8000 for v in xs]  # wrap to int16, sign-extend
    out = cuda.device_array(4, dtype=np.int64)
    neg_widen_gpu[1, 4](cuda.to_device(xs), out)
    got = out.copy_to_host().tolist()
    cpu = np.zeros(4, dtype=np.int64)
    try:
        neg_widen_cpu(xs, cpu)
        cpu = cpu.tolist()
    except Exception as e:  # noqa: BLE001 - the control is optional
        cpu = f"(numba's CPU target failed: {type(e).__name__}: {e})"
    print("x            :", xs.tolist())
    print("expected     :", want)
    print("numba CPU    :", cpu)
    print("numba-cuda   :", got)
    print("BUG REPRODUCED: the int16 negation was not wrapped before widening" if got != want else
          "NOT REPRODUCED")


if __name__ == "__main__":
    main()
