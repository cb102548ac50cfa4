# Rule: tl.minimum / tl.maximum compare signed for int32 and unsigned for uint32;
# tl.clamp(x, lo, hi) on floats = min(max(x, lo), hi).
#
#   ia = [-1, 5, -7, 0], ib = [1, 3, -8, 0] (int32)
#     imin = [-1, 3, -8, 0]          imax = [1, 5, -7, 0]
#   ua = [0xffffffff, 1, 0x80000000, 5], ub = [1, 2, 0x7fffffff, 5] (uint32)
#     umin = [1, 1, 0x7fffffff, 5]   umax = [0xffffffff, 2, 0x80000000, 5]
#     (signed compares would swap lanes 0 and 2)
#   f = [-3.0, 0.5, 2.5, 1.75] (fp32), clamp to [-1.0, 2.0]
#     fcl = [-1.0, 0.5, 2.0, 1.75]
import triton
import triton.language as tl


@triton.jit
def minmax_clamp_kernel(ia_ptr, ib_ptr, ua_ptr, ub_ptr, f_ptr, imin_ptr, imax_ptr, umin_ptr, umax_ptr, fcl_ptr,
                        BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    ia = tl.load(ia_ptr + offs)
    ib = tl.load(ib_ptr + offs)
    ua = tl.load(ua_ptr + offs)
    ub = tl.load(ub_ptr + offs)
    f = tl.load(f_ptr + offs)
    tl.store(imin_ptr + offs, tl.minimum(ia, ib))
    tl.store(imax_ptr + offs, tl.maximum(ia, ib))
    tl.store(umin_ptr + offs, tl.minimum(ua, ub))
    tl.store(umax_ptr + offs, tl.maximum(ua, ub))
    tl.store(fcl_ptr + offs, tl.clamp(f, -1.0, 2.0))
