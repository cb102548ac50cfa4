import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((8,), "int32"), C: T.Tensor((16,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(8):
            C[i] = A[i] if A[i] > 0 else -A[i] * 2
            C[8 + i] = T.if_then_else(i < 4, A[i], 99)
