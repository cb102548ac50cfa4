# Rule: tl.cdiv is a @triton.jit function computing (x + div - 1) // div. Called with
# constexpr arguments only, its body computes on Python ints (floor //); called with a
# runtime tensor it computes with C truncation.
#
#   N = -5 (tl.constexpr), n = -5 loaded from memory (int32 0-d tensor)
#   out[0] = cdiv(N, 4) = (-5 + 4 - 1) // 4 = -2 // 4 = floor(-0.5) = -1
#   out[1] = cdiv(n, 4) = (-2) // 4 in C = trunc(-0.5) = 0
#   out = [-1, 0]
import triton
import triton.language as tl


@triton.jit
def cdiv_constexpr_kernel(n_ptr, out_ptr, N: tl.constexpr):
    n = tl.load(n_ptr)
    tl.store(out_ptr + 0, tl.cdiv(N, 4))
    tl.store(out_ptr + 1, tl.cdiv(n, 4))
