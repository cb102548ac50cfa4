# Probe: shifts_literal (run: python3 tools/triton_run.py tools/probes/shifts_literal.py --launch tools/probes/shifts_literal.json --json)
# Shifts by literal amounts: int32 << 32, >> 33, >> -1; uint8 >> 9; int8 << 9.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(a_ptr, b8_ptr, i8_ptr, i32_shl_32_ptr, i32_shr_33_ptr, i32_shr_m1_ptr, i32_shr_31_ptr, u8_shr_9_ptr, i8_shl_9_ptr, u8_shr_7_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b8 = tl.load(b8_ptr + offs)
    i8 = tl.load(i8_ptr + offs)
    i32_shl_32 = a << 32
    tl.static_print("KSEM", "i32_shl_32", i32_shl_32)
    tl.store(i32_shl_32_ptr + offs, i32_shl_32)
    i32_shr_33 = a >> 33
    tl.static_print("KSEM", "i32_shr_33", i32_shr_33)
    tl.store(i32_shr_33_ptr + offs, i32_shr_33)
    i32_shr_m1 = a >> -1
    tl.static_print("KSEM", "i32_shr_m1", i32_shr_m1)
    tl.store(i32_shr_m1_ptr + offs, i32_shr_m1)
    i32_shr_31 = a >> 31
    tl.static_print("KSEM", "i32_shr_31", i32_shr_31)
    tl.store(i32_shr_31_ptr + offs, i32_shr_31)
    u8_shr_9 = b8 >> 9
    tl.static_print("KSEM", "u8_shr_9", u8_shr_9)
    tl.store(u8_shr_9_ptr + offs, u8_shr_9)
    i8_shl_9 = i8 << 9
    tl.static_print("KSEM", "i8_shl_9", i8_shl_9)
    tl.store(i8_shl_9_ptr + offs, i8_shl_9)
    u8_shr_7 = b8 >> 7
    tl.static_print("KSEM", "u8_shr_7", u8_shr_7)
    tl.store(u8_shr_7_ptr + offs, u8_shr_7)
