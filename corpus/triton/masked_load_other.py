# Rule: a masked load gives `other` in masked-off lanes and never reads them (so the
# out-of-range addresses 5..7 of the 5-element buffer are not UB).
#
#   x (int32, len 5) = [10, 20, 30, 40, 50], n = 5, BLOCK = 8
#   v = load(x + offs, mask = offs < 5, other = -1)
#   out = [10, 20, 30, 40, 50, -1, -1, -1]
import triton
import triton.language as tl


@triton.jit
def masked_load_other_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n, other=-1)
    tl.store(out_ptr + offs, v)
