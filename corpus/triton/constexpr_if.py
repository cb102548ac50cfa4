# Rule: an `if` on a tl.constexpr is resolved at compile time; only the taken branch
# exists.
#
#   MODE = 2 (constexpr), x (int32) = [-3, 2, 5, 0]
#   MODE == 1 is false, MODE == 2 is true -> y = x * x = [9, 4, 25, 0]
#   (MODE 1 would give [-2, 3, 6, 1], the else branch [3, -2, -5, 0])
import triton
import triton.language as tl


@triton.jit
def constexpr_if_kernel(x_ptr, out_ptr, MODE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if MODE == 1:
        y = x + 1
    elif MODE == 2:
        y = x * x
    else:
        y = -x
    tl.store(out_ptr + offs, y)
