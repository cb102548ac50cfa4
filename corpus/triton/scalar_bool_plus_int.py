# Rule (seed, tensor/scalar rule 2): an int literal is of a higher kind than a bool
# tensor, so the lowest int dtype holding the literal is chosen (int32 for 1 and for
# 2147483647) and the bool tensor is converted to it (True -> 1, False -> 0).
#
#   x (int32) = [5, -5, 0, 7];  b = x > 0 = [T, F, F, T]
#   o32 = b + 1 (int32)            = [2, 1, 1, 2]
#   o64 = b + 2147483647, computed in int32 and wrapping:
#         T: 2147483648 -> -2147483648;  F: 2147483647
#         stored into an int64 buffer (sign extension):
#         [0xffffffff80000000, 0x000000007fffffff, 0x000000007fffffff, 0xffffffff80000000]
#         (an int64 add would give 0x0000000080000000 for the True lanes)
import triton
import triton.language as tl


@triton.jit
def scalar_bool_plus_int_kernel(x_ptr, o32_ptr, o64_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    b = x > 0
    tl.store(o32_ptr + offs, b + 1)
    tl.store(o64_ptr + offs, b + 2147483647)
