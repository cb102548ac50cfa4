# `>>` after promotion: is the shift arithmetic by the promoted dtype or by
# the left operand's own dtype? int32(-100) >> uint64(1): promoted uint64;
# logical gives 0x7fffffffffffffce, arithmetic 0xffffffffffffffce; also
# int32 >> uint32 (promoted uint32) and int8 >> uint16 (promoted uint16).
import triton
import triton.language as tl


@triton.jit
def shift_lhs_signedness(a_ptr, s64_ptr, s32_ptr, u_ptr, o1_ptr, o2_ptr, o3_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    s64 = tl.load(s64_ptr + offs)
    s32 = tl.load(s32_ptr + offs)
    u = tl.load(u_ptr + offs)
    tl.store(o1_ptr + offs, a >> s64)
    tl.store(o2_ptr + offs, a >> s32)
    tl.store(o3_ptr + offs, a.to(tl.int8) >> s32.to(tl.uint16))
