import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((8,), "int32"), C: T.Tensor((8,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        for i in range(8):
            if A[i] > 4:
                break
            if i % 2 == 1:
                continue
            C[i] = 1
