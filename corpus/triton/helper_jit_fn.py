# Rule: a @triton.jit helper called from a kernel is inlined; its return value (a
# tensor, or a tuple of tensors that the caller unpacks) is used by the caller.
#
#   x (int32) = [1, -2, 3, 4], y (int32) = [10, 20, 30, -40]
#   sq = _sq_plus(x, 3) = x*x + 3 = [4, 7, 12, 19]
#   s, d = _sum_diff(x, y):  s = x + y = [11, 18, 33, -36];  d = x - y = [-9, -22, -27, 44]
import triton
import triton.language as tl


@triton.jit
def _sq_plus(a, b):
    return a * a + b


@triton.jit
def _sum_diff(a, b):
    return a + b, a - b


@triton.jit
def helper_jit_fn_kernel(x_ptr, y_ptr, sq_ptr, s_ptr, d_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(sq_ptr + offs, _sq_plus(x, 3))
    s, d = _sum_diff(x, y)
    tl.store(s_ptr + offs, s)
    tl.store(d_ptr + offs, d)
