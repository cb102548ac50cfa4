# Rule: tl.reduce(x, axis, combine_fn) folds with a user @triton.jit combine function;
# here an int32 product, which wraps mod 2^32 (and is associative and commutative,
# so every order gives the same bits).
#
#   x (int32) = [65537, 65537, 3, -1]
#   65537^2 = 2^32 + 2^17 + 1 -> wraps to 131073; * 3 = 393219; * -1 = -393219
#   (tree order: [65537*3, 65537*-1] = [196611, -65537]; 196611 * -65537 =
#    -(0x30003 * 0x10001) = -(0x300060003) -> wraps to -0x60003 = -393219, same)
#   out = [-393219]
import triton
import triton.language as tl


@triton.jit
def _mul_combine(a, b):
    return a * b


@triton.jit
def reduce_custom_combine_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr, tl.reduce(x, 0, _mul_combine))
