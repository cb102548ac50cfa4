import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((4,), "int32"), C: T.Tensor((8,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(8):
            if i < 4 and A[i] > 1:
                C[i] = 1
            if i >= 4 or A[i] == 0:
                C[i] = C[i] + 10
