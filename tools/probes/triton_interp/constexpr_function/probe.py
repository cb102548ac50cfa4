"""constexpr_functions with loops, break/continue, nested calls, calls through
an imported module (`mod.f`, `from mod import f`) and a NamedTuple through a
`tl.constexpr` parameter (kern.py, cfhelpers.py), on real Triton 3.9: the
interpreter's stored values (TRITON_INTERPRET=1, on the CPU) and the
compiler's (TTIR for sm_90, no GPU needed: the i32 constants it folded).
Run: cd tools/probes/triton_interp/constexpr_function && python probe.py"""
import json
import os
import re
import subprocess
import sys

INTERP = """
import json, torch, kern
out = torch.zeros(9, dtype=torch.int32)
kern.kern[(1,)](out)
print(json.dumps(out.tolist()))
"""
COMPILE = """
import json, re, kern, triton
from triton.compiler.compiler import ASTSource
from triton.backends.compiler import GPUTarget
k = triton.compile(ASTSource(kern.kern, signature={"out": "*i32"}, constexprs={}), target=GPUTarget("cuda", 90, 32))
print(json.dumps(sorted({int(x) for x in re.findall(r"arith.constant (\\d+) : i32", k.asm["ttir"])})))
"""


def run(code, **env):
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **env})
    return json.loads(r.stdout.strip().splitlines()[-1])


import triton  # noqa: E402

print(json.dumps({
    "triton": triton.__version__,
    "interpreter_out": run(INTERP, TRITON_INTERPRET="1"),
    "compiler_i32_constants": run(COMPILE),
}))
