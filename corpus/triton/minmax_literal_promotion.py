# tl.maximum with a Python float literal and a float16 tile: does the literal
# become a float32 tensor first (result float32: max(0, 0.1f) = 0x3dcccccd) or
# take the tile's dtype (float16 0.1 = 0x2e66 -> 0x3dccc000 as float32)?
import triton
import triton.language as tl


@triton.jit
def minmax_literal_promotion(x_ptr, out_ptr, py_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.maximum(x, 0.1))
    tl.store(py_ptr + offs, max(x, 0.1))
