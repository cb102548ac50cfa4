import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((4,), "int32"), B: T.Tensor((4,), "int32"), C: T.Tensor((24,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(4):
            C[i] = A[i] & B[i]
            C[4 + i] = A[i] | B[i]
            C[8 + i] = A[i] ^ B[i]
            C[12 + i] = A[i] << (B[i] & 7)
            C[16 + i] = A[i] >> (B[i] & 7)
            C[20 + i] = ~A[i]
