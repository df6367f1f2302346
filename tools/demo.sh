#!/usr/bin/env bash
# The demo: a presence gateway with a generated population on ws://127.0.0.1:8765/.
# Installs what is missing, builds, then runs in the foreground (Ctrl+C stops it).
# PRESENCE_DEMO_PORT changes the port; PRESENCE_DEMO_USERS the population size.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

presence_ensure_packages "${PRESENCE_PACKAGES[@]}"
presence_build demo -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPRESENCE_BUILD_TESTS=OFF

port=${PRESENCE_DEMO_PORT:-8765}
users=${PRESENCE_DEMO_USERS:-500}
users_file="$PRESENCE_ROOT/build/demo/demo-users.json"

cat <<TEXT

Presence Chat demo: $users generated users, each with 50 friends.
Their tokens (local QA only) are written to build/demo/demo-users.json.
Until the desktop client lands, talk to the gateway with any WebSocket client, e.g.:
    websocat ws://127.0.0.1:$port/
then send (the token of user0 is the first "token" in that file):
    {"type":"hello","token":"TOKEN","protocol":1,"client":"websocat/1"}
    {"type":"friends","limit":10}
    {"type":"subscribe","ids":["<ids from the friends reply>"]}
A second WebSocket client logged in as one of those friends (its token is in the same
file) makes a "presence" frame arrive: online now, offline 5 s after it leaves.
docs/protocol.md describes every message.

TEXT
exec "$PRESENCE_ROOT/build/demo/server-mock/presence-mock-server" \
    --listen "127.0.0.1:$port" --generate "$users" --friends 50 --seed 1 \
    --dump-users "$users_file"
