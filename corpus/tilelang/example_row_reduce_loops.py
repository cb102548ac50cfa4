import tilelang
import tilelang.language as T


def row_sum(M, N):
    @T.prim_func
    def main(X: T.Tensor((M, N), "int32"), S: T.Tensor((M,), "int32"), Mx: T.Tensor((M,), "int32")):
        with T.Kernel(M, threads=32) as bx:
            acc = T.alloc_var("int32", init=0)
            best = T.alloc_var("int32", init=T.min_value("int32"))
            for j in T.serial(N):
                acc += X[bx, j]
                best = T.max(best, X[bx, j])
            S[bx] = acc
            Mx[bx] = best

    return main
