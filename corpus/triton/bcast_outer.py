# Rule (seed, "Broadcasting"): x[:, None] has shape (4, 1), y[None, :] shape (1, 2);
# a dimension of 1 is expanded, giving a (4, 2) result. tl.expand_dims(y, 0) is the
# same as y[None, :]; tl.broadcast_to repeats it to (4, 2).
#
#   x (int32) = [0, 10, 20, 30], y (int32) = [1, 2]
#   sum[i][j] = x[i] + y[j] = [[1, 2], [11, 12], [21, 22], [31, 32]]
#   bc = broadcast_to(expand_dims(y, 0), (4, 2)) * 100 = [[100, 200]] * 4
#   both stored row-major (index i*2 + j).
import triton
import triton.language as tl


@triton.jit
def bcast_outer_kernel(x_ptr, y_ptr, sum_ptr, bc_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm)
    y = tl.load(y_ptr + rn)
    out_offs = rm[:, None] * N + rn[None, :]
    tl.store(sum_ptr + out_offs, x[:, None] + y[None, :])
    bc = tl.broadcast_to(tl.expand_dims(y, 0), (M, N)) * 100
    tl.store(bc_ptr + out_offs, bc)
