# Probe: to_bf16_f16 (run: python3 tools/triton_run.py tools/probes/to_bf16_f16.py --launch tools/probes/to_bf16_f16.json --json)
# float32 -> bfloat16 (halfway 1.00390625, 257.0, overflow), float64 -> bfloat16 and
# float64 -> float16 (double rounding through float32?), float16 <-> bfloat16.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(f_ptr, d_ptr, h_ptr, bf_ptr, f32_bf16_ptr, f64_bf16_ptr, f64_f16_ptr, f64_f32_ptr, f16_bf16_ptr, bf16_f16_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    f = tl.load(f_ptr + offs)
    d = tl.load(d_ptr + offs)
    h = tl.load(h_ptr + offs)
    bf = tl.load(bf_ptr + offs)
    f32_bf16 = f.to(tl.bfloat16)
    tl.static_print("KSEM", "f32_bf16", f32_bf16)
    tl.store(f32_bf16_ptr + offs, f32_bf16)
    f64_bf16 = d.to(tl.bfloat16)
    tl.static_print("KSEM", "f64_bf16", f64_bf16)
    tl.store(f64_bf16_ptr + offs, f64_bf16)
    f64_f16 = d.to(tl.float16)
    tl.static_print("KSEM", "f64_f16", f64_f16)
    tl.store(f64_f16_ptr + offs, f64_f16)
    f64_f32 = d.to(tl.float32)
    tl.static_print("KSEM", "f64_f32", f64_f32)
    tl.store(f64_f32_ptr + offs, f64_f32)
    f16_bf16 = h.to(tl.bfloat16)
    tl.static_print("KSEM", "f16_bf16", f16_bf16)
    tl.store(f16_bf16_ptr + offs, f16_bf16)
    bf16_f16 = bf.to(tl.float16)
    tl.static_print("KSEM", "bf16_f16", bf16_f16)
    tl.store(bf16_f16_ptr + offs, bf16_f16)
