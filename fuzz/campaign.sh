#!/usr/bin/env bash
# A fuzz campaign: each target in turn for SECONDS, one libFuzzer process
# with one worker (fork mode, so it goes on after a finding and saves every
# crash/timeout/OOM under fuzz/artifacts/<target>/). The corpus starts from
# the seeds ksem-fuzz-seeds builds from corpus/. Logs: fuzz/logs/<target>.log;
# the last stats line gives execs (#N), cov and ft.
#   fuzz/campaign.sh SECONDS [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:?usage: campaign.sh SECONDS [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frontend_triton frontend_cudapy frontend_tilelang frontend_hidet launch_json interp_run)
cargo run -q --manifest-path ../Cargo.toml -p ksem-fuzz-targets --bin ksem-fuzz-seeds -- "$PWD/corpus"
cargo +nightly fuzz build -O
mkdir -p logs
for t in "${targets[@]}"; do
    mkdir -p "artifacts/$t"
    cargo +nightly fuzz run -O "$t" "corpus/$t" -- \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -timeout=10 -rss_limit_mb=4096 -max_total_time="$secs" \
        -print_final_stats=1 >"logs/$t.log" 2>&1 || true
    echo "$t: $(grep -E '^#[0-9]+' "logs/$t.log" | tail -1)"
    ls "artifacts/$t"
done
