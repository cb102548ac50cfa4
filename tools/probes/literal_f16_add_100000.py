# Probe: literal_f16_add_100000 (run: python3 tools/triton_run.py tools/probes/literal_f16_add_100000.py --launch tools/probes/literal_f16_add_100000.json --json)
# float16 tensor + 100000 (an int literal: does not take part; 100000 as float16 is inf)
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, r_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    r = x + 100000
    tl.static_print("KSEM", "r", r)
    tl.store(r_ptr + offs, r)
