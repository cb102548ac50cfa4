# Rule (docs/semantics.md, "tl.dot"): a tiled matrix multiplication in the style
# of Triton's tutorial 03 -- grouped program order, rows wrapped with `% M`, a K
# loop of BLOCK_SIZE_K blocks whose ragged last block is masked (other=0.0),
# `accumulator = tl.dot(a, b, accumulator)` in float32, a masked store.
#
#   M, N, K = 24, 20, 40; blocks 16 x 16 x 16; GROUP_SIZE_M = 2; grid = 2 * 2 = 4
#   A[i, k] = i - 2k and B[k, j] = 3k + j - 7 (float16, exact: |A| <= 78, |B| <= 129)
#   C[i, j] = sum_k (i - 2k)(3k + j - 7)
#           = 3i*S1 + K*i*j - 7K*i - 6*S2 - 2j*S1 + 14*S1,
#     S1 = sum k = 780, S2 = sum k^2 = 39*40*79/6 = 20540.
#   e.g. C[0, 0] = -6*20540 + 14*780 = -112320; C[23, 19] = 53820 + 17480 - 6440
#   - 123240 - 29640 + 10920 = -77100.
# Every product is an integer of magnitude <= 78 * 129 and every partial sum of
# magnitude < 2^24, so each float32 rounding is exact and C is exact whatever
# the order; the masked K tail (k = 40..47) contributes +0 products. The
# expected values come from the closed form above and are checked against a
# k-ascending float32 loop in _make_hand_cases.py.
import triton
import triton.language as tl


@triton.jit
def matmul_tiled_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                        stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                        BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    # which block of C this program computes (grouped order)
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    # pointers to the first blocks of A and B
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)
