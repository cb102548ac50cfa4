import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((1, 3, 3, 1), "float32"), C: T.Tensor((81,), "float32")):
    with T.Kernel(1, threads=1) as bx:
        S = T.alloc_shared((9, 9), "float32")
        T.im2col(A, S, 0, 0, 3, 1, 1, 1)
        V = T.reshape(C, (9, 9))
        T.copy(S, V)
