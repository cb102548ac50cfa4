#!/usr/bin/env python3
"""CPU seconds of g++ -O0 on one host batch of fuzzer kernels, built as ksem's
host backend builds it (docs/benchmarks.md, "Fifth pass").

usage: host_batch_cc.py KSEM DIALECT SEED N OUTDIR [REPS]

Emits programs 0..N-1 of campaign SEED (`ksem gen`, `ksem emit-cuda`),
joins their kernels after one runtime as gpu/src/batch.rs does (OUTDIR/
batch.cpp), precompiles the prelude and the runtime as gpu/src/host.rs does
(OUTDIR/runtime.h.gch) and prints the best of REPS compiles' user+system CPU.
Edit batch.cpp (or runtime.h, then delete the .gch) and run `g++` with the
flags printed to measure a variant of the emitted code.
"""
import os
import resource
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PRELUDE = os.path.join(HERE, "..", "..", "gpu", "src", "host_prelude.h")
END = "// ---- end of the ksem runtime"
# gpu/src/host.rs HOST_FLAGS, with the fuzzer's -O0 and one thread a block
FLAGS = ["-O0", "-std=c++17", "-ffp-contract=off", "-frounding-math", "-fno-fast-math", "-shared",
         "-fPIC", "-pthread", "-w", "-pipe", "-fno-exceptions", "-fno-asynchronous-unwind-tables",
         "-DKSEM_HOST", "-DKSEM_THREADS=1"]


def emit(ksem, dialect, seed, i, out):
    d = os.path.join(out, f"p{i}")
    os.makedirs(d, exist_ok=True)
    subprocess.run([ksem, "gen", "--dialect", dialect, "--seed", str(seed), "--index", str(i), "--out", d],
                   check=True, capture_output=True)
    js = next(f for f in os.listdir(d) if f.endswith(".json"))
    py = next(f for f in os.listdir(d) if f.endswith(".py"))
    r = subprocess.run([ksem, "emit-cuda", "--launch", os.path.join(d, js), os.path.join(d, py)],
                       capture_output=True, text=True)
    return r.stdout


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    ksem, dialect, seed, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    reps = int(sys.argv[6]) if len(sys.argv) > 6 else 3
    os.makedirs(out, exist_ok=True)
    sources = [s for s in (emit(ksem, dialect, seed, i, out) for i in range(n)) if END in s]
    runtime, body = None, ""
    for i, s in enumerate(sources):
        cut = s.index("\n", s.index(END)) + 1
        if runtime is None:
            runtime = s[:cut]
        body += "\n#undef KSEM_SMEM_BYTES\n" + s[cut:].replace("ksem_kernel(", f"ksem_kernel_{i}(")
    header = os.path.join(out, "runtime.h")
    with open(header, "w") as f:
        f.write(open(PRELUDE).read() + "\n" + runtime + "\n")
    src = os.path.join(out, "batch.cpp")
    with open(src, "w") as f:
        f.write(body)
    subprocess.run(["g++"] + FLAGS + ["-x", "c++-header", "-o", header + ".gch", header], check=True)
    cmd = ["g++"] + FLAGS + ["-include", header, "-o", os.path.join(out, "batch.so"), src]
    best = None
    for _ in range(reps):
        c0 = cpu()
        subprocess.run(cmd, check=True)
        c = cpu() - c0
        best = c if best is None else min(best, c)
    print(" ".join(cmd))
    print(f"{dialect}: {len(sources)} kernels, {len(body)} bytes, {best:.2f} s CPU, "
          f"{1000 * best / len(sources):.1f} ms a kernel")


if __name__ == "__main__":
    main()
