# Row reductions of a 2-D tile: tl.sum and tl.max over axis=1.
# Each program takes BLOCK_M rows of an M x N int32 matrix X and of an
# M x N float32 matrix F (row stride `stride`), masked on both edges.
# int32 sums wrap and are order-independent, the maxima are exact; the float32
# row sums depend on the GPU's reduction order, so Fsum is marked
# "exact": false in the .json.
import triton
import triton.language as tl


@triton.jit
def row_reduce(x_ptr, f_ptr, xsum_ptr, xmax_ptr, fsum_ptr, fmax_ptr, M, N, stride,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    offs_m = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    offs = offs_m[:, None] * stride + offs_n[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    f = tl.load(f_ptr + offs, mask=mask, other=0.0)
    xsum = tl.sum(x, axis=1)
    xmax = tl.max(tl.where(mask, x, -2147483648), axis=1)
    fsum = tl.sum(f, axis=1)
    fmax = tl.max(tl.where(mask, f, -float('inf')), axis=1)
    row_mask = offs_m < M
    tl.store(xsum_ptr + offs_m, xsum, mask=row_mask)
    tl.store(xmax_ptr + offs_m, xmax, mask=row_mask)
    tl.store(fsum_ptr + offs_m, fsum, mask=row_mask)
    tl.store(fmax_ptr + offs_m, fmax, mask=row_mask)
