# Regression case found by `ksem fuzz --seed 7 --backends interp,cuda` (program
# 935, NVIDIA H200, NVRTC 13.0, sm_90); `ksem reduce` on the GPU cut it to
# `tl.abs(x1).to(tl.float64)`.
#
# Rule: tl.abs of a signed int wraps at MIN (|MIN| = MIN), int32 -> float64 is exact.
#   x (int32)   = [-2147483648, -1, -2147483647, 5]
#   abs(x)      = [-2147483648 (wraps), 1, 2147483647, 5]
#   .to(fp64)   = -2^31 = 0xc1e0000000000000; 1.0 = 0x3ff0000000000000;
#                 2^31 - 1 = 1.(30 ones) x 2^30 = 0x41dfffffffc00000; 5.0 = 0x4014000000000000
# On the GPU, the fuzzed kernel gave 0xc3effffffff00001 for such an element
# (ptxas miscompile, see gpu_ptxas_sext_after_wrap.py); this small case pins the
# rule and is right on every backend.
import triton
import triton.language as tl


@triton.jit
def sext_abs_to_f64_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.abs(x).to(tl.float64))
