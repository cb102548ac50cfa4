# Probe: literal_int8_eq_300 (run: python3 tools/triton_run.py tools/probes/literal_int8_eq_300.py --launch tools/probes/literal_int8_eq_300.json --json)
# int8 tensor == 300
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, r_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    r = x == 300
    tl.static_print("KSEM", "r", r)
    tl.store(r_ptr + offs, r)
