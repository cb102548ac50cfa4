# Rule (seed: promotion applies to "the ternary function tl.where on its last two
# arguments"): tl.where(c, a_int32, b_fp32) promotes both to float32 (int32 -> fp32
# with RNE), then selects. tl.where(c, a_int32, -1) keeps int32 (literal of equal kind).
#
#   c = x != 0 with x = [1, 0, 3, 0]        -> [T, F, T, F]
#   a (int32) = [16777217, 5, -16777219, 7]; b (fp32) = [0.5, 0.25, 1.5, -2.5]
#   of = where(c, a, b):
#     [0] fp32(16777217) = 2^24 + 1: spacing 2 above 2^24, tie -> even -> 16777216
#     [1] b = 0.25
#     [2] fp32(-16777219): tie between -16777218 (odd mantissa) and -16777220 (even)
#         -> -16777220
#     [3] b = -2.5
#     -> [16777216.0, 0.25, -16777220.0, -2.5] = [0x4b800000, 0x3e800000, 0xcb800002, 0xc0200000]
#   oi = where(c, a, -1) = [16777217, -1, -16777219, -1]
import triton
import triton.language as tl


@triton.jit
def where_promote_kernel(x_ptr, a_ptr, b_ptr, of_ptr, oi_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    c = tl.load(x_ptr + offs) != 0
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(of_ptr + offs, tl.where(c, a, b))
    tl.store(oi_ptr + offs, tl.where(c, a, -1))
