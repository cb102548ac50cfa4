# Rule (seed, type promotion rule 2 "Width"): tensor/tensor (float32, float16) -> float32.
# The fp16 operand is widened (exactly) to fp32 and the add is an fp32 add (RNE).
#
#   x (fp32) = [2^-20, 65504.0, 0.1f (0x3dcccccd), -1.0]
#   y (fp16) = [1.0, 65504.0 (0x7bff), 0.0, 2^-24 (0x0001, smallest fp16 subnormal)]
#   out[0]: 2^-20 + 1 = 1 + 2^-20, exact in fp32 (needs 21 bits)  -> 0x3f800008
#           (an fp16 add would give 1.0)
#   out[1]: 65504 + 65504 = 131008, exact in fp32                  -> 0x47ffe000
#           (an fp16 add would overflow to inf)
#   out[2]: 0.1f + 0 = 0.1f unchanged                               -> 0x3dcccccd
#   out[3]: -1 + 2^-24 = -(1 - 2^-24), exact in fp32 (spacing below 1 is 2^-24)
#                                                                   -> 0xbf7fffff
import triton
import triton.language as tl


@triton.jit
def promo_f32_f16_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, x + y)
