# Probe: fp8_b_formats, run under Triton 3.9's interpreter:
#   TRITON_INTERPRET=1 /work/venv24/bin/python tools/probes/triton_interp/fp8_b_formats.py > tools/probes/triton_interp/fp8_b_formats.json
# For float8e4b15, float8e4b8 and float8e5b16 (which compiled Triton on an
# sm_90 GPU does not run): every bit pattern converted to float32, float16
# and bfloat16, `tl.abs` of every pattern, and a list of float32, float16 and
# bfloat16 values converted to each format (default rounding and rtz).
# Output: JSON of bit patterns as integers.
import json
import struct

import torch
import triton
import triton.language as tl


@triton.jit
def up(x_ptr, f32_ptr, f16_ptr, bf16_ptr, abs_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(f32_ptr + offs, x.to(tl.float32))
    tl.store(f16_ptr + offs, x.to(tl.float16))
    tl.store(bf16_ptr + offs, x.to(tl.bfloat16))
    tl.store(abs_ptr + offs, tl.abs(x))


@triton.jit
def down(x_ptr, rn_ptr, rz_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(rn_ptr + offs, x.to(rn_ptr.dtype.element_ty))
    tl.store(rz_ptr + offs, x.to(rz_ptr.dtype.element_ty, fp_downcast_rounding="rtz"))


def bits(t):
    w = {1: torch.uint8, 2: torch.int16, 4: torch.int32}[t.element_size()]
    m = (1 << (8 * t.element_size())) - 1
    return [int(v) & m for v in t.view(w).tolist()]


F32_VALUES = [0.0, -0.0, 1.0, -1.0, 1.5, 1.75, 1.8125, 1.875, 1.9, 2.0, 3.0, 100.0, 200.0, 240.0, 248.0, 250.0,
              300.0, 57344.0, 61440.0, 65504.0, 1e6, float("inf"), float("-inf"), float("nan"), -float("nan"),
              2.0**-14, 2.0**-15, 2.0**-16, 2.0**-17, 2.0**-18, 3 * 2.0**-18, 2.0**-10, 2.0**-9, 2.0**-8,
              2.0**-7, 2.0**-6, 1.0625, 1.0 + 2.0**-4 + 2.0**-10, 1.125, 1.1875, 1.25, 1.3125, 0.1, -0.3,
              2.0**-19, 2.0**-20, 3 * 2.0**-20, 5 * 2.0**-21, 7 * 2.0**-19]


def main():
    f32_bits = [struct.unpack("<I", struct.pack("<f", v))[0] for v in F32_VALUES]
    out = {"triton": triton.__version__, "f32_values_bits": f32_bits}
    pats = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    for name in ["float8e4b15", "float8e4b8", "float8e5b16"]:
        d = getattr(tl, name)
        f32 = torch.empty(256, dtype=torch.float32)
        f16 = torch.empty(256, dtype=torch.float16)
        bf16 = torch.empty(256, dtype=torch.bfloat16)
        ab = torch.empty(256, dtype=torch.uint8)
        up[(1, )](triton.reinterpret(pats, d), f32, f16, bf16, triton.reinterpret(ab, d), 256)
        r = {"to_f32": bits(f32), "to_f16": bits(f16), "to_bf16": bits(bf16), "abs": bits(ab)}
        for src, tdt in [("f32", torch.float32), ("f16", torch.float16), ("bf16", torch.bfloat16)]:
            n = 64
            vals = torch.tensor(F32_VALUES + [0.0] * (n - len(F32_VALUES)), dtype=torch.float32).to(tdt)
            rn = torch.empty(n, dtype=torch.uint8)
            rz = torch.empty(n, dtype=torch.uint8)
            down[(1, )](vals, triton.reinterpret(rn, d), triton.reinterpret(rz, d), n)
            k = len(F32_VALUES)
            r["from_" + src] = {"in_bits": bits(vals)[:k], "rtne": bits(rn)[:k], "rtz": bits(rz)[:k]}
        out[name] = r
    print(json.dumps(out))


main()
