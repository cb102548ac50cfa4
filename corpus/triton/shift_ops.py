# Rule: >> on a signed int tensor is an arithmetic shift (copies the sign bit), on an
# unsigned tensor a logical shift (shifts in zeros); << drops bits shifted out of the
# 32-bit width (wraps). Shift amounts here are in [0, 31].
#
#   x (int32)  = [-16, -1, 1, 0x40000001]
#   u (uint32) = [0xfffffff0, 0x80000000, 1, 0x7fffffff]
#   s (int32)  = [0, 31, 1, 30]
#   o1 = x >> 2 = [-4, -1, 0, 0x10000000]              (arithmetic)
#   o2 = u >> 2 = [0x3ffffffc, 0x20000000, 0, 0x1fffffff]   (logical)
#   o3 = x << 2 = [-64, -4, 4, 0x100000004 mod 2^32 = 4]
#   o4 = u << 1 = [0xffffffe0, 0x100000000 mod 2^32 = 0, 2, 0xfffffffe]
#   o5 = x >> s = [-16 >> 0 = -16, -1 >> 31 = -1, 1 >> 1 = 0, 0x40000001 >> 30 = 1]
import triton
import triton.language as tl


@triton.jit
def shift_ops_kernel(x_ptr, u_ptr, s_ptr, o1_ptr, o2_ptr, o3_ptr, o4_ptr, o5_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    u = tl.load(u_ptr + offs)
    s = tl.load(s_ptr + offs)
    tl.store(o1_ptr + offs, x >> 2)
    tl.store(o2_ptr + offs, u >> 2)
    tl.store(o3_ptr + offs, x << 2)
    tl.store(o4_ptr + offs, u << 1)
    tl.store(o5_ptr + offs, x >> s)
