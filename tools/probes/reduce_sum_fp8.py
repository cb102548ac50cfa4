# Probe: reduce_sum_fp8 (run: python3 tools/triton_run.py tools/probes/reduce_sum_fp8.py --launch tools/probes/reduce_sum_fp8.json --json)
# tl.sum of a float8e5 tensor (compiles? dtype?)
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(f8_ptr, sum_f8_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    f8 = tl.load(f8_ptr + offs)
    sum_f8 = tl.sum(f8, axis=0)
    tl.static_print("KSEM", "sum_f8", sum_f8)
    tl.store(sum_f8_ptr, sum_f8)
