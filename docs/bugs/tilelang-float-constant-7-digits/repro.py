"""TileLang: float32 constants are printed into the C target's code with 7
significant digits (`%e`), so the compiled constant is another float32.

float32 needs up to 9 significant digits to round-trip. 1.19140625 (= 305/256,
exact in float32) is emitted as `1.191406e+00f`, and 16777215.0 (2^24 - 1,
exact) as `1.677722e+07f`, i.e. 16777220. The expected results are the
float32 operations on the exact constants, computed with numpy's float32
arithmetic (IEEE single precision, one rounding per operation).

Runs on the CPU (TileLang's C target): python3 repro.py
(prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import struct
from importlib.metadata import version

import numpy as np
import tilelang
import tilelang.language as T
import torch

C1 = 1.19140625      # 305/256: exact in float32, 9 significant digits
C2 = 16777215.0      # 2^24 - 1: exact in float32, 8 significant digits
N = 4


@T.prim_func
def constants(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(N):
            B[i] = A[i] * T.float32(C1)
            C[i] = A[i] + T.float32(C2)


def bits(x):
    return "0x%08x" % struct.unpack("<I", struct.pack("<f", float(x)))[0]


def main():
    print(f"tilelang {version('tilelang')}, torch {torch.__version__}, numpy {np.__version__}, target c (CPU)")
    k = tilelang.compile(constants, target="c", pass_configs={"tirx.disable_vectorize": True})
    print("generated C:")
    for ln in k.get_kernel_source().splitlines():
        if "B[" in ln or "C[" in ln:
            print("   ", ln.strip())
    a_vals = [1.0, 61.0625, -3.0, 0.0]
    a = torch.tensor(a_vals, dtype=torch.float32)
    b = torch.zeros(N, dtype=torch.float32)
    c = torch.zeros(N, dtype=torch.float32)
    k(a, b, c)
    wrong = 0
    for name, out, op in (("A * 1.19140625", b, np.multiply), ("A + 16777215.0", c, np.add)):
        const = np.float32(C1 if "*" in name else C2)
        for x, g in zip(a_vals, out.tolist()):
            want = op(np.float32(x), const)
            ok = bits(g) == bits(want)
            wrong += not ok
            print(f"{name} with A = {x}: expected {bits(want)} ({float(want)!r}), got {bits(g)} ({g!r}) "
                  f"{'right' if ok else 'WRONG'}")
    print(f"BUG REPRODUCED: {wrong} of {2 * N} results use a different constant" if wrong else "NOT REPRODUCED")


if __name__ == "__main__":
    main()
