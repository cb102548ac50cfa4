# tl.argmax / tl.argmin over bool and unsigned tiles (is True > False, is
# 0x80000000 a large unsigned value?) and over float tiles with NaN of 16
# and 32 elements (is the result the same in every thread of the program?);
# each result is stored broadcast over 16 elements.
import triton
import triton.language as tl


@triton.jit
def argminmax_types(b_ptr, u_ptr, v_ptr, f_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    o = tl.arange(0, 16)
    b = tl.load(b_ptr + offs)
    u = tl.load(u_ptr + offs)
    v = tl.load(v_ptr + offs)
    f = tl.load(f_ptr + offs)
    tl.store(o_ptr + 0 * 16 + o, tl.broadcast_to(tl.argmax(b, axis=0), (16,)))
    tl.store(o_ptr + 1 * 16 + o, tl.broadcast_to(tl.argmin(b, axis=0), (16,)))
    tl.store(o_ptr + 2 * 16 + o, tl.broadcast_to(tl.argmax(u, axis=0), (16,)))
    tl.store(o_ptr + 3 * 16 + o, tl.broadcast_to(tl.argmin(u, axis=0), (16,)))
    tl.store(o_ptr + 4 * 16 + o, tl.broadcast_to(tl.argmax(v, axis=0), (16,)))
    tl.store(o_ptr + 5 * 16 + o, tl.broadcast_to(tl.argmin(v, axis=0), (16,)))
    tl.store(o_ptr + 6 * 16 + o, tl.broadcast_to(tl.argmax(f, axis=0), (16,)))
    tl.store(o_ptr + 7 * 16 + o, tl.broadcast_to(tl.argmin(f, axis=0), (16,)))
