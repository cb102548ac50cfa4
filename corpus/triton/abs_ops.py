# Rule: tl.abs on int32 is |x| (INT_MIN avoided here); on floats it clears the sign
# bit (so abs(-0.0) = +0.0 and abs(-inf) = +inf).
#
#   ia (int32) = [-5, 5, 0, -2147483647] -> [5, 5, 0, 2147483647]
#   fa (fp32)  = [-2.5, -0.0, 3.0, -inf] -> [2.5, +0.0, 3.0, +inf]
#                                         = [0x40200000, 0x00000000, 0x40400000, 0x7f800000]
import triton
import triton.language as tl


@triton.jit
def abs_ops_kernel(ia_ptr, fa_ptr, io_ptr, fo_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(io_ptr + offs, tl.abs(tl.load(ia_ptr + offs)))
    tl.store(fo_ptr + offs, tl.abs(tl.load(fa_ptr + offs)))
