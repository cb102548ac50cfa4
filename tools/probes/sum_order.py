# Reduction-order probe for tools/probes/run_all.py: each program sums one row of
# N float32 values with tl.sum; run_all.py compares the bits with simulated
# summation orders (ksem's canonical tree, sequential, Triton's layout-based order).
import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + row * N + offs)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


@triton.jit
def row_sum_2d(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    # sums over axis=1 of an M x N tile; one program
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    x = tl.load(x_ptr + offs_m[:, None] * N + offs_n[None, :])
    tl.store(out_ptr + offs_m, tl.sum(x, axis=1))
