"""Probe: how far a tensor-core GEMM is from ksem's T.gemm order.

ksem's T.gemm computes each C[i, j] as acc = acc + a*b for k ascending in the
accumulator's dtype (float32), every product and sum rounded
(docs/semantics.md). Real TileLang lowers T.gemm to tensor-core MMA
instructions, whose accumulation order and internal precision differ. TileLang
cannot be installed on the GPU machine (no package index), so the tensor-core
result here comes from Triton's tl.dot on float16 inputs with a float32
accumulator (the same mma/wgmma instructions). Prints, per shape, the largest
ULP distance and absolute error between the two, one JSON line each.

    python3 tools/probes/tilelang/gemm_tensor_core.py    # on a GPU machine with Triton
"""
import json

import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b, out_dtype=tl.float32)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


def ksem_order(a, b):
    """float32 accumulation, k ascending, each product and sum rounded."""
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    acc = np.zeros((a.shape[0], b.shape[1]), dtype=np.float32)
    for k in range(a.shape[1]):
        acc = (acc + (a32[:, k:k + 1] * b32[k:k + 1, :]).astype(np.float32)).astype(np.float32)
    return acc


def ulp_f32(x, y):
    def ordered(v):
        i = v.view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7fffffff), i)
    return np.abs(ordered(x) - ordered(y))


def main():
    gpu = torch.cuda.get_device_name(0)
    for (m, n, k) in [(16, 16, 16), (32, 32, 64), (64, 64, 128), (64, 64, 256)]:
        worst_ulp, worst_abs = 0, 0.0
        for seed in range(5):
            rng = np.random.default_rng(seed)
            a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
            b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
            ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
            tc = torch.empty((m, n), dtype=torch.float32, device="cuda")
            dot_kernel[(1,)](ta, tb, tc, m, n, k)
            got = tc.cpu().numpy()
            want = ksem_order(a, b)
            worst_ulp = max(worst_ulp, int(ulp_f32(got, want).max()))
            worst_abs = max(worst_abs, float(np.abs(got - want).max()))
        print(json.dumps({"gpu": gpu, "M": m, "N": n, "K": k, "max_ulp": worst_ulp,
                          "max_abs": worst_abs}), flush=True)


if __name__ == "__main__":
    main()
