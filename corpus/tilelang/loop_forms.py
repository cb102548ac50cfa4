import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((8,), "int32"), C: T.Tensor((40,), "int32")):
    with T.Kernel(1, threads=1) as bx:
        for i in range(8):
            C[i] = A[i] + 1
        for i in T.serial(0, 8, 2):
            C[8 + i] = A[i] * 2
        for i in T.unroll(4):
            C[16 + i] = A[i] + A[i + 4]
        for i, j in T.grid(2, 4):
            C[24 + i * 4 + j] = i * 10 + j
        for k in T.Pipelined(4, num_stages=2):
            C[32 + k] = A[k] - k
        i = T.alloc_var("int32", init=0)
        while i < 4:
            C[36 + i] = 7
            i += 2
