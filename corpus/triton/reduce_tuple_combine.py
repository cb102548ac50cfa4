# Rule: tl.reduce((a, b), axis, combine_fn) combines N-tuples in the canonical
# tree order, the lower index's tuple on the left: for s = n/2, ..., 1,
# t[i] = combine(t[i], t[i+s]) (docs/semantics.md, "Reductions").
#
#   x (float32, 2x4) = [[1e8, 1, -1e8, 1], [1, 2, 3, 4]]   (1e8 = 0x4cbebc20)
#   (sum, count) along axis 1, count of ones (int32):
#     row 0: s=2 -> [(1e8 + -1e8, 2), (1 + 1, 2)] = [(0, 2), (2, 2)]; s=1 -> (2.0, 4)
#            (a left-to-right fold gives ((1e8 + 1) - 1e8) + 1 = 1.0)
#     row 1: [(1+3, 2), (2+4, 2)] -> (10.0, 4)
#   (value, index) argmax along axis 1 (ties: lower index):
#     row 0 -> (1e8, 0), row 1 -> (4.0, 3)
#   s = [2.0, 10.0], n = [4, 4], v = [1e8, 4.0], i = [0, 3]
import triton
import triton.language as tl


@triton.jit
def _sum_count(s1, n1, s2, n2):
    return s1 + s2, n1 + n2


@triton.jit
def _argmax(v1, i1, v2, i2):
    keep = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(keep, v1, v2), tl.where(keep, i1, i2)


@triton.jit
def reduce_tuple_combine_kernel(x_ptr, s_ptr, n_ptr, v_ptr, i_ptr, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + r * N + c)
    cols = tl.broadcast_to(c, (M, N))
    s, n = tl.reduce((x, tl.full((M, N), 1, tl.int32)), 1, _sum_count)
    tl.store(s_ptr + tl.arange(0, M), s)
    tl.store(n_ptr + tl.arange(0, M), n)
    v, i = tl.reduce((x, cols), 1, _argmax)
    tl.store(v_ptr + tl.arange(0, M), v)
    tl.store(i_ptr + tl.arange(0, M), i)
