# Rule: .to(tl.bfloat16) from float32 rounds to nearest, ties to even, keeping the
# top 16 bits (8 exponent bits, 7 mantissa bits); overflow -> inf; subnormals kept.
#
#   x (fp32 bits) -> bf16 bits
#   [0] 0x3f808000 (1 + 2^-8): low half exactly 0x8000 = tie, kept half 0x3f80 even -> 0x3f80
#   [1] 0x3f818000 (1 + 3*2^-8): tie, 0x3f81 odd -> round up           -> 0x3f82
#   [2] 0x43808000 (257.0): tie, 0x4380 even -> 256                     -> 0x4380
#   [3] 0x43818000 (259.0): tie, 0x4381 odd -> 260                      -> 0x4382
#   [4] 0x3f808001: just above the tie -> up                            -> 0x3f81
#   [5] 0x7f7fffff (fp32 max): above half-way to 2^128 -> +inf          -> 0x7f80
#   [6] 0x00018000 (fp32 subnormal 3*2^-134): tie, 0x0001 odd -> up     -> 0x0002
#   [7] 0xbfc00000 (-1.5): exact                                        -> 0xbfc0
import triton
import triton.language as tl


@triton.jit
def cast_f32_bf16_rne_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(tl.bfloat16))
