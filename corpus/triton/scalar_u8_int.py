# Rule (seed, tensor/scalar rule 1): an int literal is of the same kind as a uint8
# tensor, so it does not take part in promotion: (uint8, int) -> uint8, arithmetic
# wraps mod 256. The uint8 result is stored into an int32 buffer (zero extension),
# so the stored value shows the uint8 wrap.
#
#   x (uint8) = [250, 255, 0, 6]
#   add = x + 10: [260 -> 4, 265 -> 9, 10, 16]          (int32 rule: 260, 265, ...)
#   sub = x - 7:  [243, 248, 0 - 7 = -7 -> 249, 6 - 7 = -1 -> 255]
#                                                         (int32 rule: ..., -7, -1)
import triton
import triton.language as tl


@triton.jit
def scalar_u8_int_kernel(x_ptr, add_ptr, sub_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(add_ptr + offs, x + 10)
    tl.store(sub_ptr + offs, x - 7)
