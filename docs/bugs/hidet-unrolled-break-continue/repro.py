"""Hidet: `continue` / `break` inside a `for k in range(n)` loop with a small
constant n leave the *enclosing* loop's iteration: Hidet unrolls the short
loop into straight-line code and the `continue`/`break` then belongs to the
outer loop.

    for i in range(4):
        c = 0
        for k in range(2):
            if a[i] < k:
                continue        # (or: break)
            c = c + 1
        out[i] = c * 10 + 7

The inner `continue` skips only `c = c + 1`, and `out[i]` is always written.
Expected values are computed by running the same loops in plain Python.
The same kernel with range(8) (not unrolled) is the control.

Runs on the CPU (Hidet's cpu_kernel, built with g++): python3 repro.py
(prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import os
import tempfile
from importlib.metadata import version

import hidet
import torch
from hidet.backend import build as _build
from hidet.lang import attrs
from hidet.lang.types import i32

# Hidet's g++ command has -ffast-math; build without it (and in a cache of our
# own) so that what is measured is Hidet's code, not g++'s fast-math.
_orig = _build.SourceCompiler.run_compile_command
_build.SourceCompiler.run_compile_command = lambda self, cmd, *a: _orig(
    self, cmd.replace("-ffast-math", "-fno-fast-math -ffp-contract=off"), *a)
hidet.option.cache_dir(os.path.join(tempfile.gettempdir(), "hidet_bugs_cache"))

def build_with_continue():
    with hidet.script_module() as sm:
        @hidet.script
        def with_continue(a: i32[4], out: i32[4]):
            attrs.func_kind = "cpu_kernel"
            for i in range(4):
                c: i32 = 0
                for k in range(2):
                    if a[i] < k:
                        continue
                    c = c + 1
                out[i] = c * 10 + 7
    return sm.build()


def build_with_break():
    with hidet.script_module() as sm:
        @hidet.script
        def with_break(a: i32[4], out: i32[4]):
            attrs.func_kind = "cpu_kernel"
            for i in range(4):
                c: i32 = 0
                for k in range(2):
                    if a[i] < k:
                        break
                    c = c + 1
                out[i] = c * 10 + 7
    return sm.build()


def build_continue_range8():
    with hidet.script_module() as sm:
        @hidet.script
        def continue_range8(a: i32[4], out: i32[4]):
            attrs.func_kind = "cpu_kernel"
            for i in range(4):
                c: i32 = 0
                for k in range(8):
                    if a[i] < k:
                        continue
                    c = c + 1
                out[i] = c * 10 + 7
    return sm.build()


def reference(a, n, stmt):
    out = []
    for i in range(4):
        c = 0
        for k in range(n):
            if a[i] < k:
                if stmt == "continue":
                    continue
                break
            c = c + 1
        out.append(c * 10 + 7)
    return out


def main():
    print(f"hidet {version('hidet')}, torch {torch.__version__}, cpu_kernel built with g++ (fast-math off)")
    av = [-1, 0, 1, 5]
    bug = False
    for build, n, stmt in ((build_with_continue, 2, "continue"), (build_with_break, 2, "break"),
                           (build_continue_range8, 8, "continue")):
        m = build()
        name = build.__name__[len("build_"):]
        if name == "with_continue":
            src = open(os.path.join(m.module_dir, "source.cc")).read()
            print("generated C++ of with_continue (its loops):")
            lines = src.split("with_continue(", 1)[-1].splitlines()
            first = next(j for j, ln in enumerate(lines) if "for (" in ln)
            last = next(j for j, ln in enumerate(lines) if "out[i]" in ln)
            for ln in lines[first:last + 2]:
                print("   ", ln.rstrip())
        a = torch.tensor(av, dtype=torch.int32)
        out = torch.full((4,), -1, dtype=torch.int32)
        m(a, out)
        want, got = reference(av, n, stmt), out.tolist()
        ok = want == got
        bug |= not ok and n < 4
        print(f"{name} (a = {av}): expected {want}, got {got} {'right' if ok else 'WRONG'}"
              + ("  (-1: out[i] never written)" if -1 in got else ""))
    print("BUG REPRODUCED: the unrolled loop's continue/break left the outer iteration" if bug else "NOT REPRODUCED")


if __name__ == "__main__":
    main()
