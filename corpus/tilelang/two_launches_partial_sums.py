import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "int32"), Partial: T.Tensor((4,), "int32"), Out: T.Tensor((2,), "int32")):
    with T.Kernel(4, threads=32) as bx:
        s = T.alloc_var("int32", init=0)
        for i in range(16):
            s += A[bx * 16 + i]
        Partial[bx] = s
    with T.Kernel(1, threads=1) as bx:
        t = T.alloc_var("int32", init=0)
        for j in range(4):
            t += Partial[j] * (j + 1)
        Out[0] = t
        Out[1] = Partial[3] - Partial[0]
