# Rule (seed 000/001, type promotion rule 1 "Kind"): tensor/tensor (int32, bfloat16)
# -> bfloat16. The int32 operand is converted to bfloat16 (RNE) first, then the add
# is done in bfloat16 (exact sum rounded once to bfloat16). The bf16 result is then
# stored into a float32 buffer; bf16 -> fp32 widening is exact, so the stored value
# shows exactly what the bf16 result was.
#
# bfloat16 has 8 significant bits: between 256 and 512 the spacing is 2.
#   x (int32)  = [257, 1, -257, 3]
#   y (bf16)   = [0.0, 256.0, 0.5, 0.25]
#   out[0]: bf16(257) = tie between 256 and 258 -> even mantissa -> 256; 256 + 0 = 256.
#   out[1]: bf16(1) = 1; 1 + 256 = 257 exact -> rounded to bf16 -> tie -> 256.
#   out[2]: bf16(-257) = -256; -256 + 0.5 = -255.5; in [128,256) spacing is 1, so
#           tie between -255 (odd mantissa 127) and -256 (even) -> -256.
#   out[3]: 3 + 0.25 = 3.25 (exact in bf16: 1.101b * 2^1).
#   expected out (fp32) = [256.0, 256.0, -256.0, 3.25]
#                       = [0x43800000, 0x43800000, 0xc3800000, 0x40500000]
# A float32 computation would give [257, 257, -256.5, 3.25].
# NOTE: real Triton 3.6 differs from the seed here: its computation_type_impl returns
# float32 for (int32, bfloat16). Measured on an H100 (tools/triton_run.py):
# out = [0x43808000, 0x43808000, 0xc3804000, 0x40500000] = [257, 257, -256.5, 3.25].
# DESIGN.md puts the seed first, so this case follows the seed.
import triton
import triton.language as tl


@triton.jit
def promo_i32_bf16_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = x + y
    tl.store(out_ptr + offs, z)
