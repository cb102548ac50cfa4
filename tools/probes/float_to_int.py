# Probe: float_to_int (run: python3 tools/triton_run.py tools/probes/float_to_int.py --launch tools/probes/float_to_int.json --json)
# float32 .to(int32/int8/uint8/uint32/int64/uint64/int16/bool) of nan, inf, out-of-range and
# fractional values; float16 and float64 -> int32 of a few.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, h_ptr, d_ptr, to_i32_ptr, to_i8_ptr, to_u8_ptr, to_u32_ptr, to_i64_ptr, to_u64_ptr, to_i16_ptr, to_bool_ptr, h_to_i32_ptr, h_to_i8_ptr, d_to_i32_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    h = tl.load(h_ptr + offs)
    d = tl.load(d_ptr + offs)
    to_i32 = x.to(tl.int32)
    tl.static_print("KSEM", "to_i32", to_i32)
    tl.store(to_i32_ptr + offs, to_i32)
    to_i8 = x.to(tl.int8)
    tl.static_print("KSEM", "to_i8", to_i8)
    tl.store(to_i8_ptr + offs, to_i8)
    to_u8 = x.to(tl.uint8)
    tl.static_print("KSEM", "to_u8", to_u8)
    tl.store(to_u8_ptr + offs, to_u8)
    to_u32 = x.to(tl.uint32)
    tl.static_print("KSEM", "to_u32", to_u32)
    tl.store(to_u32_ptr + offs, to_u32)
    to_i64 = x.to(tl.int64)
    tl.static_print("KSEM", "to_i64", to_i64)
    tl.store(to_i64_ptr + offs, to_i64)
    to_u64 = x.to(tl.uint64)
    tl.static_print("KSEM", "to_u64", to_u64)
    tl.store(to_u64_ptr + offs, to_u64)
    to_i16 = x.to(tl.int16)
    tl.static_print("KSEM", "to_i16", to_i16)
    tl.store(to_i16_ptr + offs, to_i16)
    to_bool = x.to(tl.int1)
    tl.static_print("KSEM", "to_bool", to_bool)
    tl.store(to_bool_ptr + offs, to_bool)
    h_to_i32 = h.to(tl.int32)
    tl.static_print("KSEM", "h_to_i32", h_to_i32)
    tl.store(h_to_i32_ptr + offs, h_to_i32)
    h_to_i8 = h.to(tl.int8)
    tl.static_print("KSEM", "h_to_i8", h_to_i8)
    tl.store(h_to_i8_ptr + offs, h_to_i8)
    d_to_i32 = d.to(tl.int32)
    tl.static_print("KSEM", "d_to_i32", d_to_i32)
    tl.store(d_to_i32_ptr + offs, d_to_i32)
