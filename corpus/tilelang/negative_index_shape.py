import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((2, 3), "int32"), V: T.Tensor((4,), "int32"), C: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        C[0] = A[1, 2]
        C[1] = A[-1, -1] + A[0, -3]
        C[2] = V[-1]
        C[-1] = A.shape[0] * 10 + A.shape[1]
