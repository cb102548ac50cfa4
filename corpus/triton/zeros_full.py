# Rule: tl.zeros / tl.zeros_like / tl.full build blocks of the given dtype; the dtype
# then governs the arithmetic.
#
#   x (fp16) = [1.5 (0x3e00), -2.0 (0xc000), 3.0 (0x4200), 0.25 (0x3400)]
#   z   = zeros_like(x) + 1.0 (fp16)          = [1.0] * 4            = 0x3c00 each
#   f   = full([4], 1.5, fp16) * x (fp16)     = [2.25, -3.0, 4.5, 0.375]
#                                             = [0x4080, 0xc200, 0x4480, 0x3600]
#   w   = full([4], 100, int8) + full([4], 100, int8): int8 200 wraps to -56,
#         stored into int32 (sign extension)  = [-56] * 4
#   z32 = zeros([4], int32) stored over a buffer initialised to [7, 7, 7, 7] = [0] * 4
import triton
import triton.language as tl


@triton.jit
def zeros_full_kernel(x_ptr, z_ptr, f_ptr, w_ptr, z32_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(z_ptr + offs, tl.zeros_like(x) + 1.0)
    tl.store(f_ptr + offs, tl.full([BLOCK], 1.5, tl.float16) * x)
    tl.store(w_ptr + offs, tl.full([BLOCK], 100, tl.int8) + tl.full([BLOCK], 100, tl.int8))
    tl.store(z32_ptr + offs, tl.zeros([BLOCK], tl.int32))
