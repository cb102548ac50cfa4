# Rule (real Triton: float % lowers to LLVM frem = C fmod; the seed only speaks of
# int % int): x % y on float32 tensors is fmod: x - y * trunc(x / y), computed
# exactly; the result has the sign of x.
#
#   x (fp32) = [-7.5, 7.5, -7.5,  7.5, 5.25, -0.75, 1.0,  9.0]
#   y (fp32) = [ 2.0, 2.0, -2.0, -2.0, 2.0,   0.5,  4.0, -4.0]
#   [0] -7.5/2 = -3.75 -> -3; -7.5 - 2*(-3) = -1.5
#   [1]  7.5/2 =  3.75 ->  3;  7.5 - 6 = 1.5
#   [2] -7.5/-2 = 3.75 ->  3; -7.5 - (-2)(3) = -1.5
#   [3]  7.5/-2 = -3.75 -> -3; 7.5 - (-2)(-3) = 1.5
#   [4]  5.25/2 = 2.625 -> 2; 5.25 - 4 = 1.25
#   [5] -0.75/0.5 = -1.5 -> -1; -0.75 + 0.5 = -0.25
#   [6]  1/4 -> 0; 1.0
#   [7]  9/-4 = -2.25 -> -2; 9 - 8 = 1.0
#   out = [-1.5, 1.5, -1.5, 1.5, 1.25, -0.25, 1.0, 1.0]
#   (Python floor-mod would give [0.5, 1.5, -1.5, -0.5, 1.25, 0.25, 1.0, -3.0])
import triton
import triton.language as tl


@triton.jit
def fmod_float_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, x % y)
