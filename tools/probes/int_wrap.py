# Probe: int_wrap (run: python3 tools/triton_run.py tools/probes/int_wrap.py --launch tools/probes/int_wrap.json --json)
# Integer overflow on + - * and negation wraps? (runtime operands)
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(a_ptr, b_ptr, a8_ptr, u8_ptr, i32_add_ptr, i32_sub_ptr, i32_mul_ptr, i32_neg_ptr, i32_abs_ptr, i8_add1_ptr, i8_mul_ptr, i8_neg_ptr, u8_add_ptr, u8_neg_ptr, u8_sub_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    a8 = tl.load(a8_ptr + offs)
    u8 = tl.load(u8_ptr + offs)
    i32_add = a + b
    tl.static_print("KSEM", "i32_add", i32_add)
    tl.store(i32_add_ptr + offs, i32_add)
    i32_sub = a - b
    tl.static_print("KSEM", "i32_sub", i32_sub)
    tl.store(i32_sub_ptr + offs, i32_sub)
    i32_mul = a * b
    tl.static_print("KSEM", "i32_mul", i32_mul)
    tl.store(i32_mul_ptr + offs, i32_mul)
    i32_neg = -a
    tl.static_print("KSEM", "i32_neg", i32_neg)
    tl.store(i32_neg_ptr + offs, i32_neg)
    i32_abs = tl.abs(a)
    tl.static_print("KSEM", "i32_abs", i32_abs)
    tl.store(i32_abs_ptr + offs, i32_abs)
    i8_add1 = a8 + a8
    tl.static_print("KSEM", "i8_add1", i8_add1)
    tl.store(i8_add1_ptr + offs, i8_add1)
    i8_mul = a8 * a8
    tl.static_print("KSEM", "i8_mul", i8_mul)
    tl.store(i8_mul_ptr + offs, i8_mul)
    i8_neg = -a8
    tl.static_print("KSEM", "i8_neg", i8_neg)
    tl.store(i8_neg_ptr + offs, i8_neg)
    u8_add = u8 + u8
    tl.static_print("KSEM", "u8_add", u8_add)
    tl.store(u8_add_ptr + offs, u8_add)
    u8_neg = -u8
    tl.static_print("KSEM", "u8_neg", u8_neg)
    tl.store(u8_neg_ptr + offs, u8_neg)
    u8_sub = u8 - (u8 + u8)
    tl.static_print("KSEM", "u8_sub", u8_sub)
    tl.store(u8_sub_ptr + offs, u8_sub)
