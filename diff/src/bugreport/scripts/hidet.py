"""Finding __NAME__ against Hidet, written by `ksem triage --bug-report` (a draft).

Runs the cpu_kernel below on real Hidet (built with g++; no ksem) with the
finding's inputs and compares the buffers that differed with EXPECTED.
EXPECTED holds ksem's bits: before filing, compute them independently here
(plain Python) and explain them in README.md. Hidet's g++ command has
-ffast-math; it is built with -fno-fast-math -ffp-contract=off instead, in a
cache of its own, as ksem's campaigns run Hidet, so that what is measured is
Hidet's code, not g++'s fast-math. Buffers are passed as pointers to C
arrays of their bits, scalars as Python numbers.

Run: python3 repro.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import ctypes
import json
import os
import tempfile

import hidet
from hidet.backend import build as _build

_orig_compile = _build.SourceCompiler.run_compile_command
_build.SourceCompiler.run_compile_command = lambda self, cmd, *a: _orig_compile(
    self, cmd.replace("-ffast-math", "-fno-fast-math -ffp-contract=off"), *a)
hidet.option.cache_dir(os.path.join(tempfile.gettempdir(), "hidet_bugs_cache"))

# ---- the finding's program, verbatim ----
# __PROGRAM__
# ---- the launch ----
PROGRAM = dict(globals())  # the program's names, before this script's own
LAUNCH = json.loads(r'''__LAUNCH__''')
EXPECTED = json.loads(r'''__EXPECTED__''')
KERNEL_NAME = "__KERNEL__"

# __COMMON__


def compiled_kernel():
    """(the kernel's hidet Function, its script module built)."""
    from hidet.lang.script import ScriptModuleContext
    kernel = PROGRAM[KERNEL_NAME]
    (ctx,) = [v for v in list(PROGRAM.values()) if isinstance(v, ScriptModuleContext)]
    return kernel, ctx.ir_module().build()


def main():
    print(f"hidet {hidet.__version__}, cpu_kernel built with g++ -fno-fast-math -ffp-contract=off")
    kernel, compiled = compiled_kernel()
    arrays, values = {}, []
    for p in kernel.params:
        name = p.hint or p.name
        (kind, v), = LAUNCH["args"][name].items()
        if kind == "buffer":
            n = WIDTH[v["dtype"]] // 8
            raw = b"".join(int(b, 16).to_bytes(n, "little") for b in v["bits"])
            arrays[name] = (ctypes.create_string_buffer(raw, max(len(raw), 1)), n, len(raw))
            values.append(ctypes.c_void_p(ctypes.addressof(arrays[name][0])))
        else:
            values.append(scalar_of(v["dtype"], v["bits"]))
    compiled(*values)
    got = {}
    for name in EXPECTED:
        arr, n, size = arrays[name]
        raw = ctypes.string_at(ctypes.addressof(arr), size)
        got[name] = [int.from_bytes(raw[i:i + n], "little") for i in range(0, size, n)]
    report(got)


if __name__ == "__main__":
    main()
