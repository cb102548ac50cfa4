import triton
import triton.language as tl


# Integer atomic_max/min compare by the element's signedness.
@triton.jit
def atomic_int_max_min(m0_ptr, v0_ptr, o0_ptr, n0, m1_ptr, v1_ptr, o1_ptr, n1, m2_ptr, v2_ptr, o2_ptr, n2):
    p = tl.program_id(0)
    if p < n0:  # max_i32
        o = tl.atomic_max(m0_ptr + p, tl.load(v0_ptr + p))
        tl.store(o0_ptr + p, o)
    if p < n1:  # max_u32
        o = tl.atomic_max(m1_ptr + p, tl.load(v1_ptr + p))
        tl.store(o1_ptr + p, o)
    if p < n2:  # min_u32
        o = tl.atomic_min(m2_ptr + p, tl.load(v2_ptr + p))
        tl.store(o2_ptr + p, o)
