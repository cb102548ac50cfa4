import tilelang
import tilelang.language as T


def dequantize(packed, scale, zero):
    return (packed - zero) * scale


@T.prim_func
def main(A: T.Tensor((8,), "int8"), C: T.Tensor((8,), "float32")):
    with T.Kernel(1, threads=1) as bx:
        for i in T.serial(8):
            C[i] = dequantize(A[i], 0.5, 3)
