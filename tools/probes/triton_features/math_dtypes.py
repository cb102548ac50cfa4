#!/usr/bin/env python3
"""Which float dtypes real Triton's math functions accept (compile each on
the GPU): prints a JSON table {function: {dtype: "ok" | first line of the
error}}. Run: python3 tools/probes/triton_features/math_dtypes.py"""
import json
import sys

import torch
import triton
import triton.language as tl

FNS = ["exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos",
       "sigmoid", "erf", "floor", "ceil", "abs"]
DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16,
          "float32": torch.float32, "float64": torch.float64}


def make(fn):
    src = f"""
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, o_ptr):
    offs = tl.arange(0, 4)
    tl.store(o_ptr + offs, tl.{fn}(tl.load(x_ptr + offs)))
"""
    ns = {}
    path = f"/tmp/ksem_math_{fn}.py"
    open(path, "w").write(src)
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"m_{fn}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.k


table = {}
for fn in FNS:
    k = make(fn)
    row = {}
    for name, td in DTYPES.items():
        x = torch.ones(4, dtype=td, device="cuda")
        o = torch.zeros(4, dtype=td, device="cuda")
        try:
            k[(1,)](x, o)
            torch.cuda.synchronize()
            row[name] = "ok"
        except Exception as e:  # noqa: BLE001
            lines = [l for l in str(e).splitlines() if l.strip()]
            row[name] = lines[-1][:160] if lines else type(e).__name__
    table[fn] = row
json.dump(table, sys.stdout, indent=1)
print()
