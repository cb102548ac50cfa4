#!/usr/bin/env bash
# Runs every corpus/cudapy case on real numba-cuda (tools/numba_run.py), on
# ksem's interpreter and on ksem's CUDA lowering, writing each result JSON to
# OUTDIR/<case>.<backend>.json (and .err on failure). Needs a GPU machine with
# numba-cuda; KSEM is the ksem binary (default target/release/ksem).
#   tools/cudapy_gpu_check.sh OUTDIR
set -u
out=${1:?usage: cudapy_gpu_check.sh OUTDIR}
ksem=${KSEM:-target/release/ksem}
mkdir -p "$out"
for py in corpus/cudapy/*.py; do
  n=$(basename "$py" .py)
  j=corpus/cudapy/$n.json
  python3 tools/numba_run.py "$py" --launch "$j" > "$out/$n.numba.json" 2> "$out/$n.numba.err"
  "$ksem" run "$py" --launch "$j" --json --threads 1 > "$out/$n.interp.json" 2> "$out/$n.interp.err"
  "$ksem" run "$py" --launch "$j" --json --backend cuda > "$out/$n.cuda.json" 2> "$out/$n.cuda.err"
  echo "$n done"
done
