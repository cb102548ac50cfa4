# Rule: a masked store writes only the lanes whose mask is true; the other elements
# of the buffer keep their previous contents.
#
#   x (int32) = [1, 2, 3, 4, 5, 6, 7, 8], out initialised to [99] * 8, n = 6
#   mask = (offs % 2 == 0) & (offs < 6) = true at 0, 2, 4
#   out = [2, 99, 6, 99, 10, 99, 99, 99]   (x * 2 where the mask is true)
import triton
import triton.language as tl


@triton.jit
def masked_store_partial_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    mask = (offs % 2 == 0) & (offs < n)
    tl.store(out_ptr + offs, x * 2, mask=mask)
