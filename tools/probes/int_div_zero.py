# Probe: int_div_zero (run: python3 tools/triton_run.py tools/probes/int_div_zero.py --launch tools/probes/int_div_zero.json --json)
# Integer // and % by zero (runtime divisors) and MIN // -1, MIN % -1, for
# int32, uint32, int8, int16, int64.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(a_ptr, b_ptr, ua_ptr, ub_ptr, a8_ptr, b8_ptr, a16_ptr, b16_ptr, a64_ptr, b64_ptr, ua8_ptr, ub8_ptr, i32_div_ptr, i32_mod_ptr, u32_div_ptr, u32_mod_ptr, i8_div_ptr, i8_mod_ptr, i16_div_ptr, i16_mod_ptr, i64_div_ptr, i64_mod_ptr, u8_div_ptr, u8_mod_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    ua = tl.load(ua_ptr + offs)
    ub = tl.load(ub_ptr + offs)
    a8 = tl.load(a8_ptr + offs)
    b8 = tl.load(b8_ptr + offs)
    a16 = tl.load(a16_ptr + offs)
    b16 = tl.load(b16_ptr + offs)
    a64 = tl.load(a64_ptr + offs)
    b64 = tl.load(b64_ptr + offs)
    ua8 = tl.load(ua8_ptr + offs)
    ub8 = tl.load(ub8_ptr + offs)
    i32_div = a // b
    tl.static_print("KSEM", "i32_div", i32_div)
    tl.store(i32_div_ptr + offs, i32_div)
    i32_mod = a % b
    tl.static_print("KSEM", "i32_mod", i32_mod)
    tl.store(i32_mod_ptr + offs, i32_mod)
    u32_div = ua // ub
    tl.static_print("KSEM", "u32_div", u32_div)
    tl.store(u32_div_ptr + offs, u32_div)
    u32_mod = ua % ub
    tl.static_print("KSEM", "u32_mod", u32_mod)
    tl.store(u32_mod_ptr + offs, u32_mod)
    i8_div = a8 // b8
    tl.static_print("KSEM", "i8_div", i8_div)
    tl.store(i8_div_ptr + offs, i8_div)
    i8_mod = a8 % b8
    tl.static_print("KSEM", "i8_mod", i8_mod)
    tl.store(i8_mod_ptr + offs, i8_mod)
    i16_div = a16 // b16
    tl.static_print("KSEM", "i16_div", i16_div)
    tl.store(i16_div_ptr + offs, i16_div)
    i16_mod = a16 % b16
    tl.static_print("KSEM", "i16_mod", i16_mod)
    tl.store(i16_mod_ptr + offs, i16_mod)
    i64_div = a64 // b64
    tl.static_print("KSEM", "i64_div", i64_div)
    tl.store(i64_div_ptr + offs, i64_div)
    i64_mod = a64 % b64
    tl.static_print("KSEM", "i64_mod", i64_mod)
    tl.store(i64_mod_ptr + offs, i64_mod)
    u8_div = ua8 // ub8
    tl.static_print("KSEM", "u8_div", u8_div)
    tl.store(u8_div_ptr + offs, u8_div)
    u8_mod = ua8 % ub8
    tl.static_print("KSEM", "u8_mod", u8_mod)
    tl.store(u8_mod_ptr + offs, u8_mod)
