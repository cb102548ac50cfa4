#!/usr/bin/env bash
# Runs every GPU repro of docs/bugs/ (Triton, ptxas, NVVM, numba-cuda) on the
# machine's first GPU, writing each script's output to OUTDIR/<folder>.<script>.txt
# and the environment to OUTDIR/env.txt.
#   bash docs/bugs/run_gpu.sh OUTDIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run_gpu.sh OUTDIR}
mkdir -p "$out"
export PYTHONUNBUFFERED=1 LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PATH=/usr/local/cuda/bin:$PATH
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
  python3 --version
  python3 -m pip list 2>/dev/null | grep -i -E '^(torch|triton|numba|numba-cuda|numpy|llvmlite) '
  ptxas --version | tail -n 2
} > "$out/env.txt" 2>&1
for f in "$here"/triton-*/repro.py "$here"/ptxas-*/repro_*.py "$here"/nvvm-*/repro_*.py "$here"/numba-*/repro.py; do
  d=$(basename "$(dirname "$f")")
  s=$(basename "$f" .py)
  echo "== $d/$s"
  (cd "$(dirname "$f")" && timeout 300 python3 "$(basename "$f")") > "$out/$d.$s.txt" 2>&1
  echo "rc=$?" >> "$out/$d.$s.txt"
  tail -n 1 "$out/$d.$s.txt"; grep -E 'REPRODUCED' "$out/$d.$s.txt"
done
