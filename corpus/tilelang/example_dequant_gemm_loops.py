import tilelang
import tilelang.language as T


def dequant_matmul(M, N, K):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), Bq: T.Tensor((K, N), "int8"), scale: T.Tensor((N,), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as bx:
            for i, j in T.Parallel(M, N):
                acc = T.alloc_var("float32", init=0)
                for k in T.serial(K):
                    w = Bq[k, j].astype("float16") * scale[j]
                    acc += A[i, k].astype("float32") * w.astype("float32")
                C[i, j] = acc

    return main
