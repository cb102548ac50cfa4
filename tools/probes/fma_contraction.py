# Probe: fma_contraction (run: python3 tools/triton_run.py tools/probes/fma_contraction.py --launch tools/probes/fma_contraction.json --json)
# Is a*b + c contracted into an fma?  With a = b = 1+2^-12 and c = -(1+2^-11), separately
# rounded float32 gives 0, a fused multiply-add gives 2^-24.  Same idea for float16,
# bfloat16 and float64; tl.fma for comparison.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(a_ptr, c_ptr, ha_ptr, hc_ptr, ba_ptr, bc_ptr, da_ptr, dc_ptr, f32_mul_add_ptr, f32_add_mul_ptr, f32_mul_sub_ptr, f32_fma_ptr, f16_mul_add_ptr, bf16_mul_add_ptr, f64_mul_add_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    c = tl.load(c_ptr + offs)
    ha = tl.load(ha_ptr + offs)
    hc = tl.load(hc_ptr + offs)
    ba = tl.load(ba_ptr + offs)
    bc = tl.load(bc_ptr + offs)
    da = tl.load(da_ptr + offs)
    dc = tl.load(dc_ptr + offs)
    f32_mul_add = a * a + c
    tl.static_print("KSEM", "f32_mul_add", f32_mul_add)
    tl.store(f32_mul_add_ptr + offs, f32_mul_add)
    f32_add_mul = c + a * a
    tl.static_print("KSEM", "f32_add_mul", f32_add_mul)
    tl.store(f32_add_mul_ptr + offs, f32_add_mul)
    f32_mul_sub = a * a - (-c)
    tl.static_print("KSEM", "f32_mul_sub", f32_mul_sub)
    tl.store(f32_mul_sub_ptr + offs, f32_mul_sub)
    f32_fma = tl.fma(a, a, c)
    tl.static_print("KSEM", "f32_fma", f32_fma)
    tl.store(f32_fma_ptr + offs, f32_fma)
    f16_mul_add = ha * ha + hc
    tl.static_print("KSEM", "f16_mul_add", f16_mul_add)
    tl.store(f16_mul_add_ptr + offs, f16_mul_add)
    bf16_mul_add = ba * ba + bc
    tl.static_print("KSEM", "bf16_mul_add", bf16_mul_add)
    tl.store(bf16_mul_add_ptr + offs, bf16_mul_add)
    f64_mul_add = da * da + dc
    tl.static_print("KSEM", "f64_mul_add", f64_mul_add)
    tl.store(f64_mul_add_ptr + offs, f64_mul_add)
