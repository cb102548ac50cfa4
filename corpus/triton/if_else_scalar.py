# Rule: `if` on a runtime scalar (a value loaded per program) picks a branch per
# program instance.
#
#   grid = (2,), BLOCK = 4; flag (int32) = [3, -1]; x (int32) = [1, 2, 3, 4, 5, 6, 7, 8]
#   pid 0: flag 3 > 2  -> y = x * 10 on x[0:4] = [10, 20, 30, 40]
#   pid 1: flag -1 <= 2 -> y = x - 10 on x[4:8] = [-5, -4, -3, -2]
#   out = [10, 20, 30, 40, -5, -4, -3, -2]
import triton
import triton.language as tl


@triton.jit
def if_else_scalar_kernel(flag_ptr, x_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    f = tl.load(flag_ptr + pid)
    if f > 2:
        y = x * 10
    else:
        y = x - 10
    tl.store(out_ptr + offs, y)
