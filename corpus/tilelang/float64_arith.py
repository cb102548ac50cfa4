import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((4,), "float64"), B: T.Tensor((4,), "float64"), C: T.Tensor((8,), "float64")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(4):
            C[i] = A[i] * B[i] - A[i]
            C[4 + i] = A[i] / B[i]
