import tilelang
import tilelang.language as T


def matmul(M, N, K, block_M, block_N, dtype="float16", accum_dtype="float"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_local((block_M, K), dtype)
            B_s = T.alloc_local((K, block_N), dtype)
            T.copy(A[by * block_M, 0], A_s)
            T.copy(B[0, bx * block_N], B_s)
            for i, j in T.grid(block_M, block_N):
                acc = T.alloc_var(accum_dtype, init=0)
                for k in T.serial(K):
                    acc += A_s[i, k].astype(accum_dtype) * B_s[k, j].astype(accum_dtype)
                C[by * block_M + i, bx * block_N + j] = acc

    return main
