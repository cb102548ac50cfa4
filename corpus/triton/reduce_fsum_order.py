# Rule (DESIGN.md "Reductions"): a float sum uses the canonical pairwise tree order:
# over n (a power of two), for s = n/2, ..., 1: x[i] = x[i] + x[i+s] for i < s;
# the result is x[0]. Each + is an fp32 RNE add. 1e8 is exact in fp32, and
# 1e8 + 1 rounds back to 1e8 (fp32 spacing at 1e8 is 8).
#
#   x (fp32, n=8) = [1e8, 1, 1, 1, -1e8, 1, 1, 1]
#     s=4: [1e8 + -1e8, 1+1, 1+1, 1+1] = [0, 2, 2, 2]
#     s=2: [0+2, 2+2] = [2, 4];  s=1: 6          -> s = 6.0 (0x40c00000)
#     (left-to-right order: 1e8+1+1+1 stays 1e8, -1e8 -> 0, +3 -> 3.0)
#   y (fp32, 2x4) = [[1e8, 1, -1e8, 1], [1, 1e8, 1, -1e8]], sum over axis 1:
#     row 0: s=2: [1e8 + -1e8, 1 + 1] = [0, 2]; s=1: 2
#     row 1: s=2: [1 + 1, 1e8 + -1e8] = [2, 0]; s=1: 2
#     -> r = [2.0, 2.0]   (left-to-right would give [1.0, 0.0])
# NOTE: DESIGN.md fixes this order for ksem. For these shapes, real Triton 3.6 on an
# H100 gave the same bits (measured with tools/triton_run.py), but Triton does not
# promise any particular order.
import triton
import triton.language as tl


@triton.jit
def reduce_fsum_order_kernel(x_ptr, y_ptr, s_ptr, r_ptr, BLOCK: tl.constexpr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(s_ptr, tl.sum(x, axis=0))
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    y = tl.load(y_ptr + rm[:, None] * N + rn[None, :])
    tl.store(r_ptr + rm, tl.sum(y, axis=1))
