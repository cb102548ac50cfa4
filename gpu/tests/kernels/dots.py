# tl.dot in ksem's one order (acc, then k ascending, each product and sum
# rounded, no fma) on inputs whose sums round: float16 with float32 and float16
# accumulators, float32 under tf32 (operands rounded first) and ieee with an
# accumulator, bfloat16, a pair of fp8 formats, int8 wrapping into an int32
# accumulator, and a batched 3-D product; NaN, infinities and -0.0 included.
# tl.dot_scaled (fp4 e2m1 and fp8 e4m3 with e8m0 scales, float16 operands),
# and int64 values through pointers (`.to(tl.pi32_t)`, `tl.where`, stored back).
import triton
import triton.language as tl


@triton.jit
def dots(x_ptr, i_ptr, o_h32, o_h16, o_tf32, o_ieee, o_bf, o_f8, o_i8, o_b3, o_ds, o_ip):
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
    packed = tl.load(i_ptr + r * 16 + tl.arange(0, 16)[None, :]).to(tl.uint8, bitcast=True)
    sa = (tl.full((8, 1), 120, tl.int32) + r % 11).to(tl.uint8)
    d1 = tl.dot_scaled(packed, sa, "e2m1", g, None, "fp16")
    yb = tl.load(i_ptr + 200 + kr[:, None] * 4 + c).to(tl.uint8, bitcast=True)
    sb = (tl.full((4, 1), 125, tl.int32) + tl.arange(0, 4)[:, None]).to(tl.uint8)
    d2 = tl.dot_scaled(h, None, "fp16", yb, sb, "e4m3", acc=d1)
    tl.store(o_ds + r * 4 + c, d2)
    n = tl.arange(0, 32)
    p = (tl.load(i_ptr + n).to(tl.int64) * 1000003).to(tl.pi32_t)
    q = tl.load(i_ptr + 32 + n).to(tl.pi32_t)
    tl.store(o_ip + n, tl.where(n % 3 == 0, p, q))
