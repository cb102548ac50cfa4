# Probe: promote_fp8_other_float (run: python3 tools/triton_run.py tools/probes/promote_fp8_other_float.py --launch tools/probes/promote_fp8_other_float.json --json)
# float8 with a standard float: fp8e4nv+f16, fp8e5+f32, fp8e4nv+bf16
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(e4_ptr, e5_ptr, f16_ptr, f32_ptr, bf16_ptr, e4_add_f16_ptr, e5_add_f32_ptr, e4_add_bf16_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    e4 = tl.load(e4_ptr + offs)
    e5 = tl.load(e5_ptr + offs)
    f16 = tl.load(f16_ptr + offs)
    f32 = tl.load(f32_ptr + offs)
    bf16 = tl.load(bf16_ptr + offs)
    e4_add_f16 = e4 + f16
    tl.static_print("KSEM", "e4_add_f16", e4_add_f16)
    tl.store(e4_add_f16_ptr + offs, e4_add_f16)
    e5_add_f32 = e5 + f32
    tl.static_print("KSEM", "e5_add_f32", e5_add_f32)
    tl.store(e5_add_f32_ptr + offs, e5_add_f32)
    e4_add_bf16 = e4 + bf16
    tl.static_print("KSEM", "e4_add_bf16", e4_add_bf16)
    tl.store(e4_add_bf16_ptr + offs, e4_add_bf16)
