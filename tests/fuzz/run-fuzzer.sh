#!/usr/bin/env bash
# run-fuzzer.sh FUZZER SECONDS SEEDS [DICT]: runs a libFuzzer target for SECONDS from the seed
# corpus SEEDS, which it only reads. New inputs go to PRESENCE_FUZZ_CORPUS when set (kept
# between runs: tools/fuzz.sh), else to a scratch directory (the test command). A crash, a leak
# or a broken property fails it and keeps the input in fuzz-artifacts/ beside the fuzzer.
set -euo pipefail
fuzzer=$1 seconds=$2 seeds=$3 dict=${4-}
corpus=${PRESENCE_FUZZ_CORPUS-}
if [[ -z $corpus ]]; then
    corpus=$(mktemp -d)
    trap 'rm -rf "$corpus"' EXIT
fi
mkdir -p "$corpus"
artifacts="$(dirname "$fuzzer")/fuzz-artifacts"
mkdir -p "$artifacts"
args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192
    -print_final_stats=1 -artifact_prefix="$artifacts/$(basename "$fuzzer")-")
[[ -n $dict ]] && args+=(-dict="$dict")
"$fuzzer" "${args[@]}" "$corpus" "$seeds"
