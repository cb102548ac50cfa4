# Rule: `for i in range(lo, hi, step)` with a runtime bound is a real loop; i takes
# lo, lo+step, ... while < hi; the block accumulator is loop-carried.
#
#   x (int32) = [1, 2, 3, 4], n = 5
#   o1: acc += x * i for i in range(0, 5): sum i = 0+1+2+3+4 = 10 -> [10, 20, 30, 40]
#   o2: acc += x * i for i in range(1, 5, 2): i = 1, 3, sum = 4   -> [4, 8, 12, 16]
import triton
import triton.language as tl


@triton.jit
def loop_for_range_kernel(x_ptr, o1_ptr, o2_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for i in range(0, n):
        acc += x * i
    tl.store(o1_ptr + offs, acc)
    acc2 = tl.zeros([BLOCK], dtype=tl.int32)
    for i in range(1, n, 2):
        acc2 += x * i
    tl.store(o2_ptr + offs, acc2)
