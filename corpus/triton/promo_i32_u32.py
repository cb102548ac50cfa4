# Rule (seed, type promotion rule 4 "Prefer unsigned"): tensor/tensor (int32, uint32)
# -> uint32. The int32 bits are reinterpreted as uint32 (same width), so arithmetic
# wraps mod 2^32, comparisons are unsigned and >> is a logical shift.
#
#   x (int32)  = [-1, 5, -2147483648, 7]
#   y (uint32) = [0, 3, 1, 0xfffffff0]
#   s = x + y (uint32) = [0xffffffff, 8, 0x80000001, 0xfffffff7]
#   gt = (s > 0) as int32: every s is nonzero, unsigned -> [1, 1, 1, 1]
#        (a signed compare would give [0, 1, 0, 0])
#   lt = (x < y) as int32, compared as uint32:
#        0xffffffff < 0 no; 5 < 3 no; 0x80000000 < 1 no; 7 < 0xfffffff0 yes
#        -> [0, 0, 0, 1]   (signed would give [1, 0, 1, 0])
#   shr = s >> 1, logical (uint32), stored bit-for-bit into an int32 buffer:
#        [0x7fffffff, 4, 0x40000000, 0x7ffffffb]
#        (an arithmetic shift would give 0xffffffff, 4, 0xc0000000, 0xfffffffb)
# bool -> int32 (.to) is a zero extension: True -> 1.
import triton
import triton.language as tl


@triton.jit
def promo_i32_u32_kernel(x_ptr, y_ptr, gt_ptr, lt_ptr, shr_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    s = x + y
    tl.store(gt_ptr + offs, (s > 0).to(tl.int32))
    tl.store(lt_ptr + offs, (x < y).to(tl.int32))
    tl.store(shr_ptr + offs, s >> 1)
