#!/usr/bin/env bash
# demo-token.sh USER: writes the demo population's token of USER to a private file and
# prints its path, for presence-chat --token-file. Run tools/demo.sh first. The demo on
# PRESENCE_DEMO_PORT (8765 unless set) is the one asked: each port has its own users file.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
port=${PRESENCE_DEMO_PORT:-8765}
[[ $port =~ ^[0-9]{1,5}$ ]] || { echo "PRESENCE_DEMO_PORT must be a port number (got $port)" >&2; exit 2; }
users_file="$root/build/demo/demo-users-$port.json"
[[ $# -eq 1 && $1 =~ ^[A-Za-z0-9._-]{1,64}$ ]] || { echo "usage: $0 USER (e.g. user42)" >&2; exit 2; }
[[ -f "$users_file" ]] || { echo "no $users_file: run tools/demo.sh (on port $port) first" >&2; exit 1; }
file="$root/build/demo/$1-$port.token"
(umask 077 && grep -A3 "\"id\": \"$1\"" "$users_file" | sed -n 's/.*"token": "\(.*\)".*/\1/p' > "$file")
[[ -s "$file" ]] || { echo "no user $1 in $users_file" >&2; exit 1; }
echo "$file"
