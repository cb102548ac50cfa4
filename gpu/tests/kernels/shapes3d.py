import triton
import triton.language as tl


@triton.jit
def shapes3d(x_ptr, o_perm, o_sum1, o_max0, o_amax2, o_amin1, o_bc, o_keep, o_all):
    i = tl.arange(0, 2)[:, None, None]
    j = tl.arange(0, 4)[None, :, None]
    k = tl.arange(0, 8)[None, None, :]
    offs = i * 32 + j * 8 + k
    x = tl.load(x_ptr + offs)
    p = tl.permute(x, (2, 0, 1))
    pi = tl.arange(0, 8)[:, None, None] * 8 + tl.arange(0, 2)[None, :, None] * 4 + tl.arange(0, 4)[None, None, :]
    tl.store(o_perm + pi, p)
    s1 = tl.sum(x, axis=1)
    tl.store(o_sum1 + tl.arange(0, 2)[:, None] * 8 + tl.arange(0, 8)[None, :], s1)
    m0 = tl.max(x, axis=0)
    tl.store(o_max0 + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :], m0)
    a2 = tl.argmax(x, axis=2)
    tl.store(o_amax2 + tl.arange(0, 2)[:, None] * 4 + tl.arange(0, 4)[None, :], a2)
    a1 = tl.argmin(x, axis=1)
    tl.store(o_amin1 + tl.arange(0, 2)[:, None] * 8 + tl.arange(0, 8)[None, :], a1)
    row = tl.load(x_ptr + tl.arange(0, 4))
    b = tl.broadcast_to(row[None, :, None], (2, 4, 8))
    tl.store(o_bc + offs, b + x)
    kd = tl.sum(x, axis=2, keep_dims=True)
    tl.store(o_keep + offs, x - kd)
    tl.store(o_all, tl.min(tl.reshape(x, (8, 8)).T * 2.0))
