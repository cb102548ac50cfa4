"""ptxas: `neg ? -f : f` of an integer's magnitude gives -0.0 for 0.

An integer v = -|x| is converted to float32 the way ksem's CUDA runtime did
it (sign and magnitude, then the rounding intrinsic):
    neg = v < 0;  m = neg ? -v : v;  out = neg ? -__ull2float_rn(m) : __ull2float_rn(m)
For x = 0, v = 0, so neg is false and out must be +0.0 (bits 0x00000000).
For x = [0, 1, 2, 3] the only right results are +0.0, -1.0, -2.0, -3.0 =
[0x00000000, 0xbf800000, 0xc0000000, 0xc0400000]. ksem's fuzzer saw -0.0
(0x80000000) for x = 0 with NVRTC/ptxas 13.0 at the default optimisation,
and the right bits with `-Xptxas -O0`.

This is a reconstruction of the runtime code that showed it (the runtime has
since changed); it is compiled with NVRTC in several forms and run through the
CUDA driver. Needs libnvrtc (the CUDA toolkit) and libcuda.

Run: python3 repro_nvrtc.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import ctypes
import ctypes.util
import glob
import os

SRC = r"""
typedef unsigned long long u64;
template <typename I>
__device__ __forceinline__ float to_f32(I v) {
  bool neg = v < 0;
  u64 m = neg ? (u64)0 - (u64)v : (u64)v;
  return neg ? -__ull2float_rn(m) : __ull2float_rn(m);
}
extern "C" __global__ void neg_abs_i64(const long long* x, float* out) {
  long long i = x[threadIdx.x];
  long long v = -(i < 0 ? -i : i);
  out[threadIdx.x] = to_f32(v);
}
extern "C" __global__ void neg_abs_i32(const int* x, float* out) {
  int i = x[threadIdx.x];
  long long v = -(long long)abs(i);
  out[threadIdx.x] = to_f32(v);
}
extern "C" __global__ void neg_abs_tid(float* out) {
  long long i = threadIdx.x;
  long long v = -(i < 0 ? -i : i);
  out[threadIdx.x] = to_f32(v);
}
// the same through unsigned 64-bit bits, as ksem's runtime computes it
__device__ __forceinline__ long long u2i(u64 x) { return (x >> 63) ? -(long long)(~x) - 1 : (long long)x; }
__device__ __forceinline__ u64 iabs_bits(u64 a) { return u2i(a) < 0 ? 0ull - a : a; }
__device__ __forceinline__ unsigned f32_bits_of(u64 a) {
  long long v = u2i(a);
  bool neg = v < 0;
  u64 m = neg ? (0ull - (u64)v) : (u64)v;
  return __float_as_uint(neg ? -__ull2float_rn(m) : __ull2float_rn(m));
}
extern "C" __global__ void neg_abs_bits(float* out) {
  u64 i = (u64)u2i((((u64)threadIdx.x & 0xffffffffull) ^ 0x80000000ull) - 0x80000000ull);
  ((unsigned*)out)[i] = f32_bits_of(0ull - iabs_bits(i));
}
"""
HERE = os.path.dirname(os.path.abspath(__file__))
# ksem's whole generated source for the fuzzer's program (see its header)
KSEM_SRC = os.path.join(HERE, "ksem_lowering.cu")
# the NVRTC options ksem compiles with (gpu/src/cuda.rs)
KSEM_OPTS = ["--fmad=false", "-DKSEM_THREADS=4", "-default-device", "--std=c++17"]

XS = [0, 1, 2, 3]
EXPECTED = [0x00000000, 0xBF800000, 0xC0000000, 0xC0400000]


def load(name):
    for cand in [ctypes.util.find_library(name)] + sorted(glob.glob(f"/usr/local/cuda/lib64/lib{name}.so*")):
        if cand:
            try:
                return ctypes.CDLL(cand)
            except OSError:
                pass
    raise SystemExit(f"lib{name} not found")


cu = ctypes.CDLL("libcuda.so.1")
nvrtc = load("nvrtc")


def check(rc, what):
    if rc != 0:
        raise SystemExit(f"{what} failed: {rc}")


def compile_cubin(src, arch, extra):
    prog = ctypes.c_void_p()
    check(nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"neg_abs.cu", 0, None, None), "nvrtcCreateProgram")
    opts = [f"-arch={arch}".encode()] + [o.encode() for o in extra]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    rc = nvrtc.nvrtcCompileProgram(prog, len(opts), arr)
    if rc != 0:
        size = ctypes.c_size_t()
        nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        nvrtc.nvrtcGetProgramLog(prog, log)
        raise SystemExit("NVRTC failed:\n" + log.value.decode())
    size = ctypes.c_size_t()
    check(nvrtc.nvrtcGetCUBINSize(prog, ctypes.byref(size)), "nvrtcGetCUBINSize")
    cubin = ctypes.create_string_buffer(size.value)
    check(nvrtc.nvrtcGetCUBIN(prog, cubin), "nvrtcGetCUBIN")
    return cubin.raw


def run(cubin, kernel, xs_ctype):
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    check(cu.cuModuleLoadData(ctypes.byref(mod), cubin), "cuModuleLoadData")
    check(cu.cuModuleGetFunction(ctypes.byref(fn), mod, kernel.encode()), "cuModuleGetFunction")
    dx, do = ctypes.c_uint64(), ctypes.c_uint64()
    check(cu.cuMemAlloc_v2(ctypes.byref(dx), 32), "cuMemAlloc")
    check(cu.cuMemAlloc_v2(ctypes.byref(do), 16), "cuMemAlloc")
    ptrs = [dx, do]
    n = ctypes.c_int64(4)
    if xs_ctype == "len":  # ksem_kernel(float* out, long long out_len)
        ptrs = [do, n]
    elif xs_ctype is not None:
        host = (xs_ctype * 4)(*XS)
        check(cu.cuMemcpyHtoD_v2(dx, host, ctypes.sizeof(host)), "cuMemcpyHtoD")
    else:
        ptrs = [do]
    args = (ctypes.c_void_p * len(ptrs))(*[ctypes.cast(ctypes.byref(p), ctypes.c_void_p) for p in ptrs])
    check(cu.cuLaunchKernel(fn, 1, 1, 1, 4, 1, 1, 0, None, args, None), "cuLaunchKernel")
    out = (ctypes.c_uint32 * 4)()
    check(cu.cuMemcpyDtoH_v2(out, do, 16), "cuMemcpyDtoH")
    cu.cuMemFree_v2(dx)
    cu.cuMemFree_v2(do)
    cu.cuModuleUnload(mod)
    return list(out)


def main():
    check(cu.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    name = ctypes.create_string_buffer(256)
    cu.cuDeviceGetName(name, 256, dev)
    major, minor = ctypes.c_int(), ctypes.c_int()
    cu.cuDeviceGetAttribute(ctypes.byref(major), 75, dev)
    cu.cuDeviceGetAttribute(ctypes.byref(minor), 76, dev)
    ctx = ctypes.c_void_p()
    check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    vmaj, vmin = ctypes.c_int(), ctypes.c_int()
    nvrtc.nvrtcVersion(ctypes.byref(vmaj), ctypes.byref(vmin))
    arch = f"sm_{major.value}{minor.value}"
    print(f"GPU {name.value.decode()} ({arch}), NVRTC {vmaj.value}.{vmin.value}")
    print("x        :", XS)
    print("expected :", " ".join(f"0x{e:08x}" for e in EXPECTED))
    wrong_default, wrong_o0 = [], []
    sources = [("minimal forms", SRC, [("neg_abs_i64", ctypes.c_int64), ("neg_abs_i32", ctypes.c_int32),
                                       ("neg_abs_tid", None), ("neg_abs_bits", None)])]
    if os.path.exists(KSEM_SRC):
        sources.append(("ksem_lowering.cu", open(KSEM_SRC).read(), [("ksem_kernel", "len")]))
    for what, src, kernels in sources:
        for opts in (KSEM_OPTS, KSEM_OPTS + ["-Xptxas", "-O0"]):
            cubin = compile_cubin(src, arch, opts)
            for kernel, ct in kernels:
                got = run(cubin, kernel, ct)
                ok = got == EXPECTED
                label = f"{what}: {kernel} {'-Xptxas -O0' if '-O0' in opts else '(ksem options)'}"
                print(f"{label:52s}:", " ".join(f"0x{g:08x}" for g in got), "right" if ok else "WRONG")
                if not ok:
                    (wrong_o0 if "-O0" in opts else wrong_default).append(f"{what}: {kernel}")
    if wrong_default and not wrong_o0:
        print("BUG REPRODUCED: -0.0 (or other wrong bits) at the default optimisation, right at -Xptxas -O0:",
              ", ".join(wrong_default))
    elif wrong_default:
        print("BUG REPRODUCED (wrong at -Xptxas -O0 as well):", ", ".join(wrong_default + wrong_o0))
    else:
        print("NOT REPRODUCED: every form gives +0.0 for 0")


if __name__ == "__main__":
    main()
