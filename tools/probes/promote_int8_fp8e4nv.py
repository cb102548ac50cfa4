# Probe: promote_int8_fp8e4nv (run: python3 tools/triton_run.py tools/probes/promote_int8_fp8e4nv.py --launch tools/probes/promote_int8_fp8e4nv.json --json)
# int8 tensor + float8e4nv tensor (does it compile? result dtype?)
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(i8_ptr, f8_ptr, i8_add_f8_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    i8 = tl.load(i8_ptr + offs)
    f8 = tl.load(f8_ptr + offs)
    i8_add_f8 = i8 + f8
    tl.static_print("KSEM", "i8_add_f8", i8_add_f8)
    tl.store(i8_add_f8_ptr + offs, i8_add_f8)
