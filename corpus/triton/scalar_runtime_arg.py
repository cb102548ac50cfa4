# Rule (DESIGN.md / seed): a runtime int kernel argument (n, int32) is a 0-d tensor,
# not a "scalar" in the seed's sense, so tensor/tensor promotion applies:
# (int8, int32) -> int32. (A literal would leave the int8 tensor in int8.)
#
#   x (int8) = [100, -128, 27, -1], n = 100 (int32 runtime scalar)
#   add = x + n (int32) = [200, -28, 127, 99]          (int8 would wrap 200 -> -56)
#   mul = x * n (int32) = [10000, -12800, 2700, -100]
import triton
import triton.language as tl


@triton.jit
def scalar_runtime_arg_kernel(x_ptr, add_ptr, mul_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(add_ptr + offs, x + n)
    tl.store(mul_ptr + offs, x * n)
