#!/usr/bin/env bash
# The demo: a presence gateway with a generated population that comes and goes (churn) on
# ws://127.0.0.1:8765/ and the desktop client signed in as user0. Installs what is missing and
# builds first.
#   tools/demo.sh          one client, user0
#   tools/demo.sh --pair   two clients side by side: user0 and user2, who are friends
# PRESENCE_DEMO_PORT changes the port; PRESENCE_DEMO_USERS the population size;
# PRESENCE_DEMO_CHURN the presence changes per second across the population (0: none).
# Files in build/demo are named by port (gateway-8765.log, demo-users-8765.json,
# client-8765-user0.log), so demos on two ports keep their own; the terminal stays quiet:
# the clients' log lines go to their log file (the last lines are shown if a client fails).
set -euo pipefail
pair=false
case "${1:-}" in
    "") ;;
    --pair) pair=true ;;
    *) echo "usage: $0 [--pair]" >&2; exit 2 ;;
esac
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

presence_ensure_packages "${PRESENCE_PACKAGES[@]}"
presence_build demo -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPRESENCE_BUILD_TESTS=OFF \
    -DPRESENCE_BUILD_BENCHMARKS=OFF

port=${PRESENCE_DEMO_PORT:-8765}
users=${PRESENCE_DEMO_USERS:-2000}
churn=${PRESENCE_DEMO_CHURN:-20}
[[ $churn =~ ^[0-9]+([.][0-9]+)?$ ]] || presence_die "PRESENCE_DEMO_CHURN must be a number (got $churn)"
churn_args=()
[[ $churn != 0 ]] && churn_args=(--churn "$churn")
demo="$PRESENCE_ROOT/build/demo"
users_file="$demo/demo-users-$port.json"
gateway_log="$demo/gateway-$port.log"
# demo-token.sh reads the users file of this port.
export PRESENCE_DEMO_PORT=$port

# Another gateway (an earlier demo still running) would answer our client with its own users.
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    presence_die "port $port is already in use (another demo still running?); stop it, or set PRESENCE_DEMO_PORT"
fi
rm -f "$users_file"
"$demo/server-mock/presence-mock-server" --listen "127.0.0.1:$port" --generate "$users" \
    --friends 300 --seed 1 --dump-users "$users_file" "${churn_args[@]}" >"$gateway_log" 2>&1 &
gateway=$!
pids=("$gateway")
# Everything started here stops with the script, however it ends; what they say on the way
# out does not change the script's exit status.
stop_all() {
    kill "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
}
trap stop_all EXIT
# Ready when it says so in its log, not when some users file exists.
for _ in $(seq 150); do
    grep -q "listening on" "$gateway_log" 2>/dev/null && break
    kill -0 "$gateway" 2>/dev/null || break
    sleep 0.1
done
grep -q "listening on" "$gateway_log" 2>/dev/null \
    || presence_die "the gateway did not start; its log, $gateway_log, says: $(tail -n 3 "$gateway_log")"

cat <<TEXT

Presence Chat demo: $users generated users with 300 friends each on ws://127.0.0.1:$port/,
about $churn presence changes per second among them (simulated users: they come online, go
away, leave). user0's list is "online first" from the start; hover the status bar to see how
few rows are watched exactly. Logs: build/demo/gateway-$port.log and
build/demo/client-$port-USER.log. Tokens (local QA only) are in
build/demo/demo-users-$port.json. Open a second client as one of
user0's friends to watch a dot turn green, then amber (set Away), then gray 5 s after it quits:
    build/demo/app/presence-chat --server ws://127.0.0.1:$port/ --token-file \$(PRESENCE_DEMO_PORT=$port tools/demo-token.sh USER)
Any WebSocket client works too: docs/protocol.md.

TEXT

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
    echo "No display: the gateway runs alone; Ctrl+C stops it."
    wait "$gateway" || true
    exit 0
fi
client=("$demo/app/presence-chat" --server "ws://127.0.0.1:$port/")
token_of() { "$PRESENCE_ROOT/tools/demo-token.sh" "$1"; }
log_of() { echo "$demo/client-$port-$1.log"; }
status=0
if $pair; then
    # Started directly, not through a function: $! is the client itself, so the trap stops it.
    "${client[@]}" --token-file "$(token_of user2)" --geometry 600x760+640+40 \
        >"$(log_of user2)" 2>&1 &
    pids+=($!)
    "${client[@]}" --token-file "$(token_of user0)" --geometry 600x760+20+40 \
        >"$(log_of user0)" 2>&1 || status=$?
else
    "${client[@]}" --token-file "$(token_of user0)" >"$(log_of user0)" 2>&1 || status=$?
fi
if [[ $status != 0 ]]; then
    echo "The client ended with status $status; the end of $(log_of user0):" >&2
    tail -n 5 "$(log_of user0)" >&2
fi
exit "$status"
