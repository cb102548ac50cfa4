# Probe: unary_minus_float (run: python3 tools/triton_run.py tools/probes/unary_minus_float.py --launch tools/probes/unary_minus_float.json --json)
# Unary minus on floats: Triton lowers -x as 0 - x, so -(+0.0) and NaN signs are
# the question; also 0.0 - x, x * -1.0 and tl.abs.  Inputs: +0, -0, 1, -1, +qNaN,
# -qNaN, +inf, smallest subnormal.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(f_ptr, h_ptr, b_ptr, d_ptr, neg_f32_ptr, sub_f32_ptr, mulm1_f32_ptr, abs_f32_ptr, neg_f16_ptr, abs_f16_ptr, neg_bf16_ptr, neg_f64_ptr, abs_f64_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    f = tl.load(f_ptr + offs)
    h = tl.load(h_ptr + offs)
    b = tl.load(b_ptr + offs)
    d = tl.load(d_ptr + offs)
    neg_f32 = -f
    tl.static_print("KSEM", "neg_f32", neg_f32)
    tl.store(neg_f32_ptr + offs, neg_f32)
    sub_f32 = 0.0 - f
    tl.static_print("KSEM", "sub_f32", sub_f32)
    tl.store(sub_f32_ptr + offs, sub_f32)
    mulm1_f32 = f * -1.0
    tl.static_print("KSEM", "mulm1_f32", mulm1_f32)
    tl.store(mulm1_f32_ptr + offs, mulm1_f32)
    abs_f32 = tl.abs(f)
    tl.static_print("KSEM", "abs_f32", abs_f32)
    tl.store(abs_f32_ptr + offs, abs_f32)
    neg_f16 = -h
    tl.static_print("KSEM", "neg_f16", neg_f16)
    tl.store(neg_f16_ptr + offs, neg_f16)
    abs_f16 = tl.abs(h)
    tl.static_print("KSEM", "abs_f16", abs_f16)
    tl.store(abs_f16_ptr + offs, abs_f16)
    neg_bf16 = -b
    tl.static_print("KSEM", "neg_bf16", neg_bf16)
    tl.store(neg_bf16_ptr + offs, neg_bf16)
    neg_f64 = -d
    tl.static_print("KSEM", "neg_f64", neg_f64)
    tl.store(neg_f64_ptr + offs, neg_f64)
    abs_f64 = tl.abs(d)
    tl.static_print("KSEM", "abs_f64", abs_f64)
    tl.store(abs_f64_ptr + offs, abs_f64)
