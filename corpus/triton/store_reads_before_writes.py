# Rule: a store's value tile is computed in full before any element is written,
# even when it loads from the buffer being stored to (Triton: a tile-level
# load, then a tile-level store). Each program reverses and increments its
# own 8-element slice of x in place.
#
#   x (int32) = [10, 11, 12, 13, 14, 15, 16, 17], grid 1, BLOCK 8
#   x[7 - i] = x[i] + 1 for all i at once
#   x = [18, 17, 16, 15, 14, 13, 12, 11]
#   (loading each element just before storing it, in order i = 0..7, would
#    read x[4..7] after they were overwritten: [12, 13, 14, 15, 14, 13, 12, 11])
import triton
import triton.language as tl


@triton.jit
def store_reads_before_writes_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + (BLOCK - 1 - offs), tl.load(x_ptr + offs) + 1)
