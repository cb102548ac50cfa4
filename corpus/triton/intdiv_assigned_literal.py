# Rule (real Triton 3.6 code generator, visit_Assign; the seed does not say): a plain
# assignment `a = -7` stores the literal as an int32 0-d TENSOR (only an annotated
# `c: tl.constexpr = -7` stays a compile-time scalar). So `a // 2` is a tensor
# operation and follows C truncation, while `c // 2` follows Python floor.
#
#   a = -7 (int32 0-d tensor):  a // 2 = trunc(-3.5) = -3;  a % 2 = -7 - 2*(-3) = -1
#   c = -7 (constexpr):         c // 2 = floor(-3.5) = -4;  c % 2 = -7 - 2*(-4) = 1
#   out = [-3, -1, -4, 1]
import triton
import triton.language as tl


@triton.jit
def intdiv_assigned_literal_kernel(out_ptr):
    a = -7
    c: tl.constexpr = -7
    tl.store(out_ptr + 0, a // 2)
    tl.store(out_ptr + 1, a % 2)
    tl.store(out_ptr + 2, c // 2)
    tl.store(out_ptr + 3, c % 2)
