# Float tl.cumsum: the rounding order of real Triton's scan against ksem's
# sequential y[i] = y[i-1] + x[i]; and integer cumsum/cumprod (exact).
import triton
import triton.language as tl


@triton.jit
def cumsum_order(x_ptr, i_ptr, s_ptr, si_ptr, p_ptr, r_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    i = tl.load(i_ptr + offs)
    tl.store(s_ptr + offs, tl.cumsum(x, axis=0))
    tl.store(si_ptr + offs, tl.cumsum(i, axis=0))
    tl.store(p_ptr + offs, tl.cumprod(i, axis=0))
    tl.store(r_ptr + offs, tl.cumsum(x, axis=0, reverse=True))
