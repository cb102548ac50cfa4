import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((8, 8), "float32"), Tb: T.Tensor((8, 8), "float32"), R: T.Tensor((8,), "float32"), Out: T.Tensor((3,), "float32")):
    with T.Kernel(2, 2, threads=64) as (bx, by):
        S = T.alloc_shared((4, 4), "float32")
        T.copy(A[by * 4, bx * 4], S)
        for i, j in T.Parallel(4, 4):
            Tb[bx * 4 + j, by * 4 + i] = S[i, j] * 0.5 + 1.0
    with T.Kernel(8, threads=32) as row:
        acc = T.alloc_var("float32", init=0.0)
        for j in T.serial(8):
            acc += Tb[row, j] * (j + 1)
        R[row] = acc
    with T.Kernel(1, threads=(4, 2)) as _:
        m = T.alloc_var("float32", init=R[0])
        for i in range(1, 8):
            m = T.max(m, R[i])
        Out[0] = m
        Out[1] = R[0] - R[7]
        Out[2] = Tb[7, 0] + Tb[0, 7]
