# Rule (seed, tensor/scalar rule 2): a float literal is of a higher kind than an int16
# tensor, so the lowest float dtype that holds it is chosen, float32; BOTH the tensor
# and the scalar are converted to float32 (the scalar is rounded to float32 first),
# then the op is a float32 op.
#
#   x (int16) = [3, 16385, -32768, 1]
#   mul = x * 4.0 -> [12.0, 65540.0, -131072.0, 4.0]   (all exact in fp32; fp16
#                     would overflow / lose 65540)
#   add = x + 0.0009765625009094947   (that literal is exactly 2^-10 + 2^-40)
#     The literal rounded to float32 is 2^-10 (2^-40 is far below half an ulp of 2^-10).
#     [0]: 3 + 2^-10 exact in fp32 (spacing 2^-22)              -> 3.0009765625
#     [1]: 16385 + 2^-10: fp32 spacing in [2^14, 2^15) is 2^-9, so this is a tie
#          between 16385 (mantissa 512, even) and 16385 + 2^-9 -> 16385.0
#          (if the literal were kept in float64 the sum would be just above the tie
#           and round up to 16385.001953125 = 0x46800401)
#     [2]: -32768 + 2^-10 = -(32768 - 2^-10): tie between -32768 (even) and
#          -(32768 - 2^-9) -> -32768.0
#     [3]: 1 + 2^-10 exact                                       -> 1.0009765625
import triton
import triton.language as tl


@triton.jit
def scalar_i16_float_kernel(x_ptr, mul_ptr, add_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(mul_ptr + offs, x * 4.0)
    tl.store(add_ptr + offs, x + 0.0009765625009094947)
