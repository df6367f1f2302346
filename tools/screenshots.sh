#!/usr/bin/env bash
# The README's screenshots, taken of the real client and gateway on a virtual X display:
#   docs/screenshots/main-window.png  the friend list: online, away, offline and unknown friends
#   docs/screenshots/chat.png         a conversation with a friend
#   docs/screenshots/chats.png        the Chats pane: conversations, unread first
#   docs/screenshots/reconnecting.png the banner while the gateway is gone
# Installs what is missing, builds in build/shots, sets the scene on a gateway of its own (a
# free port, a temporary users file, scripted users), captures, and stops everything it started.
# Running it again overwrites both files.
#
# The scene: Sam and 12 friends. Six friends are signed in by presence-scripted-client
# (tools/screenshots/), two of them away; two signed in and out (offline, "last seen"), one
# never did (offline). The gateway allows 9 subscriptions per connection, so the client
# watches 9 of the 12 rows it shows and the other 3 stay *unknown*, as rows beyond its limit
# do (the status bar says "9 subscribed"). Amelia and Sam exchange a few messages before the
# client starts: the chat shows them from the gateway's history.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# xvfb: the virtual display; xauth: its cookie; x11-apps: xwd; x11-utils: xwininfo;
# netpbm: xwd to PNG; fonts-dejavu-core: the same font everywhere.
presence_ensure_packages "${PRESENCE_PACKAGES[@]}" xvfb xauth x11-apps x11-utils netpbm \
    fonts-dejavu-core
presence_build shots -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPRESENCE_BUILD_TESTS=OFF \
    -DPRESENCE_BUILD_BENCHMARKS=OFF -DPRESENCE_BUILD_TOOLS=ON

build=$PRESENCE_ROOT/build/shots
gateway_bin=$build/server-mock/presence-mock-server
client_bin=$build/app/presence-chat
scripted_bin=$build/tools/screenshots/presence-scripted-client
out_dir=$PRESENCE_ROOT/docs/screenshots
timeout_s=30 # for each wait below

work=$(mktemp -d "${TMPDIR:-/tmp}/presence-shots.XXXXXX")
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# stop PID: ends a process this script started.
stop() {
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
    local kept=() pid
    for pid in "${pids[@]}"; do [[ $pid == "$1" ]] || kept+=("$pid"); done
    pids=("${kept[@]}")
}

# wait_until WHAT COMMAND...: polls COMMAND until it succeeds; gives up after $timeout_s.
wait_until() {
    local what=$1 deadline=$((SECONDS + timeout_s))
    shift
    until "$@"; do
        ((SECONDS < deadline)) || presence_die "timed out waiting for $what"
        sleep 0.1
    done
}

# --- The population: Sam and 12 friends. Ids are surnames, so the 9 rows the gateway's
# limit lets the client watch (it keeps the first ids) are not simply the first names.
friend_rows=(
    "brooks:Amelia Brooks" "martin:Chloé Martin" "sato:Kenji Sato" "garcia:Mateo García"
    "rahman:Fatima Rahman" "fischer:Noah Fischer"
    "kim:Hannah Kim" "becker:Jonas Becker" "eriksen:Lars Eriksen"
    "young:Isabel Young" "zhou:Olivia Zhou" "varga:Tomás Varga"
)
{
    ids=()
    for row in "${friend_rows[@]}"; do ids+=("\"${row%%:*}\""); done
    printf '{"users": [\n'
    printf '  {"id": "sam", "name": "Sam Carter", "token": "shots-sam", "friends": [%s]}' \
        "$(IFS=,; echo "${ids[*]}")"
    for row in "${friend_rows[@]}"; do
        printf ',\n  {"id": "%s", "name": "%s", "token": "shots-%s"}' \
            "${row%%:*}" "${row#*:}" "${row%%:*}"
    done
    printf '\n]}\n'
} >"$work/users.json"
for row in sam "${friend_rows[@]}"; do
    echo "shots-${row%%:*}" >"$work/${row%%:*}.token" # $work is private (mktemp -d)
done

# --- The gateway: a free port (0), a short offline grace, 9 subscriptions per connection and
# 9 friends in the availability set (the first 9 in the file: the same 9 the client watches).
"$gateway_bin" --users "$work/users.json" --listen 127.0.0.1:0 --grace-ms 300 \
    --max-subscriptions 9 --max-availability-friends 9 >"$work/gateway.log" 2>&1 &
pids+=($!)
gateway_pid=$!
gateway_listening() {
    kill -0 "$gateway_pid" 2>/dev/null \
        || presence_die "the gateway stopped: $(cat "$work/gateway.log")"
    grep -q 'listening on ws://' "$work/gateway.log"
}
wait_until "the gateway" gateway_listening
url=$(sed -n 's|.*listening on \(ws://[^ ]*\).*|\1|p' "$work/gateway.log" | head -n 1)
presence_log "scene on $url"

# as USER ARGS...: USER signs in, does what ARGS say, and disconnects.
as() {
    local user=$1
    shift
    QT_LOGGING_RULES=presence.session.info=false \
        "$scripted_bin" --server "$url" --token-file "$work/$user.token" --exit \
        --timeout-ms $((timeout_s * 1000)) "$@" >/dev/null \
        || presence_die "presence-scripted-client as $user failed"
}
# stay USER ARGS...: USER signs in, does what ARGS say, and stays connected.
stay() {
    local user=$1
    shift
    QT_LOGGING_RULES=presence.session.info=false \
        "$scripted_bin" --server "$url" --token-file "$work/$user.token" \
        --timeout-ms $((timeout_s * 1000)) "$@" >"$work/$user.out" 2>&1 &
    pids+=($!)
    local pid=$!
    is_ready() {
        kill -0 "$pid" 2>/dev/null \
            || presence_die "presence-scripted-client as $user: $(cat "$work/$user.out")"
        grep -qx ready "$work/$user.out"
    }
    wait_until "$user to sign in" is_ready
}

# A conversation, one turn at a time, so the gateway's history holds it in this order.
as brooks --to sam --say "Hi Sam! Are we still on for the climbing gym tonight?"
as sam --to brooks --say "Yes! Seven works for me."
as brooks --to sam --say "Great. Kenji said he might join us, he finally got new shoes."
harness="Should I bring the spare harness? Last time we had to rent one at the desk"
as sam --to brooks --say "The more the merrier." --say "$harness and it took forever."
as brooks --to sam --say "Please do! And chalk, if you have any left."
as sam --to brooks --say "I do. See you at the entrance at seven."
as brooks --to sam --say "See you there!"

# Seen today, gone now: offline with a "last seen".
as kim
as eriksen
# Signed in now: four online, two away. Becker never signs in; young, zhou and varga are
# beyond the client's 9 subscriptions, whatever they do.
stay brooks
stay martin
stay sato
stay garcia
stay rahman --status away
stay fischer --status away
# Sam's own view, before the client starts: everyone shows what the picture should show
# (the offline ones once the gateway's grace has passed).
as sam --expect brooks=online --expect martin=online --expect sato=online \
    --expect garcia=online --expect rahman=away --expect fischer=away --expect kim=offline \
    --expect eriksen=offline --expect becker=offline

# --- The virtual display, with a cookie of its own, on a display number it picks itself.
cookie=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
: >"$work/Xauthority"
xauth -q -f "$work/Xauthority" add :0 MIT-MAGIC-COOKIE-1 "$cookie"
Xvfb -displayfd 5 -auth "$work/Xauthority" -nolisten tcp -screen 0 1280x800x24 -dpi 96 \
    5>"$work/display" 2>"$work/xvfb.log" &
pids+=($!)
xvfb_pid=$!
display_ready() {
    kill -0 "$xvfb_pid" 2>/dev/null || presence_die "Xvfb stopped: $(cat "$work/xvfb.log")"
    grep -q '^[0-9]' "$work/display"
}
wait_until "Xvfb" display_ready
export DISPLAY=:$(head -n 1 "$work/display")
export XAUTHORITY=$work/Xauthority
xauth -q add "$DISPLAY" MIT-MAGIC-COOKIE-1 "$cookie"

# The same look on every machine: Fusion, no desktop theme, 96 dpi, a fresh configuration.
export QT_QPA_PLATFORM=xcb QT_QPA_PLATFORMTHEME=generic QT_FONT_DPI=96 QT_SCALE_FACTOR=1
unset QT_SCREEN_SCALE_FACTORS QT_STYLE_OVERRIDE XDG_CURRENT_DESKTOP DESKTOP_SESSION
export LANG=C.UTF-8
unset LC_ALL
# shot() reads the client's "signed in as" line (presence.session, info) from its log.
export QT_LOGGING_RULES=presence.session.info=true
unset QT_MESSAGE_PATTERN
export XDG_RUNTIME_DIR=$work/runtime XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" "$out_dir"

# shot NAME WIDTHxHEIGHT CLIENT-ARGS...: starts the client as Sam in a window of that size,
# waits until it is signed in and its window is on the display, lets it paint, runs the
# function named by $before_capture if set, and writes docs/screenshots/NAME.png.
before_capture=
shot() {
    local name=$1 size=$2 log=$work/$1.log window=
    shift 2
    # LC_TIME only for Qt, which reads it itself: times as 17:02 instead of C's 17:02:45.
    LC_TIME=en_GB.UTF-8 "$client_bin" -style Fusion -geometry "$size+0+0" --server "$url" \
        --token-file "$work/sam.token" "$@" >"$log" 2>&1 &
    pids+=($!)
    local pid=$!
    signed_in() {
        kill -0 "$pid" 2>/dev/null || presence_die "presence-chat stopped: $(cat "$log")"
        grep -q 'signed in as "sam"' "$log"
    }
    wait_until "the client to sign in" signed_in
    window_shown() {
        # The title counts unread messages: "(2) Presence Chat".
        window=$(xwininfo -root -children 2>/dev/null \
            | sed -n 's/^ *\(0x[0-9a-f]*\) "\(([0-9]*) \)\{0,1\}Presence Chat": .*/\1/p' \
            | head -n 1)
        [[ -n $window ]] && xwininfo -id "$window" | grep -q 'Map State: IsViewable'
    }
    wait_until "the client's window" window_shown
    # Nothing to wait on from out here for the last snapshot, the history and the paint:
    # all are local and take milliseconds. One second is plenty.
    sleep 1
    [[ -z $before_capture ]] || "$before_capture"
    xwd -silent -id "$window" | xwdtopnm 2>/dev/null | pnmtopng -compression 9 >"$work/$name.png"
    mv -f "$work/$name.png" "$out_dir/$name.png"
    stop "$pid"
    presence_log "wrote docs/screenshots/$name.png ($(du -k "$out_dir/$name.png" | cut -f1) KiB)"
}

# 700 pixels of height show the 12 rows; narrower, the list elides its names.
shot main-window 900x700
shot chat 900x700 --open-chat brooks
# Two unread conversations beside the one read with Brooks (read markers live in the gateway,
# so Sam's unread counts are what the Chats pane shows).
as martin --to sam --say "Are you coming to the climbing gym tonight?"
as sato --to sam --say "New shoes!" --say "They are a size too small. Worth it."
shot chats 900x700 --show chats
# The gateway goes away: the banner says so and counts down to the next attempt.
gateway_gone() {
    stop "$gateway_pid"
    banner_shown() { grep -q 'connection lost' "$work/reconnecting.log"; }
    QT_LOGGING_RULES=presence.session.info=true wait_until "the client to notice" banner_shown
    sleep 1 # the banner laid out and painted
}
before_capture=gateway_gone
shot reconnecting 900x700
before_capture=
