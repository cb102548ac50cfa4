# Probe: floordiv_float (run: python3 tools/triton_run.py tools/probes/floordiv_float.py --launch tools/probes/floordiv_float.json --json)
# float32 tensor // float32 tensor: does it compile?
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(a_ptr, b_ptr, r_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    r = a // b
    tl.static_print("KSEM", "r", r)
    tl.store(r_ptr + offs, r)
