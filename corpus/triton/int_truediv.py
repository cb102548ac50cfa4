# Rule: `/` on two int32 tensors converts both to float32 and divides (true division).
# Divisors are powers of two so every quotient is exact.
#
#   x (int32) = [7, -1, 1, 12], y (int32) = [2, 4, -8, 16]
#   out (fp32) = [3.5, -0.25, -0.125, 0.75] = [0x40600000, 0xbe800000, 0xbe000000, 0x3f400000]
import triton
import triton.language as tl


@triton.jit
def int_truediv_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, x / y)
