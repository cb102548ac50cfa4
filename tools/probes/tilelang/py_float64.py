"""Probe: how a Python float (a module constant computed by Python, here
`A = 1.0 % 0.1` = 0.09999999999999995) enters a TileLang 0.1.15 kernel in a
float64 context. Prints one JSON line per case: {"case", "tir", "c_bits"}:
the statement TileLang's IR holds (`main.script()`: the language's meaning)
and the float64 bits its C target (CPU) stores. The C target prints
constants with too few digits (the known "constants printed with 7 digits"
bug), so its bits are 0.1's, not A's, in every case; the IR is what ksem
follows.

    python tools/probes/tilelang/py_float64.py > tools/probes/tilelang/py_float64.json
"""
import json
import struct

import tilelang
import tilelang.language as T
import torch

CFG = {"tirx.disable_vectorize": True}
A = 1.0 % 0.1


def bits(x: float) -> str:
    return "0x%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


@T.prim_func
def main(out: T.Tensor((5,), "float64"), x: T.Tensor((1,), "float64")):
    with T.Kernel(1, threads=1) as bx:
        out[0] = A
        out[1] = T.float64(A)
        out[2] = x[0] + A
        out[3] = T.Cast("float64", A)
        out[4] = T.float32(A)


k = tilelang.compile(main, target="c", pass_configs=CFG)
out = torch.zeros(5, dtype=torch.float64)
x = torch.zeros(1, dtype=torch.float64)
k(out, x)
print(json.dumps({"case": "A itself", "bits": bits(A)}))
print(json.dumps({"case": "A rounded to float32", "bits": bits(float(torch.tensor(A, dtype=torch.float32)))}))
tir = [l.strip() for l in main.script().splitlines() if l.strip().startswith("out[")]
names = ["out[0] = A", "out[0] = T.float64(A)", "out[0] = x[0] + A (x[0] = 0.0)",
         'out[0] = T.Cast("float64", A)', "out[0] = T.float32(A)"]
for name, t, v in zip(names, tir, out.tolist()):
    print(json.dumps({"case": name, "tir": t, "c_bits": bits(v)}))
