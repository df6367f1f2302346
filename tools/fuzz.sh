#!/usr/bin/env bash
# The fuzz targets of tests/fuzz for as long as you like, each growing its own corpus in
# build/fuzz/corpus/NAME (kept between runs, seeded from tests/fuzz/corpus/NAME):
#   tools/fuzz.sh [SECONDS] [NAME...]
# SECONDS defaults to 600 each; NAME is a target without its fuzz_ prefix (every target when
# none is given). PRESENCE_FUZZ_JOBS targets run at once (default 1). Prints, per target,
# executions, coverage (edges), corpus size and findings; a finding's input is kept in
# build/fuzz/fuzz-artifacts/. Exits non-zero when any target found something.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

seconds=${1:-600}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || presence_die "SECONDS must be a whole number above 0 (got '$seconds')"
(($# > 0)) && shift
jobs=${PRESENCE_FUZZ_JOBS:-1}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || presence_die "PRESENCE_FUZZ_JOBS must be a whole number above 0 (got '$jobs')"

presence_ensure_packages "${PRESENCE_PACKAGES[@]}"
presence_build_fuzzers

sources="$PRESENCE_ROOT/tests/fuzz"
build="$PRESENCE_ROOT/build/fuzz/tests/fuzz"
names=("$@")
if ((${#names[@]} == 0)); then
    for file in "$sources"/fuzz_*.cpp; do
        name=$(basename "$file" .cpp)
        names+=("${name#fuzz_}")
    done
fi
for name in "${names[@]}"; do
    [[ -x $build/fuzz_$name ]] || presence_die "no fuzz target '$name' (see tests/fuzz/fuzz_*.cpp)"
done

mkdir -p "$PRESENCE_ROOT/build/fuzz/logs"
run_one() {
    local name=$1 corpus="$PRESENCE_ROOT/build/fuzz/corpus/$1" log="$PRESENCE_ROOT/build/fuzz/logs/$1.log"
    local dict=""
    [[ -f $sources/$name.dict ]] && dict="$sources/$name.dict"
    local status=0
    # The test command's runner, with the corpus kept.
    PRESENCE_FUZZ_CORPUS="$corpus" bash "$sources/run-fuzzer.sh" "$build/fuzz_$name" "$seconds" \
        "$sources/corpus/$name" ${dict:+"$dict"} >"$log" 2>&1 || status=$?
    local execs cov files
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    files=$(find "$corpus" -type f | wc -l)
    printf '%-24s %8s s  %12s executions  %6s edges  %6s inputs  %s\n' "$name" "$seconds" \
        "${execs:-?}" "${cov:-?}" "$files" "$( ((status == 0)) && echo 'no finding' || echo "FINDING (exit $status, see $log)")"
    return $status
}
export -f run_one
export seconds build sources PRESENCE_ROOT

presence_log "fuzzing ${#names[@]} target(s) for $seconds s each, $jobs at a time"
printf '%s\n' "${names[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ {}
