"""TileLang: uint8/int8 arithmetic is not wrapped to 8 bits in the C target
when the result is cast to a wider type right away.

TileLang types `A[i] - B[i]` of two uint8 values as uint8 and `D[i] * D[i]`
of int8 values as int8 (printed below from the traced expressions), so
`T.Cast("int32", A[i] - B[i])` must be the uint8 difference (wrapped mod
256) widened: 3 - 5 = 254, not -2. The C target emits
`(int)(A[i] - B[i])`, where C's integer promotion computes in int and never
wraps. Storing the same difference into a uint8 buffer wraps (control); so does
binding it to a name first (`diff = A[i] - B[i]` makes a uint8 variable:
measured, not in this script).
Expected values: Python integers reduced mod 2^8 (and to the signed range
for int8).

Runs on the CPU (TileLang's C target): python3 repro.py
(prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
from importlib.metadata import version

import tilelang
import tilelang.language as T
import torch

N = 4
SEEN = {}


@T.prim_func
def narrow(A: T.Tensor((N,), "uint8"), B: T.Tensor((N,), "uint8"), D: T.Tensor((N,), "int8"),
           C: T.Tensor((N,), "int32"), E: T.Tensor((N,), "int32"), F: T.Tensor((N,), "uint8")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(N):
            SEEN["A[i] - B[i]"] = str((A[i] - B[i]).dtype)  # trace-time only: no code
            SEEN["D[i] * D[i]"] = str((D[i] * D[i]).dtype)
            C[i] = T.Cast("int32", A[i] - B[i])
            E[i] = T.Cast("int32", D[i] * D[i])
            F[i] = A[i] - B[i]


def wrap_u8(x):
    return x % 256


def wrap_i8(x):
    return (x + 128) % 256 - 128


def main():
    print(f"tilelang {version('tilelang')}, torch {torch.__version__}, target c (CPU)")
    k = tilelang.compile(narrow, target="c", pass_configs={"tirx.disable_vectorize": True})
    print("TileLang's dtypes:", SEEN)
    print("generated C:")
    for ln in k.get_kernel_source().splitlines():
        if any(w in ln for w in ("C[", "E[", "F[")):
            print("   ", ln.strip())
    av, bv, dv = [3, 0, 200, 255], [5, 1, 100, 0], [100, -100, 16, 2]
    a, b = torch.tensor(av, dtype=torch.uint8), torch.tensor(bv, dtype=torch.uint8)
    d = torch.tensor(dv, dtype=torch.int8)
    c, e = torch.zeros(N, dtype=torch.int32), torch.zeros(N, dtype=torch.int32)
    f = torch.zeros(N, dtype=torch.uint8)
    k(a, b, d, c, e, f)
    cases = [
        ("int32(uint8 A - B)", [wrap_u8(x - y) for x, y in zip(av, bv)], c.tolist(), True),
        ("int32(int8 D * D)", [wrap_i8(x * x) for x in dv], e.tolist(), True),
        ("uint8 store of A - B (control)", [wrap_u8(x - y) for x, y in zip(av, bv)], f.tolist(), False),
    ]
    bug = False
    for name, want, got, counts in cases:
        ok = want == got
        bug |= counts and not ok
        print(f"{name}: expected {want}, got {got} {'right' if ok else 'WRONG'}")
    print("BUG REPRODUCED: 8-bit arithmetic widened before wrapping" if bug else "NOT REPRODUCED")


if __name__ == "__main__":
    main()
