# Probe: promote_fp8e4nv_fp8e5 (run: python3 tools/triton_run.py tools/probes/promote_fp8e4nv_fp8e5.py --launch tools/probes/promote_fp8e4nv_fp8e5.json --json)
# float8e4nv tensor + float8e5 tensor: the docs say both go to float16
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(a_ptr, b_ptr, e4_add_e5_ptr, e4_mul_e5_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    e4_add_e5 = a + b
    tl.static_print("KSEM", "e4_add_e5", e4_add_e5)
    tl.store(e4_add_e5_ptr + offs, e4_add_e5)
    e4_mul_e5 = a * b
    tl.static_print("KSEM", "e4_mul_e5", e4_mul_e5)
    tl.store(e4_mul_e5_ptr + offs, e4_mul_e5)
