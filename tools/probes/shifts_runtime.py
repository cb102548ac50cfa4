# Probe: shifts_runtime (run: python3 tools/triton_run.py tools/probes/shifts_runtime.py --launch tools/probes/shifts_runtime.json --json)
# Shifts by runtime amounts (from buffers), including amounts >= width and < 0.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(a_ptr, s_ptr, u_ptr, us_ptr, b8_ptr, s8_ptr, i8_ptr, si8_ptr, i32_shl_ptr, i32_shr_ptr, u32_shl_ptr, u32_shr_ptr, u8_shr_ptr, u8_shl_ptr, i8_shl_ptr, i8_shr_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    s = tl.load(s_ptr + offs)
    u = tl.load(u_ptr + offs)
    us = tl.load(us_ptr + offs)
    b8 = tl.load(b8_ptr + offs)
    s8 = tl.load(s8_ptr + offs)
    i8 = tl.load(i8_ptr + offs)
    si8 = tl.load(si8_ptr + offs)
    i32_shl = a << s
    tl.static_print("KSEM", "i32_shl", i32_shl)
    tl.store(i32_shl_ptr + offs, i32_shl)
    i32_shr = a >> s
    tl.static_print("KSEM", "i32_shr", i32_shr)
    tl.store(i32_shr_ptr + offs, i32_shr)
    u32_shl = u << us
    tl.static_print("KSEM", "u32_shl", u32_shl)
    tl.store(u32_shl_ptr + offs, u32_shl)
    u32_shr = u >> us
    tl.static_print("KSEM", "u32_shr", u32_shr)
    tl.store(u32_shr_ptr + offs, u32_shr)
    u8_shr = b8 >> s8
    tl.static_print("KSEM", "u8_shr", u8_shr)
    tl.store(u8_shr_ptr + offs, u8_shr)
    u8_shl = b8 << s8
    tl.static_print("KSEM", "u8_shl", u8_shl)
    tl.store(u8_shl_ptr + offs, u8_shl)
    i8_shl = i8 << si8
    tl.static_print("KSEM", "i8_shl", i8_shl)
    tl.store(i8_shl_ptr + offs, i8_shl)
    i8_shr = i8 >> si8
    tl.static_print("KSEM", "i8_shr", i8_shr)
    tl.store(i8_shr_ptr + offs, i8_shr)
