#!/usr/bin/env bash
# run-fuzzer.sh FUZZER SECONDS SEEDS [DICT]: runs a libFuzzer target for SECONDS from the seed
# corpus SEEDS, which it only reads (new inputs go to a scratch directory); a crash, a leak or a
# broken property fails it and keeps the input in fuzz-artifacts/ beside the fuzzer.
set -euo pipefail
fuzzer=$1 seconds=$2 seeds=$3 dict=${4-}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
artifacts="$(dirname "$fuzzer")/fuzz-artifacts"
mkdir -p "$artifacts"
args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192
    -print_final_stats=1 -artifact_prefix="$artifacts/$(basename "$fuzzer")-")
[[ -n $dict ]] && args+=(-dict="$dict")
exec "$fuzzer" "${args[@]}" "$scratch" "$seeds"
