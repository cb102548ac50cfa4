import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((8,), "float32"), C: T.Tensor((24,), "float32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(8):
            C[i] = T.exp(A[i])
            C[8 + i] = T.log(A[i] + 2.0)
            C[16 + i] = T.sqrt(A[i] + 1.0)
