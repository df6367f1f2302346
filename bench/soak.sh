#!/usr/bin/env bash
# bench/soak.sh [MINUTES] [CONNECTIONS]: the gateway under a long churn, in two phases.
# Every minute CONNECTIONS clients (presence-loadgen) sign in, subscribe to half of their 50
# friends and scroll through the other half (a window of 8 ids moved every 2 s), change status
# for 45 s, and leave; beside them the gateway's simulated users (the population's other half)
# churn presence all along. After each minute the gateway must be back to 0 connections and 0
# subscriptions (its /metrics), and the clients must have lost no push and met no error.
#   1. Memory: the gateway as users run it (RelWithDebInfo, build/bench) for MINUTES; prints
#      its resident memory after each minute and fails if it grows by more than 10 % from the
#      second minute on.
#   2. Leaks: the gateway built with AddressSanitizer and LeakSanitizer (build/asan, as the
#      test command's sanitized stage builds it) for PRESENCE_SOAK_ASAN_MINUTES (default 2) with
#      at most 1,000 of the connections (it is several times slower); fails on any finding, and
#      if LeakSanitizer finds a leak when the gateway exits.
# Defaults: 10 minutes, 5,000 connections. Not part of the test command: it takes the minutes
# (docs/hardening.md, "Soak"). Environment: PRESENCE_SOAK_RATE (status changes per second
# from the clients, default 200), PRESENCE_SOAK_CHURN (presence changes per second of
# simulated users, default 200).
set -euo pipefail
usage="usage: $0 [MINUTES] [CONNECTIONS]   (defaults: 10 5000)"
minutes=${1:-10}
connections=${2:-5000}
[[ $minutes =~ ^[1-9][0-9]*$ && $connections =~ ^[1-9][0-9]*$ ]] || { echo "$usage" >&2; exit 2; }
((connections <= 9000)) || { echo "$0: at most 9,000 connections (descriptors on both sides)" >&2; exit 2; }
rate=${PRESENCE_SOAK_RATE:-200}
churn=${PRESENCE_SOAK_CHURN:-200}
asan_minutes=${PRESENCE_SOAK_ASAN_MINUTES:-2}
for value in "$rate" "$churn" "$asan_minutes"; do
    [[ $value =~ ^[0-9]+$ ]] || { echo "$0: PRESENCE_SOAK_* values are whole numbers" >&2; exit 2; }
done
((churn > 0)) || { echo "$0: PRESENCE_SOAK_CHURN must be above 0" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/../tools/common.sh"

presence_ensure_packages "${PRESENCE_PACKAGES[@]}"
presence_ensure_packages curl # reads the gateway's /metrics: the soak's own need
presence_log "building the gateway and presence-loadgen (build/bench), and the sanitized gateway (build/asan)"
cmake -S "$PRESENCE_ROOT" -B "$PRESENCE_ROOT/build/bench" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPRESENCE_BUILD_TESTS=OFF -DPRESENCE_BUILD_TOOLS=OFF >/dev/null || presence_die "cmake configure failed"
cmake --build "$PRESENCE_ROOT/build/bench" --parallel "$(nproc)" --target presence-mock-server \
    presence-loadgen || presence_die "build failed"
presence_configure asan -DCMAKE_BUILD_TYPE=Debug -DPRESENCE_WARNINGS_AS_ERRORS=ON \
    -DPRESENCE_BUILD_TESTS=ON -DPRESENCE_BUILD_BENCHMARKS=OFF -DPRESENCE_BUILD_TOOLS=OFF \
    -DPRESENCE_SANITIZE=address,undefined
presence_build_targets asan presence-mock-server
loadgen="$PRESENCE_ROOT/build/bench/bench/presence-loadgen"

ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
work=$(mktemp -d)
gateway_pid=
cleanup() {
    [[ -z $gateway_pid ]] || kill -9 "$gateway_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# Any sanitizer finding stops the gateway, and a leak fails its exit.
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

metric() { # metric NAME: its value in the gateway's /metrics
    curl -sf "$admin/metrics" | awk -v name="$1" '$1 == name { print $2 }'
}
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$gateway_pid/status"; }

# soak BINARY MINUTES CONNECTIONS CHECK_MEMORY: one phase; sets status to 1 on any failure.
soak() {
    local binary=$1 phase_minutes=$2 clients=$3 check_memory=$4
    local log="$work/gateway.log"
    # The clients are the population's first half; the churn plays the second.
    "$binary" --generate "$((2 * connections))" --friends 50 --seed 1 --dump-users "$work/users.json" \
        --listen 127.0.0.1:0 --admin 127.0.0.1:0 --churn "$churn" >"$log" 2>&1 &
    gateway_pid=$!
    for _ in $(seq 600); do
        grep -q 'admin API on' "$log" && break
        kill -0 "$gateway_pid" 2>/dev/null || break
        sleep 0.1
    done
    local url
    url=$(grep -o 'ws://127\.0\.0\.1:[0-9]*/' "$log" | head -n 1) \
        || presence_die "the gateway did not start: $(tail -n 5 "$log")"
    admin=$(grep -o 'admin API on http://127\.0\.0\.1:[0-9]*' "$log" | head -n 1 | cut -d' ' -f4) \
        || presence_die "the gateway's admin API did not start: $(tail -n 5 "$log")"

    printf '%-7s %-10s %-11s %-12s %-14s %-9s %s\n' minute "RSS (MiB)" "peak (MiB)" connections \
        subscriptions pushes loadgen
    local first_rss= minute
    for minute in $(seq "$phase_minutes"); do
        local started=$SECONDS output
        if ! output=$(timeout 300 "$loadgen" --url "$url" --users "$work/users.json" \
            --connections "$clients" --rate "$rate" --seconds 45 --scroll 2 \
            --gateway-pid "$gateway_pid" 2>&1); then
            status=1
            printf '%s\n' "$output" | grep -E 'errors; the first|lost|FAIL' >&2 || true
        fi
        local line held subs rss peak pushes verdict
        line=$(printf '%s\n' "$output" | tail -n 1)
        # Everyone has left: the gateway holds no connection and no subscription.
        for _ in $(seq 100); do
            [[ $(metric presence_connections) == 0 && $(metric presence_subscriptions) == 0 ]] && break
            sleep 0.1
        done
        held=$(metric presence_connections) subs=$(metric presence_subscriptions)
        if [[ $held != 0 || $subs != 0 ]]; then
            presence_log "minute $minute: $held connections and $subs subscriptions left after the clients went"
            status=1
        fi
        rss=$(rss_kib)
        peak=$(sed -n 's/.*"gateway_rss_kib":\([0-9.eE+-]*\).*/\1/p' <<<"$line")
        pushes=$(sed -n 's/.*"received":\([0-9]*\).*/\1/p' <<<"$line")
        verdict=$(printf '%s\n' "$output" | grep -oE '^  (PASS|FAIL)$' | tr -d ' ' || true)
        printf '%-7s %-10s %-11s %-12s %-14s %-9s %s\n' "$minute" "$((rss / 1024))" \
            "$(awk -v k="${peak:-0}" 'BEGIN { printf "%d", k / 1024 }')" "$held" "$subs" \
            "${pushes:-?}" "${verdict:-?}"
        ((minute == 2)) && first_rss=$rss
        if ((check_memory)) && [[ -n $first_rss ]] && ((rss * 10 > first_rss * 11)); then
            presence_log "minute $minute: RSS $((rss / 1024)) MiB, more than 10 % over minute 2's $((first_rss / 1024)) MiB"
            status=1
        fi
        # Whatever is left of the minute: the next one starts on the minute.
        ((SECONDS - started >= 60)) || sleep $((60 - (SECONDS - started)))
    done

    # A clean exit: LeakSanitizer (when built in) looks for leaks as the process ends.
    kill -TERM "$gateway_pid"
    if wait "$gateway_pid"; then
        presence_log "the gateway exited cleanly"
    else
        status=1
        presence_log "the gateway's exit failed:"
        grep -A 20 -E 'LeakSanitizer|AddressSanitizer|runtime error' "$log" | head -n 60 >&2 || true
    fi
    gateway_pid=
}

status=0
presence_log "memory: $minutes minute(s), $connections connections, $rate changes/s, churn $churn/s (RelWithDebInfo)"
soak "$PRESENCE_ROOT/build/bench/server-mock/presence-mock-server" "$minutes" "$connections" 1
if ((asan_minutes > 0)); then
    asan_connections=$((connections < 1000 ? connections : 1000))
    presence_log "leaks: $asan_minutes minute(s), $asan_connections connections (AddressSanitizer, LeakSanitizer)"
    soak "$PRESENCE_ROOT/build/asan/server-mock/presence-mock-server" "$asan_minutes" "$asan_connections" 0
fi
if ((status == 0)); then
    presence_log "soak passed"
else
    presence_log "soak failed"
fi
exit "$status"
