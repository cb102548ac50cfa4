import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((8,), "int32"), C: T.Tensor((2,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        total = T.alloc_var("int32", init=0)
        for i in range(8):
            if A[i] > 0:
                total += A[i]
        C[0] = total
        x = T.alloc_var("int32", init=5)
        for i in T.serial(8):
            x += A[i]
        C[1] = x
