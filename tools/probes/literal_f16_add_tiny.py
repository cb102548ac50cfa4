# Probe: literal_f16_add_tiny (run: python3 tools/triton_run.py tools/probes/literal_f16_add_tiny.py --launch tools/probes/literal_f16_add_tiny.json --json)
# float16 tensor + 1e-8 (a literal below float32's normal range)
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, r_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    r = x + 1e-8
    tl.static_print("KSEM", "r", r)
    tl.store(r_ptr + offs, r)
