# Rule: & | ^ ~ on int32 tensors are bitwise on the two's-complement bits.
#
#   a (int32) = [0x0f0f0f0f, -1,   12, -8]
#   b (int32) = [0x00ff00ff, 0x7f, 10,  3]
#   and = a & b = [0x000f000f, 0x7f, 1100b&1010b=8, ...11111000 & 011 = 0]
#   or  = a | b = [0x0fff0fff, -1,   1110b=14,      ...11111011 = -5]
#   xor = a ^ b = [0x0ff00ff0, ~0x7f = 0xffffff80 (-128), 0110b=6, ...11111011 = -5]
#   inv = ~a    = [0xf0f0f0f0, 0, -13, 7]
import triton
import triton.language as tl


@triton.jit
def bitwise_ops_kernel(a_ptr, b_ptr, and_ptr, or_ptr, xor_ptr, inv_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(and_ptr + offs, a & b)
    tl.store(or_ptr + offs, a | b)
    tl.store(xor_ptr + offs, a ^ b)
    tl.store(inv_ptr + offs, ~a)
