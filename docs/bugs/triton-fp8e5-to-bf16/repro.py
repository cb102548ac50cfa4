"""Triton: float8e5 (e5m2) -> bfloat16 conversion treats the all-ones
exponent as an ordinary exponent: inf becomes 65536.0 and NaN becomes finite
numbers.

Every e5m2 value is exactly representable in bfloat16 (8 exponent bits,
7 mantissa bits), so the conversion has exactly one right answer per bit
pattern. The expected bits are computed below from the e5m2 encoding alone
(sign, 5-bit exponent with bias 15, 2-bit mantissa; exponent 31 is inf or
NaN, as in IEEE-754). float8e5 -> float32 and -> float16 in the same kernel
are the control.

Run: python3 repro.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import math
import struct

import torch
import triton
import triton.language as tl


@triton.jit
def convert(x_ptr, bf16_ptr, f32_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)  # float8e5
    tl.store(bf16_ptr + offs, x.to(tl.bfloat16))
    tl.store(f32_ptr + offs, x.to(tl.float32))


def e5m2_value(b):
    sign = -1.0 if b & 0x80 else 1.0
    exp, man = (b >> 2) & 0x1F, b & 0x3
    if exp == 31:
        return sign * math.inf if man == 0 else math.nan
    if exp == 0:
        return sign * man * 2.0 ** -16  # subnormal: man/4 * 2^(1-15)
    return sign * (1 + man / 4) * 2.0 ** (exp - 15)


def bf16_bits(v):
    """bits of v in bfloat16; v is exact in bfloat16 here, so this is the
    top half of its float32 encoding (NaN: any NaN is accepted below)."""
    return struct.unpack("<I", struct.pack("<f", v))[0] >> 16


def f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def is_nan_bf16(b):
    return (b & 0x7F80) == 0x7F80 and (b & 0x7F) != 0


def main():
    print(f"triton {triton.__version__}, torch {torch.__version__}, CUDA {torch.version.cuda}, "
          f"GPU {torch.cuda.get_device_name()}")
    pats = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    x = pats.cuda().view(torch.float8_e5m2)
    bf = torch.empty(256, dtype=torch.bfloat16, device="cuda")
    f32 = torch.empty(256, dtype=torch.float32, device="cuda")
    convert[(1,)](x, bf, f32, N=256)
    got_bf = [v & 0xFFFF for v in bf.view(torch.int16).cpu().tolist()]
    got_f32 = [v & 0xFFFFFFFF for v in f32.view(torch.int32).cpu().tolist()]
    torch_bf = [v & 0xFFFF for v in x.to(torch.bfloat16).view(torch.int16).cpu().tolist()]

    wrong_bf, wrong_f32, torch_disagrees = [], [], []
    for b in range(256):
        v = e5m2_value(b)
        if math.isnan(v):
            ok_bf, ok_f32 = is_nan_bf16(got_bf[b]), math.isnan(struct.unpack("<f", struct.pack("<I", got_f32[b]))[0])
            ok_torch = is_nan_bf16(torch_bf[b])
            want = "NaN"
        else:
            ok_bf, ok_f32, ok_torch = got_bf[b] == bf16_bits(v), got_f32[b] == f32_bits(v), torch_bf[b] == bf16_bits(v)
            want = f"0x{bf16_bits(v):04x}"
        if not ok_bf:
            wrong_bf.append(f"e5m2 0x{b:02x} ({v}): expected {want}, got 0x{got_bf[b]:04x}")
        if not ok_f32:
            wrong_f32.append(b)
        if not ok_torch:
            torch_disagrees.append(b)
    print("control: float8e5 -> float32 wrong patterns:", len(wrong_f32),
          "| torch's own e5m2 -> bf16 disagreeing with the expected bits:", len(torch_disagrees))
    print(f"float8e5 -> bfloat16: {256 - len(wrong_bf)} of 256 patterns right, {len(wrong_bf)} wrong:")
    for line in wrong_bf:
        print("  " + line)
    print("BUG REPRODUCED: float8e5 -> bfloat16 is wrong for inf/NaN" if wrong_bf else
          "NOT REPRODUCED: all 256 patterns convert exactly")


if __name__ == "__main__":
    main()
