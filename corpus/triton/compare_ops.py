# Rule: float comparisons are IEEE ordered comparisons (< == >= are false when either
# side is NaN; != is true when either side is NaN; -0.0 == +0.0); int comparisons of
# int32 are signed. Each bool is converted to int32 (True -> 1) and packed as
#   fcode = lt + 2*eq + 4*ne + 8*ge      icode = le + 2*gt + 4*ne
#
#   a (fp32) = [1.0, NaN, -0.0, 2.0]     b (fp32) = [2.0, 1.0, 0.0, 2.0]
#   [0] 1<2: lt=1 eq=0 ne=1 ge=0 -> 5
#   [1] NaN vs 1: lt=0 eq=0 ne=1 ge=0 -> 4
#   [2] -0 vs +0: lt=0 eq=1 ne=0 ge=1 -> 10
#   [3] 2 vs 2: lt=0 eq=1 ne=0 ge=1 -> 10          fcode = [5, 4, 10, 10]
#   ia (int32) = [-1, 5, 3, -2147483648]   ib (int32) = [1, 5, 2, 2147483647]
#   [0] -1<=1: le=1 gt=0 ne=1 -> 5
#   [1] 5,5:   le=1 gt=0 ne=0 -> 1
#   [2] 3,2:   le=0 gt=1 ne=1 -> 6
#   [3] MIN,MAX: le=1 gt=0 ne=1 -> 5               icode = [5, 1, 6, 5]
import triton
import triton.language as tl


@triton.jit
def compare_ops_kernel(a_ptr, b_ptr, ia_ptr, ib_ptr, fcode_ptr, icode_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    ia = tl.load(ia_ptr + offs)
    ib = tl.load(ib_ptr + offs)
    fcode = (a < b).to(tl.int32) + (a == b).to(tl.int32) * 2 + (a != b).to(tl.int32) * 4 + (a >= b).to(tl.int32) * 8
    icode = (ia <= ib).to(tl.int32) + (ia > ib).to(tl.int32) * 2 + (ia != ib).to(tl.int32) * 4
    tl.store(fcode_ptr + offs, fcode)
    tl.store(icode_ptr + offs, icode)
