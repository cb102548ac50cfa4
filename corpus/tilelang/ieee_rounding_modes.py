import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32"), C: T.Tensor((24,), "float32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(4):
            C[i] = T.ieee_add(A[i], B[i], "rn")
            C[4 + i] = T.ieee_add(A[i], B[i], "rz")
            C[8 + i] = T.ieee_add(A[i], B[i], "ru")
            C[12 + i] = T.ieee_sub(A[i], B[i], "rd")
            C[16 + i] = T.ieee_fdiv(A[i], B[i], "rz")
            C[20 + i] = T.ieee_fsqrt(A[i], "ru")
