"""Where TileLang puts `__syncthreads()` in a kernel with per-thread code
(`T.get_thread_binding`): its ThreadSync pass on shared memory. Lowers each
case for the CUDA target (no GPU or nvcc needed: `tilelang.lower` stops at
CUDA C) and prints the kernel bodies as JSON {case: [lines]}. Run with
tilelang 0.1.15 installed:
python3 tools/probes/tilelang/thread_sync.py > tools/probes/tilelang/thread_sync.json
ksem's model of it: interp/src/frontend/tilelang/elab/threads.rs.
"""
import json

import tilelang
import tilelang.language as T


@T.prim_func
def neighbour(A: T.Tensor((8,), "int32"), B: T.Tensor((8,), "int32")):
    # write, read another thread's element, divergent write, read
    with T.Kernel(2, threads=4) as bx:
        tx = T.get_thread_binding(0)
        S = T.alloc_shared((4,), "int32")
        L = T.alloc_local((1,), "int32")
        S[tx] = A[bx * 4 + tx] * 2
        L[0] = S[(tx + 1) % 4]
        if tx < 2:
            S[tx] = L[0] + 1
        B[bx * 4 + tx] = S[(tx + 1) % 4]


@T.prim_func
def loop_carried(A: T.Tensor((16,), "int32"), B: T.Tensor((4,), "int32")):
    # a loop whose body writes then reads shared memory
    with T.Kernel(1, threads=4) as bx:
        tx = T.get_thread_binding(0)
        S = T.alloc_shared((4,), "int32")
        acc = T.alloc_local((1,), "int32")
        acc[0] = 0
        for i in T.serial(4):
            S[tx] = A[i * 4 + tx]
            acc[0] += S[3 - tx]
        B[tx] = acc[0] + bx


@T.prim_func
def divergent(A: T.Tensor((4,), "int32"), B: T.Tensor((4,), "int32")):
    # write and read inside one branch only some threads take
    with T.Kernel(1, threads=4) as bx:
        tx = T.get_thread_binding(0)
        S = T.alloc_shared((4,), "int32")
        if tx < 2:
            S[tx] = A[tx]
            B[tx] = S[1 - tx] + bx


@T.prim_func
def uniform_if(A: T.Tensor((4,), "int32"), B: T.Tensor((4,), "int32"), n: T.int32):
    # write and read inside a branch every thread takes alike
    with T.Kernel(1, threads=4) as bx:
        tx = T.get_thread_binding(0)
        S = T.alloc_shared((4,), "int32")
        if n > 0:
            S[tx] = A[tx]
            B[tx] = S[3 - tx] + bx


@T.prim_func
def same_value(A: T.Tensor((4,), "int32"), B: T.Tensor((4,), "int32")):
    # every thread writes every element with the same value (naive GEMV)
    with T.Kernel(1, threads=4) as bx:
        tx = T.get_thread_binding(0)
        S = T.alloc_shared((4,), "int32")
        for k in T.serial(4):
            S[k] = A[k]
        B[tx] = S[3 - tx] + bx


@T.prim_func
def divergent_else(A: T.Tensor((4,), "int32"), B: T.Tensor((4,), "int32")):
    # write and read in both branches of a branch on the thread index
    with T.Kernel(1, threads=4) as bx:
        tx = T.get_thread_binding(0)
        S = T.alloc_shared((4,), "int32")
        if tx < 2:
            S[tx] = A[tx]
            B[tx] = S[1 - tx] + bx
        else:
            S[tx] = A[tx] * 3
            B[tx] = S[5 - tx] + bx


def body(src):
    lines = src.splitlines()
    start = next(i for i, l in enumerate(lines) if "__launch_bounds__" in l)
    return [l.rstrip() for l in lines[start + 1:] if l.strip()][:-1]


out = {}
for f in [neighbour, loop_carried, divergent, divergent_else, uniform_if, same_value]:
    name = f.attrs["global_symbol"]
    out[name] = body(tilelang.lower(f, target="cuda").kernel_source)
print(json.dumps(out, indent=1))
