# Probe: subnormals (run: python3 tools/triton_run.py tools/probes/subnormals.py --launch tools/probes/subnormals.json --json)
# Are subnormals kept or flushed (FTZ)?  float32 subnormal operands times 1, plus 0,
# halving the smallest normal, sqrt and division of subnormals, exp(-100);
# float16 subnormals.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(s_ptr, one_ptr, z_ptr, hs_ptr, hone_ptr, mul1_ptr, add0_ptr, half_ptr, sqrt_ptr, sqrt_rn_ptr, div1_ptr, exp_m100_ptr, to_f16_ptr, h_mul1_ptr, h_half_ptr, h_to_f32_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    s = tl.load(s_ptr + offs)
    one = tl.load(one_ptr + offs)
    z = tl.load(z_ptr + offs)
    hs = tl.load(hs_ptr + offs)
    hone = tl.load(hone_ptr + offs)
    mul1 = s * one
    tl.static_print("KSEM", "mul1", mul1)
    tl.store(mul1_ptr + offs, mul1)
    add0 = s + z
    tl.static_print("KSEM", "add0", add0)
    tl.store(add0_ptr + offs, add0)
    half = s * 0.5
    tl.static_print("KSEM", "half", half)
    tl.store(half_ptr + offs, half)
    sqrt = tl.sqrt(s)
    tl.static_print("KSEM", "sqrt", sqrt)
    tl.store(sqrt_ptr + offs, sqrt)
    sqrt_rn = tl.math.sqrt_rn(s)
    tl.static_print("KSEM", "sqrt_rn", sqrt_rn)
    tl.store(sqrt_rn_ptr + offs, sqrt_rn)
    div1 = s / one
    tl.static_print("KSEM", "div1", div1)
    tl.store(div1_ptr + offs, div1)
    exp_m100 = tl.exp(s - 100.0)
    tl.static_print("KSEM", "exp_m100", exp_m100)
    tl.store(exp_m100_ptr + offs, exp_m100)
    to_f16 = s.to(tl.float16)
    tl.static_print("KSEM", "to_f16", to_f16)
    tl.store(to_f16_ptr + offs, to_f16)
    h_mul1 = hs * hone
    tl.static_print("KSEM", "h_mul1", h_mul1)
    tl.store(h_mul1_ptr + offs, h_mul1)
    h_half = hs * 0.5
    tl.static_print("KSEM", "h_half", h_half)
    tl.store(h_half_ptr + offs, h_half)
    h_to_f32 = hs.to(tl.float32)
    tl.static_print("KSEM", "h_to_f32", h_to_f32)
    tl.store(h_to_f32_ptr + offs, h_to_f32)
