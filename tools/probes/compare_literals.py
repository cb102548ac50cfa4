# Probe: compare_literals (run: python3 tools/triton_run.py tools/probes/compare_literals.py --launch tools/probes/compare_literals.json --json)
# Comparisons with literals: tensor.__lt__/__eq__ turn the literal into a tensor first
# (int32/uint32/int64/uint64 by value, float32), so tensor/tensor promotion applies.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(u32_ptr, f16_ptr, i8_ptr, u8_ptr, u32_lt_m1_ptr, u32_eq_m1_ptr, f16_eq_01_ptr, f16_lt_01_ptr, f16_eq_05_ptr, i8_lt_1p5_ptr, u8_eq_255_ptr, i8_gt_m129_ptr, u32_lt_2pow32_ptr, u8_gt_m1_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    u32 = tl.load(u32_ptr + offs)
    f16 = tl.load(f16_ptr + offs)
    i8 = tl.load(i8_ptr + offs)
    u8 = tl.load(u8_ptr + offs)
    u32_lt_m1 = u32 < -1
    tl.static_print("KSEM", "u32_lt_m1", u32_lt_m1)
    tl.store(u32_lt_m1_ptr + offs, u32_lt_m1)
    u32_eq_m1 = u32 == -1
    tl.static_print("KSEM", "u32_eq_m1", u32_eq_m1)
    tl.store(u32_eq_m1_ptr + offs, u32_eq_m1)
    f16_eq_01 = f16 == 0.1
    tl.static_print("KSEM", "f16_eq_01", f16_eq_01)
    tl.store(f16_eq_01_ptr + offs, f16_eq_01)
    f16_lt_01 = f16 < 0.1
    tl.static_print("KSEM", "f16_lt_01", f16_lt_01)
    tl.store(f16_lt_01_ptr + offs, f16_lt_01)
    f16_eq_05 = f16 == 0.5
    tl.static_print("KSEM", "f16_eq_05", f16_eq_05)
    tl.store(f16_eq_05_ptr + offs, f16_eq_05)
    i8_lt_1p5 = i8 < 1.5
    tl.static_print("KSEM", "i8_lt_1p5", i8_lt_1p5)
    tl.store(i8_lt_1p5_ptr + offs, i8_lt_1p5)
    u8_eq_255 = u8 == 255
    tl.static_print("KSEM", "u8_eq_255", u8_eq_255)
    tl.store(u8_eq_255_ptr + offs, u8_eq_255)
    i8_gt_m129 = i8 > -129
    tl.static_print("KSEM", "i8_gt_m129", i8_gt_m129)
    tl.store(i8_gt_m129_ptr + offs, i8_gt_m129)
    u32_lt_2pow32 = u32 < 2**32
    tl.static_print("KSEM", "u32_lt_2pow32", u32_lt_2pow32)
    tl.store(u32_lt_2pow32_ptr + offs, u32_lt_2pow32)
    u8_gt_m1 = u8 > -1
    tl.static_print("KSEM", "u8_gt_m1", u8_gt_m1)
    tl.store(u8_gt_m1_ptr + offs, u8_gt_m1)
