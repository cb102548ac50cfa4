# Probe: div_mod_basic (run: python3 tools/triton_run.py tools/probes/div_mod_basic.py --launch tools/probes/div_mod_basic.json --json)
# / on int32 (result float32?), / and % on float16 (result dtype), float % with
# negative operands (C fmod or Python mod?), int // and % with mixed signs (C
# truncation), int8 tensor // and % by the literals -3 and 3.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(ia_ptr, ib_ptr, ha_ptr, hb_ptr, ba_ptr, bb_ptr, fa_ptr, fb_ptr, i8_ptr, ua_ptr, ub_ptr, i32_truediv_i32_ptr, i32_floordiv_i32_ptr, i32_mod_i32_ptr, f16_truediv_f16_ptr, f16_mod_f16_ptr, bf16_truediv_bf16_ptr, i32_truediv_f16_ptr, f32_mod_f32_ptr, f32_truediv_f32_ptr, i8_floordiv_m3_ptr, i8_mod_m3_ptr, i8_floordiv_3_ptr, i8_mod_3_ptr, u32_floordiv_u32_ptr, u32_mod_u32_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    ia = tl.load(ia_ptr + offs)
    ib = tl.load(ib_ptr + offs)
    ha = tl.load(ha_ptr + offs)
    hb = tl.load(hb_ptr + offs)
    ba = tl.load(ba_ptr + offs)
    bb = tl.load(bb_ptr + offs)
    fa = tl.load(fa_ptr + offs)
    fb = tl.load(fb_ptr + offs)
    i8 = tl.load(i8_ptr + offs)
    ua = tl.load(ua_ptr + offs)
    ub = tl.load(ub_ptr + offs)
    i32_truediv_i32 = ia / ib
    tl.static_print("KSEM", "i32_truediv_i32", i32_truediv_i32)
    tl.store(i32_truediv_i32_ptr + offs, i32_truediv_i32)
    i32_floordiv_i32 = ia // ib
    tl.static_print("KSEM", "i32_floordiv_i32", i32_floordiv_i32)
    tl.store(i32_floordiv_i32_ptr + offs, i32_floordiv_i32)
    i32_mod_i32 = ia % ib
    tl.static_print("KSEM", "i32_mod_i32", i32_mod_i32)
    tl.store(i32_mod_i32_ptr + offs, i32_mod_i32)
    f16_truediv_f16 = ha / hb
    tl.static_print("KSEM", "f16_truediv_f16", f16_truediv_f16)
    tl.store(f16_truediv_f16_ptr + offs, f16_truediv_f16)
    f16_mod_f16 = ha % hb
    tl.static_print("KSEM", "f16_mod_f16", f16_mod_f16)
    tl.store(f16_mod_f16_ptr + offs, f16_mod_f16)
    bf16_truediv_bf16 = ba / bb
    tl.static_print("KSEM", "bf16_truediv_bf16", bf16_truediv_bf16)
    tl.store(bf16_truediv_bf16_ptr + offs, bf16_truediv_bf16)
    i32_truediv_f16 = ia / ha
    tl.static_print("KSEM", "i32_truediv_f16", i32_truediv_f16)
    tl.store(i32_truediv_f16_ptr + offs, i32_truediv_f16)
    f32_mod_f32 = fa % fb
    tl.static_print("KSEM", "f32_mod_f32", f32_mod_f32)
    tl.store(f32_mod_f32_ptr + offs, f32_mod_f32)
    f32_truediv_f32 = fa / fb
    tl.static_print("KSEM", "f32_truediv_f32", f32_truediv_f32)
    tl.store(f32_truediv_f32_ptr + offs, f32_truediv_f32)
    i8_floordiv_m3 = i8 // -3
    tl.static_print("KSEM", "i8_floordiv_m3", i8_floordiv_m3)
    tl.store(i8_floordiv_m3_ptr + offs, i8_floordiv_m3)
    i8_mod_m3 = i8 % -3
    tl.static_print("KSEM", "i8_mod_m3", i8_mod_m3)
    tl.store(i8_mod_m3_ptr + offs, i8_mod_m3)
    i8_floordiv_3 = i8 // 3
    tl.static_print("KSEM", "i8_floordiv_3", i8_floordiv_3)
    tl.store(i8_floordiv_3_ptr + offs, i8_floordiv_3)
    i8_mod_3 = i8 % 3
    tl.static_print("KSEM", "i8_mod_3", i8_mod_3)
    tl.store(i8_mod_3_ptr + offs, i8_mod_3)
    u32_floordiv_u32 = ua // ub
    tl.static_print("KSEM", "u32_floordiv_u32", u32_floordiv_u32)
    tl.store(u32_floordiv_u32_ptr + offs, u32_floordiv_u32)
    u32_mod_u32 = ua % ub
    tl.static_print("KSEM", "u32_mod_u32", u32_mod_u32)
    tl.store(u32_mod_u32_ptr + offs, u32_mod_u32)
