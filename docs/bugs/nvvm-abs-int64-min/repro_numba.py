"""numba-cuda: `abs(x)` of int64 MIN is MIN, yet `abs(x) < 0` is false and
`9 // abs(x)` is 0 on the GPU.

numba's int64 `abs` is `select(x < 0, 0 - x, x)` with no `nsw` on the
subtraction, so abs(MIN) wraps to MIN (0x8000000000000000), a defined
value: then `abs(MIN) < 0` is True and Python's `9 // MIN` is -1 (9 =
-1 * MIN + (9 + MIN), remainder of the divisor's sign). numba's own CPU
target (`numba.njit`) compiles the same function as a control.

To say whose bug it is, the script prints the lines of numba's LLVM IR
(`inspect_llvm`) and of NVVM's PTX (`inspect_asm`) that compute abs and
use it, then compiles numba's own PTX with ptxas at -O0 and -O3 and runs
both cubins through the CUDA driver with the same inputs.

Run: python3 repro_numba.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import ctypes
import os
import re
import shutil
import subprocess
import tempfile

import numpy as np

if not hasattr(np, "row_stack"):
    # numba-cuda 0.30.4 registers an overload of np.row_stack, which numpy 2.5
    # removed: without this alias its first kernel compile raises AttributeError.
    np.row_stack = np.vstack

import numba  # noqa: E402
from numba import cuda  # noqa: E402

MIN = -(2**63)
XS = [MIN, -1, 5, -5, 2**63 - 1]


@cuda.jit
def abs_uses_gpu(x, out):
    i = cuda.grid(1)
    if i < x.size:
        y = abs(x[i])
        out[3 * i] = y
        out[3 * i + 1] = 1 if y < 0 else 0
        out[3 * i + 2] = 9 // y


@numba.njit
def abs_uses_cpu(x, out):
    for i in range(x.size):
        y = abs(x[i])
        out[3 * i] = y
        out[3 * i + 1] = 1 if y < 0 else 0
        out[3 * i + 2] = 9 // y


def wrap(v):
    return (v + 2**63) % 2**64 - 2**63


def expected():
    out = []
    for x in XS:
        y = wrap(abs(x))            # numba's abs: 0 - x without nsw, wraps
        out += [y, int(y < 0), 9 // y]  # Python's floor division
    return out


def triples(vals):
    return [tuple(vals[3 * i:3 * i + 3]) for i in range(len(XS))]


def run_ptx_cubin(ptx, level, arch):
    """Compile numba's PTX with ptxas -O<level> and launch it with numba's ABI."""
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if not os.path.exists(ptxas):
        return None, "ptxas not found"
    with tempfile.TemporaryDirectory() as d:
        src, cubin = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        open(src, "w").write(ptx)
        r = subprocess.run([ptxas, f"-arch={arch}", f"-O{level}", src, "-o", cubin], capture_output=True, text=True)
        if r.returncode != 0:
            # NVVM may emit a newer .version than this ptxas reads: say so and lower it
            m = re.search(r"^\.version (\S+)", ptx, re.M)
            open(src, "w").write(re.sub(r"^\.version \S+", ".version 8.0", ptx, flags=re.M))
            r2 = subprocess.run([ptxas, f"-arch={arch}", f"-O{level}", src, "-o", cubin], capture_output=True, text=True)
            if r2.returncode != 0:
                return None, r.stderr.strip() + " | " + r2.stderr.strip()
            print(f"(ptxas -O{level}: PTX .version {m.group(1) if m else '?'} lowered to 8.0: {r.stderr.strip()[:120]})")
        image = open(cubin, "rb").read()
    entry = re.search(r"\.entry\s+(\S+)\(", ptx).group(1)
    cu = ctypes.CDLL("libcuda.so.1")
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    assert cu.cuModuleLoadData(ctypes.byref(mod), image) == 0
    assert cu.cuModuleGetFunction(ctypes.byref(fn), mod, entry.encode()) == 0
    x = cuda.to_device(np.array(XS, dtype=np.int64))
    out = cuda.to_device(np.zeros(3 * len(XS), dtype=np.int64))
    # numba's 1-D array ABI: meminfo, parent, nitems, itemsize, data, shape[0], strides[0]
    vals = []
    for a in (x, out):
        vals += [0, 0, a.size, 8, a.device_ctypes_pointer.value, a.shape[0], a.strides[0]]
    cargs = [ctypes.c_uint64(v) for v in vals]
    argv = (ctypes.c_void_p * len(cargs))(*[ctypes.cast(ctypes.byref(c), ctypes.c_void_p) for c in cargs])
    assert cu.cuLaunchKernel(fn, 1, 1, 1, len(XS), 1, 1, 0, None, argv, None) == 0
    assert cu.cuCtxSynchronize() == 0
    got = out.copy_to_host().tolist()
    cu.cuModuleUnload(mod)
    return got, None


def main():
    from importlib.metadata import version
    dev = cuda.get_current_device()
    name = dev.name.decode() if isinstance(dev.name, bytes) else dev.name
    cc = dev.compute_capability
    print(f"numba {numba.__version__}, numba-cuda {version('numba-cuda')}, GPU {name}, compute capability {cc}")
    want = expected()
    x = cuda.to_device(np.array(XS, dtype=np.int64))
    out = cuda.device_array(3 * len(XS), dtype=np.int64)
    abs_uses_gpu[1, len(XS)](x, out)
    got = out.copy_to_host().tolist()
    cpu = np.zeros(3 * len(XS), dtype=np.int64)
    try:
        abs_uses_cpu(np.array(XS, dtype=np.int64), cpu)
        cpu = triples(cpu.tolist())
    except Exception as e:  # noqa: BLE001 - the control is optional
        cpu = f"(numba's CPU target failed: {type(e).__name__}: {e})"
    print("x                       :", XS)
    print("each entry: (abs(x), abs(x) < 0, 9 // abs(x))")
    print("expected                :", triples(want))
    print("numba CPU               :", cpu)
    print("numba-cuda              :", triples(got))

    ir = list(abs_uses_gpu.inspect_llvm().values())[0]
    print("\nnumba's LLVM IR (inspect_llvm), the abs:")
    lines = ir.splitlines()
    for i, line in enumerate(lines):
        if re.search(r"= sub (nsw )?i64 0, ", line):
            for near in lines[max(0, i - 1):i + 2]:
                print("   ", near.strip())
    ptx = list(abs_uses_gpu.inspect_asm().values())[0]
    print("NVVM's PTX (inspect_asm), abs and its uses:")
    m = re.search(r"abs\.s64\s+(%rd\d+)", ptx)
    reg = m.group(1) if m else None
    for line in ptx.splitlines():
        s = line.strip()
        if s.startswith(("//", ".version")) and ("Cuda compilation" in s or s.startswith(".version")):
            print("   ", s)
        elif reg and re.search(re.escape(reg) + r"\b", s) and not s.startswith("st."):
            print("   ", s)

    arch = f"sm_{cc[0]}{cc[1]}"
    wrong = ["numba-cuda"] if got != want else []
    for level in (0, 3):
        res, err = run_ptx_cubin(ptx, level, arch)
        if res is None:
            print(f"numba's PTX, ptxas -O{level}:", err)
            continue
        ok = res == want
        print(f"numba's PTX, ptxas -O{level}:", triples(res), "right" if ok else "WRONG")
        if not ok:
            wrong.append(f"ptxas -O{level}")
    if wrong:
        print("BUG REPRODUCED: wrong with", ", ".join(wrong))
    else:
        print("NOT REPRODUCED")


if __name__ == "__main__":
    main()
