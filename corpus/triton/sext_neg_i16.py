# Regression case found by `ksem fuzz --seed 7 --backends interp,cuda` (program
# 400, NVIDIA H200, NVRTC 13.0, sm_90) and reduced by hand to the operation.
#
# Rule: unary minus is `0 - x` in the operand's type (int16 wraps), and int16 ->
# int32 conversion sign-extends.
#   h (int16)      = [-32768, 1, -1, 0]
#   -h (int16)     = [0 - (-32768) = 32768 -> wraps to -32768, -1, 1, 0]
#   .to(tl.int32)  = [-32768, -1, 1, 0] = [0xffff8000, 0xffffffff, 0x00000001, 0x00000000]
# On the GPU (NVRTC/ptxas 13.0, sm_90) this case gives 0x00008000 for element
# 0: NVRTC emits neg.s16 + cvt.s32.s16, and ptxas -O1 and above sign-extend
# first and negate in 32 bits. tools/ptxas_repro/ shows it without ksem (PTX,
# SASS, runner); with KSEM_NVRTC_OPTIONS="-Xptxas -O0" the case passes. The
# case pins the rule; `ksem corpus check --backends interp,cuda` reports it
# until the toolchain is fixed.
import triton
import triton.language as tl


@triton.jit
def sext_neg_i16_kernel(h_ptr, out_ptr):
    offs = tl.arange(0, 4)
    h = tl.load(h_ptr + offs)
    tl.store(out_ptr + offs, (-h).to(tl.int32))
