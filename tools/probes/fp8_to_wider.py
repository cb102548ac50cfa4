# Probe: fp8_to_wider (run: python3 tools/triton_run.py tools/probes/fp8_to_wider.py --launch tools/probes/fp8_to_wider.json --json)
# Every float8e4nv and float8e5 bit pattern (0x00..0xff) converted up to
# float32, float16 and bfloat16 (NaN bits, subnormals).
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(e4_ptr, e5_ptr, e4_f32_ptr, e4_f16_ptr, e4_bf16_ptr, e5_f32_ptr, e5_f16_ptr, e5_bf16_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    e4 = tl.load(e4_ptr + offs)
    e5 = tl.load(e5_ptr + offs)
    e4_f32 = e4.to(tl.float32)
    tl.static_print("KSEM", "e4_f32", e4_f32)
    tl.store(e4_f32_ptr + offs, e4_f32)
    e4_f16 = e4.to(tl.float16)
    tl.static_print("KSEM", "e4_f16", e4_f16)
    tl.store(e4_f16_ptr + offs, e4_f16)
    e4_bf16 = e4.to(tl.bfloat16)
    tl.static_print("KSEM", "e4_bf16", e4_bf16)
    tl.store(e4_bf16_ptr + offs, e4_bf16)
    e5_f32 = e5.to(tl.float32)
    tl.static_print("KSEM", "e5_f32", e5_f32)
    tl.store(e5_f32_ptr + offs, e5_f32)
    e5_f16 = e5.to(tl.float16)
    tl.static_print("KSEM", "e5_f16", e5_f16)
    tl.store(e5_f16_ptr + offs, e5_f16)
    e5_bf16 = e5.to(tl.bfloat16)
    tl.static_print("KSEM", "e5_bf16", e5_bf16)
    tl.store(e5_bf16_ptr + offs, e5_bf16)
