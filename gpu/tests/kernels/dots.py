# tl.dot in ksem's one order (acc, then k ascending, each product and sum
# rounded, no fma) on inputs whose sums round: float16 with float32 and float16
# accumulators, float32 under tf32 (operands rounded first) and ieee with an
# accumulator, bfloat16, a pair of fp8 formats, int8 wrapping into an int32
# accumulator, and a batched 3-D product; NaN, infinities and -0.0 included.
import triton
import triton.language as tl


@triton.jit
def dots(x_ptr, i_ptr, o_h32, o_h16, o_tf32, o_ieee, o_bf, o_f8, o_i8, o_b3):
    r = tl.arange(0, 8)[:, None]
    c = tl.arange(0, 4)[None, :]
    kr = tl.arange(0, 32)
    x = tl.load(x_ptr + r * 32 + kr[None, :])          # 8 x 32
    y = tl.load(x_ptr + 64 + kr[:, None] * 4 + c)       # 32 x 4
    h, g = x.to(tl.float16), y.to(tl.float16)
    tl.store(o_h32 + r * 4 + c, tl.dot(h, g))
    tl.store(o_h16 + r * 4 + c, tl.dot(h, g, out_dtype=tl.float16))
    acc = tl.load(x_ptr + 100 + r * 4 + c)
    tl.store(o_tf32 + r * 4 + c, tl.dot(x * 1.0009765625, y, acc))
    tl.store(o_ieee + r * 4 + c, tl.dot(x * 1.0009765625, y, acc, input_precision="ieee"))
    tl.store(o_bf + r * 4 + c, tl.dot(x.to(tl.bfloat16), y.to(tl.bfloat16)))
    tl.store(o_f8 + r * 4 + c, tl.dot(x.to(tl.float8e5), y.to(tl.float8e4nv)))
    ia = tl.load(i_ptr + r * 32 + kr[None, :])
    ib = tl.load(i_ptr + 7 + kr[:, None] * 4 + c)
    big = tl.full((8, 4), 2147480000, tl.int32)
    tl.store(o_i8 + r * 4 + c, tl.dot(ia, ib, big, out_dtype=tl.int32))
    a3 = tl.reshape(x, (2, 4, 32))
    b3 = tl.reshape(tl.load(x_ptr + 3 + tl.arange(0, 256)), (2, 32, 4))
    o3 = tl.dot(a3, b3, input_precision="ieee")
    tl.store(o_b3 + r * 4 + c, tl.reshape(o3, (8, 4)))
