"""Probe: buffer views on tilelang 0.1.15's C target: T.reshape, T.view and
T.Tensor(shape, dtype, buf.data) inside a kernel (the same storage read
with another shape, writes seen through the source), a view of a shared
buffer, and a view whose element count differs. One JSON line per case.
T.im2col needs a GPU target (its lowering asks for the thread layout), so
it is not probed here; ksem follows its lowering in src/op/copy.cc.

    /path/to/tilelang-venv/bin/python tools/probes/tilelang/views.py
"""
import json

import tilelang
import tilelang.language as T
import torch

CFG = {"tirx.disable_vectorize": True}


def case(name, make, a):
    try:
        k = tilelang.compile(make(), target="c", pass_configs=CFG)
        A = torch.tensor(a, dtype=torch.int32)
        C = torch.zeros(6, dtype=torch.int32)
        k(A, C)
        print(json.dumps({"case": name, "A": A.tolist(), "C": C.tolist()}), flush=True)
    except Exception as e:  # noqa: BLE001 - a refusal is a measurement
        lines = [l for l in str(e).strip().splitlines() if l.strip()]
        # a C compiler error names its cause on an `error:` line
        cc = [l.split("error:", 1)[1].strip() for l in lines if "error:" in l]
        why = cc[0] if cc else f"{type(e).__name__}: {lines[0] if lines else ''}"
        print(json.dumps({"case": name, "error": why[:300]}), flush=True)


def reshape_global():
    @T.prim_func
    def main(A: T.Tensor((6,), "int32"), C: T.Tensor((6,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            V = T.reshape(A, (2, 3))
            for i in T.serial(3):
                C[i] = V[1, i]
            V[0, 2] = 100
            C[5] = A[2]
    return main


def view_global():
    @T.prim_func
    def main(A: T.Tensor((6,), "int32"), C: T.Tensor((6,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            W = T.view(A, (3, 2))
            C[3] = W[2, 0]
    return main


def tensor_of_data():
    @T.prim_func
    def main(A: T.Tensor((6,), "int32"), C: T.Tensor((6,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            X = T.Tensor((3, 2), "int32", A.data)
            X[2, 1] = 100
            C[5] = A[5]
    return main


def reshape_shared():
    @T.prim_func
    def main(A: T.Tensor((6,), "int32"), C: T.Tensor((6,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            S = T.alloc_shared((2, 3), "int32")
            for i, j in T.grid(2, 3):
                S[i, j] = A[3 * i + j]
            F = T.reshape(S, (6,))
            C[4] = F[4]
    return main


def wrong_count():
    @T.prim_func
    def main(A: T.Tensor((6,), "int32"), C: T.Tensor((6,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            V = T.reshape(A, (2, 2))
            C[0] = V[0, 0]
    return main


for name, make in [("reshape of a global", reshape_global), ("view of a global", view_global),
                   ("T.Tensor of A.data", tensor_of_data), ("reshape of a shared", reshape_shared)]:
    case(name, make, [10, 11, 12, 13, 14, 15])
case("reshape to 4 of 6 elements", wrong_count, [10, 11, 12, 13, 14, 15])
