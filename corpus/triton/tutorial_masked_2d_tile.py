# A 2-D tile of pointers: offs_m[:, None] * stride + offs_n[None, :] with a
# 2-D mask on both edges.  Each program (2-D grid) reads a BLOCK_M x BLOCK_N
# tile of a float16 matrix with a padded row stride, computes x * 2 + 1 in
# float32 (exact: scaling by 2 and adding 1 to a float16 value is exact in
# float32, fused or not) and writes it to a float32 matrix with its own stride.
import triton
import triton.language as tl


@triton.jit
def scale_tile_2d(in_ptr, out_ptr, M, N, stride_in, stride_out,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    in_ptrs = in_ptr + offs_m[:, None] * stride_in + offs_n[None, :]
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tile = tl.load(in_ptrs, mask=mask, other=0.0)
    out = tile.to(tl.float32) * 2.0 + 1.0
    out_ptrs = out_ptr + offs_m[:, None] * stride_out + offs_n[None, :]
    tl.store(out_ptrs, out, mask=mask)
