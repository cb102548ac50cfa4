import triton
import triton.language as tl


@triton.jit
def _comb(a, b):
    c = a * 2
    d = tl.where(c > b, c - b, b - c)
    return d + 1


@triton.jit
def control(x_ptr, h_ptr, o_ptr, s_ptr, hs_ptr, n):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, x + 1)
    v = tl.load(o_ptr + 15 - offs)
    tl.store(o_ptr + 16 + offs, v)
    first = tl.load(o_ptr + 15)
    acc = first * 0
    i = n * 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if i > 10:
            break
        acc += i * first
    tl.store(s_ptr, acc)
    tl.store(s_ptr + 1, tl.reduce(x, 0, _comb))
    for k in range(n, 0, -2):
        acc = acc - k
    tl.store(s_ptr + 2, acc)
    h = tl.load(h_ptr + offs)
    tl.store(hs_ptr, tl.sum(h, axis=0))
    tl.store(hs_ptr + 1, tl.max(h, axis=0))
