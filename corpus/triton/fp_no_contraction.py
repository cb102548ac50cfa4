# Rule (DESIGN.md "Floats": no contraction of a*b+c; only an explicit fma fuses):
# a * b + c is two roundings: p = RNE(a*b), then RNE(p + c).
# Same inputs as fma_exact:
#   a = [1 + 2^-12, 3.0, 2.0, -1.5], b = [1 + 2^-12, 0x3eaaaaab, 3.0, 4.0],
#   c = [-(1 + 2^-11), -1.0, 1.0, 6.0]
#   p = [1 + 2^-11 (tie to even), 1.0 (1 + 2^-25 rounds down), 6.0, -6.0]
#   out = p + c = [0.0, 0.0, 7.0, 0.0]  (exact zero sums are +0.0)
#       = [0x00000000, 0x00000000, 0x40e00000, 0x00000000]
#   (a fused evaluation would give [2^-24, 2^-25, 7.0, 0.0]: see fma_exact)
# NOTE: real Triton compiles with enable_fp_fusion=True by default and contracts this
# into an fma: measured on an H100 (tools/triton_run.py), out = [0x33800000,
# 0x33000000, 0x40e00000, 0x00000000]. DESIGN.md fixes the unfused meaning.
import triton
import triton.language as tl


@triton.jit
def fp_no_contraction_kernel(a_ptr, b_ptr, c_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    c = tl.load(c_ptr + offs)
    tl.store(out_ptr + offs, a * b + c)
