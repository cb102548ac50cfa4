# Probe: tl.reduce over tuples (Welford, a non-commutative (value, index) mix, axis=None)
# and tl.associative_scan (one tensor and a tuple, forward and reverse) on random
# float32 data; compare real Triton with `ksem run --json` (docs/triton-measured.md).
import triton
import triton.language as tl

@triton.jit
def welford(m1, s1, w1, m2, s2, w2):
    d = m2 - m1
    w = w1 + w2
    return m1 + d * (w2 / w), s1 + s2 + d * d * (w1 * w2 / w), w

@triton.jit
def minus(a, b):
    return a - b

@triton.jit
def mix(a, i, b, j):
    return a * 0.5 + b, i * 3 - j

@triton.jit
def k(x_ptr, m_ptr, s_ptr, w_ptr, c_ptr, r_ptr, y_ptr, z_ptr, q_ptr):
    i = tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :]
    x = tl.load(x_ptr + i)
    m, s, w = tl.reduce((x, tl.zeros_like(x), tl.full((4, 8), 1.0, tl.float32)), 1, welford, keep_dims=True)
    tl.store(m_ptr + tl.arange(0, 4)[:, None], m)
    tl.store(s_ptr + tl.arange(0, 4)[:, None], s)
    tl.store(w_ptr + tl.arange(0, 4)[:, None], w)
    tl.store(c_ptr + i, tl.associative_scan(x, 0, minus))
    tl.store(r_ptr + i, tl.associative_scan(x, 0, minus, reverse=True))
    a, b = tl.associative_scan((x, i), 1, mix, reverse=True)
    tl.store(y_ptr + i, a)
    tl.store(z_ptr + i, b)
    p, q = tl.reduce((x, i), None, mix)
    tl.store(q_ptr, p)
    tl.store(q_ptr + 1, q.to(tl.float32))
