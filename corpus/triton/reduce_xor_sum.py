# Rule: tl.xor_sum reduces with ^ (int32), over axis 1, axis 0 and everything.
#
#   x = [[1, 2, 4, 8],
#        [3, 5, 6, -1]]
#   ax1 = [1^2^4^8 = 15, 3^5 = 6, 6^6 = 0, 0^-1 = -1]        = [15, -1]
#   ax0 = [1^3 = 2, 2^5 = 7, 4^6 = 2, 8^-1 = ~8 = -9]        = [2, 7, 2, -9]
#   all = 15 ^ -1 = ~15 = -16
import triton
import triton.language as tl


@triton.jit
def reduce_xor_sum_kernel(x_ptr, ax1_ptr, ax0_ptr, all_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(ax1_ptr + rm, tl.xor_sum(x, axis=1))
    tl.store(ax0_ptr + rn, tl.xor_sum(x, axis=0))
    tl.store(all_ptr, tl.xor_sum(x))
