#!/usr/bin/env bash
# tools/check-includes.sh [ROOT]: fails (exit 1) when a source file includes a layer it must
# not: dependencies point one way (README "Development"), and the client never includes the
# gateway nor the gateway the client. Only includes written from the repository root
# ("models/FriendListModel.h") are checked; a folder may always include itself.
# The test command runs it over the repository (CTest include_direction).
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

# Folder (the deepest that applies) -> the folders (or single files) its files may include,
# besides itself.
declare -A allowed=(
    [protocol]=""
    [models]=""
    [session]="models protocol"
    # Widgets never see the gateway session: app/ wires them to it. ChatController (the chats'
    # state, in session/) is the one exception left.
    [ui]="models protocol session/ChatController.h"
    [app]="models protocol session ui"
    # The event loop sits below everything and includes nothing of ours.
    [server-mock/loop]=""
    [server-mock/core]="protocol"
    # Pure over bytes, Qt Core only: the HTTP request head, read for http/ and websocket/ alike.
    [server-mock/httphead]=""
    # Pure over bytes: Qt Core and the head reader only (the transport builds on it).
    [server-mock/websocket]="server-mock/httphead"
    [server-mock/metrics]="server-mock/core protocol"
    [server-mock/http]="server-mock/httphead server-mock/core protocol"
    [server-mock/directory]="protocol"
    [server-mock/presence]="server-mock/core protocol"
    [server-mock/chat]="protocol"
    [server-mock/redis/client]="server-mock/core protocol"
    [server-mock/redis]="server-mock/redis/client server-mock/presence server-mock/chat server-mock/core protocol"
    [server-mock/transport]="server-mock/websocket"
    [server-mock/server]="server-mock/transport server-mock/presence server-mock/chat server-mock/directory server-mock/metrics server-mock/core protocol"
    [server-mock/qa]="server-mock/server server-mock/transport server-mock/presence server-mock/chat server-mock/directory server-mock/metrics server-mock/core protocol"
    [server-mock/admin]="server-mock/http server-mock/server server-mock/qa server-mock/presence server-mock/core protocol"
    [server-mock/app]="server-mock protocol"
)
# The project's own top-level folders: an include starting with one of them is checked.
project='^(protocol|models|session|ui|app|resources|server-mock|tests|tools|bench)/'

# The rule of a file: its deepest folder with one.
rule_of() {
    local dir=$1
    while [[ -n $dir && $dir != . ]]; do
        [[ -v allowed[$dir] ]] && { echo "$dir"; return; }
        dir=$(dirname "$dir")
    done
}

failures=0
checked=0
while IFS= read -r -d '' file; do
    relative=${file#"$root"/}
    folder=$(rule_of "$(dirname "$relative")")
    [[ -n $folder ]] || continue
    ((checked += 1))
    while IFS= read -r line; do
        number=${line%%:*}
        target=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' <<<"${line#*:}")
        [[ -n $target && $target =~ $project ]] || continue
        [[ $target == "$folder"/* ]] && continue
        ok=false
        for permitted in ${allowed[$folder]}; do
            [[ $target == "$permitted"/* || $target == "$permitted" ]] && { ok=true; break; }
        done
        if ! $ok; then
            echo "$relative:$number: includes \"$target\": $folder may include only" \
                "${allowed[$folder]:-itself}" >&2
            ((failures += 1))
        fi
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" || true)
done < <(find "$root" -path "$root/build" -prune -o -path "$root/tests" -prune -o \
    -path "$root/bench" -prune -o -path "$root/tools" -prune -o \
    -type f \( -name '*.h' -o -name '*.cpp' \) -print0)

if ((checked == 0)); then
    echo "check-includes: no source files under $root" >&2
    exit 2
fi
if ((failures > 0)); then
    echo "check-includes: $failures include(s) against the layers in $checked files" >&2
    exit 1
fi
echo "check-includes: $checked files, every include points the allowed way"
