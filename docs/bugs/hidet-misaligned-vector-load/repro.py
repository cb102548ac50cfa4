"""Hidet: a float32x4 load through a pointer that is not 16-byte aligned
(`cast(inp + 1, ~f32x4)[0]` of a `~f32`) kills the process with SIGSEGV on
the CPU: the generated C++ dereferences a `float4*` (an `__m128`), which g++
compiles to an aligned SSE load.

Nothing in the Hidet script says the access must be aligned, and Hidet
neither checks nor rejects it. The script runs the kernel in a child process
and reports how it ended. Expected, if the access is allowed: the four lanes
inp[1..4] = [1, 2, 3, 4]; the aligned load `cast(inp + 4, ~f32x4)[0]` is the
control (lanes [4, 5, 6, 7]).

Runs on the CPU (Hidet's cpu_kernel, built with g++): python3 repro.py
(prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import faulthandler
import os
import signal
import sys
import tempfile
from importlib.metadata import version

import hidet
import torch
from hidet.backend import build as _build
from hidet.ir import dtypes as D
from hidet.lang import attrs, cast
from hidet.lang.types import f32

# Hidet's g++ command has -ffast-math; build without it (and in a cache of our
# own) so that what is measured is Hidet's code, not g++'s fast-math.
_orig = _build.SourceCompiler.run_compile_command
_build.SourceCompiler.run_compile_command = lambda self, cmd, *a: _orig(
    self, cmd.replace("-ffast-math", "-fno-fast-math -ffp-contract=off"), *a)
hidet.option.cache_dir(os.path.join(tempfile.gettempdir(), "hidet_bugs_cache"))


def build(offset):
    with hidet.script_module() as sm:
        if offset == 1:
            @hidet.script
            def load_at_1(inp: ~f32, out: ~f32):
                attrs.func_kind = "cpu_kernel"
                cast(out, ~D.float32x4)[0] = cast(inp + 1, ~D.float32x4)[0]
        else:
            @hidet.script
            def load_at_4(inp: ~f32, out: ~f32):
                attrs.func_kind = "cpu_kernel"
                cast(out, ~D.float32x4)[0] = cast(inp + 4, ~D.float32x4)[0]
    return sm.build()


def run_in_child(offset):
    """Build and run in a forked child; returns (lanes or None, how it ended)."""
    m = build(offset)  # build in the parent: only the run may crash
    src = open(os.path.join(m.module_dir, "source.cc")).read()
    line = next(ln.strip() for ln in src.splitlines() if "out)" in ln and "float4" in ln)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        faulthandler.disable()  # torch turns it on; its dump of the crash is noise here
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
        inp = torch.arange(16, dtype=torch.float32)  # torch's CPU allocations are 64-byte aligned
        out = torch.zeros(4, dtype=torch.float32)
        m(inp, out)
        os.write(w, repr(out.tolist()).encode())
        os._exit(0)
    os.close(w)
    data = os.read(r, 4096).decode()
    os.close(r)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return line, None, f"killed by signal {os.WTERMSIG(status)} ({signal.Signals(os.WTERMSIG(status)).name})"
    return line, eval(data), f"exit {os.WEXITSTATUS(status)}"


def main():
    print(f"hidet {version('hidet')}, torch {torch.__version__}, cpu_kernel built with g++ (fast-math off), "
          f"{os.uname().machine}")
    sys.stdout.flush()
    bug = False
    for offset in (4, 1):
        line, lanes, how = run_in_child(offset)
        want = [float(offset + k) for k in range(4)]
        print(f"cast(inp + {offset}, ~f32x4)[0]: generated `{line}`; expected {want}, got {lanes} ({how})")
        if offset == 1 and lanes != want:
            bug = True
    print("BUG REPRODUCED: the misaligned vector load crashed the process" if bug else "NOT REPRODUCED")


if __name__ == "__main__":
    main()
