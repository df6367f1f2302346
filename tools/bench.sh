#!/usr/bin/env bash
# tools/bench.sh [--record] [BENCHMARK...]: every client and gateway benchmark at a quick size,
# a few minutes in all, so that a change to a hot path is measured before it is merged.
#
# It builds what it needs in build/bench-quick (Release, incrementally), runs each benchmark
# (all of them, or those named: see `benchmarks` below) with a line of progress, reads the
# figures each prints as `headline: NAME VALUE UNIT lower|higher` (the benchmark's own line,
# never its tables) and prints each beside the last one recorded in docs/benchmarks.md, section
# "Quick run: tools/bench.sh", saying which got worse by more than 1.5x (`worse` is then
# NEW/LAST for a figure where lower is better and LAST/NEW where higher is).
#
# That table has one row per figure, in these columns (bench.sh reads the rows by position):
#   | benchmark | figure | unit | better | last | date | commit |
# with `better` lower or higher, `last` a plain number. --record writes this run's figures
# into it (the date, and the commit measured, `+` when the tree had changes): a figure
# measured again gets its row updated, a new one a row at the end, the others stay.
#
# Exit status: 0 when every benchmark ran and no figure got worse by more than 1.5x; 1 when
# one did, or a benchmark failed (its log is named); 2 for a bad command line. A benchmark
# that cannot run here (say, a peer runtime that does not install) is said so in its line.
# The benchmarks' own output goes to build/bench-quick/bench-logs/NAME.log.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# Every benchmark, in the order they run.
benchmarks=(
    bench_model_load
    bench_presence_storm
    bench_scroll_subscriptions
    bench_redis_snapshot
    bench_redis_fanout
    bench_metrics_registry
    bench_push_vs_polling
    bench_availability_cost
    gateway-vs-peer
)
usage="usage: $0 [--record] [BENCHMARK...]   (benchmarks: ${benchmarks[*]})"
record=0
selected=()
for arg in "$@"; do
    case $arg in
        --record) record=1 ;;
        -h | --help) echo "$usage"; exit 0 ;;
        -*) echo "$usage" >&2; exit 2 ;;
        *)
            [[ " ${benchmarks[*]} " == *" $arg "* ]] || { echo "unknown benchmark '$arg'; $usage" >&2; exit 2; }
            selected+=("$arg")
            ;;
    esac
done
((${#selected[@]})) || selected=("${benchmarks[@]}")

worse_factor=1.5
doc="$PRESENCE_ROOT/docs/benchmarks.md"
section="## Quick run: tools/bench.sh"
table_header="| benchmark | figure | unit | better | last | date | commit |"
build_name=bench-quick
build="$PRESENCE_ROOT/build/$build_name"
bin="$build/bench"
logs="$build/bench-logs"

# What each benchmark runs at its quick size, and says of itself in the progress line.
describe() {
    case $1 in
        bench_model_load) echo "100,000 friends, 5 runs: load, proxy, view, 4 reloads on the client's view" ;;
        bench_presence_storm) echo "100,000 friends, 5,000 events/s for 3 s per sort mode, the client's view" ;;
        bench_scroll_subscriptions) echo "100,000 rows, scroll top to bottom in 2 s, 2 runs" ;;
        bench_redis_snapshot) echo "10,000 users in a redis-server of its own, 10 runs" ;;
        bench_redis_fanout) echo "2 gateways x 500 connections, 20 friends, 500 changes/s for 8 s, its own redis-server" ;;
        bench_metrics_registry) echo "1,000,000 increments and 200 renders a round, 15 rounds" ;;
        bench_push_vs_polling) echo "200 clients, polling then push, 10 s windows" ;;
        bench_availability_cost) echo "1,000 clients, churn 100/s, rows then rows + availability, 10 s windows" ;;
        gateway-vs-peer) echo "2,000 connections x 20 friends, 500 changes/s for 5 s, 2 runs; ours, Node ws, Bun" ;;
    esac
}
# command_for NAME: sets `command` to what runs it.
command_for() {
    case $1 in
        bench_model_load) command=("$bin/bench_model_load" --runs 5) ;;
        bench_presence_storm) command=("$bin/bench_presence_storm" --seconds 3 --runs 1) ;;
        bench_scroll_subscriptions) command=("$bin/bench_scroll_subscriptions" --runs 2) ;;
        bench_redis_snapshot) command=("$bin/bench_redis_snapshot" --runs 10) ;;
        bench_redis_fanout)
            command=("$bin/bench_redis_fanout" --connections 500 --friends 20 --rate 500 --seconds 8) ;;
        bench_metrics_registry) command=("$bin/bench_metrics_registry" --rounds 15) ;;
        bench_push_vs_polling)
            command=("$bin/bench_push_vs_polling" --seconds 10 --warmup-seconds 3 --baseline-seconds 0) ;;
        bench_availability_cost)
            # A brisker churn than its default: the gateway's CPU over 10 s is then tens of
            # clock ticks, not a handful.
            command=("$bin/bench_availability_cost" --clients 1000 --churn 100 --runs 1 --seconds 10
                --warmup-seconds 6) ;;
        gateway-vs-peer)
            # It installs its peers itself (Node ws, Bun from npm), leaves out one that does
            # not install, and shares this build.
            command=(env PRESENCE_BENCH_RUNS=2 PRESENCE_BENCH_MAX_CONNECTIONS=0
                PRESENCE_BENCH_OPTIONAL_PEERS=1 PRESENCE_BENCH_BUILD="$build_name"
                PRESENCE_BENCH_BUILD_TYPE=Release
                "$PRESENCE_ROOT/bench/gateway-vs-peer.sh" 2000 20 500 5) ;;
    esac
}

presence_ensure_packages "${PRESENCE_PACKAGES[@]}"
# The same options as gateway-vs-peer.sh gives it, so that neither configures it again.
presence_configure "$build_name" -DCMAKE_BUILD_TYPE=Release -DPRESENCE_BUILD_TESTS=OFF \
    -DPRESENCE_BUILD_TOOLS=OFF
presence_build_targets "$build_name" bench_model_load bench_presence_storm \
    bench_scroll_subscriptions bench_redis_snapshot bench_redis_fanout bench_metrics_registry \
    bench_push_vs_polling \
    bench_availability_cost presence-mock-server presence-loadgen presence-test-redis
mkdir -p "$logs"

# The last recorded figures: "figure value date commit" lines from the table.
last_recorded() {
    [[ -f $doc ]] || return 0
    awk -v section="$section" -v header="$table_header" '
        $0 == section { inside = 1; next }
        inside && /^## / { exit }
        inside && $0 == header { table = 1; next }
        table && !/^\|/ { exit }
        table && !/^\| *-/ {
            n = split($0, cell, "|")
            for (i = 2; i < n; i++) gsub(/^ +| +$/, "", cell[i])
            print cell[3], cell[6], cell[7], cell[8]
        }' "$doc"
}
declare -A last_value last_when
while read -r figure value date commit; do
    last_value[$figure]=$value
    last_when[$figure]="$date $commit"
done < <(last_recorded)

# compare NEW LAST BETTER: prints the factor by which NEW is worse than LAST (below 1: better).
compare() {
    awk -v new="$1" -v last="$2" -v better="$3" 'BEGIN {
        if (new <= 0 || last <= 0) { print "-"; exit }
        printf "%.2f", better == "higher" ? last / new : new / last }'
}

export QT_QPA_PLATFORM=offscreen
headlines="$logs/headlines.txt" # benchmark figure value unit better, this run
: >"$headlines"
worse=()
failed=()
started=$SECONDS
index=0
presence_log "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for name in "${selected[@]}"; do
    index=$((index + 1))
    log="$logs/$name.log"
    printf '[%d/%d] %s: %s ... ' "$index" "${#selected[@]}" "$name" "$(describe "$name")"
    begun=$SECONDS
    status=0
    command_for "$name"
    # Bounded: the slowest takes about a minute and a half here.
    (cd "$PRESENCE_ROOT" && timeout 600 "${command[@]}") >"$log" 2>&1 || status=$?
    lines=$(grep -E '^headline: [A-Za-z0-9_]+ -?[0-9.]+ [^ ]+ (lower|higher)$' "$log" || true)
    took=$((SECONDS - begun))
    if ((status != 0)); then
        reason="exit $status"
        ((status == 124)) && reason="timed out after 600 s"
        echo "FAILED ($reason, ${took} s; see build/$build_name/bench-logs/$name.log)"
        failed+=("$name")
        tail -n 5 "$log" | sed 's/^/    | /'
    elif [[ -z $lines ]]; then
        echo "no headline figures (${took} s; see build/$build_name/bench-logs/$name.log)"
        failed+=("$name")
    else
        echo "${took} s"
    fi
    # A peer that could not be installed is said so by the script; repeat it here.
    grep -o 'leaving out the [a-z]* peer: .*' "$log" | sed 's/\x1b\[[0-9;]*m//g; s/^/    note: /' || true
    while read -r _ figure value unit better; do
        [[ -n ${figure:-} ]] || continue
        printf '%s %s %s %s %s\n' "$name" "$figure" "$value" "$unit" "$better" >>"$headlines"
        last=${last_value[$figure]:-}
        if [[ -z $last ]]; then
            printf '    %-46s %10s %-7s (%s is better; nothing recorded yet)\n' "$figure" "$value" "$unit" "$better"
            continue
        fi
        factor=$(compare "$value" "$last" "$better")
        verdict=
        if [[ $factor != - ]] && awk -v f="$factor" -v w="$worse_factor" 'BEGIN { exit !(f > w) }'; then
            verdict="   <- WORSE by ${factor}x"
            worse+=("$figure ($value against $last $unit, ${factor}x worse)")
        fi
        printf '    %-46s %10s %-7s last %10s (%s)  worse by %sx%s\n' "$figure" "$value" "$unit" \
            "$last" "${last_when[$figure]}" "$factor" "$verdict"
    done <<<"$lines"
done
presence_log "benchmarks ran in $((SECONDS - started)) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"

if ((record)); then
    commit=$(git -C "$PRESENCE_ROOT" rev-parse --short HEAD)
    [[ -z $(git -C "$PRESENCE_ROOT" status --porcelain --untracked-files=no) ]] || commit+="+"
    python3 - "$doc" "$section" "$table_header" "$headlines" "$(date -u +%F)" "$commit" <<'PY' || presence_die "could not record into docs/benchmarks.md"
import sys
doc, section, header, headlines, date, commit = sys.argv[1:]
lines = open(doc).read().split("\n")
if section not in lines:
    sys.exit(f"no section '{section}' in {doc}")
start = lines.index(section) + 1
end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
if header not in lines[start:end]:
    sys.exit(f"no table headed '{header}' in the section")
# The table: its header, its separator, then rows up to the first line that is not one.
first = lines.index(header, start) + 2
last = first
while last < len(lines) and lines[last].startswith("|"):
    last += 1
table = lines[first:last]
keys = [row.split("|")[2].strip() for row in table]
for line in open(headlines).read().splitlines():
    name, figure, value, unit, better = line.split()
    row = f"| {name} | {figure} | {unit} | {better} | {value} | {date} | {commit} |"
    if figure in keys:
        table[keys.index(figure)] = row
    else:
        table.append(row)
        keys.append(figure)
lines[first:last] = table
open(doc, "w").write("\n".join(lines))
PY
    presence_log "recorded $(wc -l <"$headlines") figures in docs/benchmarks.md ($commit)"
fi

if ((${#failed[@]})); then
    echo "failed: ${failed[*]}"
fi
if ((${#worse[@]})); then
    echo "worse by more than ${worse_factor}x than last recorded:"
    printf '  %s\n' "${worse[@]}"
else
    echo "no figure worse by more than ${worse_factor}x than last recorded"
fi
((${#failed[@]} == 0 && ${#worse[@]} == 0))
