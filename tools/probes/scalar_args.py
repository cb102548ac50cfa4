# Probe: scalar_args (run: python3 tools/triton_run.py tools/probes/scalar_args.py --launch tools/probes/scalar_args.json --json)
# Kernel scalar arguments of every dtype, as tools/triton_run.py passes them: each is
# stored to a one-element buffer of its own dtype and its dtype is printed.  x + s_i32_one
# shows whether an int32 argument whose value is 1 stays a runtime int32 (result int32)
# or became the constexpr 1 (result int8); s_i64 * 1000000000 shows a true int64.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, s_i8, s_i16, s_i32_one, s_i64, s_u8, s_u16, s_u32, s_u64, s_f16, s_bf16, s_f32, s_f64, s_bool, o_i8_ptr, o_i16_ptr, o_i32_one_ptr, o_i64_ptr, o_u8_ptr, o_u16_ptr, o_u32_ptr, o_u64_ptr, o_f16_ptr, o_bf16_ptr, o_f32_ptr, o_f64_ptr, o_bool_ptr, x_plus_one_ptr, i64_times_1e9_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    o_i8 = s_i8
    tl.static_print("KSEM", "o_i8", o_i8)
    tl.store(o_i8_ptr, o_i8)
    o_i16 = s_i16
    tl.static_print("KSEM", "o_i16", o_i16)
    tl.store(o_i16_ptr, o_i16)
    o_i32_one = s_i32_one
    tl.static_print("KSEM", "o_i32_one", o_i32_one)
    tl.store(o_i32_one_ptr, o_i32_one)
    o_i64 = s_i64
    tl.static_print("KSEM", "o_i64", o_i64)
    tl.store(o_i64_ptr, o_i64)
    o_u8 = s_u8
    tl.static_print("KSEM", "o_u8", o_u8)
    tl.store(o_u8_ptr, o_u8)
    o_u16 = s_u16
    tl.static_print("KSEM", "o_u16", o_u16)
    tl.store(o_u16_ptr, o_u16)
    o_u32 = s_u32
    tl.static_print("KSEM", "o_u32", o_u32)
    tl.store(o_u32_ptr, o_u32)
    o_u64 = s_u64
    tl.static_print("KSEM", "o_u64", o_u64)
    tl.store(o_u64_ptr, o_u64)
    o_f16 = s_f16
    tl.static_print("KSEM", "o_f16", o_f16)
    tl.store(o_f16_ptr, o_f16)
    o_bf16 = s_bf16
    tl.static_print("KSEM", "o_bf16", o_bf16)
    tl.store(o_bf16_ptr, o_bf16)
    o_f32 = s_f32
    tl.static_print("KSEM", "o_f32", o_f32)
    tl.store(o_f32_ptr, o_f32)
    o_f64 = s_f64
    tl.static_print("KSEM", "o_f64", o_f64)
    tl.store(o_f64_ptr, o_f64)
    o_bool = s_bool
    tl.static_print("KSEM", "o_bool", o_bool)
    tl.store(o_bool_ptr, o_bool)
    x_plus_one = x + s_i32_one
    tl.static_print("KSEM", "x_plus_one", x_plus_one)
    tl.store(x_plus_one_ptr + offs, x_plus_one)
    i64_times_1e9 = s_i64 * 1000000000
    tl.static_print("KSEM", "i64_times_1e9", i64_times_1e9)
    tl.store(i64_times_1e9_ptr, i64_times_1e9)
