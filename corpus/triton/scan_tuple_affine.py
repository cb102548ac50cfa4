# Rule: tl.associative_scan((a, b), axis, combine_fn, reverse) is an inclusive
# scan in sequential order with the accumulated tuple on the left:
# y[0] = x[0], y[i] = combine(y[i-1], x[i]); reverse: y[n-1] = x[n-1],
# y[i] = combine(y[i+1], x[i]) (docs/semantics.md, "Scans").
#
# combine((a1, b1), (a2, b2)) = (a1 * a2, b1 * a2 + b2) (affine maps; not commutative)
#   a = [3, 1, 4, 1, 5, 9, 2, 6], b = [1, -2, 3, 0, 2, 1, -1, 4] (int32)
#   forward A = [3, 3, 12, 12, 60, 540, 1080, 6480]
#           B = [1, 1*1-2 = -1, -1*4+3 = -1, -1*1+0 = -1, -1*5+2 = -3,
#                -3*9+1 = -26, -26*2-1 = -53, -53*6+4 = -314]
#   reverse A = [6480, 2160, 2160, 540, 540, 108, 12, 6]
#           B = [1289*3+1 = 3868, 1291*1-2 = 1289, 322*4+3 = 1291, 322*1+0 = 322,
#                64*5+2 = 322, 7*9+1 = 64, 4*2-1 = 7, 4]
# One float32 tensor, combine (s1, s2) -> s1 + s2 over f = [1e8, 1, -1e8, 1]:
#   [1e8, 1e8 (1e8 + 1 rounds back), 0, 1.0]
import triton
import triton.language as tl


@triton.jit
def _affine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def _add(s1, s2):
    return s1 + s2


@triton.jit
def scan_tuple_affine_kernel(a_ptr, b_ptr, f_ptr, fa_ptr, fb_ptr, ra_ptr, rb_ptr, s_ptr, N: tl.constexpr):
    k = tl.arange(0, N)
    a = tl.load(a_ptr + k)
    b = tl.load(b_ptr + k)
    fa, fb = tl.associative_scan((a, b), 0, _affine)
    tl.store(fa_ptr + k, fa)
    tl.store(fb_ptr + k, fb)
    ra, rb = tl.associative_scan((a, b), 0, _affine, reverse=True)
    tl.store(ra_ptr + k, ra)
    tl.store(rb_ptr + k, rb)
    k4 = tl.arange(0, 4)
    tl.store(s_ptr + k4, tl.associative_scan(tl.load(f_ptr + k4), 0, _add))
