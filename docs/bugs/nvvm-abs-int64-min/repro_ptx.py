"""ptxas: the result of `abs.s64` (and `abs.s32`) is assumed non-negative.

PTX's `abs.sN d, a` is `d = |a|` (the ISA says nothing of a = MIN =
-2^(N-1)); the N-bit result the GPU stores for MIN is MIN itself (0x8000...),
and libNVVM (CUDA 13.0, 13.5) emits `abs.sN` for the wrapping LLVM idiom
`select(a < 0, 0 - a, a)` (no `nsw`), whose value at MIN is MIN. (Upstream
LLVM's NVPTX backend reads `abs.sN` of MIN as poison and, since PR 183851,
no longer selects it for that idiom.) The kernel below stores,
for each input a, three values computed from the one register d = abs(a):
  d itself, (d < 0 ? 1 : 0) via setp.lt + selp, and d >> (N-1) (shr.uN).
For a = MIN all three must agree: d = 0x8000000000000000, d < 0 is 1, the
sign bit is 1. If ptxas folds `d < 0` to false while still storing d = MIN
with its sign bit 1, the program contradicts itself (on an H200 with CUDA
13.0 it does, from -O1 on; `output_ptx.txt`).

Needs only the CUDA driver (libcuda.so.1); uses ptxas (and cuobjdump, to
print the SASS) from the toolkit too if they are on PATH or in
/usr/local/cuda/bin.

Run: python3 repro_ptx.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import ctypes
import os
import shutil
import subprocess
import tempfile

BODY = r"""
.visible .entry abs_min{w}(.param .u64 x_ptr, .param .u64 out_ptr)
{{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<2>;
	.reg .b{w} 	%a<4>;
	.reg .b64 	%rd<12>;

	ld.param.u64 	%rd1, [x_ptr];
	ld.param.u64 	%rd2, [out_ptr];
	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd5, %r1, {b};
	add.s64 	%rd6, %rd3, %rd5;
	ld.global.u{w} 	%a1, [%rd6];
	abs.s{w} 	%a2, %a1;
	setp.lt.s{w} 	%p1, %a2, 0;
	selp.b64 	%rd7, 1, 0, %p1;
	shr.u{w} 	%a3, %a2, {s};
	{cvt} 	%rd8, %a3;
	{cvt} 	%rd9, %a2;
	mul.wide.u32 	%rd10, %r1, 24;
	add.s64 	%rd11, %rd4, %rd10;
	st.global.u64 	[%rd11], %rd9;
	st.global.u64 	[%rd11+8], %rd7;
	st.global.u64 	[%rd11+16], %rd8;
	ret;
}}
"""
HEAD = ".version 8.0\n.target sm_90\n.address_size 64\n"
PTX = HEAD + BODY.format(w=64, b=8, s=63, cvt="mov.b64") + BODY.format(w=32, b=4, s=31, cvt="cvt.u64.u32")


def inputs(w):
    m = 1 << w
    return [m >> 1, m - 1, 5, m - 5, (m >> 1) - 1]  # MIN, -1, 5, -5, MAX as N-bit patterns


def expected(w):
    m = 1 << w
    out = []
    for a in inputs(w):
        s = a - m if a >> (w - 1) else a        # signed value
        d = abs(s) % m                          # |a| wrapped to N bits: MIN -> MIN
        out.append((d, int(d >> (w - 1) == 1), d >> (w - 1)))
    return out


cu = ctypes.CDLL("libcuda.so.1")


def check(rc, what):
    if rc != 0:
        raise SystemExit(f"{what} failed: CUresult {rc}")


def run_image(image, w, jit_level=None):
    mod = ctypes.c_void_p()
    if jit_level is None:
        check(cu.cuModuleLoadData(ctypes.byref(mod), image), "cuModuleLoadData")
    else:
        opts = (ctypes.c_int * 1)(7)  # CU_JIT_OPTIMIZATION_LEVEL
        vals = (ctypes.c_void_p * 1)(jit_level)
        check(cu.cuModuleLoadDataEx(ctypes.byref(mod), image, 1, opts, vals), "cuModuleLoadDataEx")
    fn = ctypes.c_void_p()
    check(cu.cuModuleGetFunction(ctypes.byref(fn), mod, f"abs_min{w}".encode()), "cuModuleGetFunction")
    xs = inputs(w)
    n = len(xs)
    dx, do = ctypes.c_uint64(), ctypes.c_uint64()
    check(cu.cuMemAlloc_v2(ctypes.byref(dx), 8 * n), "cuMemAlloc")
    check(cu.cuMemAlloc_v2(ctypes.byref(do), 24 * n), "cuMemAlloc")
    host = (ctypes.c_uint64 if w == 64 else ctypes.c_uint32) * n
    check(cu.cuMemcpyHtoD_v2(dx, host(*xs), (w // 8) * n), "cuMemcpyHtoD")
    args = (ctypes.c_void_p * 2)(ctypes.cast(ctypes.byref(dx), ctypes.c_void_p),
                                 ctypes.cast(ctypes.byref(do), ctypes.c_void_p))
    check(cu.cuLaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, None, args, None), "cuLaunchKernel")
    check(cu.cuCtxSynchronize(), "cuCtxSynchronize")
    out = (ctypes.c_uint64 * (3 * n))()
    check(cu.cuMemcpyDtoH_v2(out, do, 24 * n), "cuMemcpyDtoH")
    cu.cuMemFree_v2(dx)
    cu.cuMemFree_v2(do)
    cu.cuModuleUnload(mod)
    return [tuple(out[3 * i:3 * i + 3]) for i in range(n)]


def show(w, got):
    digits = w // 4
    return "  ".join(f"(0x{d:0{digits}x},{lt},{sb})" for d, lt, sb in got)


def tool(name):
    p = shutil.which(name)
    if p is None and os.path.exists(f"/usr/local/cuda/bin/{name}"):
        p = f"/usr/local/cuda/bin/{name}"
    return p


def sass(cuobjdump, cubin, w):
    txt = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True).stdout
    lines, inside = [], False
    for line in txt.splitlines():
        if "Function :" in line:
            inside = line.strip().endswith(f"abs_min{w}")
            continue
        if inside and "/*" in line and ";" in line:
            code = line.split("*/", 1)[1].split(";", 1)[0].strip()
            if code and not code.startswith("NOP"):
                lines.append(code)
    return lines


def main():
    check(cu.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    name = ctypes.create_string_buffer(256)
    cu.cuDeviceGetName(name, 256, dev)
    major, minor, drv = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    cu.cuDeviceGetAttribute(ctypes.byref(major), 75, dev)
    cu.cuDeviceGetAttribute(ctypes.byref(minor), 76, dev)
    cu.cuDriverGetVersion(ctypes.byref(drv))
    ctx = ctypes.c_void_p()
    check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    arch = f"sm_{major.value}{minor.value}"
    print(f"GPU {name.value.decode()} ({arch}), CUDA driver API {drv.value}")
    print("each entry: (abs(a) bits, abs(a) < 0, abs(a) >> (N-1))")
    ptx = PTX.replace(".target sm_90", f".target {arch}").encode() + b"\0"
    ptxas, cuobjdump = tool("ptxas"), tool("cuobjdump")
    if ptxas:
        version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
        print("ptxas:", version)
    wrong = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.ptx")
        open(src, "wb").write(ptx[:-1])
        cubins = {}
        if ptxas:
            for level in (0, 1, 3):
                cubins[level] = os.path.join(tmp, f"k{level}.cubin")
                subprocess.run([ptxas, f"-arch={arch}", f"-O{level}", src, "-o", cubins[level]], check=True)
        for w in (64, 32):
            want = expected(w)
            print(f"\n== abs.s{w}, a = MIN, -1, 5, -5, MAX")
            print("expected       :", show(w, want))
            runs = [(f"driver JIT -O{lv}", lambda lv=lv: run_image(ptx, w, lv)) for lv in range(5)]
            runs += [(f"ptxas -O{lv} cubin", lambda lv=lv: run_image(open(cubins[lv], "rb").read(), w))
                     for lv in sorted(cubins)]
            for label, fn in runs:
                got = fn()
                ok = got == want
                print(f"{label:15}:", show(w, got), "right" if ok else "WRONG")
                if not ok:
                    wrong.append(f"abs.s{w} {label}")
            if cuobjdump:
                for lv in sorted(cubins):
                    print(f"SASS abs_min{w}, ptxas -O{lv}:", " ; ".join(sass(cuobjdump, cubins[lv], w)))
    if not ptxas:
        print("ptxas: not found (only the driver JIT was tried)")
    if wrong:
        print("BUG REPRODUCED: wrong result with", ", ".join(wrong))
    else:
        print("NOT REPRODUCED: every level gives the expected bits")


if __name__ == "__main__":
    main()
