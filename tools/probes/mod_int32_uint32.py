# Probe: mod_int32_uint32 (run: python3 tools/triton_run.py tools/probes/mod_int32_uint32.py --launch tools/probes/mod_int32_uint32.json --json)
# int32 tensor % uint32 tensor: compile error?
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(a_ptr, b_ptr, r_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    r = a % b
    tl.static_print("KSEM", "r", r)
    tl.store(r_ptr + offs, r)
