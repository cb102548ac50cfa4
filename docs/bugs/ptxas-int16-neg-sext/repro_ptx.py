"""ptxas miscompiles a wrapping 16-bit negation followed by a sign extension.

The PTX below loads an int16 h, computes `neg.s16` (which wraps: -(-32768)
is -32768, 0x8000 -> 0x8000) and sign-extends the 16-bit result with
`cvt.s32.s16`. For h = [0x8000, 1, 0xffff, 0] the only right int32 results
are [0xffff8000, 0xffffffff, 0x00000001, 0x00000000]:
  -0x8000 mod 2^16 = 0x8000, sign-extended 0xffff8000;  -1 -> 0xffffffff;
  -(-1) = 1;  -0 = 0.
With optimisation (driver JIT or ptxas at -O1 and above) the SASS
sign-extends first (PRMT 0x9910) and negates in 32 bits, storing
0x00008000 for h = 0x8000. At -O0 the result is right.

Needs only the CUDA driver (libcuda.so.1); uses ptxas from the toolkit too if
it is on PATH or in /usr/local/cuda/bin.

Run: python3 repro_ptx.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import ctypes
import os
import shutil
import subprocess
import tempfile

PTX = r"""
.version 8.0
.target sm_90
.address_size 64

.visible .entry sext_neg(.param .u64 h_ptr, .param .u64 out_ptr)
{
	.reg .b16 	%rs<3>;
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<9>;

	ld.param.u64 	%rd1, [h_ptr];
	ld.param.u64 	%rd2, [out_ptr];
	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd5, %r1, 2;
	add.s64 	%rd6, %rd3, %rd5;
	ld.global.u16 	%rs1, [%rd6];
	neg.s16 	%rs2, %rs1;
	cvt.s32.s16 	%r2, %rs2;
	mul.wide.u32 	%rd7, %r1, 4;
	add.s64 	%rd8, %rd4, %rd7;
	st.global.u32 	[%rd8], %r2;
	ret;
}
"""

H = [0x8000, 0x0001, 0xFFFF, 0x0000]


def expected():
    out = []
    for h in H:
        n = (-h) & 0xFFFF                      # neg.s16: wraps in 16 bits
        s = n - 0x10000 if n & 0x8000 else n   # cvt.s32.s16: sign-extend
        out.append(s & 0xFFFFFFFF)
    return out


cu = ctypes.CDLL("libcuda.so.1")


def check(rc, what):
    if rc != 0:
        raise SystemExit(f"{what} failed: CUresult {rc}")


def run_image(image, jit_level=None):
    mod = ctypes.c_void_p()
    if jit_level is None:
        check(cu.cuModuleLoadData(ctypes.byref(mod), image), "cuModuleLoadData")
    else:
        opts = (ctypes.c_int * 1)(7)  # CU_JIT_OPTIMIZATION_LEVEL
        vals = (ctypes.c_void_p * 1)(jit_level)
        check(cu.cuModuleLoadDataEx(ctypes.byref(mod), image, 1, opts, vals), "cuModuleLoadDataEx")
    fn = ctypes.c_void_p()
    check(cu.cuModuleGetFunction(ctypes.byref(fn), mod, b"sext_neg"), "cuModuleGetFunction")
    dh, do = ctypes.c_uint64(), ctypes.c_uint64()
    check(cu.cuMemAlloc_v2(ctypes.byref(dh), 8), "cuMemAlloc")
    check(cu.cuMemAlloc_v2(ctypes.byref(do), 16), "cuMemAlloc")
    check(cu.cuMemcpyHtoD_v2(dh, (ctypes.c_uint16 * 4)(*H), 8), "cuMemcpyHtoD")
    args = (ctypes.c_void_p * 2)(ctypes.cast(ctypes.byref(dh), ctypes.c_void_p),
                                 ctypes.cast(ctypes.byref(do), ctypes.c_void_p))
    check(cu.cuLaunchKernel(fn, 1, 1, 1, 4, 1, 1, 0, None, args, None), "cuLaunchKernel")
    out = (ctypes.c_uint32 * 4)()
    check(cu.cuMemcpyDtoH_v2(out, do, 16), "cuMemcpyDtoH")
    cu.cuMemFree_v2(dh)
    cu.cuMemFree_v2(do)
    cu.cuModuleUnload(mod)
    return list(out)


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
    want = expected()
    print("h (int16 bits):", [f"0x{h:04x}" for h in H])
    print("expected int32 :", " ".join(f"0x{w:08x}" for w in want))
    ptx = PTX.replace(".target sm_90", f".target {arch}").encode() + b"\0"
    wrong = []
    for level in range(5):
        got = run_image(ptx, level)
        ok = got == want
        print(f"driver JIT -O{level}:", " ".join(f"0x{g:08x}" for g in got), "right" if ok else "WRONG")
        if not ok:
            wrong.append(f"JIT -O{level}")
    ptxas = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
    if ptxas:
        version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
        print("ptxas:", version)
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "k.ptx")
            open(src, "wb").write(ptx[:-1])
            for level in (0, 1, 3):
                cubin = os.path.join(d, f"k{level}.cubin")
                subprocess.run([ptxas, f"-arch={arch}", f"-O{level}", src, "-o", cubin], check=True)
                got = run_image(open(cubin, "rb").read())
                ok = got == want
                print(f"ptxas -O{level} cubin:", " ".join(f"0x{g:08x}" for g in got), "right" if ok else "WRONG")
                if not ok:
                    wrong.append(f"ptxas -O{level}")
    else:
        print("ptxas: not found (only the driver JIT was tried)")
    if wrong:
        print("BUG REPRODUCED: wrong result with", ", ".join(wrong))
    else:
        print("NOT REPRODUCED: every level gives the expected bits")


if __name__ == "__main__":
    main()
