# Rule (seed, type promotion rule 3 "Prefer float16"): tensor/tensor (float16, bfloat16)
# -> float16. The bf16 operand is first converted to fp16 (RNE, may overflow or
# underflow), then the add is an fp16 add (exact sum rounded once to fp16).
# The fp16 result is stored into a float32 buffer (exact widening).
#
#   x (fp16) = [1.0 (0x3c00), 0.0, 2^-24 (0x0001), -2.0 (0xc000)]
#   y (bf16) = [3*2^-12 (0x3a40), 65536.0 (0x4780), 2^-25 (0x3300), 0.5 (0x3f00)]
#   out[0]: fp16(3*2^-12) exact; 1 + 3*2^-12 = 1 + 0.75*2^-10; fp16 spacing at 1 is
#           2^-10 -> rounds up to 1 + 2^-10                          -> 0x3f802000
#           (bf16 arithmetic would give 1.0, fp32 would give 1.000732421875)
#   out[1]: fp16(65536) overflows (max 65504, 65536 >= 65520) -> +inf; 0 + inf = inf
#                                                                   -> 0x7f800000
#           (fp32 arithmetic would give 65536)
#   out[2]: fp16(2^-25) is a tie between 0 and 2^-24 -> even -> 0; 2^-24 + 0 = 2^-24
#                                                                   -> 0x33800000
#           (adding exactly then rounding once would give 1.5*2^-24 -> 2^-23)
#   out[3]: -2 + 0.5 = -1.5                                         -> 0xbfc00000
import triton
import triton.language as tl


@triton.jit
def promo_f16_bf16_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, x + y)
