import triton
import triton.language as tl


# Float atomic_add: float32 flushes subnormal inputs and results, NaN results are the arithmetic NaN, float64 keeps the operand's NaN.
@triton.jit
def atomic_float_add(m0_ptr, v0_ptr, o0_ptr, n0, m1_ptr, v1_ptr, o1_ptr, n1, m2_ptr, v2_ptr, o2_ptr, n2, m3_ptr, v3_ptr, o3_ptr, n3):
    p = tl.program_id(0)
    if p < n0:  # add_f32
        o = tl.atomic_add(m0_ptr + p, tl.load(v0_ptr + p))
        tl.store(o0_ptr + p, o)
    if p < n1:  # add_f16
        o = tl.atomic_add(m1_ptr + p, tl.load(v1_ptr + p))
        tl.store(o1_ptr + p, o)
    if p < n2:  # add_bf16
        o = tl.atomic_add(m2_ptr + p, tl.load(v2_ptr + p))
        tl.store(o2_ptr + p, o)
    if p < n3:  # add_f64
        o = tl.atomic_add(m3_ptr + p, tl.load(v3_ptr + p))
        tl.store(o3_ptr + p, o)
