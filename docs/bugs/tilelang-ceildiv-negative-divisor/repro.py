"""TileLang: T.ceildiv(a, b) with a negative divisor is not the ceiling of a / b.

T.ceildiv is TVM's `ceildiv` ("ceiling division"); the C target computes it
as floordiv(a + b - 1, b), which is the ceiling only for b > 0:
T.ceildiv(7, -2) gives -2, but 7 / -2 = -3.5 and its ceiling is -3.
The expected values are Python's exact integer ceiling, -((-a) // b).

Runs on the CPU (TileLang's C target): python3 repro.py
(prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
from importlib.metadata import version

import tilelang
import tilelang.language as T
import torch

PAIRS = [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, -3), (1, -5), (-1, -5), (0, -4)]
N = len(PAIRS)


@T.prim_func
def ceildiv_kernel(A: T.Tensor((N,), "int32"), B: T.Tensor((N,), "int32"), C: T.Tensor((N,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(N):
            C[i] = T.ceildiv(A[i], B[i])


def main():
    print(f"tilelang {version('tilelang')}, torch {torch.__version__}, target c (CPU)")
    k = tilelang.compile(ceildiv_kernel, target="c", pass_configs={"tirx.disable_vectorize": True})
    print("generated C (the loop body):")
    for ln in k.get_kernel_source().splitlines():
        if any(w in ln for w in ("rdiv", "rmod", "C[")):
            print("   ", ln.strip())
    a = torch.tensor([p[0] for p in PAIRS], dtype=torch.int32)
    b = torch.tensor([p[1] for p in PAIRS], dtype=torch.int32)
    c = torch.zeros(N, dtype=torch.int32)
    k(a, b, c)
    got = c.tolist()
    wrong = 0
    for (x, y), g in zip(PAIRS, got):
        want = -((-x) // y)  # exact ceiling of x / y
        ok = g == want
        wrong += not ok
        print(f"T.ceildiv({x}, {y}): expected {want} (ceil({x / y})), got {g} {'right' if ok else 'WRONG'}")
    print(f"BUG REPRODUCED: {wrong} of {N} wrong, each with a negative divisor" if wrong else "NOT REPRODUCED")


if __name__ == "__main__":
    main()
