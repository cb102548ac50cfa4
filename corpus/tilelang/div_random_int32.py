import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "int32"), B: T.Tensor((64,), "int32"), C: T.Tensor((128,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.Parallel(64):
            C[i] = A[i] // B[i]
            C[64 + i] = A[i] % B[i]
