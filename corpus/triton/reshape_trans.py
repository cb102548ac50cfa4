# Rule: tl.reshape(x, (2, 4)) keeps row-major element order; tl.trans swaps the two
# axes of a 2-D block.
#
#   x (int32) = [0, 10, 20, 30, 40, 50, 60, 70]
#   r = reshape(x, (2, 4)) = [[0, 10, 20, 30], [40, 50, 60, 70]]
#   t = trans(r) (4x2)     = [[0, 40], [10, 50], [20, 60], [30, 70]]
#   out (t row-major, index i*2 + j) = [0, 40, 10, 50, 20, 60, 30, 70]
import triton
import triton.language as tl


@triton.jit
def reshape_trans_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    r = tl.reshape(x, (2, 4))
    t = tl.trans(r)
    ri = tl.arange(0, 4)
    ci = tl.arange(0, 2)
    tl.store(out_ptr + ri[:, None] * 2 + ci[None, :], t)
