# Rule: integer casts keep the low bits when narrowing, sign-extend a signed source
# when widening, zero-extend an unsigned source, and reinterpret when only the
# signedness changes.
#
#   x (int8) = [-1, -128, 127, 5]
#   u8  = x.to(tl.uint8)              = [0xff, 0x80, 0x7f, 0x05]
#   i32 = x.to(tl.int32) (sign ext.)  = [-1, -128, 127, 5]
#   zx  = x.to(tl.uint8).to(tl.int32) = [255, 128, 127, 5] (zero ext.)
#   y (int32) = [300, -129, 255, -1]
#   i8  = y.to(tl.int8) (low byte)    = [0x2c = 44, 0x7f = 127, 0xff = -1, 0xff = -1]
import triton
import triton.language as tl


@triton.jit
def cast_int_widths_kernel(x_ptr, y_ptr, u8_ptr, i32_ptr, zx_ptr, i8_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(u8_ptr + offs, x.to(tl.uint8))
    tl.store(i32_ptr + offs, x.to(tl.int32))
    tl.store(zx_ptr + offs, x.to(tl.uint8).to(tl.int32))
    tl.store(i8_ptr + offs, y.to(tl.int8))
