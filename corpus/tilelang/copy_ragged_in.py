import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((6,), "int32"), C: T.Tensor((8,), "int32")):
    with T.Kernel(2, threads=1) as bx:
        S = T.alloc_local((4,), "int32")
        T.fill(S, 7)
        T.copy(A[bx * 4], S)
        for i in T.serial(4):
            C[bx * 4 + i] = S[i]
