# Layer-norm forward (Triton tutorial 05 style): one program per row; the row
# is visited in BLOCK_SIZE-wide column blocks (N is not a multiple of it) to
# accumulate the mean, then the variance, then to write
# Y = (X - mean) * rstd * W + B.  Mean and Rstd are written per row.
# The float sums are reductions whose order on the GPU need not be ksem's
# canonical order, and rstd uses sqrt and a division, so Y, Mean and Rstd are
# marked "exact": false in the .json.
import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = X + row * stride
    y_row = Y + row * stride

    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(x_row + cols, mask=cols < N, other=0.).to(tl.float32)
        acc += a
    mean = tl.sum(acc, axis=0) / N

    acc_var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        acc_var += x * x
    var = tl.sum(acc_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)

    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)

    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(x_row + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(y_row + cols, y, mask=mask)
