import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((16,), "int32"), C: T.Tensor((16,), "int32")):
    with T.Kernel(4, threads=1) as bx:
        S = T.alloc_shared((4,), "int32")
        T.copy(A[bx * 4:(bx + 1) * 4], S)
        for i in T.serial(4):
            S[i] = S[i] * 3 - bx
        T.copy(S, C[bx * 4])
