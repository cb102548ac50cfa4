# User combine functions over tuples (tl.reduce over (a, b, ...), tl.associative_scan)
# along every axis, forward and reverse, keep_dims and axis=None, on floats with NaN
# and -0.0, an int8 operand beside float32 ones, and a 3-D tile combined along its
# middle axis; non-commutative combines pin the left/right sides.
import triton
import triton.language as tl


@triton.jit
def _welford(m1, s1, w1, m2, s2, w2):
    d = m2 - m1
    w = w1 + w2
    return m1 + d * (w2 / w), s1 + s2 + d * d * (w1 * w2 / w), w


@triton.jit
def _pick(v1, i1, v2, i2):
    keep = (v1 > v2) | ((v1 == v2) & (i1 < i2)) | (v1 != v1)
    return tl.where(keep, v1, v2), tl.where(keep, i1, i2)


@triton.jit
def _mix(a, i, b, j):
    return a * 0.5 + b, i * 3 - j


@triton.jit
def combines(x_ptr, i_ptr, o_m, o_s, o_w, o_v, o_i, o_av, o_ai, o_ma, o_mi, o_sa, o_si, o_ra, o_ri, o_mid):
    r = tl.arange(0, 4)[:, None]
    c = tl.arange(0, 8)[None, :]
    x = tl.load(x_ptr + r * 8 + c)
    q = tl.load(i_ptr + r * 8 + c)
    m, s, w = tl.reduce((x, tl.zeros_like(x), tl.full((4, 8), 1.0, tl.float32)), 1, _welford, keep_dims=True)
    tl.store(o_m + r, m)
    tl.store(o_s + r, s)
    tl.store(o_w + r, w)
    v, i = tl.reduce((x, tl.broadcast_to(r, (4, 8))), 0, _pick)
    tl.store(o_v + tl.arange(0, 8), v)
    tl.store(o_i + tl.arange(0, 8), i)
    av, ai = tl.reduce((x, q), None, _mix)
    tl.store(o_av, av)
    tl.store(o_ai, ai)
    ma, mi = tl.reduce((x, q), 1, _mix)
    tl.store(o_ma + tl.arange(0, 4), ma)
    tl.store(o_mi + tl.arange(0, 4), mi)
    sa, si = tl.associative_scan((x, q), 0, _mix)
    tl.store(o_sa + r * 8 + c, sa)
    tl.store(o_si + r * 8 + c, si)
    ra, ri = tl.associative_scan((x, q), 1, _mix, reverse=True)
    tl.store(o_ra + r * 8 + c, ra)
    tl.store(o_ri + r * 8 + c, ri)
    mid = tl.associative_scan(tl.reshape(x, (2, 4, 4)), 1, _pick_first)
    tl.store(o_mid + r * 8 + c, tl.reshape(mid, (4, 8)))


@triton.jit
def _pick_first(a, b):
    return tl.where(a < b, a - b, b * 0.25)
