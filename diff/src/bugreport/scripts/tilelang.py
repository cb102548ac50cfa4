"""Finding __NAME__ against TileLang, written by `ksem triage --bug-report` (a draft).

Runs the kernel below on real TileLang's C target (the CPU; no ksem) with the
finding's inputs and compares the buffers that differed with EXPECTED.
EXPECTED holds ksem's bits: before filing, compute them independently here
(plain Python) and explain them in README.md. Compiled with vectorisation
off (`tirx.disable_vectorize`), as ksem's campaigns run TileLang (the C
target's vector types do not compile).

Run: python3 repro.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import json

import torch

# ---- the finding's program, verbatim ----
# __PROGRAM__
# ---- the launch ----
PROGRAM = dict(globals())  # the program's names, before this script's own
LAUNCH = json.loads(r'''__LAUNCH__''')
EXPECTED = json.loads(r'''__EXPECTED__''')
KERNEL_NAME = "__KERNEL__"

# __COMMON__
# __TORCH_BITS__


def prim_func():
    """The kernel: the prim_func named KERNEL_NAME (or the file's only one),
    or the factory of that name called with the launch's factory_args."""
    from tilelang import tvm
    PrimFunc = tvm.tirx.PrimFunc if hasattr(tvm, "tirx") else tvm.tir.PrimFunc
    obj = PROGRAM.get(KERNEL_NAME)
    if obj is None:
        (obj,) = [v for v in list(PROGRAM.values()) if isinstance(v, PrimFunc)]
    if isinstance(obj, PrimFunc):
        return obj
    for attr in ("func", "__wrapped__", "_func"):  # @tilelang.jit keeps the factory
        if callable(getattr(obj, attr, None)):
            obj = getattr(obj, attr)
            break
    return obj(**LAUNCH.get("factory_args", {}))


def main():
    from importlib.metadata import version

    import tilelang
    print(f"tilelang {version('tilelang')}, torch {torch.__version__}, target c (CPU)")
    func = prim_func()
    tensors, values = {}, []
    for h in func.params:
        buf = func.buffer_map.get(h)
        name = buf.name if buf is not None else h.name
        (kind, v), = LAUNCH["args"][name].items()
        if kind == "buffer":
            tensors[name] = make(v["dtype"], v["bits"], "cpu").reshape([int(s) for s in buf.shape])
            values.append(tensors[name])
        else:
            values.append(scalar_of(v["dtype"], v["bits"]))
    kernel = tilelang.compile(func, target="c", pass_configs={"tirx.disable_vectorize": True})
    kernel(*values)
    report({name: bits_of(want["dtype"], tensors[name]) for name, want in EXPECTED.items()})


if __name__ == "__main__":
    main()
