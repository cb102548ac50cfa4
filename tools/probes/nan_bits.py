# Probe: nan_bits (run: python3 tools/triton_run.py tools/probes/nan_bits.py --launch tools/probes/nan_bits.json --json)
# NaN bit patterns produced by arithmetic and by conversions.  Operands come from
# buffers (no constant folding).
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(z_ptr, one_ptr, m1_ptr, inf_ptr, qn_ptr, qn2_ptr, hn_ptr, hone_ptr, hz_ptr, hinf_ptr, bn_ptr, binf_ptr, dz_ptr, dn_ptr, f32_0_div_0_ptr, f32_sqrt_m1_ptr, f32_sqrt_rn_m1_ptr, f32_rsqrt_m1_ptr, f32_log_m1_ptr, f32_inf_sub_inf_ptr, f32_inf_mul_0_ptr, f32_div_rn_0_0_ptr, f32_nan_add_1_ptr, f32_nan_mul_1_ptr, f32_nan_neg_ptr, f32_nan_add_nan_ptr, f32_nan_to_f16_ptr, f32_nan_to_bf16_ptr, f32_nan_to_f64_ptr, f16_nan_add_1_ptr, f16_nan_to_f32_ptr, f16_inf_sub_inf_ptr, f16_0_div_0_ptr, f16_0_mul_inf_ptr, bf16_inf_sub_inf_ptr, bf16_nan_to_f32_ptr, bf16_nan_add_1_ptr, f64_0_div_0_ptr, f64_nan_to_f32_ptr, f64_nan_add_0_ptr, f32_max_nan_1_ptr, f32_exp_nan_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    z = tl.load(z_ptr + offs)
    one = tl.load(one_ptr + offs)
    m1 = tl.load(m1_ptr + offs)
    inf = tl.load(inf_ptr + offs)
    qn = tl.load(qn_ptr + offs)
    qn2 = tl.load(qn2_ptr + offs)
    hn = tl.load(hn_ptr + offs)
    hone = tl.load(hone_ptr + offs)
    hz = tl.load(hz_ptr + offs)
    hinf = tl.load(hinf_ptr + offs)
    bn = tl.load(bn_ptr + offs)
    binf = tl.load(binf_ptr + offs)
    dz = tl.load(dz_ptr + offs)
    dn = tl.load(dn_ptr + offs)
    f32_0_div_0 = z / z
    tl.static_print("KSEM", "f32_0_div_0", f32_0_div_0)
    tl.store(f32_0_div_0_ptr + offs, f32_0_div_0)
    f32_sqrt_m1 = tl.sqrt(m1)
    tl.static_print("KSEM", "f32_sqrt_m1", f32_sqrt_m1)
    tl.store(f32_sqrt_m1_ptr + offs, f32_sqrt_m1)
    f32_sqrt_rn_m1 = tl.math.sqrt_rn(m1)
    tl.static_print("KSEM", "f32_sqrt_rn_m1", f32_sqrt_rn_m1)
    tl.store(f32_sqrt_rn_m1_ptr + offs, f32_sqrt_rn_m1)
    f32_rsqrt_m1 = tl.rsqrt(m1)
    tl.static_print("KSEM", "f32_rsqrt_m1", f32_rsqrt_m1)
    tl.store(f32_rsqrt_m1_ptr + offs, f32_rsqrt_m1)
    f32_log_m1 = tl.log(m1)
    tl.static_print("KSEM", "f32_log_m1", f32_log_m1)
    tl.store(f32_log_m1_ptr + offs, f32_log_m1)
    f32_inf_sub_inf = inf - inf
    tl.static_print("KSEM", "f32_inf_sub_inf", f32_inf_sub_inf)
    tl.store(f32_inf_sub_inf_ptr + offs, f32_inf_sub_inf)
    f32_inf_mul_0 = inf * z
    tl.static_print("KSEM", "f32_inf_mul_0", f32_inf_mul_0)
    tl.store(f32_inf_mul_0_ptr + offs, f32_inf_mul_0)
    f32_div_rn_0_0 = tl.math.div_rn(z, z)
    tl.static_print("KSEM", "f32_div_rn_0_0", f32_div_rn_0_0)
    tl.store(f32_div_rn_0_0_ptr + offs, f32_div_rn_0_0)
    f32_nan_add_1 = qn + one
    tl.static_print("KSEM", "f32_nan_add_1", f32_nan_add_1)
    tl.store(f32_nan_add_1_ptr + offs, f32_nan_add_1)
    f32_nan_mul_1 = qn * one
    tl.static_print("KSEM", "f32_nan_mul_1", f32_nan_mul_1)
    tl.store(f32_nan_mul_1_ptr + offs, f32_nan_mul_1)
    f32_nan_neg = -qn
    tl.static_print("KSEM", "f32_nan_neg", f32_nan_neg)
    tl.store(f32_nan_neg_ptr + offs, f32_nan_neg)
    f32_nan_add_nan = qn + qn2
    tl.static_print("KSEM", "f32_nan_add_nan", f32_nan_add_nan)
    tl.store(f32_nan_add_nan_ptr + offs, f32_nan_add_nan)
    f32_nan_to_f16 = qn.to(tl.float16)
    tl.static_print("KSEM", "f32_nan_to_f16", f32_nan_to_f16)
    tl.store(f32_nan_to_f16_ptr + offs, f32_nan_to_f16)
    f32_nan_to_bf16 = qn.to(tl.bfloat16)
    tl.static_print("KSEM", "f32_nan_to_bf16", f32_nan_to_bf16)
    tl.store(f32_nan_to_bf16_ptr + offs, f32_nan_to_bf16)
    f32_nan_to_f64 = qn.to(tl.float64)
    tl.static_print("KSEM", "f32_nan_to_f64", f32_nan_to_f64)
    tl.store(f32_nan_to_f64_ptr + offs, f32_nan_to_f64)
    f16_nan_add_1 = hn + hone
    tl.static_print("KSEM", "f16_nan_add_1", f16_nan_add_1)
    tl.store(f16_nan_add_1_ptr + offs, f16_nan_add_1)
    f16_nan_to_f32 = hn.to(tl.float32)
    tl.static_print("KSEM", "f16_nan_to_f32", f16_nan_to_f32)
    tl.store(f16_nan_to_f32_ptr + offs, f16_nan_to_f32)
    f16_inf_sub_inf = hinf - hinf
    tl.static_print("KSEM", "f16_inf_sub_inf", f16_inf_sub_inf)
    tl.store(f16_inf_sub_inf_ptr + offs, f16_inf_sub_inf)
    f16_0_div_0 = hz / hz
    tl.static_print("KSEM", "f16_0_div_0", f16_0_div_0)
    tl.store(f16_0_div_0_ptr + offs, f16_0_div_0)
    f16_0_mul_inf = hz * hinf
    tl.static_print("KSEM", "f16_0_mul_inf", f16_0_mul_inf)
    tl.store(f16_0_mul_inf_ptr + offs, f16_0_mul_inf)
    bf16_inf_sub_inf = binf - binf
    tl.static_print("KSEM", "bf16_inf_sub_inf", bf16_inf_sub_inf)
    tl.store(bf16_inf_sub_inf_ptr + offs, bf16_inf_sub_inf)
    bf16_nan_to_f32 = bn.to(tl.float32)
    tl.static_print("KSEM", "bf16_nan_to_f32", bf16_nan_to_f32)
    tl.store(bf16_nan_to_f32_ptr + offs, bf16_nan_to_f32)
    bf16_nan_add_1 = bn + bn
    tl.static_print("KSEM", "bf16_nan_add_1", bf16_nan_add_1)
    tl.store(bf16_nan_add_1_ptr + offs, bf16_nan_add_1)
    f64_0_div_0 = dz / dz
    tl.static_print("KSEM", "f64_0_div_0", f64_0_div_0)
    tl.store(f64_0_div_0_ptr + offs, f64_0_div_0)
    f64_nan_to_f32 = dn.to(tl.float32)
    tl.static_print("KSEM", "f64_nan_to_f32", f64_nan_to_f32)
    tl.store(f64_nan_to_f32_ptr + offs, f64_nan_to_f32)
    f64_nan_add_0 = dn + dz
    tl.static_print("KSEM", "f64_nan_add_0", f64_nan_add_0)
    tl.store(f64_nan_add_0_ptr + offs, f64_nan_add_0)
    f32_max_nan_1 = tl.maximum(qn, one)
    tl.static_print("KSEM", "f32_max_nan_1", f32_max_nan_1)
    tl.store(f32_max_nan_1_ptr + offs, f32_max_nan_1)
    f32_exp_nan = tl.exp(qn)
    tl.static_print("KSEM", "f32_exp_nan", f32_exp_nan)
    tl.store(f32_exp_nan_ptr + offs, f32_exp_nan)
