import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((8,), "int8"), B: T.Tensor((8,), "int8"), C: T.Tensor((48,), "int8")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(8):
            C[i] = A[i] // B[i]
            C[8 + i] = A[i] % B[i]
            C[16 + i] = T.truncdiv(A[i], B[i])
            C[24 + i] = T.truncmod(A[i], B[i])
            C[32 + i] = T.floordiv(A[i], B[i])
            C[40 + i] = T.floormod(A[i], B[i])
