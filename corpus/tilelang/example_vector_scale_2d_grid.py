import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((6, 8), "float32"), C: T.Tensor((6, 8), "float32")):
    with T.Kernel(2, 3, threads=64) as (bx, by):
        for i, j in T.Parallel(2, 4):
            C[by * 2 + i, bx * 4 + j] = A[by * 2 + i, bx * 4 + j] * 2.0 + T.Cast("float32", bx * 10 + by)
