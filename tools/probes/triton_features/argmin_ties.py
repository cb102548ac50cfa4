# tl.argmin / tl.argmax over tiles full of ties (all equal ints; +0.0 and
# -0.0, which compare equal) of 16, 64 and 256 elements; each program stores
# its result broadcast over 16 elements, so a result that differs between
# the threads of the program shows as elements that differ.
import triton
import triton.language as tl


@triton.jit
def argmin_ties(xi_ptr, xf_ptr, imin_ptr, imax_ptr, fmin_ptr, fmax_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    xi = tl.load(xi_ptr + offs)
    xf = tl.load(xf_ptr + offs)
    o = tl.arange(0, 16)
    tl.store(imin_ptr + o, tl.broadcast_to(tl.argmin(xi, axis=0), (16,)))
    tl.store(imax_ptr + o, tl.broadcast_to(tl.argmax(xi, axis=0), (16,)))
    tl.store(fmin_ptr + o, tl.broadcast_to(tl.argmin(xf, axis=0), (16,)))
    tl.store(fmax_ptr + o, tl.broadcast_to(tl.argmax(xf, axis=0), (16,)))
