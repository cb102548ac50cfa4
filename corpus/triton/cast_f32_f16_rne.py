# Rule: .to(tl.float16) from float32 rounds to nearest, ties to even; values at or
# above 65520 overflow to +inf; subnormal fp16 results are kept (spacing 2^-24).
#
#   x (fp32)                     -> fp16
#   [0] 1 + 2^-11   (0x3f801000) : half an fp16 ulp (2^-10) -> tie -> 1.0      0x3c00
#   [1] 1 + 3*2^-11 (0x3f803000) : 1.5 ulps -> tie between 1+2^-10 (odd) and
#                                  1+2^-9 (even) -> 1 + 2^-9                  0x3c02
#   [2] 65520.0     (0x477ff000) : tie between 65504 (odd) and 65536 (even),
#                                  65536 is out of range -> +inf              0x7c00
#   [3] 65519.0     (0x477fef00) : 15 above 65504, spacing 32 -> 65504        0x7bff
#   [4] 2^-25       (0x33000000) : tie between 0 and 2^-24 -> 0               0x0000
#   [5] 3*2^-26     (0x33400000) : 0.75 * 2^-24 -> 2^-24                      0x0001
#   [6] -3*2^-25    (0xb3c00000) : -1.5 * 2^-24, tie -> -2*2^-24 (even)       0x8002
#   [7] 0.1f        (0x3dcccccd) : 0.100000001; candidates 0.0999755859375
#                                  (0x2e66) and 0.10003662109375 (0x2e67) -> 0x2e66
import triton
import triton.language as tl


@triton.jit
def cast_f32_f16_rne_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(tl.float16))
