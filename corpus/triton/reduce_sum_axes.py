# Rule: tl.sum over axis 0 / axis 1 / all (axis=None -> 0-d result) of an int32 2x4
# block; keep_dims=True keeps the reduced axis with length 1, so it broadcasts back.
#
#   x (2x4, row-major) = [[1, 2, 3, 4], [10, 20, 30, 40]]
#   s0 = sum(axis=0)  = [11, 22, 33, 44]
#   s1 = sum(axis=1)  = [10, 100]
#   sa = sum(x)       = 110
#   sk = sum(axis=1, keep_dims=True) (shape 2x1) + [0, 1, 2, 3] (shape 1x4)
#      = [[10, 11, 12, 13], [100, 101, 102, 103]]
import triton
import triton.language as tl


@triton.jit
def reduce_sum_axes_kernel(x_ptr, s0_ptr, s1_ptr, sa_ptr, sk_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(s0_ptr + rn, tl.sum(x, axis=0))
    tl.store(s1_ptr + rm, tl.sum(x, axis=1))
    tl.store(sa_ptr, tl.sum(x))
    sk = tl.sum(x, axis=1, keep_dims=True) + rn[None, :]
    tl.store(sk_ptr + rm[:, None] * N + rn[None, :], sk)
