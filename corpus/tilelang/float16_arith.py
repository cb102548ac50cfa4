import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((8,), "float16"), B: T.Tensor((8,), "float16"), C: T.Tensor((24,), "float16")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(8):
            C[i] = A[i] + B[i]
            C[8 + i] = A[i] * B[i]
            C[16 + i] = A[i] / B[i]
