# Rule: pointer arithmetic counts elements; a 2-D block of pointers
# base + rm[:, None] * stride_m + rn[None, :] * stride_n addresses element
# (rm, rn) of a strided view.
#
#   x (int32, 4x8 row-major) with x[r][c] = 100*r + c (32 elements)
#   stride_xm = 8, stride_xn = 2 (runtime int32 scalars), BM = BN = 4
#   v[r][c] = x[r][2c] = 100*r + 2*c
#   o  (4x4 row-major, index r*4 + c) = [0,2,4,6, 100,102,104,106, 200,202,204,206, 300,302,304,306]
#   ot (transposed store, index c*4 + r) = [0,100,200,300, 2,102,202,302, 4,104,204,304, 6,106,206,306]
import triton
import triton.language as tl


@triton.jit
def ptr2d_strides_kernel(x_ptr, o_ptr, ot_ptr, stride_xm, stride_xn, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    v = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :] * stride_xn)
    tl.store(o_ptr + rm[:, None] * BN + rn[None, :], v)
    tl.store(ot_ptr + rn[None, :] * BM + rm[:, None], v)
