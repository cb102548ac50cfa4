#!/usr/bin/env python3
"""Compiles a CUDA source (e.g. `ksem emit-cuda` output) with NVRTC and the
options ksem uses, to PTX (-arch=compute_XY) or a cubin (-arch=sm_XY).

    python3 nvrtc_compile.py KERNEL.cu OUT.ptx compute_90 [extra options...]
    python3 nvrtc_compile.py KERNEL.cu OUT.cubin sm_90 -Xptxas -O0

libnvrtc is found as libnvrtc.so.13 on the loader path (LD_LIBRARY_PATH).
"""
import ctypes
import sys


def main():
    src, out, arch, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    nv = ctypes.CDLL("libnvrtc.so.13")
    prog = ctypes.c_void_p()
    rc = nv.nvrtcCreateProgram(ctypes.byref(prog), open(src, "rb").read(), b"kernel.cu", 0, None, None)
    assert rc == 0, rc
    opts = ["--fmad=false", f"-arch={arch}", "-DKSEM_THREADS=128", "-default-device", "--std=c++17"] + extra
    arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
    rc = nv.nvrtcCompileProgram(prog, len(opts), arr)
    if rc != 0:
        size = ctypes.c_size_t()
        nv.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        nv.nvrtcGetProgramLog(prog, log)
        raise SystemExit(log.value.decode())
    size = ctypes.c_size_t()
    if arch.startswith("sm_"):
        nv.nvrtcGetCUBINSize(prog, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value)
        nv.nvrtcGetCUBIN(prog, buf)
        open(out, "wb").write(buf.raw)
    else:
        nv.nvrtcGetPTXSize(prog, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value)
        nv.nvrtcGetPTX(prog, buf)
        open(out, "wb").write(buf.value)


if __name__ == "__main__":
    main()
