import tilelang
import tilelang.language as T


def layernorm(M, N, eps=1e-5):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), W: T.Tensor((N,), "float32"), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(M, threads=32) as bx:
            mean = T.alloc_var("float32", init=0)
            for j in T.serial(N):
                mean += X[bx, j]
            mean = mean / N
            var = T.alloc_var("float32", init=0)
            for j in T.serial(N):
                var += (X[bx, j] - mean) * (X[bx, j] - mean)
            var = var / N
            for j in T.serial(N):
                Y[bx, j] = (X[bx, j] - mean) / T.sqrt(var + eps) * W[j]

    return main
