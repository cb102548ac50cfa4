# Rule (seed, "C rounding in integer division"): // and % on integer tensors follow C:
# the quotient is truncated toward zero and a % b = a - b * (a // b), so the remainder
# has the sign of the dividend.
#
#   x (int32) = [-7,  7, -7, 7, 6, -6, 0, -1]
#   y (int32) = [ 2, -2, -2, 2, 3,  4, 5,  2]
#   q = x // y: -7/2=-3.5->-3, 7/-2->-3, -7/-2=3.5->3, 7/2->3, 6/3=2, -6/4=-1.5->-1,
#               0/5=0, -1/2=-0.5->0                 -> [-3, -3, 3, 3, 2, -1, 0, 0]
#   r = x % y:  -7-2*(-3)=-1, 7-(-2)(-3)=1, -7-(-2)(3)=-1, 7-2*3=1, 0, -6-4*(-1)=-2,
#               0, -1-2*0=-1                        -> [-1, 1, -1, 1, 0, -2, 0, -1]
#   (Python floor semantics would give q=[-4,-4,3,3,2,-2,0,-1], r=[1,-1,-1,1,0,2,0,1])
import triton
import triton.language as tl


@triton.jit
def intdiv_tensor_trunc_kernel(x_ptr, y_ptr, q_ptr, r_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(q_ptr + offs, x // y)
    tl.store(r_ptr + offs, x % y)
