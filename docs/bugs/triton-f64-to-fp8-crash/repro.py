"""Triton: converting float64 to an fp8 type (and float64 -> float32 with
fp_downcast_rounding="rtz") crashes the compiler's backend
("PassManager::run failed") instead of compiling or being refused by the
front end.

float32 -> fp8 compiles (round to nearest even, saturating) and so does
float64 -> float32 with the default rounding. The expected bits below are
what a single correct rounding of each float64 gives, computed exactly with
fractions; they matter only if the kernels compile. Going through float32
instead rounds twice: 1.0625 + 2^-40 becomes 1.0625 in float32, a tie, which
e4m3 rounds to 1.0 (0x38) where the double itself rounds to 1.125 (0x39).

Run: python3 repro.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import math
import struct
import traceback
from fractions import Fraction

import torch
import triton
import triton.language as tl


@triton.jit
def f64_to_e4m3(x_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs).to(tl.float8e4nv))


@triton.jit
def f64_to_e5m2(x_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs).to(tl.float8e5))


@triton.jit
def f64_to_f32_rtz(x_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs).to(tl.float32, fp_downcast_rounding="rtz"))


def round_to_format(x, mbits, emin, rtz=False):
    """the float x rounded once to a binary format with mbits fraction bits
    and minimum normal exponent emin; returns (sign, exact Fraction value).
    Ties to even (or toward zero). No overflow handling: callers keep inputs
    in range."""
    sign, q = math.copysign(1.0, x) < 0, abs(Fraction(x))
    if q == 0:
        return sign, q
    e = math.floor(math.log2(q))
    while Fraction(2) ** e > q:  # fix log2's rounding
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - mbits)
    n, rem = divmod(q, ulp)
    if not rtz and (rem > ulp / 2 or (rem == ulp / 2 and n % 2 == 1)):
        n += 1
    return sign, n * ulp


def fp8_bits(x, ebits, mbits, bias):
    sign, v = round_to_format(x, mbits, 1 - bias)
    if v == 0:
        return sign << 7
    e = math.floor(math.log2(v))
    if e < 1 - bias:  # subnormal
        return (sign << 7) | int(v / Fraction(2) ** (1 - bias - mbits))
    man = int((v / Fraction(2) ** e - 1) * 2 ** mbits)
    if man == 2 ** mbits:  # rounded up to the next binade
        e, man = e + 1, 0
    return (sign << 7) | ((e + bias) << mbits) | man


def f32_rtz_bits(x):
    sign, v = round_to_format(x, 23, -126, rtz=True)
    if v >= Fraction(2) ** 128 - Fraction(2) ** 104:  # past the largest finite value: rtz keeps the max
        v = Fraction(2) ** 128 - Fraction(2) ** 104
    bits = struct.unpack("<I", struct.pack("<f", float(v)))[0]  # v is exact in float32
    return bits | (sign << 31)


def run(kernel, x, out_dtype, want, label):
    out = torch.empty(x.numel(), dtype=out_dtype, device="cuda")
    try:
        kernel[(1,)](x, out, N=x.numel())
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001 - we want to show what the compiler raised
        msg = "".join(traceback.format_exception_only(type(e), e)).strip()
        lines = [ln for ln in msg.splitlines() if ln.strip()]
        print(f"{label}: the compiler raised {type(e).__name__}:")
        for ln in lines[-6:]:
            print("    " + ln[:300])
        return "PassManager::run failed" in msg
    itemsize = out.element_size()
    view = {1: torch.uint8, 4: torch.int32}[itemsize]
    got = [v & (2 ** (8 * itemsize) - 1) for v in out.view(view).cpu().tolist()]
    print(f"{label}: compiled; expected {[hex(w) for w in want]}, got {[hex(g) for g in got]} "
          f"{'right' if got == want else 'WRONG'}")
    return False


def main():
    print(f"triton {triton.__version__}, torch {torch.__version__}, CUDA {torch.version.cuda}, "
          f"GPU {torch.cuda.get_device_name()}")
    vals = [1.0625, 1.0625 + 2.0 ** -40, 0.3, -2.5, 448.0, 2.0 ** -9, 0.0, -0.0]
    x = torch.tensor(vals, dtype=torch.float64, device="cuda")
    print("inputs (float64):", vals)
    crashed = []
    for kernel, dtype, want, label in (
        (f64_to_e4m3, torch.float8_e4m3fn, [fp8_bits(v, 4, 3, 7) for v in vals], "float64 -> float8e4nv"),
        (f64_to_e5m2, torch.float8_e5m2, [fp8_bits(v, 5, 2, 15) for v in vals], "float64 -> float8e5"),
    ):
        if run(kernel, x, dtype, want, label):
            crashed.append(label)
    rvals = [0.1, -0.1, 1.0 + 2.0 ** -30, 1.0 - 2.0 ** -40, 1e300, 2.0 ** -140, -1e-50, 3.0]
    xr = torch.tensor(rvals, dtype=torch.float64, device="cuda")
    print("inputs (float64):", rvals)
    if run(f64_to_f32_rtz, xr, torch.float32, [f32_rtz_bits(v) for v in rvals],
           'float64 -> float32, fp_downcast_rounding="rtz"'):
        crashed.append("float64 -> float32 rtz")
    if crashed:
        print("BUG REPRODUCED: the backend crashed (PassManager::run failed) on:", ", ".join(crashed))
    else:
        print("NOT REPRODUCED: no backend crash")


if __name__ == "__main__":
    main()
