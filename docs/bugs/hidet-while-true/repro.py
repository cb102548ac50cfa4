"""Hidet: `while True:` in a Hidet script does not compile: the generated C++
says `while (True)`, and g++ rejects the undeclared name `True`.

The loop below runs until i = 5 and breaks; expected out[0] = 5. A condition
that Hidet folds to a constant (`while 1 > 0:`) fails the same way; a runtime
condition (`while i < 100:`, the control, same loop) compiles and gives 5.

Runs on the CPU (Hidet's cpu_kernel, built with g++): python3 repro.py
(prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import os
import re
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


def build_while_true():
    with hidet.script_module() as sm:
        @hidet.script
        def loop_true(out: i32[1]):
            attrs.func_kind = "cpu_kernel"
            i: i32 = 0
            while True:
                i = i + 1
                if i >= 5:
                    break
            out[0] = i
    return sm.build()


def build_while_folded():
    with hidet.script_module() as sm:
        @hidet.script
        def loop_folded(out: i32[1]):
            attrs.func_kind = "cpu_kernel"
            i: i32 = 0
            while 1 > 0:
                i = i + 1
                if i >= 5:
                    break
            out[0] = i
    return sm.build()


def build_while_runtime():
    with hidet.script_module() as sm:
        @hidet.script
        def loop_runtime(out: i32[1]):
            attrs.func_kind = "cpu_kernel"
            i: i32 = 0
            while i < 100:
                i = i + 1
                if i >= 5:
                    break
            out[0] = i
    return sm.build()


def run(label, build):
    try:
        m = build()
    except Exception as e:  # noqa: BLE001 - the build error is the finding
        text = re.sub(r"\x1b\[[0-9;]*m", "", str(e))
        lines = [ln for ln in text.splitlines() if "True" in ln or "error" in ln]
        print(f"{label}: the build failed ({type(e).__name__}):")
        for ln in lines[:6]:
            print("    " + ln.strip()[:200])
        return None
    out = torch.zeros(1, dtype=torch.int32)
    m(out)
    print(f"{label}: built; out[0] = {out.item()} (expected 5)")
    return out.item()


def main():
    print(f"hidet {version('hidet')}, torch {torch.__version__}, cpu_kernel built with g++ (fast-math off)")
    got = run("while True", build_while_true)
    run("while 1 > 0", build_while_folded)
    run("while i < 100 (control)", build_while_runtime)
    if got is None:
        print("BUG REPRODUCED: `while True:` does not compile")
    elif got != 5:
        print(f"BUG REPRODUCED: `while True:` compiled but gave {got}")
    else:
        print("NOT REPRODUCED: `while True:` compiles and gives 5")


if __name__ == "__main__":
    main()
