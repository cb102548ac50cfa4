# Rule: tl.max / tl.min give the extreme value; tl.argmax / tl.argmin give its index,
# and on ties the LOWEST index (tie_break_left=True is the default).
#
#   x (fp32) = [3, 7, -1, -5, 7, 2, -5, 0]
#   max = 7.0 (at 1 and 4) -> argmax = 1
#   min = -5.0 (at 3 and 6) -> argmin = 3
#   The ties are placed so that in the canonical tree order (pairs i, i+4, then i, i+2,
#   then 0, 1) the later index reaches the left slot (slot 0 holds index 4 / 6 before
#   the last step): "keep the left operand on a tie" would give 4 and 6 instead.
#   vals = [7.0, -5.0] = [0x40e00000, 0xc0a00000]; idx = [1, 3]
import triton
import triton.language as tl


@triton.jit
def reduce_argmax_ties_kernel(x_ptr, vals_ptr, idx_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(vals_ptr + 0, tl.max(x, axis=0))
    tl.store(vals_ptr + 1, tl.min(x, axis=0))
    tl.store(idx_ptr + 0, tl.argmax(x, axis=0))
    tl.store(idx_ptr + 1, tl.argmin(x, axis=0))
