#!/usr/bin/env bash
# Runs the CPU repros of docs/bugs/ (TileLang's C target, Hidet's cpu_kernel)
# and writes each one's output beside it as output.txt (TileLang's INFO log
# lines left out). TileLang and Hidet pull different torch/triton versions, so
# each gets its own virtual environment:
#   python3 -m venv /work/venv27 && /work/venv27/bin/pip install tilelang==0.1.15
#   python3 -m venv /work/venv27h && /work/venv27h/bin/pip install hidet==0.6.1
#   TILELANG_PY=/work/venv27/bin/python HIDET_PY=/work/venv27h/bin/python bash docs/bugs/run_cpu.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
tl=${TILELANG_PY:-python3}
hd=${HIDET_PY:-python3}
for d in "$here"/tilelang-*/ "$here"/hidet-*/; do
  case $(basename "$d") in tilelang-*) py=$tl ;; *) py=$hd ;; esac
  (cd "$d" && "$py" repro.py 2>&1 | grep -v '\[TileLang:' > output.txt)
  echo "$(basename "$d"): $(grep -E 'REPRODUCED' "$d/output.txt" | tail -n 1)"
done
