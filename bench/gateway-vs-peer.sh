#!/usr/bin/env bash
# bench/gateway-vs-peer.sh N K RATE SECONDS: our gateway (presence-mock-server, RelWithDebInfo)
# against a Node `ws` peer of the same protocol subset (bench/peer/ws-gateway.js), under the
# same load from presence-loadgen, in one sitting: N connections, each subscribed to its K
# friends, RATE status changes per second for SECONDS. Prints each figure's median with the
# ratio ours/peer (docs/benchmarks.md, "Gateway against a Node ws peer").
# Environment: PRESENCE_BENCH_RUNS (load runs per gateway, default 3),
# PRESENCE_BENCH_MAX_CONNECTIONS (the most connections tried, default 19000; 0 skips that step),
# PRESENCE_BENCH_THREADS (load generator threads, default 2),
# PRESENCE_BENCH_GATEWAY_ARGS (extra options for our gateway, split on spaces, for example
# --event-loop=qt), PRESENCE_BENCH_SYSCALLS (1: count each gateway's system calls with
# `perf stat` over every window of changes and print them per push received; perf's own cost
# then weighs on the other figures, so measure them without it).
set -euo pipefail
usage="usage: $0 N K RATE SECONDS   (for example: $0 10000 50 1000 20)"
(($# == 4)) || { echo "$usage" >&2; exit 2; }
for value in "$@"; do [[ $value =~ ^[0-9]+$ ]] || { echo "$usage" >&2; exit 2; }; done
connections=$1 friends=$2 rate=$3 seconds=$4
runs=${PRESENCE_BENCH_RUNS:-3}
max_connections=${PRESENCE_BENCH_MAX_CONNECTIONS:-19000}
threads=${PRESENCE_BENCH_THREADS:-2}
read -r -a gateway_args <<<"${PRESENCE_BENCH_GATEWAY_ARGS:-}"
count_syscalls=${PRESENCE_BENCH_SYSCALLS:-0}
source "$(dirname "${BASH_SOURCE[0]}")/../tools/common.sh"
# Sends are write, writev, sendto and sendmsg (QTcpSocket writes, libuv writes or writevs).
syscall_events=raw_syscalls:sys_enter
for call in write writev sendto sendmsg read readv recvfrom epoll_wait epoll_ctl poll ppoll; do
    syscall_events+=",syscalls:sys_enter_$call"
done
if ((count_syscalls)); then
    perf stat -e "$syscall_events" -- true >/dev/null 2>&1 \
        || presence_die "PRESENCE_BENCH_SYSCALLS=1 needs perf with syscall tracepoints (Debian: linux-perf)"
fi

# The peer's runtime is the benchmark's own business, never the test command's.
presence_ensure_packages "${PRESENCE_PACKAGES[@]}" nodejs node-ws
export NODE_PATH=/usr/share/nodejs
node -e "require('ws')" 2>/dev/null || presence_die "node cannot load 'ws' (NODE_PATH=$NODE_PATH)"

# Only the two programs measured, optimised as a user would run them.
build="$PRESENCE_ROOT/build/bench"
presence_log "configuring and building build/bench (RelWithDebInfo)"
cmake -S "$PRESENCE_ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPRESENCE_BUILD_TESTS=OFF -DPRESENCE_BUILD_TOOLS=OFF >/dev/null || presence_die "cmake configure failed"
cmake --build "$build" --parallel "$(nproc)" --target presence-mock-server presence-loadgen \
    || presence_die "build failed"
ours_bin="$build/server-mock/presence-mock-server"
loadgen="$build/bench/presence-loadgen"
peer_js="$PRESENCE_ROOT/bench/peer/ws-gateway.js"

# Every connection is a descriptor, on both sides: take what the hard limit allows.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
fd_limit=$(ulimit -n)
work=$(mktemp -d)
gateway_pid=
stop_gateway() {
    [[ -n $gateway_pid ]] || return 0
    kill "$gateway_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$gateway_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$gateway_pid" 2>/dev/null || true
    wait "$gateway_pid" 2>/dev/null || true
    gateway_pid=
}
trap 'stop_gateway; rm -rf "$work"' EXIT

# start_gateway ours|peer USERS_FILE LOG: sets gateway_pid and gateway_url (a free port).
start_gateway() {
    local kind=$1 users=$2 log=$3
    if [[ $kind == ours ]]; then
        # Ours makes the same population itself (same generator and seed): the freed memory of
        # a parsed users file stays resident and new connections reuse it, so its RSS per
        # connection would read several times too low.
        local population=(--users "$users")
        [[ -z ${generated[$users]:-} ]] || read -ra population <<<"${generated[$users]}"
        "$ours_bin" "${population[@]}" --listen 127.0.0.1:0 "${gateway_args[@]}" >"$log" 2>&1 &
    else
        node "$peer_js" --users "$users" --listen 127.0.0.1:0 >"$log" 2>&1 &
    fi
    gateway_pid=$!
    for _ in $(seq 300); do
        grep -q 'listening on ws://' "$log" && break
        kill -0 "$gateway_pid" 2>/dev/null || break
        sleep 0.1
    done
    gateway_url=$(grep -o 'ws://127\.0\.0\.1:[0-9]*/' "$log" | head -n 1) \
        || presence_die "the $kind gateway did not start: $(tail -n 3 "$log")"
}

# make_users COUNT FRIENDS FILE: a generated population (the gateway's own generator, seed 1).
declare -A generated # users file -> the options that generate it again
make_users() {
    generated[$3]="--generate $1 --friends $2 --seed 1"
    local log="$work/generate.log"
    "$ours_bin" --generate "$1" --friends "$2" --seed 1 --dump-users "$3" --listen 127.0.0.1:0 \
        >"$log" 2>&1 &
    gateway_pid=$!
    for _ in $(seq 600); do grep -q 'listening on' "$log" && break; sleep 0.1; done
    stop_gateway
    [[ -s $3 ]] || presence_die "could not generate users: $(tail -n 3 "$log")"
}

# count_during_changes MARK_FILE OUT_FILE: with PRESENCE_BENCH_SYSCALLS, counts the gateway's
# system calls from the load generator's "changing" mark to its "stopped" mark (CSV in OUT_FILE).
count_during_changes() {
    local mark=$1 out=$2
    # The run may end without changes (idle connections): "$mark.end" then says so.
    for _ in $(seq 24000); do grep -qs changing "$mark" || [[ -e $mark.end ]] && break; sleep 0.05; done
    grep -qs changing "$mark" || return 0
    perf stat -x, -e "$syscall_events" -p "$gateway_pid" -o "$out" -- \
        bash -c "for _ in \$(seq 24000); do grep -qs stopped '$mark' && break; sleep 0.05; done" \
        >/dev/null 2>&1 || true
}

# load KIND RESULT_FILE LOADGEN_ARGS...: one fresh gateway, one load generator run; the JSON
# line goes to RESULT_FILE, the summary to the terminal (and the system calls next to it).
load() {
    local kind=$1 result=$2
    shift 2
    start_gateway "$kind" "$work/users.json" "$work/$kind.log"
    local output mark="$work/$kind.mark" counter=
    rm -f "$mark" "$mark.end"
    if ((count_syscalls)); then
        count_during_changes "$mark" "${result%.json}.syscalls" &
        counter=$!
    fi
    output=$(timeout 900 "$loadgen" --url "$gateway_url" --users "$work/users.json" \
        --gateway-pid "$gateway_pid" --threads "$threads" --mark "$mark" "$@") || true
    touch "$mark.end"
    [[ -z $counter ]] || wait "$counter" || true
    stop_gateway
    sed -n '/^{/!s/^/    /p' <<<"$output" | sed "1s/^    /  [$kind] /"
    grep '^{' <<<"$output" | tail -n 1 >"$result" || presence_die "no result from presence-loadgen"
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
presence_log "machine: $(nproc) cores ($cpu), $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg), open-file limit $fd_limit"
presence_log "our gateway's extra options: ${gateway_args[*]:-(none)}"
presence_log "load: $connections connections, $friends friends each, $rate changes/s for $seconds s; $runs runs per gateway, taken in turn"
make_users "$connections" "$friends" "$work/users.json"

# PRESENCE_BENCH_RUNS=0 leaves only the step below (a long measurement can be split in two).
for kind in ours peer; do
    ((runs > 0)) || break
    presence_log "$kind: $connections idle connections (hello and welcome only)"
    load "$kind" "$work/$kind-idle.json" --no-subscribe --seconds 0
done
for run in $(seq "$runs"); do
    for kind in ours peer; do
        presence_log "$kind: run $run of $runs"
        load "$kind" "$work/$kind-load-$run.json" --rate "$rate" --seconds "$seconds"
    done
done

# The most connections one gateway holds: idle connections from two load generator processes
# (each below its own descriptor limit), within 120 s, below the gateway's descriptor limit.
if ((max_connections > 0)); then
    most=$((fd_limit - 1000 < max_connections ? fd_limit - 1000 : max_connections))
    make_users "$most" 1 "$work/many.json"
    half=$((most / 2))
    for kind in ours peer; do
        presence_log "$kind: up to $most connections from two load generators"
        start_gateway "$kind" "$work/many.json" "$work/$kind-many.log"
        pids=()
        for part in 0 1; do
            timeout 300 "$loadgen" --url "$gateway_url" --users "$work/many.json" --no-subscribe \
                --seconds 0 --first-user $((part * half)) --connections $((most - half))  \
                --connect-timeout 120 --threads 1 --sources 16 >"$work/$kind-many-$part.out" 2>&1 &
            pids+=($!)
        done
        wait "${pids[@]}" || true
        stop_gateway
        for part in 0 1; do grep '^{' "$work/$kind-many-$part.out" | tail -n 1; done \
            >"$work/$kind-many.json"
    done
fi

python3 - "$work" "$runs" "$friends" <<'PY'
import json, statistics, sys
from pathlib import Path
work, runs, friends = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
def read(name):
    path = work / name
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []
def median(kind, key, runs_of="load"):
    values = [r[key] for i in range(1, runs + 1) for r in read(f"{kind}-{runs_of}-{i}.json") if r.get(key) is not None]
    return (statistics.median(values), values) if values else (None, [])
rows = []
def row(label, ours, peer, unit, digits=2, ratio=True):
    o, p = ours, peer
    text = lambda v: "-" if v is None else f"{v:.{digits}f}"
    r = f"{o / p:.2f}x" if ratio and o is not None and p not in (None, 0) else "-"
    if o is None and p is None:
        return
    rows.append((label, text(o) + unit, text(p) + unit, r))
for label, key, unit, digits in [
        ("connect storm (connected, welcomed, subscribed)", "storm_s", " s", 2),
        (f"RSS per connection, {friends} subscriptions", "gateway_rss_per_connection_kib", " KiB", 1),
        ("change -> watcher p50", "p50_ms", " ms", 2),
        ("change -> watcher p99", "p99_ms", " ms", 2),
        ("change -> watcher p99.9", "p999_ms", " ms", 2),
        ("gateway CPU over the changes", "gateway_cpu_pct", " % core", 1)]:
    if key == "gateway_rss_per_connection_kib":
        idle = [read(f"{k}-idle.json") for k in ("ours", "peer")]
        row("RSS per connection, idle", *[(v[0].get(key) if v else None) for v in idle], " KiB", 1)
    row(label, median("ours", key)[0], median("peer", key)[0], unit, digits)
lost = {k: sum(r["lost"] for i in range(1, runs + 1) for r in read(f"{k}-load-{i}.json")) for k in ("ours", "peer")}
expected = {k: sum(r["expected"] for i in range(1, runs + 1) for r in read(f"{k}-load-{i}.json")) for k in ("ours", "peer")}
if expected["ours"] or expected["peer"]:
    rows.append(("pushes lost (all runs)", f"{lost['ours']} of {expected['ours']}", f"{lost['peer']} of {expected['peer']}", "-"))
def syscalls(kind, i):
    path = work / f"{kind}-load-{i}.syscalls"
    counts = {}
    if path.exists():
        for line in path.read_text().splitlines():
            fields = line.split(",")
            if len(fields) > 2 and fields[0].strip().isdigit():
                counts[fields[2].split(":")[-1].removeprefix("sys_enter_")] = int(fields[0])
    return counts
def per_push(kind, calls):
    values = []
    for i in range(1, runs + 1):
        counts, result = syscalls(kind, i), read(f"{kind}-load-{i}.json")
        if counts and result and result[0].get("received"):
            values.append(sum(counts.get(c, 0) for c in calls) / result[0]["received"])
    return statistics.median(values) if values else None
for label, calls in [("system calls per push (all)", ["sys_enter"]),
                     ("  sends (write, writev, sendto, sendmsg)", ["write", "writev", "sendto", "sendmsg"]),
                     ("  epoll_ctl", ["epoll_ctl"]),
                     ("  epoll_wait, poll, ppoll", ["epoll_wait", "poll", "ppoll"]),
                     ("  reads (read, readv, recvfrom)", ["read", "readv", "recvfrom"])]:
    row(label, per_push("ours", calls), per_push("peer", calls), "", 3)
row("presence-loadgen CPU over the changes", median("ours", "loadgen_cpu_pct")[0], median("peer", "loadgen_cpu_pct")[0], " % core", 1, ratio=False)
many = {k: read(f"{k}-many.json") for k in ("ours", "peer")}
if many["ours"] or many["peer"]:
    held = {k: sum(r["ready"] for r in v) if v else None for k, v in many.items()}
    tried = sum(r["connections"] for r in many["ours"] or many["peer"])
    row(f"most connections held (of {tried} tried, 120 s)", held["ours"], held["peer"], "", 0)
    took = {k: max(r["storm_s"] for r in v) if v else None for k, v in many.items()}
    row("  time to open and welcome them", took["ours"], took["peer"], " s", 2)
width = max(len(r[0]) for r in rows)
print(f"\n{'figure':<{width}}  {'ours':>16}  {'peer (Node ws)':>16}  {'ours/peer':>9}")
for label, o, p, r in rows:
    print(f"{label:<{width}}  {o:>16}  {p:>16}  {r:>9}")
print("\nmedians of the runs; every run:" if runs else "")
for key in ("storm_s", "p50_ms", "p99_ms", "p999_ms", "gateway_cpu_pct", "lost"):
    for kind in ("ours", "peer"):
        values = [r.get(key) for i in range(1, runs + 1) for r in read(f"{kind}-load-{i}.json")]
        if not values:
            continue
        print(f"  {key:<16} {kind:<5} " + ", ".join("-" if v is None else f"{v:.2f}" if isinstance(v, float) else str(v) for v in values))
PY
presence_log "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
