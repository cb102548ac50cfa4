import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((8,), "int32"), C: T.Tensor((6,), "int32")):
    with T.Kernel(2, threads=1) as bx:
        S = T.alloc_shared((4,), "int32")
        for i in T.serial(4):
            S[i] = A[bx * 4 + i] + 100
        T.copy(S, C[bx * 4])
