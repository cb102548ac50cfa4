import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((4,), "int64"), B: T.Tensor((4,), "float32"), C: T.Tensor((4,), "float32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(4):
            C[i] = A[i] * B[i]
