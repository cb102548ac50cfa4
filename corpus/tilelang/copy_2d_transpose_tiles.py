import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((4, 6), "int32"), C: T.Tensor((6, 4), "int32")):
    with T.Kernel(3, 2, threads=4) as (bx, by):
        S = T.alloc_shared((2, 2), "int32")
        T.copy(A[by * 2, bx * 2], S)
        for i, j in T.Parallel(2, 2):
            C[bx * 2 + j, by * 2 + i] = S[i, j]
