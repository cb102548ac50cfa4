# Rule: tl.cdiv(x, div) is defined as (x + div - 1) // div. With a tensor x the //
# is a tensor op and truncates toward zero (C), so for negative x it is NOT the
# mathematical ceiling.
#
#   x (int32) = [0, 1, 4, 5, 8, -5, -1, 7], div = 4
#   x + 3     = [3, 4, 7, 8, 11, -2, 2, 10]
#   // 4 (C)  = [0, 1, 1, 2, 2, trunc(-0.5) = 0, 0, 2]
#   out = [0, 1, 1, 2, 2, 0, 0, 2]   (floor // would give -1 for lane 5)
import triton
import triton.language as tl


@triton.jit
def cdiv_tensor_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.cdiv(x, 4))
