# Probe: dot_f16_acc. tl.dot of float16 operands with out_dtype=tl.float16
# (divergence 27), run both ways:
#   TRITON_INTERPRET=1 /work/venv24/bin/python tools/probes/triton_interp/dot_f16_acc.py > tools/probes/triton_interp/dot_f16_acc_interp.json
#   python3 tools/probes/triton_interp/dot_f16_acc.py > tools/probes/triton_interp/dot_f16_acc_h200.json   (compiled, on the GPU)
# Each case's result is compared bit for bit with candidate rules computed
# here in numpy; the JSON gives, per case, how many of the M*N elements each
# rule reproduces:
#   f32_once:  products and sums in float32, k ascending, rounded once to
#              float16, then acc added in float16 (numpy's float16 matmul)
#   f16_steps: acc first, then k ascending, each product and sum rounded to
#              float16 (ksem's rule before)
#   chunk16_exact: acc = f16(acc + exact sum of 16 products), per 16 k
#   chunk16_f32:   acc = f16(acc + float32 k-ascending sum of 16 products)
#   f32_all:   acc widened to float32 first, all sums in float32, rounded once
import json
import os
import sys

import numpy as np
import torch
import triton
import triton.language as tl

DEV = "cpu" if os.environ.get("TRITON_INTERPRET") == "1" else "cuda"


@triton.jit
def kern(a_ptr, b_ptr, c_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, HAS_ACC: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    if HAS_ACC:
        c = tl.load(c_ptr + m[:, None] * N + n[None, :])
        r = tl.dot(a, b, c, input_precision="ieee", out_dtype=tl.float16)
    else:
        r = tl.dot(a, b, input_precision="ieee", out_dtype=tl.float16)
    tl.store(o_ptr + m[:, None] * N + n[None, :], r)


def rules(a, b, c):
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    K = a.shape[1]
    s = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(K):
        s = s + a32[:, k:k + 1] * b32[k:k + 1, :]
    out = {"f32_once": s.astype(np.float16) + c}
    t = c.copy()
    for k in range(K):
        t = t + (a[:, k:k + 1] * b[k:k + 1, :])
    out["f16_steps"] = t
    t = c.copy()
    t2 = c.copy()
    for k0 in range(0, K, 16):
        ex = a[:, k0:k0 + 16].astype(np.float64) @ b[k0:k0 + 16, :].astype(np.float64)
        t = (t.astype(np.float64) + ex).astype(np.float16)
        s = np.zeros_like(ex, dtype=np.float32)
        for k in range(k0, k0 + 16):
            s = s + a32[:, k:k + 1] * b32[k:k + 1, :]
        t2 = (t2.astype(np.float32) + s).astype(np.float16)
    out["chunk16_exact"] = t
    out["chunk16_f32"] = t2
    s = c.astype(np.float32)
    for k in range(K):
        s = s + a32[:, k:k + 1] * b32[k:k + 1, :]
    out["f32_all"] = s.astype(np.float16)
    return out


def main():
    res = {"device": DEV, "triton": triton.__version__, "cases": []}
    M = N = 32
    for K in (16, 64):
        for has_acc in (False, True):
            for seed in range(3):
                rs = np.random.RandomState(seed)
                a = rs.randn(M, K).astype(np.float16)
                b = rs.randn(K, N).astype(np.float16)
                c = (rs.randn(M, N) * 4).astype(np.float16) if has_acc else np.zeros((M, N), np.float16)
                o = torch.empty((M, N), dtype=torch.float16, device=DEV)
                args = [torch.from_numpy(x).to(DEV) for x in (a, b, c)]
                kern[(1, )](*args, o, M, N, K, has_acc)
                got = o.cpu().numpy().view(np.uint16)
                case = {"K": K, "acc": has_acc, "seed": seed, "elements": M * N}
                for name, want in rules(a, b, c).items():
                    case[name] = int((want.view(np.uint16) == got).sum())
                res["cases"].append(case)
    json.dump(res, sys.stdout, indent=1)
    print()


main()
