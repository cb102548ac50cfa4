"""Probe: does TileLang's C target wrap int8/uint8 arithmetic in its 8-bit
type when the result is widened right away? (It does not: found by
`ksem fuzz --dialect tilelang --backends interp,tilelang --seed 12`,
divergence T7.)

    /path/to/tilelang-venv/bin/python tools/probes/tilelang/narrow_int_codegen.py
"""
import tilelang
import tilelang.language as T
import torch


@T.prim_func
def main(A: T.Tensor((4,), "uint8"), B: T.Tensor((4,), "uint8"), C: T.Tensor((4,), "int32"), D: T.Tensor((4,), "int8"), E: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(4):
            C[i] = T.Cast("int32", A[i] - B[i])
            E[i] = T.Cast("int32", D[i] * D[i])


k = tilelang.compile(main, target="c", pass_configs={"tirx.disable_vectorize": True})
a = torch.tensor([3, 0, 200, 255], dtype=torch.uint8)
b = torch.tensor([5, 1, 100, 0], dtype=torch.uint8)
c = torch.zeros(4, dtype=torch.int32)
d = torch.tensor([100, -100, 16, 2], dtype=torch.int8)
e = torch.zeros(4, dtype=torch.int32)
k(a, b, c, d, e)
print("uint8 a - b as int32:", c.tolist(), "(wrapping in uint8 gives [254, 255, 100, 255])")
print("int8 d * d as int32:", e.tolist(), "(wrapping in int8 gives [16, 16, 0, 4])")
