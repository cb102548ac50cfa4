#!/usr/bin/env bash
# A fuzz campaign: each target in turn for SECONDS, one libFuzzer process
# with one worker (fork mode, so it goes on after a finding and saves every
# crash/timeout/OOM under fuzz/artifacts/<target>/). The corpus starts from
# the seeds ksem-fuzz-seeds builds from corpus/ (mutations of the corpus
# files), or with --raw from nothing (raw text; fuzz/corpus_raw/<target>/).
# Logs: fuzz/logs/<target>[_raw].log; the last stats line gives execs (#N),
# cov and ft.
#   fuzz/campaign.sh [--raw] SECONDS [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
raw=
if [ "${1:-}" = --raw ]; then
    raw=_raw
    shift
fi
secs=${1:?usage: campaign.sh [--raw] SECONDS [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frontend_triton frontend_cudapy frontend_tilelang frontend_hidet launch_json interp_run)
[ -n "$raw" ] || cargo run -q --manifest-path ../Cargo.toml -p ksem-fuzz-targets --bin ksem-fuzz-seeds -- "$PWD/corpus"
cargo +nightly fuzz build -O
mkdir -p logs
for t in "${targets[@]}"; do
    # a reduction runs many interpreter runs: it gets longer per input
    timeout=10
    [ "$t" = reducer ] && timeout=30
    mkdir -p "artifacts/$t" "corpus$raw/$t"
    cargo +nightly fuzz run -O "$t" "corpus$raw/$t" -- \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -timeout=$timeout -rss_limit_mb=4096 -max_total_time="$secs" \
        -print_final_stats=1 >"logs/$t$raw.log" 2>&1 || true
    echo "$t$raw: $(grep -E '^#[0-9]+' "logs/$t$raw.log" | tail -1)"
    ls "artifacts/$t"
done
