"""libNVVM lowers a wrapping LLVM `abs` to PTX `abs.s64`, whose result ptxas
then treats as non-negative.

The LLVM IR below is the form numba-cuda emits for Python's `abs` of an
int64: `select(x < 0, 0 - x, x)` with no `nsw` on the subtraction, so
abs(MIN) is MIN (0x8000000000000000), a defined value, and `abs(MIN) < 0`
is true. The kernel stores out[3i] = abs(x[i]), then branches on
`abs(x[i]) < 0` (as numba's floor-division sign fix-up tests it) and stores
out[3i+1], out[3i+2] = 1, 6 on the negative side and 0, 7 on the other.

The script compiles the IR with libNVVM (no numba), prints the PTX lines
that compute and test abs, and, if a GPU is there, runs the PTX through the
driver JIT at -O0 and -O3. Without a GPU it still reports whether NVVM
emitted `abs.s64` for the wrapping abs (the step upstream LLVM no longer
takes: its NVPTX backend selects `abs.s` only for `llvm.abs(x, true)`,
INT_MIN poison, since llvm/llvm-project PR 183851).

libNVVM: $LIBNVVM, else /usr/local/cuda/nvvm/lib64/libnvvm.so, else the
nvidia-cuda-nvcc / nvidia cu13 wheels' libnvvm.so.*.

Run: python3 repro_nvvm.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import ctypes
import glob
import os
import re
import site
import sys

IR = r"""
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @abs_min(i64* %x, i64* %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %px = getelementptr i64, i64* %x, i64 %i
  %v = load volatile i64, i64* %px
  %isneg = icmp slt i64 %v, 0
  %neg = sub i64 0, %v
  %a = select i1 %isneg, i64 %neg, i64 %v
  %j = mul i64 %i, 3
  %p0 = getelementptr i64, i64* %out, i64 %j
  store volatile i64 %a, i64* %p0
  %j1 = add i64 %j, 1
  %p1 = getelementptr i64, i64* %out, i64 %j1
  %j2 = add i64 %j, 2
  %p2 = getelementptr i64, i64* %out, i64 %j2
  %lt = icmp slt i64 %a, 0
  br i1 %lt, label %negative, label %nonnegative
negative:
  store volatile i64 1, i64* %p1
  store volatile i64 6, i64* %p2
  br label %done
nonnegative:
  store volatile i64 0, i64* %p1
  store volatile i64 7, i64* %p2
  br label %done
done:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i64*, i64*)* @abs_min, !"kernel", i32 1}
"""

XS = [-(2**63), -1, 5, -5, 2**63 - 1]


def expected():
    out = []
    for x in XS:
        a = x if x == -(2**63) else abs(x)    # 0 - MIN wraps to MIN
        out += [a, 1, 6] if a < 0 else [a, 0, 7]
    return out


def find_libnvvm():
    cands = [os.environ.get("LIBNVVM", ""), "/usr/local/cuda/nvvm/lib64/libnvvm.so"]
    for sp in site.getsitepackages() + [site.getusersitepackages()]:
        cands += sorted(glob.glob(os.path.join(sp, "nvidia", "*", "lib", "libnvvm.so*")))
        cands += sorted(glob.glob(os.path.join(sp, "nvidia", "cuda_nvcc", "nvvm", "lib64", "libnvvm.so*")))
    for c in cands:
        if c and os.path.exists(c):
            return c
    return None


def nvvm_compile(path, arch):
    nv = ctypes.CDLL(path)
    major, minor = ctypes.c_int(), ctypes.c_int()
    nv.nvvmVersion(ctypes.byref(major), ctypes.byref(minor))
    ir_major, ir_minor, dbg_major, dbg_minor = (ctypes.c_int() for _ in range(4))
    nv.nvvmIRVersion(ctypes.byref(ir_major), ctypes.byref(ir_minor), ctypes.byref(dbg_major), ctypes.byref(dbg_minor))
    print(f"libNVVM {path}: nvvmVersion {major.value}.{minor.value}, NVVM IR {ir_major.value}.{ir_minor.value}")
    prog = ctypes.c_void_p()
    assert nv.nvvmCreateProgram(ctypes.byref(prog)) == 0
    version = (f"!nvvmir.version = !{{!1}}\n!1 = !{{i32 {ir_major.value}, i32 {ir_minor.value}, "
               f"i32 {dbg_major.value}, i32 {dbg_minor.value}}}\n")
    src = (IR + version).encode()
    assert nv.nvvmAddModuleToProgram(prog, src, len(src), b"abs_min") == 0
    opts = (ctypes.c_char_p * 2)(f"-arch=compute_{arch}".encode(), b"-opt=3")
    rc = nv.nvvmCompileProgram(prog, 2, opts)
    size = ctypes.c_size_t()
    nv.nvvmGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    nv.nvvmGetProgramLog(prog, log)
    if rc != 0:
        raise SystemExit(f"nvvmCompileProgram failed ({rc}): {log.value.decode()}")
    nv.nvvmGetCompiledResultSize(prog, ctypes.byref(size))
    ptx = ctypes.create_string_buffer(size.value)
    nv.nvvmGetCompiledResult(prog, ptx)
    return ptx.value.decode()


def run_on_gpu(ptx, level):
    cu = ctypes.CDLL("libcuda.so.1")
    assert cu.cuInit(0) == 0
    dev, ctx = ctypes.c_int(), ctypes.c_void_p()
    assert cu.cuDeviceGet(ctypes.byref(dev), 0) == 0
    assert cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev) == 0
    assert cu.cuCtxSetCurrent(ctx) == 0
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    opts = (ctypes.c_int * 1)(7)  # CU_JIT_OPTIMIZATION_LEVEL
    vals = (ctypes.c_void_p * 1)(level)
    rc = cu.cuModuleLoadDataEx(ctypes.byref(mod), ptx.encode() + b"\0", 1, opts, vals)
    if rc != 0:
        return None, f"cuModuleLoadDataEx failed: CUresult {rc}"
    assert cu.cuModuleGetFunction(ctypes.byref(fn), mod, b"abs_min") == 0
    n = len(XS)
    dx, do = ctypes.c_uint64(), ctypes.c_uint64()
    assert cu.cuMemAlloc_v2(ctypes.byref(dx), 8 * n) == 0
    assert cu.cuMemAlloc_v2(ctypes.byref(do), 24 * n) == 0
    assert cu.cuMemcpyHtoD_v2(dx, (ctypes.c_int64 * n)(*XS), 8 * n) == 0
    args = (ctypes.c_void_p * 2)(ctypes.cast(ctypes.byref(dx), ctypes.c_void_p),
                                 ctypes.cast(ctypes.byref(do), ctypes.c_void_p))
    assert cu.cuLaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, None, args, None) == 0
    assert cu.cuCtxSynchronize() == 0
    out = (ctypes.c_int64 * (3 * n))()
    assert cu.cuMemcpyDtoH_v2(out, do, 24 * n) == 0
    cu.cuMemFree_v2(dx)
    cu.cuMemFree_v2(do)
    cu.cuModuleUnload(mod)
    return list(out), None


def gpu_arch():
    try:
        cu = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None, None
    if cu.cuInit(0) != 0:
        return None, None
    dev, major, minor = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    if cu.cuDeviceGet(ctypes.byref(dev), 0) != 0:
        return None, None
    name = ctypes.create_string_buffer(256)
    cu.cuDeviceGetName(name, 256, dev)
    cu.cuDeviceGetAttribute(ctypes.byref(major), 75, dev)
    cu.cuDeviceGetAttribute(ctypes.byref(minor), 76, dev)
    return f"{major.value}{minor.value}", name.value.decode()


def triples(vals):
    return [tuple(vals[3 * i:3 * i + 3]) for i in range(len(XS))]


def main():
    path = find_libnvvm()
    if path is None:
        print("NOT REPRODUCED: no libNVVM found (set LIBNVVM)")
        return
    arch, gpu = gpu_arch()
    print(f"GPU: {gpu} (sm_{arch})" if arch else "GPU: none (compile only, for compute_90)")
    ptx = nvvm_compile(path, arch or "90")
    m = re.search(r"abs\.s64\s+(%rd\d+)", ptx)
    print("PTX lines that compute or use abs:")
    for line in ptx.splitlines():
        s = line.strip()
        if s.startswith("// Cuda compilation") or s.startswith(".version") or (
                m and re.search(re.escape(m.group(1)) + r"\b", s)) or "abs." in s:
            print("   ", s)
    wrong = []
    if m:
        wrong.append("NVVM emitted abs.s64 for the wrapping abs")
    if arch:
        want = expected()
        print("x         :", XS)
        print("each entry: (abs(x), then 1, 6 if the branch took abs(x) < 0, else 0, 7)")
        print("expected  :", triples(want))
        for level in (0, 3):
            got, err = run_on_gpu(ptx, level)
            if got is None:
                print(f"JIT -O{level}  :", err)
                continue
            ok = got == want
            print(f"JIT -O{level}  :", triples(got), "right" if ok else "WRONG")
            if not ok:
                wrong.append(f"GPU result wrong at JIT -O{level}")
    if wrong and (not arch or len(wrong) > 1):
        print("BUG REPRODUCED:", "; ".join(wrong))
    elif wrong:
        print("NOT REPRODUCED: NVVM emitted abs.s64 but every JIT level gave the expected values")
    else:
        print("NOT REPRODUCED: NVVM expanded the wrapping abs without abs.s64")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
