#!/usr/bin/env python3
"""Runs a PTX (or cubin) kernel of signature (h, h_len, out, out_len) on
h = [0x8000, 1, 0xffff, 0] (int16) through the CUDA driver, once per JIT
optimisation level, and prints out (int32 bits). The right answer is
[0xffff8000, 0xffffffff, 0x00000001, 0x00000000]: the int16 negation wraps
(-(-32768) = -32768) and is then sign-extended.

    python3 run.py minimal.ptx sext_neg
    python3 run.py nvrtc130.ptx ksem_kernel
"""
import ctypes
import sys

EXPECTED = [0xFFFF8000, 0xFFFFFFFF, 0x00000001, 0x00000000]
CU_JIT_OPTIMIZATION_LEVEL = 7


def check(rc, what):
    if rc != 0:
        raise SystemExit(f"{what} failed: CUresult {rc}")


def main():
    path, name = sys.argv[1], sys.argv[2]
    image = open(path, "rb").read() + b"\0"
    cu = ctypes.CDLL("libcuda.so.1")
    check(cu.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    ctx = ctypes.c_void_p()
    check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    h = (ctypes.c_uint16 * 4)(0x8000, 1, 0xFFFF, 0)
    levels = [None] if path.endswith(".cubin") else [0, 1, 2, 3, 4]
    wrong = 0
    for level in levels:
        mod = ctypes.c_void_p()
        if level is None:
            check(cu.cuModuleLoadData(ctypes.byref(mod), image), "cuModuleLoadData")
        else:
            opts = (ctypes.c_int * 1)(CU_JIT_OPTIMIZATION_LEVEL)
            vals = (ctypes.c_void_p * 1)(level)
            check(cu.cuModuleLoadDataEx(ctypes.byref(mod), image, 1, opts, vals), "cuModuleLoadDataEx")
        fn = ctypes.c_void_p()
        check(cu.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "cuModuleGetFunction")
        dh, do = ctypes.c_uint64(), ctypes.c_uint64()
        check(cu.cuMemAlloc_v2(ctypes.byref(dh), 8), "cuMemAlloc")
        check(cu.cuMemAlloc_v2(ctypes.byref(do), 16), "cuMemAlloc")
        check(cu.cuMemcpyHtoD_v2(dh, h, 8), "cuMemcpyHtoD")
        n = ctypes.c_uint64(4)
        args = (ctypes.c_void_p * 4)(*[ctypes.cast(ctypes.byref(x), ctypes.c_void_p) for x in (dh, n, do, n)])
        check(cu.cuLaunchKernel(fn, 1, 1, 1, 4, 1, 1, 0, None, args, None), "cuLaunchKernel")
        out = (ctypes.c_uint32 * 4)()
        check(cu.cuMemcpyDtoH_v2(out, do, 16), "cuMemcpyDtoH")
        got = list(out)
        ok = got == EXPECTED
        wrong += not ok
        label = "cubin" if level is None else f"JIT -O{level}"
        print(f"{path} {label}: {' '.join(f'0x{x:08x}' for x in got)} {'right' if ok else 'WRONG'}")
        cu.cuMemFree_v2(dh)
        cu.cuMemFree_v2(do)
        cu.cuModuleUnload(mod)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
