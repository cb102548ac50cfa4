# Block pointers: the default padding ("") of a boundary-checked load, a
# window advanced in a runtime loop, and a checked store (ksem diff
# --backends interp,triton on the GPU; docs/triton-measured.md (p)).
import triton
import triton.language as tl


@triton.jit
def block_ptr_padding(x_ptr, o_ptr, s_ptr, M, N):
    p = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (2, 3), (4, 4), (1, 0))
    a = tl.load(p, boundary_check=(0, 1))
    r = tl.arange(0, 4)
    tl.store(o_ptr + r[:, None] * 4 + r[None, :], a)
    q = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (0, 0), (4, 2), (1, 0))
    acc = tl.zeros((4, 2), tl.float32)
    for k in range(0, 6, 2):
        acc += tl.load(q, boundary_check=(0,), padding_option="zero")
        q = tl.advance(q, (0, 2))
    c = tl.arange(0, 2)
    tl.store(o_ptr + 16 + r[:, None] * 2 + c[None, :], acc)
    w = tl.make_block_ptr(s_ptr, (3, 3), (3, 1), (1, 1), (4, 4), (0, 1))
    tl.store(w, a, boundary_check=(0, 1))
