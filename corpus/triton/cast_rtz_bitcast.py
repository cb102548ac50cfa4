# Rule: .to(tl.float16, fp_downcast_rounding="rtz") truncates toward zero (and so never
# overflows to inf: 65520 -> 65504), the default .to(tl.float16) is RNE; and
# .to(tl.int32, bitcast=True) reinterprets the 32 bits unchanged.
#
#   x (fp32) = [1 + 3*2^-11 (0x3f803000), -(1 + 3*2^-11) (0xbf803000), 65520.0, 1.0]
#   rtz  = [1 + 2^-10 (0x3c01), -(1 + 2^-10) (0xbc01), 65504 (0x7bff), 1.0 (0x3c00)]
#   rne  = [1 + 2^-9 (0x3c02, tie to even), 0xbc02, +inf (0x7c00), 0x3c00]
#   bits = [0x3f803000, 0xbf803000, 0x477ff000, 0x3f800000]
import triton
import triton.language as tl


@triton.jit
def cast_rtz_bitcast_kernel(x_ptr, rtz_ptr, rne_ptr, bits_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(rtz_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtz"))
    tl.store(rne_ptr + offs, x.to(tl.float16))
    tl.store(bits_ptr + offs, x.to(tl.int32, bitcast=True))
