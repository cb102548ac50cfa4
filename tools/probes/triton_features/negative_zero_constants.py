# Constants equal to zero: is a Python -0.0 kept as negative zero (IEEE
# conversion) or made the type's null value +0.0?
import triton
import triton.language as tl


@triton.jit
def negative_zero_constants(x_ptr, a_ptr, b_ptr, c_ptr, d_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    v = -0.0
    tl.store(a_ptr + offs, tl.zeros((N,), dtype=tl.float32) + v)
    tl.store(b_ptr + offs, tl.full((N,), -0.0, tl.float32))
    tl.store(c_ptr + offs, x * -0.0)
    tl.store(d_ptr + offs, x - 0.0)
