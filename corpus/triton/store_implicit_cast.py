# Rule (tl.store): the stored value is converted to the pointer's element type with
# the same rules as .to(): float32 -> bfloat16 / float16 round to nearest even,
# float32 -> int32 truncates toward zero.
#
#   x (fp32) = [257.0, 2.5, -2.5, 1 + 2^-8 (0x3f808000)]
#   bf (bf16):  257 -> tie -> 256 (0x4380); 2.5 (0x4020); -2.5 (0xc020);
#               1 + 2^-8 -> tie -> 1.0 (0x3f80)
#   h (fp16):   257 exact (0x5c04); 2.5 (0x4100); -2.5 (0xc100); 1 + 2^-8 exact (0x3c04)
#   i (int32):  [257, 2, -2, 1]
import triton
import triton.language as tl


@triton.jit
def store_implicit_cast_kernel(x_ptr, bf_ptr, h_ptr, i_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(bf_ptr + offs, x)
    tl.store(h_ptr + offs, x)
    tl.store(i_ptr + offs, x)
