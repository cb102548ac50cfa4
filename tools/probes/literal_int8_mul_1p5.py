# Probe: literal_int8_mul_1p5 (run: python3 tools/triton_run.py tools/probes/literal_int8_mul_1p5.py --launch tools/probes/literal_int8_mul_1p5.json --json)
# int8 tensor * 1.5 (float literal, higher kind)
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, r_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    r = x * 1.5
    tl.static_print("KSEM", "r", r)
    tl.store(r_ptr + offs, r)
