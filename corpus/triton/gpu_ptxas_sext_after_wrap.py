# A GPU toolchain bug kept as a regression case (found by `ksem fuzz --seed 7
# --backends interp,cuda`, programs 400 and 935; this kernel reproduces it).
#
# Expected (hand):
#   x (int32) = [-2147483648, -1, -2147483647, 5]; h (int16) = [-32768, 1, -1, 0]
#   f = x.to(fp64)          = [-2^31, -1, -(2^31-1), 5]
#                           = [0xc1e0000000000000, 0xbff0000000000000, 0xc1dfffffffc00000, 0x4014000000000000]
#   a = tl.abs(x)           = [-2^31 (wraps), 1, 2^31-1, 5] = [0x80000000, 0x00000001, 0x7fffffff, 0x00000005]
#   n = (-h).to(int32)      = -h in int16 = [-32768 (0 - -32768 wraps), -1, 1, 0], sign-extended
#                           = [0xffff8000, 0xffffffff, 0x00000001, 0x00000000]
#   s = h.to(int32)         = [0xffff8000, 0x00000001, 0xffffffff, 0x00000000]
# Measured on an NVIDIA H200 (CUDA 13.0, driver 580.159.04, NVRTC -> cubin for
# sm_90): `ksem run --backend cuda` gives n[0] = 0x00008000. The same source is
# right under g++ -O0/-O2 at 1..128 threads per block, and on the GPU with
# KSEM_NVRTC_OPTIONS="-Xptxas -O0" or "-G"; it is wrong with the default and
# with "-Xptxas -O1". So ptxas's optimiser miscompiles it (the generated C++ is
# free of UB: sign extension through unsigned arithmetic); tools/ptxas_repro/
# shows the four PTX instructions and the SASS. `ksem corpus check --backends
# interp,cuda` reports this case until the toolchain is fixed.
import triton
import triton.language as tl


@triton.jit
def gpu_ptxas_sext_after_wrap_kernel(x_ptr, h_ptr, f_ptr, a_ptr, n_ptr, s_ptr):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs)
    h = tl.load(h_ptr + offs)
    tl.store(f_ptr + offs, x.to(tl.float64))
    tl.store(a_ptr + offs, tl.abs(x))
    tl.store(n_ptr + offs, (-h).to(tl.int32))
    tl.store(s_ptr + offs, h.to(tl.int32))
