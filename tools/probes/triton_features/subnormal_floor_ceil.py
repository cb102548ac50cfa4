# tl.floor / tl.ceil of subnormal float32 inputs: IEEE gives ceil(2^-149) = 1,
# floor(-2^-149) = -1; a flush-to-zero instruction (cvt.rpi.ftz) gives 0 / -0.
import triton
import triton.language as tl


@triton.jit
def subnormal_floor_ceil(x_ptr, f_ptr, c_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(f_ptr + offs, tl.floor(x))
    tl.store(c_ptr + offs, tl.ceil(x))
