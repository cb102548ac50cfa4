"""`(t == 0) | (t == -1)` of an int16 difference, compiled by Triton 3.6, is
wrong in some lanes at ptxas's default optimisation and right at -O0.

The kernel is `ksem reduce`'s result for fuzz seed 4306 program 1508 (issue
27), run against real Triton on an H200, written out with its inputs:
a 16x8 tile; `t3 = x1 - c3[row]` (x1 bool, c3 int16: the difference is int16);
the divisor is `c4 = 3` where `t3` is 0 or -1, else `t3`; the dividend `v1` is
a row `tl.sum` of an int32 tile (-1 in every row here); the quotient
truncates (Triton's `//` of ints is C's). The expected values are computed
below with Python integers. The script runs the kernel once at Triton's
defaults and once more in a child process with DISABLE_PTXAS_OPT=1 (Triton
passes `--opt-level 0` to ptxas), and writes Triton's PTX to kernel.ptx.

Run: python3 repro_triton.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import json
import os
import subprocess
import sys

import torch
import triton
import triton.language as tl

X1 = "00001000111100110110011100100010100010111111011010101101000111111011000100011010001011100011000111100000100101100001110011000101"
C2 = "00001000000100000010000001000000100000010000001000000100000010000001000000100000010000001000000100000010000001000000100000010000"
C3 = [-22052, 26, 1, -17353, 46, -1, 58, -7, 2, 17391, -1, 27507, -1, 1, -13886, -19891]


@triton.jit
def fuzz_kernel(in1_ptr, out0_ptr, c1_ptr, c2_ptr, c3_ptr, c4_ptr):
    cols = tl.arange(0, 8)
    offs = tl.load(c1_ptr + tl.reshape(tl.arange(0, 16), (16, 1))) + cols
    x1 = tl.load(in1_ptr + offs)
    v1 = tl.reshape(tl.sum(tl.load(c2_ptr + (tl.reshape(tl.arange(0, 16), (16, 1)) + tl.arange(0, 8))), axis=1), (16, 1))
    t3 = x1 - tl.load(c3_ptr + tl.reshape(tl.arange(0, 16), (16, 1)))
    b2 = v1 // tl.where((t3 == 0) | (t3 == -1), tl.load(c4_ptr), t3)
    tl.store(out0_ptr + offs, b2)


def expected():
    """Python integers: t3 wraps to int16, the quotient truncates toward 0."""
    x1 = [int(c) for c in X1]
    c2 = [-int(c) for c in C2]
    out, t3s = [], []
    for r in range(16):
        v1 = sum(c2[r + k] for k in range(8))  # c2 is read at row + col
        for k in range(8):
            t3 = ((x1[r * 8 + k] - C3[r] + 0x8000) & 0xFFFF) - 0x8000
            d = 3 if t3 in (0, -1) else t3
            q = abs(v1) // abs(d) * (1 if (v1 < 0) == (d < 0) else -1)
            out.append(q)
            t3s.append(t3)
    return out, t3s


def run():
    dev = "cuda"
    x1 = torch.tensor([int(c) for c in X1], dtype=torch.bool, device=dev)
    c1 = torch.arange(0, 128, 8, dtype=torch.int32, device=dev)
    c2 = torch.tensor([-int(c) for c in C2], dtype=torch.int32, device=dev)
    c3 = torch.tensor(C3, dtype=torch.int16, device=dev)
    c4 = torch.tensor([3], dtype=torch.int32, device=dev)
    out = torch.zeros(128, dtype=torch.uint64, device=dev)
    k = fuzz_kernel[(1,)](x1, out, c1, c2, c3, c4)
    with open("kernel.ptx" if not os.environ.get("DISABLE_PTXAS_OPT") else "kernel_O0.ptx", "w") as f:
        f.write(k.asm["ptx"])
    bits = out.view(torch.int64).cpu().tolist()
    return bits


def main():
    if sys.argv[1:] == ["--child"]:
        print(json.dumps(run()))
        return
    print(f"triton {triton.__version__}, torch {torch.__version__}, CUDA {torch.version.cuda}, "
          f"GPU {torch.cuda.get_device_name()}")
    want, t3s = expected()
    got = run()
    env = dict(os.environ, DISABLE_PTXAS_OPT="1", TRITON_ALWAYS_COMPILE="1")
    o0 = json.loads(subprocess.run([sys.executable, __file__, "--child"], env=env,
                                   capture_output=True, text=True, check=True).stdout)
    print("element (row, col): t3, expected, triton default, triton ptxas -O0")
    for i in range(128):
        if got[i] != want[i] or o0[i] != want[i] or t3s[i] in (1, -1):
            mark = "WRONG" if got[i] != want[i] else ""
            print(f"  {i:3d} ({i // 8:2d}, {i % 8}): t3={t3s[i]:2d} want={want[i]:2d} "
                  f"default={got[i]:2d} O0={o0[i]:2d} {mark}")
    bad = [i for i in range(128) if got[i] != want[i]]
    bad0 = [i for i in range(128) if o0[i] != want[i]]
    print(f"default: {len(bad)} of 128 wrong {bad}; ptxas -O0: {len(bad0)} wrong {bad0}")
    print("BUG REPRODUCED: the where's condition is wrong in some lanes at ptxas's default optimisation"
          if bad else "NOT REPRODUCED")


if __name__ == "__main__":
    main()
