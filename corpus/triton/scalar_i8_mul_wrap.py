# Rule (seed, tensor/scalar rule 1): int8 tensor * int literal 2 stays int8 and wraps
# mod 256. The int8 result is stored into an int32 buffer (sign extension).
#
#   x (int8) = [100, -100, 64, -65]
#   x * 2    = [200 -> -56, -200 -> 56, 128 -> -128, -130 -> 126]
#   stored as int32: [0xffffffc8, 0x00000038, 0xffffff80, 0x0000007e]
#   (an int32 multiply would give 200, -200, 128, -130)
import triton
import triton.language as tl


@triton.jit
def scalar_i8_mul_wrap_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x * 2)
