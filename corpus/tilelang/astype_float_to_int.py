import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((6,), "float32"), C: T.Tensor((12,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(6):
            C[i] = A[i].astype("int32")
            C[6 + i] = A[i] * 2
