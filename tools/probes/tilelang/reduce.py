"""Probe: T.reduce_sum / reduce_max / reduce_min / reduce_abssum /
reduce_absmax on tilelang 0.1.15's C target: which buffers they take, the
result with clear=True/False, NaN handling and the order of a float sum.
One JSON line per case.

    /path/to/tilelang-venv/bin/python tools/probes/tilelang/reduce.py
"""
import json
import math

import tilelang
import tilelang.language as T
import torch

CFG = {"tirx.disable_vectorize": True}


def show(o):
    return [x if not (isinstance(x, float) and math.isnan(x)) else "nan" for x in o.reshape(-1).tolist()]


def case(name, make, inputs, out):
    try:
        k = tilelang.compile(make(), target="c", pass_configs=CFG)
        ts = [torch.tensor(v, dtype=d) for v, d in inputs]
        o = torch.tensor(out[0], dtype=out[1])
        k(*ts, o)
        print(json.dumps({"case": name, "out": show(o)}), flush=True)
    except Exception as e:  # noqa: BLE001 - a refusal is a measurement
        lines = [l for l in str(e).strip().splitlines() if l.strip()]
        print(json.dumps({"case": name, "error": lines[-1][:300] if lines else type(e).__name__}), flush=True)


def reduce_kernel(op, dtype, m, n, dim, clear, scope="fragment"):
    out_shape = (m,) if dim == 1 else (n,)
    alloc = T.alloc_fragment if scope == "fragment" else T.alloc_shared

    def make():
        @T.prim_func
        def main(A: T.Tensor((m, n), dtype), C: T.Tensor(out_shape, dtype)):
            with T.Kernel(1, threads=1) as bx:
                F = alloc((m, n), dtype)
                R = alloc(out_shape, dtype)
                T.copy(A, F)
                T.copy(C, R)
                getattr(T, op)(F, R, dim=dim, clear=clear)
                T.copy(R, C)
        return main
    return make


f32, i32 = torch.float32, torch.int32
A = [[1.0, -5.0, 3.0, 2.0], [4.0, -1.0, -6.0, 0.5]]
for op in ["reduce_sum", "reduce_max", "reduce_min", "reduce_abssum", "reduce_absmax"]:
    for dim in [0, 1]:
        for clear in [True, False]:
            out0 = [10.0] * (2 if dim == 1 else 4)
            case(f"{op} dim={dim} clear={clear} float32", reduce_kernel(op, "float32", 2, 4, dim, clear), [(A, f32)], (out0, f32))
case("reduce_sum dim=1 int32", reduce_kernel("reduce_sum", "int32", 2, 4, 1, True), [([[1, 2, 3, 4], [-5, 6, 7, 8]], i32)], ([0, 0], i32))
case("reduce_max dim=1 int32", reduce_kernel("reduce_max", "int32", 2, 4, 1, True), [([[1, 2, 3, 4], [-5, 6, 7, 8]], i32)], ([0, 0], i32))
NAN = float("nan")
case("reduce_max with NaN", reduce_kernel("reduce_max", "float32", 2, 4, 1, True), [([[1.0, NAN, 3.0, 2.0], [NAN, 1.0, 2.0, 3.0]], f32)], ([0.0, 0.0], f32))
case("reduce_min with NaN", reduce_kernel("reduce_min", "float32", 2, 4, 1, True), [([[1.0, NAN, 3.0, 2.0], [NAN, 1.0, 2.0, 3.0]], f32)], ([0.0, 0.0], f32))
# order of a float sum: 1e8 + 1 - 1e8 + 1 ... sequential gives a different answer than a tree
B = [[1e8, 1.0, -1e8, 1.0, 1.0, 1.0, 1.0, 1.0]]
case("reduce_sum order 8", reduce_kernel("reduce_sum", "float32", 1, 8, 1, True), [(B, f32)], ([0.0], f32))
B2 = [[1.0, 1e8, 1.0, -1e8, 0.5, 0.25, 3.0, -1.0]]
case("reduce_sum order 8b", reduce_kernel("reduce_sum", "float32", 1, 8, 1, True), [(B2, f32)], ([0.0], f32))
case("reduce_sum shared", reduce_kernel("reduce_sum", "float32", 2, 4, 1, True, scope="shared"), [(A, f32)], ([0.0, 0.0], f32))
