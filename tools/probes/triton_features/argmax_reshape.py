# tl.argmax over a (4, 32) bool tile reshaped to 128 elements, loaded with
# offsets r * 32 + c and with the overlapping offsets r + c of fuzz seed 6
# program 1328; each result stored broadcast over 16 elements.
import triton
import triton.language as tl


@triton.jit
def argmax_reshape(x_ptr, o_ptr):
    r = tl.arange(0, 4)
    c = tl.arange(0, 32)
    a = tl.load(x_ptr + tl.reshape(r, (4, 1)) * 32 + tl.reshape(c, (1, 32)))
    b = tl.load(x_ptr + tl.reshape(r, (4, 1)) + tl.reshape(c, (1, 32)))
    o = tl.arange(0, 16)
    tl.store(o_ptr + o, tl.broadcast_to(tl.argmax(tl.reshape(7 > a, (128,)), axis=0), (16,)))
    tl.store(o_ptr + 16 + o, tl.broadcast_to(tl.argmax(tl.reshape(7 > b, (128,)), axis=0), (16,)))
    tl.store(o_ptr + 32 + o, tl.broadcast_to(tl.argmin(tl.reshape(a, (128,)), axis=0), (16,)))
    tl.store(o_ptr + 48 + o, tl.broadcast_to(tl.argmin(tl.reshape(b, (128,)), axis=0), (16,)))
