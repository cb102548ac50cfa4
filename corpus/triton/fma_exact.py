# Rule: tl.fma(a, b, c) is a fused multiply-add: a*b + c computed exactly and rounded
# once (RNE) to float32. a * b alone is rounded once.
#
#   a = [1 + 2^-12 (0x3f800800), 3.0, 2.0, -1.5]
#   b = [1 + 2^-12 (0x3f800800), 0x3eaaaaab (= 11184811 * 2^-25, fp32 nearest 1/3), 3.0, 4.0]
#   c = [-(1 + 2^-11) (0xbf801000), -1.0, 1.0, 6.0]
#   fma:
#     [0] (1+2^-12)^2 = 1 + 2^-11 + 2^-24; + c = 2^-24 exactly       -> 0x33800000
#     [1] 3 * 11184811 * 2^-25 = 33554433 * 2^-25 = 1 + 2^-25; - 1 = 2^-25 -> 0x33000000
#     [2] 2*3 + 1 = 7                                                  -> 0x40e00000
#     [3] -1.5*4 + 6 = exact 0 -> +0.0                                -> 0x00000000
#   mul = a * b rounded once:
#     [0] 1 + 2^-11 + 2^-24: 2^-24 is half an ulp (2^-23) -> tie; 1 + 2^-11 has an
#         even mantissa (4096) -> 1 + 2^-11                            -> 0x3f801000
#     [1] 1 + 2^-25 -> quarter ulp -> 1.0                              -> 0x3f800000
#     [2] 6.0 -> 0x40c00000      [3] -6.0 -> 0xc0c00000
import triton
import triton.language as tl


@triton.jit
def fma_exact_kernel(a_ptr, b_ptr, c_ptr, fma_ptr, mul_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    c = tl.load(c_ptr + offs)
    tl.store(fma_ptr + offs, tl.fma(a, b, c))
    tl.store(mul_ptr + offs, a * b)
