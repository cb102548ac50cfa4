# Scans (tl.cumsum, tl.cumprod) along every axis, forward and reverse, on
# floats with NaN and -0.0, wrapping int8 products, int8 sums widened to int32,
# bfloat16 scanned in float32, and a 3-D tile scanned along its middle axis.
import triton
import triton.language as tl


@triton.jit
def scans(x_ptr, i_ptr, o_sum0, o_sum1r, o_prod1, o_mid, o_isum, o_iprod, o_bf):
    r = tl.arange(0, 4)[:, None]
    c = tl.arange(0, 8)[None, :]
    x = tl.load(x_ptr + r * 8 + c)
    tl.store(o_sum0 + r * 8 + c, tl.cumsum(x, 0))
    tl.store(o_sum1r + r * 8 + c, tl.cumsum(x, axis=1, reverse=True))
    tl.store(o_prod1 + r * 8 + c, x.cumprod(1))
    m = tl.cumsum(tl.reshape(x, (2, 4, 4)), axis=-2)
    tl.store(o_mid + r * 8 + c, tl.reshape(m, (4, 8)))
    k = tl.arange(0, 16)
    i = tl.load(i_ptr + k)
    tl.store(o_isum + k, tl.cumsum(i))
    tl.store(o_iprod + k, tl.cumprod(i, 0, True))
    tl.store(o_bf + r * 8 + c, tl.cumsum(x.to(tl.bfloat16), 1))
