#!/usr/bin/env bash
# On the GPU machine: the kernels here on ksem's interpreter against its
# CUDA lowering, then every corpus case of each dialect the same way, then a
# short differential fuzz of each dialect against cuda. Writes OUT/gpu_check.log.
#   tools/probes/gpu_check/run.sh OUT     (KSEM: the ksem binary)
set -u
out=${1:?usage: run.sh OUT}
ksem=${KSEM:-target/release/ksem}
here=$(dirname "$0")
log="$out/gpu_check.log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$log"
for k in ufuncs exact_math complex_ops slices dyn_shared complex_math; do
  echo "== features.py $k" >> "$log"
  "$ksem" diff "$here/features.py" --launch "$here/$k.json" --backends interp,cuda >> "$log" 2>&1
  echo "rc=$?" >> "$log"
done
echo "== masked.py" >> "$log"
"$ksem" diff "$here/masked.py" --launch "$here/masked.json" --backends interp,cuda >> "$log" 2>&1
echo "rc=$?" >> "$log"
for d in triton cudapy tilelang hidet; do
  ok=0; bad=0
  for py in corpus/$d/*.py; do
    j=${py%.py}.json
    [ -f "$j" ] || continue
    if "$ksem" diff "$py" --launch "$j" --backends interp,cuda > "$out/last.txt" 2>&1; then
      ok=$((ok+1))
    else
      bad=$((bad+1)); echo "-- corpus $py: $(tail -3 "$out/last.txt" | tr '\n' ' ')" >> "$log"
    fi
  done
  echo "corpus $d: $ok agree, $bad differ or refuse" >> "$log"
done
for d in triton cudapy tilelang hidet; do
  echo "== fuzz $d" >> "$log"
  "$ksem" fuzz --dialect "$d" --backends interp,cuda --seed 26 --count 300 2>&1 | tail -1 | cut -c1-400 >> "$log"
done
