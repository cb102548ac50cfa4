"""Triton: an int32 whose low bits are known to be zero, converted to
float16 and then widened to float32, skips the float16 rounding: -(2^25)
gives -33554432.0 instead of -inf.

float16's largest finite value is 65504 (binary 1.1111111111 x 2^15); any
integer of magnitude 65520 or more rounds to +-inf (IEEE-754 round to
nearest even). The expected bits below come from that rule alone, computed
in plain Python (`f16_to_f32_bits`), never from another implementation.
`s << 25` has its low 25 bits known zero, so its value needs at most 7
significant bits; `x.to(tl.float16).to(tl.float32)` then seems to be folded
into one int -> float32 conversion, which is exact in mantissa but ignores
float16's exponent range. Controls: the same values without a shift (no
known bits), and shifts whose values need more than float16's 11 bits.

Run: python3 repro.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0;
with TRITON_INTERPRET=1 it runs on Triton's interpreter instead of the GPU)
"""
import os
import struct

import torch
import triton
import triton.language as tl


@triton.jit
def shl_to_f16_to_f32(out_ptr, s, SHIFT: tl.constexpr):
    v = s << SHIFT  # the low SHIFT bits are known to be zero
    tl.store(out_ptr, v.to(tl.float16).to(tl.float32))


@triton.jit
def plain_to_f16_to_f32(out_ptr, v):
    tl.store(out_ptr, v.to(tl.float16).to(tl.float32))


def f16_to_f32_bits(v):
    """float32 bits of the integer v rounded to float16 (exact in float32)."""
    if abs(v) >= 65520:  # beyond 65504 + half an ulp (ulp 32 at 2^15)
        return 0xFF800000 if v < 0 else 0x7F800000
    m, e = abs(v), 0
    while m >= 2048:  # keep 11 significant bits, round to nearest even
        r, m = m & 1, m >> 1
        e += 1
        # (the values used here are exact multiples, so r stays 0 or ties
        # do not arise; asserted below)
        assert r == 0
    return struct.unpack("<I", struct.pack("<f", float((-m if v < 0 else m) << e)))[0]


def show_conversions(compiled):
    """The conversions left in the kernel's LLVM IR and PTX (diagnosis)."""
    asm = getattr(compiled, "asm", {}) or {}
    for key, words in (("llir", ("sitofp", "fpext", "fptrunc")), ("ptx", ("cvt.",))):
        lines = [l.strip() for l in str(asm.get(key, "")).splitlines() if any(w in l for w in words)]
        print(f"  {key}: " + ("; ".join(lines) if lines else "(no conversion)"))


def main():
    dev = "cpu" if os.environ.get("TRITON_INTERPRET") == "1" else "cuda"
    where = "Triton's interpreter" if dev == "cpu" else torch.cuda.get_device_name()
    print(f"triton {triton.__version__}, torch {torch.__version__}, CUDA {torch.version.cuda}, {where}")
    # s is never 1: Triton specializes an integer argument equal to 1 into a
    # constant, which folds correctly
    cases = [(-1, 25), (-1, 21), (3, 24), (-3, 22), (-1, 16), (3, 20), (5, 2)]
    wrong = []
    for s, shift in cases:
        v = ((s << shift) + 2**31) % 2**32 - 2**31  # int32
        want = f16_to_f32_bits(v)
        out = torch.zeros(1, dtype=torch.float32, device=dev)
        compiled = shl_to_f16_to_f32[(1,)](out, s, SHIFT=shift)
        if dev == "cuda" and (s, shift) == cases[0]:
            show_conversions(compiled)
        got = out.view(torch.int32).cpu().tolist()[0] & 0xFFFFFFFF
        ctl = torch.zeros(1, dtype=torch.float32, device=dev)
        plain_to_f16_to_f32[(1,)](ctl, v)
        got_ctl = ctl.view(torch.int32).cpu().tolist()[0] & 0xFFFFFFFF
        line = (f"s={s:3d} << {shift:2d} = {v:12d}: expected 0x{want:08x}, "
                f"shifted 0x{got:08x}{'' if got == want else ' WRONG'}, "
                f"unshifted control 0x{got_ctl:08x}{'' if got_ctl == want else ' WRONG'}")
        print(line)
        if got != want or got_ctl != want:
            wrong.append(line)
    if wrong:
        print(f"BUG REPRODUCED: {len(wrong)} of {len(cases)} conversions wrong")
    else:
        print("NOT REPRODUCED")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
