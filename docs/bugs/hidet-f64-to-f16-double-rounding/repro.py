"""Hidet: float64 -> float16 and float64 -> bfloat16 round twice (through
float32), so a value just above a tie rounds the wrong way.

x = 1 + 2^-11 + 2^-40 lies just above the midpoint between the float16
neighbours 1.0 (0x3c00) and 1 + 2^-10 (0x3c01), so rounding it once to
nearest gives 0x3c01. Through float32 it first becomes 1 + 2^-11 (the 2^-40
is below float32's precision), an exact tie, which then rounds to even:
0x3c00. Likewise 1 + 2^-8 + 2^-40 -> bfloat16 must be 0x3f81, through
float32 it is 0x3f80. The expected bits are computed below by exact rational
rounding (fractions), independently of any library conversion.

Runs on the CPU (Hidet's cpu_kernel, built with g++): python3 repro.py
(prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import math
import os
import tempfile
from fractions import Fraction
from importlib.metadata import version

import hidet
import torch
from hidet.backend import build as _build
from hidet.ir import dtypes as D
from hidet.lang import attrs
from hidet.lang.types import bf16, f16, f64

# Hidet's g++ command has -ffast-math; build without it (and in a cache of our
# own) so that what is measured is Hidet's code, not g++'s fast-math.
_orig = _build.SourceCompiler.run_compile_command
_build.SourceCompiler.run_compile_command = lambda self, cmd, *a: _orig(
    self, cmd.replace("-ffast-math", "-fno-fast-math -ffp-contract=off"), *a)
hidet.option.cache_dir(os.path.join(tempfile.gettempdir(), "hidet_bugs_cache"))

with hidet.script_module() as sm:
    @hidet.script
    def narrow(x: f64[2], h: f16[1], b: bf16[1]):
        attrs.func_kind = "cpu_kernel"
        h[0] = D.float16(x[0])
        b[0] = D.bfloat16(x[1])


def round_once(x, mbits, emin, ebias):
    """bits of the finite, positive, normal double x rounded once to nearest
    even into a binary format with mbits fraction bits."""
    q = Fraction(x)
    e = math.floor(math.log2(x))
    assert e >= emin
    ulp = Fraction(2) ** (e - mbits)
    n, rem = divmod(q, ulp)
    if rem > ulp / 2 or (rem == ulp / 2 and n % 2):
        n += 1
    if n == 2 ** (mbits + 1):
        n, e = n // 2, e + 1
    return ((e + ebias) << mbits) | (int(n) - 2 ** mbits)


def main():
    print(f"hidet {version('hidet')}, torch {torch.__version__}, cpu_kernel built with g++ (fast-math off)")
    m = sm.build()
    src = open(os.path.join(m.module_dir, "source.cc")).read()
    print("generated C++:")
    for ln in src.splitlines():
        if "h[0]" in ln or "b[0]" in ln:
            print("   ", ln.strip())
    xs = [1 + 2.0 ** -11 + 2.0 ** -40, 1 + 2.0 ** -8 + 2.0 ** -40]
    x = torch.tensor(xs, dtype=torch.float64)
    h = torch.zeros(1, dtype=torch.float16)
    b = torch.zeros(1, dtype=torch.bfloat16)
    m(x, h, b)
    got = [h.view(torch.int16).item() & 0xFFFF, b.view(torch.int16).item() & 0xFFFF]
    want = [round_once(xs[0], 10, -14, 15), round_once(xs[1], 7, -126, 127)]
    wrong = 0
    for name, xv, w, g in (("float16", xs[0], want[0], got[0]), ("bfloat16", xs[1], want[1], got[1])):
        ok = w == g
        wrong += not ok
        print(f"float64 {xv!r} ({xv.hex()}) -> {name}: expected 0x{w:04x}, got 0x{g:04x} {'right' if ok else 'WRONG'}")
    print("BUG REPRODUCED: the conversion rounds twice" if wrong else "NOT REPRODUCED")


if __name__ == "__main__":
    main()
