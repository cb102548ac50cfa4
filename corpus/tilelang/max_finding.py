import tilelang
import tilelang.language as T


@T.prim_func
def main(data: T.Tensor((8,), "float32"), out: T.Tensor((1,), "float32")):
    with T.Kernel(1, threads=1) as bx:
        max_val = T.alloc_var("float32", init=T.min_value("float32"))
        for i in range(8):
            max_val = T.max(max_val, data[i])
        out[0] = max_val
