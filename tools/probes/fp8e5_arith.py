# Probe: fp8e5_arith (run: python3 tools/triton_run.py tools/probes/fp8e5_arith.py --launch tools/probes/fp8e5_arith.json --json)
# float8e5 + float8e5 and * (same fp8 type: result stays float8e5?)
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(a_ptr, b_ptr, add_ptr, mul_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    add = a + b
    tl.static_print("KSEM", "add", add)
    tl.store(add_ptr + offs, add)
    mul = a * b
    tl.static_print("KSEM", "mul", mul)
    tl.store(mul_ptr + offs, mul)
