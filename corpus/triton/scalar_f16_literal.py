# Rule (seed, tensor/scalar rule 1): a float literal with a float16 tensor does not
# take part in promotion: (float16, float) -> float16. The literal is converted to
# float16 (RNE) and the add is an fp16 add. The fp16 result is stored into a float32
# buffer (exact widening), so the stored value shows the fp16 rounding.
#
#   fp16(1e-4): 1e-4 = 1677.72 * 2^-24, fp16 normal with exponent -14 and spacing
#   2^-24 there -> 1678 * 2^-24 = 0x068e (1.00016594e-4), in fp32 bits 0x38d1c000
#   (float32(1e-4) would be 0x38d1b717).
#   x (fp16) = [1.0 (0x3c00), 0.0, 2048.0 (0x6800), -1678*2^-24 (0x868e)]
#   out[0]: 1 + 1678*2^-24: fp16 spacing at 1 is 2^-10 ~ 9.8e-4 -> 1.0 (0x3f800000)
#           (an fp32 add would give 1.0001 = 0x3f800347)
#   out[1]: 0 + c = c -> 1678*2^-24                               (0x38d1c000)
#   out[2]: 2048 + c -> 2048 (fp16 spacing 2)                     (0x45000000)
#   out[3]: -c + c = +0.0 (exact zero sum of opposite signs is +0 under RNE)
#                                                                  (0x00000000)
import triton
import triton.language as tl


@triton.jit
def scalar_f16_literal_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x + 1e-4)
