import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((6,), "int32"), B: T.Tensor((6,), "int32"), C: T.Tensor((6,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(6):
            C[i] = T.ceildiv(A[i], B[i])
