# Rule: `for i in tl.static_range(4)` is unrolled at compile time; i is a constexpr in
# each copy, so `i % 2 == 0` is a compile-time (Python) test and (i + 1) a constant.
#
#   x (int32) = [1, 2, 3, 4, 5, 6, 7, 8] read as 4 rows of 2: row i = x[2i : 2i+2]
#   acc  = sum over i of row_i * (i + 1) = [1,2]*1 + [3,4]*2 + [5,6]*3 + [7,8]*4
#        = [1+6+15+28, 2+8+18+32] = [50, 60]
#   acc2 = sum of rows with even i (0 and 2) = [1+5, 2+6] = [6, 8]
import triton
import triton.language as tl


@triton.jit
def static_range_unroll_kernel(x_ptr, o1_ptr, o2_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    acc2 = tl.zeros([BLOCK], dtype=tl.int32)
    for i in tl.static_range(4):
        row = tl.load(x_ptr + i * BLOCK + offs)
        acc += row * (i + 1)
        if i % 2 == 0:
            acc2 += row
    tl.store(o1_ptr + offs, acc)
    tl.store(o2_ptr + offs, acc2)
