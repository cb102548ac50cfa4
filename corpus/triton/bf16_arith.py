# Rule: bfloat16 op bfloat16 stays bfloat16: exact result rounded once to bf16 (RNE,
# 8 significant bits). Results stored into float32 buffers (exact widening).
#
#   x (bf16) = [1.0 (0x3f80), 1 + 2^-7 (0x3f81), 256.0 (0x4380), 3.0 (0x4040)]
#   y (bf16) = [2^-8 (0x3b80), 1 + 2^-7 (0x3f81), 1.0 (0x3f80), 0.5 (0x3f00)]
#   add: [1 + 2^-8 -> tie -> 1.0, 2 + 2^-6 (exact in bf16), 257 -> tie -> 256, 3.5]
#        = [0x3f800000, 0x40010000, 0x43800000, 0x40600000]
#   mul: [2^-8, (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14 -> 1 + 2^-6, 256, 1.5]
#        = [0x3b800000, 0x3f820000, 0x43800000, 0x3fc00000]
#   (fp32 arithmetic would give 1.00390625, 257, 1.01568603515625 ...)
import triton
import triton.language as tl


@triton.jit
def bf16_arith_kernel(x_ptr, y_ptr, add_ptr, mul_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(add_ptr + offs, x + y)
    tl.store(mul_ptr + offs, x * y)
