# Probe: where_literals (run: python3 tools/triton_run.py tools/probes/where_literals.py --launch tools/probes/where_literals.json --json)
# tl.where with a literal as the third argument (tensor/scalar promotion rules).
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(c_ptr, i8_ptr, u8_ptr, f16_ptr, i8_or_5_ptr, f16_or_01_ptr, i8_or_1p5_ptr, u8_or_255_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    c = tl.load(c_ptr + offs)
    i8 = tl.load(i8_ptr + offs)
    u8 = tl.load(u8_ptr + offs)
    f16 = tl.load(f16_ptr + offs)
    i8_or_5 = tl.where(c, i8, 5)
    tl.static_print("KSEM", "i8_or_5", i8_or_5)
    tl.store(i8_or_5_ptr + offs, i8_or_5)
    f16_or_01 = tl.where(c, f16, 0.1)
    tl.static_print("KSEM", "f16_or_01", f16_or_01)
    tl.store(f16_or_01_ptr + offs, f16_or_01)
    i8_or_1p5 = tl.where(c, i8, 1.5)
    tl.static_print("KSEM", "i8_or_1p5", i8_or_1p5)
    tl.store(i8_or_1p5_ptr + offs, i8_or_1p5)
    u8_or_255 = tl.where(c, u8, 255)
    tl.static_print("KSEM", "u8_or_255", u8_or_255)
    tl.store(u8_or_255_ptr + offs, u8_or_255)
