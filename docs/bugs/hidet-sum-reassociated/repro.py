"""Hidet: a sum of more than two terms is reordered and regrouped (Hidet's
canonicalisation of addition chains), so float32 results change.

    out[0] = (x0 * x1 + x1) + x0      # written order: ((x0*x1) + x1) + x0

Hidet emits ((x0*x1) + x0) + x1. With x0 = 1, x1 = 2^24 + 2 the written
order gives (2^25 + 4) + 1 -> 33554436 (float32 ulp there is 4), while the
emitted order gives (2^24 + 3 -> 2^24 + 4, a tie to even) + (2^24 + 2)
= 2^25 + 6 -> 33554440 (a tie to even). Expected values: numpy float32
arithmetic in the written order (one IEEE rounding per operation).

Runs on the CPU (Hidet's cpu_kernel, built with g++; fast-math is switched
off so g++ itself does not reassociate): python3 repro.py
(prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import os
import tempfile
from importlib.metadata import version

import hidet
import numpy as np
import torch
from hidet.backend import build as _build
from hidet.lang import attrs
from hidet.lang.types import f32

# Hidet's g++ command has -ffast-math; build without it (and in a cache of our
# own) so that what is measured is Hidet's code, not g++'s fast-math.
_orig = _build.SourceCompiler.run_compile_command
_build.SourceCompiler.run_compile_command = lambda self, cmd, *a: _orig(
    self, cmd.replace("-ffast-math", "-fno-fast-math -ffp-contract=off"), *a)
hidet.option.cache_dir(os.path.join(tempfile.gettempdir(), "hidet_bugs_cache"))

with hidet.script_module() as sm:
    @hidet.script
    def chain(x: f32[2], out: f32[1]):
        attrs.func_kind = "cpu_kernel"
        x0 = x[0]
        x1 = x[1]
        out[0] = (x0 * x1 + x1) + x0


def main():
    print(f"hidet {version('hidet')}, torch {torch.__version__}, numpy {np.__version__}, "
          "cpu_kernel built with g++ (fast-math off)")
    m = sm.build()
    src = open(os.path.join(m.module_dir, "source.cc")).read()
    print("generated C++:", next(ln.strip() for ln in src.splitlines() if "out[0]" in ln))
    x0, x1 = np.float32(1.0), np.float32(2 ** 24 + 2)
    want = (x0 * x1 + x1) + x0             # numpy float32, as written
    other = (x0 * x1 + x0) + x1            # the regrouped order, for reference
    x = torch.tensor([float(x0), float(x1)], dtype=torch.float32)
    out = torch.zeros(1, dtype=torch.float32)
    m(x, out)
    got = out.item()
    print(f"x0 = {float(x0)}, x1 = {float(x1)}")
    print(f"expected (written order) {float(want)}, regrouped order would give {float(other)}, got {got} "
          f"{'right' if got == float(want) else 'WRONG'}")
    print("BUG REPRODUCED: the sum was regrouped" if got != float(want) else "NOT REPRODUCED")


if __name__ == "__main__":
    main()
