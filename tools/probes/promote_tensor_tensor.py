# Probe: promote_tensor_tensor (run: python3 tools/triton_run.py tools/probes/promote_tensor_tensor.py --launch tools/probes/promote_tensor_tensor.json --json)
# Tensor/tensor promotion: the result dtype of each expression is printed
# (tl.static_print) and the result stored into a buffer of that dtype.
# i32 + bf16: 257 stays 257 if the sum is float32, becomes 256 if bfloat16.
# f16 + bf16: 1+2^-10 survives in float16, 1e10 overflows float16.
# i32 + u32: -1 + 0 is 0xffffffff; > 0 and .to(float32) tell unsigned from signed.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(i32_ptr, bf16_ptr, f16_ptr, u32_ptr, i8_ptr, u16_ptr, u8_ptr, i16_ptr, i64_ptr, f32_ptr, c_ptr, i32_add_bf16_ptr, bf16_add_i32_ptr, i32_mul_bf16_ptr, f16_add_bf16_ptr, bf16_add_bf16_ptr, f16_add_f32_ptr, i32_add_u32_ptr, i32_add_u32_gt0_ptr, i32_add_u32_to_f32_ptr, i32_add_u32_shr1_ptr, i8_add_u16_ptr, i8_add_u16_to_f32_ptr, u8_add_i16_ptr, i8_add_u8_ptr, i64_add_u32_ptr, bool_add_i8_ptr, bool_add_bool_ptr, bool_add_f16_ptr, where_i32_bf16_ptr, where_i8_u16_ptr, where_f16_bf16_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    i32 = tl.load(i32_ptr + offs)
    bf16 = tl.load(bf16_ptr + offs)
    f16 = tl.load(f16_ptr + offs)
    u32 = tl.load(u32_ptr + offs)
    i8 = tl.load(i8_ptr + offs)
    u16 = tl.load(u16_ptr + offs)
    u8 = tl.load(u8_ptr + offs)
    i16 = tl.load(i16_ptr + offs)
    i64 = tl.load(i64_ptr + offs)
    f32 = tl.load(f32_ptr + offs)
    c = tl.load(c_ptr + offs)
    i32_add_bf16 = i32 + bf16
    tl.static_print("KSEM", "i32_add_bf16", i32_add_bf16)
    tl.store(i32_add_bf16_ptr + offs, i32_add_bf16)
    bf16_add_i32 = bf16 + i32
    tl.static_print("KSEM", "bf16_add_i32", bf16_add_i32)
    tl.store(bf16_add_i32_ptr + offs, bf16_add_i32)
    i32_mul_bf16 = i32 * bf16
    tl.static_print("KSEM", "i32_mul_bf16", i32_mul_bf16)
    tl.store(i32_mul_bf16_ptr + offs, i32_mul_bf16)
    f16_add_bf16 = f16 + bf16
    tl.static_print("KSEM", "f16_add_bf16", f16_add_bf16)
    tl.store(f16_add_bf16_ptr + offs, f16_add_bf16)
    bf16_add_bf16 = bf16 + bf16
    tl.static_print("KSEM", "bf16_add_bf16", bf16_add_bf16)
    tl.store(bf16_add_bf16_ptr + offs, bf16_add_bf16)
    f16_add_f32 = f16 + f32
    tl.static_print("KSEM", "f16_add_f32", f16_add_f32)
    tl.store(f16_add_f32_ptr + offs, f16_add_f32)
    i32_add_u32 = i32 + u32
    tl.static_print("KSEM", "i32_add_u32", i32_add_u32)
    tl.store(i32_add_u32_ptr + offs, i32_add_u32)
    i32_add_u32_gt0 = (i32 + u32) > 0
    tl.static_print("KSEM", "i32_add_u32_gt0", i32_add_u32_gt0)
    tl.store(i32_add_u32_gt0_ptr + offs, i32_add_u32_gt0)
    i32_add_u32_to_f32 = (i32 + u32).to(tl.float32)
    tl.static_print("KSEM", "i32_add_u32_to_f32", i32_add_u32_to_f32)
    tl.store(i32_add_u32_to_f32_ptr + offs, i32_add_u32_to_f32)
    i32_add_u32_shr1 = (i32 + u32) >> 1
    tl.static_print("KSEM", "i32_add_u32_shr1", i32_add_u32_shr1)
    tl.store(i32_add_u32_shr1_ptr + offs, i32_add_u32_shr1)
    i8_add_u16 = i8 + u16
    tl.static_print("KSEM", "i8_add_u16", i8_add_u16)
    tl.store(i8_add_u16_ptr + offs, i8_add_u16)
    i8_add_u16_to_f32 = (i8 + u16).to(tl.float32)
    tl.static_print("KSEM", "i8_add_u16_to_f32", i8_add_u16_to_f32)
    tl.store(i8_add_u16_to_f32_ptr + offs, i8_add_u16_to_f32)
    u8_add_i16 = u8 + i16
    tl.static_print("KSEM", "u8_add_i16", u8_add_i16)
    tl.store(u8_add_i16_ptr + offs, u8_add_i16)
    i8_add_u8 = i8 + u8
    tl.static_print("KSEM", "i8_add_u8", i8_add_u8)
    tl.store(i8_add_u8_ptr + offs, i8_add_u8)
    i64_add_u32 = i64 + u32
    tl.static_print("KSEM", "i64_add_u32", i64_add_u32)
    tl.store(i64_add_u32_ptr + offs, i64_add_u32)
    bool_add_i8 = c + i8
    tl.static_print("KSEM", "bool_add_i8", bool_add_i8)
    tl.store(bool_add_i8_ptr + offs, bool_add_i8)
    bool_add_bool = c + c
    tl.static_print("KSEM", "bool_add_bool", bool_add_bool)
    tl.store(bool_add_bool_ptr + offs, bool_add_bool)
    bool_add_f16 = c + f16
    tl.static_print("KSEM", "bool_add_f16", bool_add_f16)
    tl.store(bool_add_f16_ptr + offs, bool_add_f16)
    where_i32_bf16 = tl.where(c, i32, bf16)
    tl.static_print("KSEM", "where_i32_bf16", where_i32_bf16)
    tl.store(where_i32_bf16_ptr + offs, where_i32_bf16)
    where_i8_u16 = tl.where(c, i8, u16)
    tl.static_print("KSEM", "where_i8_u16", where_i8_u16)
    tl.store(where_i8_u16_ptr + offs, where_i8_u16)
    where_f16_bf16 = tl.where(c, f16, bf16)
    tl.static_print("KSEM", "where_f16_bf16", where_f16_bf16)
    tl.store(where_f16_bf16_ptr + offs, where_f16_bf16)
