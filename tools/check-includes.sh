#!/usr/bin/env bash
# tools/check-includes.sh [ROOT]: fails (exit 1) when a source file includes a layer it must
# not: dependencies point one way (README "Development"), and the client never includes the
# gateway nor the gateway the client. Only includes written from the repository root
# ("models/FriendListModel.h") are checked; a folder may always include itself. Some folders
# must not see some other libraries' headers at all, even through ours (the `unseen` table).
# Tests, benchmarks and tools are checked too, by rows of their own (the `outside` table).
# It also fails when the picture in docs/architecture.md (its ```layers block) draws other arrows
# than the table below, so that what people read is what the test enforces.
# The test command runs it over the repository (CTest include_direction).
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

# Folder (the deepest that applies) -> the folders (or single files) its files may include,
# besides itself. A folder of the table stands for its own files, not for those of a folder
# inside it with a line of its own (ui is the widgets' shared bases, not ui/chat); any other
# folder for everything below it (server-mock).
declare -A allowed=(
    [protocol]=""
    [models]=""
    [session]="models protocol"
    # Widgets never see the gateway session: app/ wires them to it. ChatController (the chats'
    # state, in session/) is the one exception left, for the chat and the window that opens it.
    # ui/ itself holds what the rooms share (the clocked delegate, the palette's colours, the
    # presence mark and words, the accessible proxy); the shell holds the friend list and the
    # chat, which do not include each other, but for the friend row's geometry and avatar that
    # the list of chats draws its rows in.
    [ui]="models protocol"
    [ui/friends]="ui models protocol"
    [ui/chat]="ui ui/friends/FriendDelegate.h models protocol session/ChatController.h"
    [ui/shell]="ui ui/friends ui/chat models protocol session/ChatController.h"
    [app]="models protocol session ui ui/shell ui/friends ui/chat"
    # The event loop sits below everything and includes nothing of ours.
    [server-mock/loop]=""
    [server-mock/core]=""
    # Pure over bytes, Qt Core only: the HTTP request head, read for http/ and websocket/ alike.
    [server-mock/httphead]=""
    # Pure over bytes: Qt Core and the head reader only (the transport builds on it).
    [server-mock/websocket]="server-mock/httphead"
    [server-mock/metrics]="server-mock/core protocol"
    [server-mock/http]="server-mock/httphead server-mock/core protocol"
    [server-mock/directory]="protocol"
    [server-mock/identity]="protocol"
    [server-mock/presence]="server-mock/core protocol"
    [server-mock/chat]="protocol"
    [server-mock/redis/client]="server-mock/core protocol"
    [server-mock/redis]="server-mock/redis/client server-mock/presence server-mock/chat server-mock/directory server-mock/core protocol"
    [server-mock/transport]="server-mock/websocket"
    [server-mock/server]="server-mock/transport server-mock/presence server-mock/chat server-mock/directory server-mock/identity server-mock/metrics server-mock/core protocol"
    [server-mock/qa]="server-mock/server server-mock/transport server-mock/presence server-mock/chat server-mock/directory server-mock/metrics server-mock/core protocol"
    [server-mock/admin]="server-mock/http server-mock/server server-mock/qa server-mock/presence server-mock/directory server-mock/core protocol"
    [server-mock/app]="server-mock protocol"
)
# Outside the product, which the picture does not draw: tests, benchmarks and tools include any
# layer of the product, and of each other only what is shared. A test includes what it tests, its
# own group's helpers (tests/gateway/unit/RecordingReceiver.h for tests/gateway/unit/qa),
# tests/support and tests/harness, never another group's internals; a benchmark the harness,
# never a test's helpers; the harness serves both, so it includes neither.
product="protocol models session ui ui/friends ui/chat ui/shell app resources server-mock"
declare -A outside=(
    [tests/harness]="$product"
    [tests/support]="$product tests/harness"
    [bench]="$product tests/harness"
    [tools]="$product"
)
for group in "$root"/tests/*/; do
    [[ -d $group ]] || continue
    group=${group%/}
    group=tests/${group##*/}
    [[ -v outside[$group] || $group == tests/include_direction ]] && continue
    outside[$group]="$product tests/support tests/harness"
done
# Every rule: the layers' and those outside the product.
declare -A rules=()
for folder in "${!allowed[@]}"; do rules[$folder]=${allowed[$folder]}; done
for folder in "${!outside[@]}"; do rules[$folder]=${outside[$folder]}; done

# Headers of other libraries that a folder's files must not see, not even through the project's
# headers they include: a widget has no business with the gateway connection's socket.
declare -A unseen=(
    [ui]="QWebSocket QWebSocketProtocol QWebSocketServer QtWebSockets"
)
# An include in quotes, its path captured.
quoted_include='^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)"'
# The project's own top-level folders: an include starting with one of them is checked.
project='^(protocol|models|session|ui|app|resources|server-mock|tests|tools|bench)/'

# The rule of a file: its deepest folder with one.
# Sets `rule` (no subshells: it runs for every include of every file).
rule_of() {
    local dir=$1
    rule=""
    while [[ -n $dir && $dir != . ]]; do
        [[ -v rules[$dir] ]] && { rule=$dir; return; }
        [[ $dir == */* ]] || return
        dir=${dir%/*}
    done
}

# Whether a permit (a folder or a single file, as the table writes them) covers an include.
covers() {
    local permit=$1 target=$2
    [[ $target == "$permit" ]] && return 0
    [[ $target == "$permit"/* ]] || return 1
    [[ -v rules[$permit] ]] || return 0
    rule_of "${target%/*}"
    [[ $rule == "$permit" ]]
}

failures=0
checked=0
while IFS= read -r -d '' file; do
    relative=${file#"$root"/}
    rule_of "${relative%/*}"
    folder=$rule
    [[ -n $folder ]] || continue
    ((checked += 1))
    while IFS= read -r line; do
        number=${line%%:*}
        [[ ${line#*:} =~ $quoted_include ]] || continue
        target=${BASH_REMATCH[1]}
        [[ $target =~ $project ]] || continue
        covers "$folder" "$target" && continue
        ok=false
        for permitted in ${rules[$folder]}; do
            covers "$permitted" "$target" && { ok=true; break; }
        done
        if ! $ok; then
            echo "$relative:$number: includes \"$target\": $folder may include only" \
                "${rules[$folder]:-itself}" >&2
            ((failures += 1))
        fi
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" || true)
done < <(find "$root" -path "$root/build" -prune -o -path "$root/tests/include_direction" -prune -o \
    -type f \( -name '*.h' -o -name '*.cpp' \) -print0 | LC_ALL=C sort -z) # in one order everywhere

# The headers in <> a file sees: its own and those of every project header it includes, through
# any depth (memoised per header).
declare -A sees=()
seen_by() {
    local file=$1 target found=""
    [[ -v sees[$file] ]] && return
    sees[$file]="" # a cycle ends here
    while IFS= read -r target; do
        if [[ $target == \<* ]]; then
            found+=" ${target:1:-1}"
        elif [[ $target =~ $project && -f $root/$target ]]; then
            seen_by "$target"
            found+=" ${sees[$target]}"
        fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\(<[^>]*>\|"[^"]*"\).*/\1/p' \
        "$root/$file" | tr -d '"')
    sees[$file]=$found
}
for folder in "${!unseen[@]}"; do
    while IFS= read -r -d '' file; do
        relative=${file#"$root"/}
        seen_by "$relative"
        for header in ${unseen[$folder]}; do
            if [[ " ${sees[$relative]} " == *" $header "* ]]; then
                echo "$relative: sees <$header> through the headers it includes;" \
                    "$folder/ must not (forward-declare, or include it in a .cpp)" >&2
                ((failures += 1))
            fi
        done
    done < <(find "$root/$folder" -type f \( -name '*.h' -o -name '*.cpp' \) -print0)
done

if ((checked == 0)); then
    echo "check-includes: no source files under $root" >&2
    exit 2
fi

# The picture: one ```layers block of lines "from/ -> to/ to/ ...", a line starting with a space
# continuing the arrow line above, a folder alone including nothing, `#` starting a comment. It
# must draw exactly the arrows of `allowed`, and list each folder above every folder it may
# include, which is what "dependencies point down the picture" claims.
doc=docs/architecture.md
picture_problems=()
problem() { picture_problems+=("$*"); }
declare -A drawn=() rank=()
# Folders as the picture writes them, with their slash; a single file (a dot in it) without.
shown() { if [[ $1 == *.* ]]; then echo "$1"; else echo "$1/"; fi; }
read_picture() {
    local number=0 blocks=0 inside=false from="" line rest target
    local arrow='^([^[:space:]]+)([[:space:]]+->([[:space:]].*)?)?[[:space:]]*$'
    while IFS= read -r line || [[ -n $line ]]; do
        ((number += 1))
        line=${line%$'\r'}
        if ! $inside; then
            [[ $line =~ ^\`\`\`layers[[:space:]]*$ ]] && { inside=true; ((blocks += 1)); from=""; }
            continue
        fi
        [[ $line =~ ^\`\`\` ]] && { inside=false; continue; }
        line=${line%%#*}
        if [[ $line =~ ^[[:space:]]*$ ]]; then
            from=""
            continue
        elif [[ $line =~ ^[[:space:]] ]]; then
            [[ -n $from ]] || {
                problem "$doc:$number: continues no arrow line"
                continue
            }
            rest=$line
        elif [[ $line =~ $arrow ]]; then
            from=${BASH_REMATCH[1]%/}
            [[ -v rank[$from] ]] || rank[$from]=$number
            [[ -n ${BASH_REMATCH[2]} ]] || from=""
            rest=${BASH_REMATCH[3]}
        else
            problem "$doc:$number: not a line of the picture (\"from/ -> to/ ...\")"
            continue
        fi
        read -ra targets <<<"$rest"
        for target in "${targets[@]}"; do
            [[ -v drawn["$from -> ${target%/}"] ]] || drawn["$from -> ${target%/}"]=$number
        done
    done <"$root/$doc"
    $inside && problem "$doc: the \`\`\`layers block is never closed"
    ((blocks == 1)) || problem "$doc: $blocks \`\`\`layers blocks, expected one"
}
if [[ -f $root/$doc ]]; then
    read_picture
    declare -A permitted=()
    for from in "${!allowed[@]}"; do
        [[ -v rank[$from] ]] ||
            problem "$doc: no line for $(shown "$from"), a folder of the allowed table"
        for target in ${allowed[$from]}; do
            permitted["$from -> $target"]=1
            [[ -v drawn["$from -> $target"] ]] || problem "$doc: missing arrow" \
                "$(shown "$from") -> $(shown "$target"), which the allowed table holds"
        done
    done
    for from in "${!rank[@]}"; do
        [[ -v allowed[$from] ]] || problem "$doc:${rank[$from]}: $(shown "$from")" \
            "is no folder of the allowed table"
    done
    for pair in "${!drawn[@]}"; do
        from=${pair%% -> *} target=${pair#* -> } number=${drawn[$pair]}
        [[ -v permitted[$pair] ]] || problem "$doc:$number: extra arrow" \
            "$(shown "$from") -> $(shown "$target"), which the allowed table lacks"
        # The folders the target stands for: its own line, the line of the folder it lies in
        # (session/ChatController.h), or the lines of the folders inside it (server-mock/).
        covered=()
        node=$target
        while [[ -n $node && $node != . && ! -v rank[$node] ]]; do node=$(dirname "$node"); done
        if [[ -v rank[$node] ]]; then
            covered=("$node")
        else
            for node in "${!rank[@]}"; do
                [[ $node == "$target"/* && $node != "$from" ]] && covered+=("$node")
            done
        fi
        for node in "${covered[@]}"; do
            [[ -v rank[$from] && ${rank[$node]} -le ${rank[$from]} ]] &&
                problem "$doc:$number: $(shown "$from") -> $(shown "$target") points" \
                    "up: list $(shown "$node") below $(shown "$from")"
        done
    done
else
    problem "$doc: not found; its picture must draw the allowed arrows"
fi
if ((${#picture_problems[@]} > 0)); then
    # Line-numbered problems after the others, in the picture's order.
    printf '%s\n' "${picture_problems[@]}" | sort -t: -k2,2n -k3 >&2
fi

if ((failures > 0)); then
    echo "check-includes: $failures include(s) against the layers in $checked files" >&2
fi
if ((${#picture_problems[@]} > 0)); then
    echo "check-includes: ${#picture_problems[@]} problem(s) with the picture in $doc, which" \
        "must draw the allowed table" >&2
fi
((failures == 0 && ${#picture_problems[@]} == 0)) || exit 1
echo "check-includes: $checked files, every include points the allowed way;" \
    "$doc draws the same ${#drawn[@]} arrows"
