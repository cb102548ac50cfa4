"""Probe: what TileLang 0.1.15 computes where the seed is silent, on its C
target (CPU): T.copy at ragged edges, negative indices, T.min/T.max with
NaN, rebinding a name in a loop, stores of another dtype, T.alloc_var as a
scalar, `**`, short-circuit `and`. One JSON line per case.

    /path/to/tilelang-venv/bin/python tools/probes/tilelang/semantics.py
"""
import json
import math

import tilelang
import tilelang.language as T
import torch

CFG = {"tirx.disable_vectorize": True}


def run(name, make, inputs, out):
    try:
        k = tilelang.compile(make(), target="c", pass_configs=CFG)
        ts = [torch.tensor(v, dtype=d) for v, d in inputs]
        o = torch.zeros(out[0], dtype=out[1])
        k(*ts, o)
        vals = [x if not (isinstance(x, float) and math.isnan(x)) else "nan" for x in o.tolist()]
        print(json.dumps({"case": name, "out": vals}), flush=True)
    except Exception as e:  # noqa: BLE001 - a refusal is a measurement
        lines = [l for l in str(e).strip().splitlines() if l.strip()]
        print(json.dumps({"case": name, "error": lines[-1][:300] if lines else type(e).__name__}), flush=True)


def copy_ragged_in():
    @T.prim_func
    def main(A: T.Tensor((6,), "int32"), C: T.Tensor((8,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            S = T.alloc_shared((8,), "int32")
            T.fill(S, 7)
            T.copy(A[0:8], S)
            for i in T.serial(8):
                C[i] = S[i]
    return main


def copy_ragged_in_local():
    # the C target cannot fill shared memory; a local buffer shows the rule
    @T.prim_func
    def main(A: T.Tensor((6,), "int32"), C: T.Tensor((8,), "int32")):
        with T.Kernel(2, threads=1) as bx:
            S = T.alloc_local((4,), "int32")
            T.fill(S, 7)
            T.copy(A[bx * 4], S)
            for i in T.serial(4):
                C[bx * 4 + i] = S[i]
    return main


def copy_ragged_slice_local():
    @T.prim_func
    def main(A: T.Tensor((6,), "int32"), C: T.Tensor((8,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            S = T.alloc_local((8,), "int32")
            T.fill(S, 7)
            T.copy(A[0:8], S)
            for i in T.serial(8):
                C[i] = S[i]
    return main


def copy_ragged_tile():
    # block 1 copies A[4:8] of a 6-element A: elements 6 and 7 are outside
    @T.prim_func
    def main(A: T.Tensor((6,), "int32"), C: T.Tensor((8,), "int32")):
        with T.Kernel(2, threads=1) as bx:
            S = T.alloc_shared((4,), "int32")
            T.fill(S, 7)
            T.copy(A[bx * 4], S)
            for i in T.serial(4):
                C[bx * 4 + i] = S[i]
    return main


def copy_ragged_out():
    @T.prim_func
    def main(A: T.Tensor((8,), "int32"), C: T.Tensor((6,), "int32")):
        with T.Kernel(2, threads=1) as bx:
            S = T.alloc_shared((4,), "int32")
            for i in T.serial(4):
                S[i] = A[bx * 4 + i] + 100
            T.copy(S, C[bx * 4])
    return main


def neg_index():
    @T.prim_func
    def main(A: T.Tensor((4,), "int32"), C: T.Tensor((2,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            C[0] = A[-1]
            C[-1] = A[-2]
    return main


def min_max_nan():
    @T.prim_func
    def main(A: T.Tensor((2,), "float32"), C: T.Tensor((4,), "float32")):
        with T.Kernel(1, threads=1) as bx:
            C[0] = T.min(A[0], A[1])
            C[1] = T.min(A[1], A[0])
            C[2] = T.max(A[0], A[1])
            C[3] = T.max(A[1], A[0])
    return main


def rebind_in_loop():
    @T.prim_func
    def main(A: T.Tensor((4,), "int32"), C: T.Tensor((1,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            acc = 0
            for i in T.serial(4):
                acc = acc + A[i]
            C[0] = acc
    return main


def aug_in_loop():
    @T.prim_func
    def main(A: T.Tensor((4,), "int32"), C: T.Tensor((1,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            acc = 0
            for i in T.serial(4):
                acc += A[i]
            C[0] = acc
    return main


def store_float_into_int():
    @T.prim_func
    def main(A: T.Tensor((2,), "float32"), C: T.Tensor((2,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            C[0] = A[0]
            C[1] = A[1] * 2
    return main


def alloc_var_scalar():
    @T.prim_func
    def main(A: T.Tensor((4,), "int32"), C: T.Tensor((2,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            x = T.alloc_var("int32", init=5)
            for i in T.serial(4):
                x += A[i]
            C[0] = x
            y = T.alloc_var("int32")
            y = 3
            C[1] = y
    return main


def pow_var():
    @T.prim_func
    def main(A: T.Tensor((2,), "float32"), C: T.Tensor((2,), "float32")):
        with T.Kernel(1, threads=1) as bx:
            v = A[0]
            C[0] = v ** 2
            C[1] = A[1] ** 0.5
    return main


def and_guard():
    @T.prim_func
    def main(A: T.Tensor((4,), "int32"), C: T.Tensor((8,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            for i in T.serial(8):
                if i < 4 and A[i] > 1:
                    C[i] = 1
    return main


def truncdiv_zero():
    @T.prim_func
    def main(A: T.Tensor((2,), "int32"), C: T.Tensor((1,), "int32")):
        with T.Kernel(1, threads=1) as bx:
            C[0] = T.truncdiv(A[0], A[1])
    return main


def int8_wrap():
    @T.prim_func
    def main(A: T.Tensor((2,), "int8"), C: T.Tensor((2,), "int8")):
        with T.Kernel(1, threads=1) as bx:
            C[0] = A[0] + A[1]
            C[1] = A[0] * A[1]
    return main


i32, f32, i8 = torch.int32, torch.float32, torch.int8
run("copy A[0:8] of a 6-element A into shared", copy_ragged_in, [([1, 2, 3, 4, 5, 6], i32)], (8, i32))
run("copy A[bx*4] tile past the end into a local buffer", copy_ragged_in_local, [([1, 2, 3, 4, 5, 6], i32)], (8, i32))
run("copy A[0:8] of a 6-element A into a local buffer", copy_ragged_slice_local, [([1, 2, 3, 4, 5, 6], i32)], (8, i32))
run("copy A[bx*4] tile past the end", copy_ragged_tile, [([1, 2, 3, 4, 5, 6], i32)], (8, i32))
run("copy shared into C[bx*4] past the end", copy_ragged_out, [([1, 2, 3, 4, 5, 6, 7, 8], i32)], (6, i32))
run("A[-1] and C[-1]", neg_index, [([10, 20, 30, 40], i32)], (2, i32))
run("T.min/T.max with NaN (A = [nan, 1])", min_max_nan, [([float("nan"), 1.0], f32)], (4, f32))
run("acc = acc + A[i] in a loop", rebind_in_loop, [([1, 2, 3, 4], i32)], (1, i32))
run("acc += A[i] in a loop", aug_in_loop, [([1, 2, 3, 4], i32)], (1, i32))
run("store float32 into int32", store_float_into_int, [([2.7, -2.7], f32)], (2, i32))
run("T.alloc_var as a scalar", alloc_var_scalar, [([1, 2, 3, 4], i32)], (2, i32))
run("v ** 2 and A[1] ** 0.5", pow_var, [([3.0, 2.0], f32)], (2, f32))
run("i < 4 and A[i] > 1", and_guard, [([0, 2, 1, 3], i32)], (8, i32))
run("int8 wrap: 100 + 100, 100 * 100", int8_wrap, [([100, 100], i8)], (2, i8))
