import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((2,), "int32"), C: T.Tensor((2,), "int64")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(2):
            C[i] = A[i] + 1099511627776
