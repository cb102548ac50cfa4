# Rule: int32 -> float32 rounds to nearest even; float -> int truncates toward zero
# (values chosen in range, so no UB).
#
#   i (int32) = [16777217, 16777219, -16777217, 2147483647]
#   fi = i.to(tl.float32):
#     2^24+1 -> tie between 2^24 (even) and 2^24+2 -> 16777216          0x4b800000
#     2^24+3 -> tie between 2^24+2 (odd mantissa) and 2^24+4 (even) -> 16777220  0x4b800002
#     -(2^24+1) -> -16777216                                             0xcb800000
#     2^31-1 -> 2^31 (spacing 128 there)                                 0x4f000000
#   f (fp32) = [2.7f (0x402ccccd), -2.7f (0xc02ccccd), 0.5, -0.75]
#   fo = f.to(tl.int32) = [2, -2, 0, 0]
#   g (fp32) = [127.9f (0x42ffcccd), -128.9f (0xc300e666), 3.5, -3.5]
#   go = g.to(tl.int8) = [127, -128, 3, -3] = [0x7f, 0x80, 0x03, 0xfd]
import triton
import triton.language as tl


@triton.jit
def cast_int_float_kernel(i_ptr, f_ptr, g_ptr, fi_ptr, fo_ptr, go_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(fi_ptr + offs, tl.load(i_ptr + offs).to(tl.float32))
    tl.store(fo_ptr + offs, tl.load(f_ptr + offs).to(tl.int32))
    tl.store(go_ptr + offs, tl.load(g_ptr + offs).to(tl.int8))
