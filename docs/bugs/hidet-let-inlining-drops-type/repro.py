"""Hidet: a variable with a declared type that is assigned once is replaced by
its value (declare-to-let, then let inlining), and the conversion to the
declared type is lost.

    z: i8 = x1          # x1: i64 = 2^40 + 300  ->  z must be the int8 44
    out[0] = z          # Hidet emits out[0] = x1: 1099511628076
    w: f32 = 0.1        # w must be float32(0.1) = 0.100000001490116...
    fo[0] = w + d[0]    # d: f64 = 0.0; Hidet emits d[0] + 0.1 (the double 0.1)

Expected values are computed independently: Python's integer wrap to the
int8 range and struct's float32 rounding of 0.1. A variable assigned from
memory (`t: f32 = d[0]`) keeps its type (control).

Runs on the CPU (Hidet's cpu_kernel, built with g++): python3 repro.py
(prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import os
import struct
import tempfile
from importlib.metadata import version

import hidet
import torch
from hidet.backend import build as _build
from hidet.lang import attrs
from hidet.lang.types import f32, f64, i8, i64

# Hidet's g++ command has -ffast-math; build without it (and in a cache of our
# own) so that what is measured is Hidet's code, not g++'s fast-math.
_orig = _build.SourceCompiler.run_compile_command
_build.SourceCompiler.run_compile_command = lambda self, cmd, *a: _orig(
    self, cmd.replace("-ffast-math", "-fno-fast-math -ffp-contract=off"), *a)
hidet.option.cache_dir(os.path.join(tempfile.gettempdir(), "hidet_bugs_cache"))

with hidet.script_module() as sm:
    @hidet.script
    def declared(x: i64[1], d: f64[2], out: i64[1], fo: f64[2]):
        attrs.func_kind = "cpu_kernel"
        x1 = x[0]
        z: i8 = x1
        out[0] = z
        w: f32 = 0.1
        fo[0] = w + d[0]
        t: f32 = d[1]
        fo[1] = t + d[0]


def main():
    print(f"hidet {version('hidet')}, torch {torch.__version__}, cpu_kernel built with g++ (fast-math off)")
    m = sm.build()
    src = open(os.path.join(m.module_dir, "source.cc")).read()
    body = src.split("hidet_declared(", 1)[1].split("}", 1)[0]
    print("generated C++:")
    for ln in body.splitlines()[1:]:
        print("   ", ln.strip())
    xv = 2 ** 40 + 300
    d1 = 0.1  # the control's input: stored to a float32 variable at run time
    x = torch.tensor([xv], dtype=torch.int64)
    d = torch.tensor([0.0, d1], dtype=torch.float64)
    out = torch.zeros(1, dtype=torch.int64)
    fo = torch.zeros(2, dtype=torch.float64)
    m(x, d, out, fo)
    f32_of = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]  # noqa: E731 - round to float32
    checks = [
        ("z: i8 = x1 (x1 = 2^40 + 300)", (xv + 128) % 256 - 128, out[0].item()),
        ("w: f32 = 0.1; w + 0.0", f32_of(0.1), fo[0].item()),
        ("t: f32 = d[1] (= 0.1); t + 0.0 (control)", f32_of(d1), fo[1].item()),
    ]
    bug = False
    for name, want, got in checks:
        ok = want == got
        bug |= not ok and "control" not in name
        show = (lambda v: f"{v!r} ({v.hex()})") if isinstance(want, float) else repr
        print(f"{name}: expected {show(want)}, got {show(got)} {'right' if ok else 'WRONG'}")
    print("BUG REPRODUCED: the declared type was dropped" if bug else "NOT REPRODUCED")


if __name__ == "__main__":
    main()
