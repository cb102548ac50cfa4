# Rule (seed, type promotion rule 2 "Width" for integers): tensor/tensor (int8, int16)
# -> int16. x is sign-extended to int16 and the add wraps mod 2^16. The int16 result
# is stored into an int32 buffer (store casts int16 -> int32 by sign extension), so
# the stored value shows the int16 wrap.
#
#   x (int8)  = [100, -128, 127, -1]
#   y (int16) = [32700, -1, 32767, -32768]
#   out[0]: 100 + 32700 = 32800 -> wraps in int16 to 32800 - 65536 = -32736 (0xffff8020)
#   out[1]: -128 + -1 = -129, fits int16 (an int8 add would wrap to 127)  (0xffffff7f)
#   out[2]: 127 + 32767 = 32894 -> -32642                                   (0xffff807e)
#   out[3]: -1 + -32768 = -32769 -> wraps to 32767                          (0x00007fff)
import triton
import triton.language as tl


@triton.jit
def promo_i8_i16_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, x + y)
