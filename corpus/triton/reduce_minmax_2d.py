# Rule: tl.max / tl.min along axis 0 and tl.argmax / tl.argmin along axis 1 of an
# int32 2x4 block; argmax/argmin ties go to the lowest index.
#
#   x = [[5, 9, 9, 1],
#        [4, 4, 2, 4]]
#   mx0 = max(axis=0) = [5, 9, 9, 4]
#   mn0 = min(axis=0) = [4, 4, 2, 1]
#   am1 = argmax(axis=1) = [1 (9 at 1 and 2), 0 (4 at 0, 1 and 3)]
#   an1 = argmin(axis=1) = [3, 2]
import triton
import triton.language as tl


@triton.jit
def reduce_minmax_2d_kernel(x_ptr, mx0_ptr, mn0_ptr, am1_ptr, an1_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(mx0_ptr + rn, tl.max(x, axis=0))
    tl.store(mn0_ptr + rn, tl.min(x, axis=0))
    tl.store(am1_ptr + rm, tl.argmax(x, axis=1))
    tl.store(an1_ptr + rm, tl.argmin(x, axis=1))
