#!/usr/bin/env bash
# The demo: a presence gateway with a generated population that comes and goes (churn) on
# ws://127.0.0.1:8765/ and the desktop client signed in as user0. Installs what is missing and
# builds first.
#   tools/demo.sh          one client, user0
#   tools/demo.sh --pair   two clients side by side: user0 and user2, who are friends
# PRESENCE_DEMO_PORT changes the port; PRESENCE_DEMO_USERS the population size;
# PRESENCE_DEMO_CHURN the presence changes per second across the population (0: none).
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
users_file="$demo/demo-users.json"

"$demo/server-mock/presence-mock-server" --listen "127.0.0.1:$port" --generate "$users" \
    --friends 300 --seed 1 --dump-users "$users_file" "${churn_args[@]}" &
gateway=$!
trap 'kill "$gateway" 2>/dev/null; wait "$gateway" 2>/dev/null' EXIT
for _ in $(seq 100); do [[ -s "$users_file" ]] && break; sleep 0.1; done
kill -0 "$gateway" 2>/dev/null || presence_die "the gateway did not start (is port $port taken?)"

cat <<TEXT

Presence Chat demo: $users generated users with 300 friends each on ws://127.0.0.1:$port/,
about $churn presence changes per second among them (simulated users: they come online, go
away, leave). Scroll user0's list: the status bar's "K subscribed" follows the rows on screen.
Tokens (local QA only) are in build/demo/demo-users.json. Open a second client as one of
user0's friends to watch a dot turn green, then amber (set Away), then gray 5 s after it quits:
    build/demo/app/presence-chat --server ws://127.0.0.1:$port/ --token-file \$(tools/demo-token.sh USER)
Any WebSocket client works too: docs/protocol.md.

TEXT

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
    echo "No display: the gateway runs alone; Ctrl+C stops it."
    wait "$gateway"
    exit 0
fi
client() { # USER [Qt arguments]
    local user=$1
    shift
    "$demo/app/presence-chat" --server "ws://127.0.0.1:$port/" \
        --token-file "$("$PRESENCE_ROOT/tools/demo-token.sh" "$user")" "$@"
}
if $pair; then
    client user2 --geometry 600x760+640+40 &
    second=$!
    trap 'kill "$second" "$gateway" 2>/dev/null; wait "$gateway" 2>/dev/null' EXIT
    client user0 --geometry 600x760+20+40
else
    client user0
fi
