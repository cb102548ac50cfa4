# Probe: literal_uint32_add_2pow32 (run: python3 tools/triton_run.py tools/probes/literal_uint32_add_2pow32.py --launch tools/probes/literal_uint32_add_2pow32.json --json)
# uint32 tensor + 2**32 (an int64 literal)
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, r_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    r = x + 2**32
    tl.static_print("KSEM", "r", r)
    tl.store(r_ptr + offs, r)
