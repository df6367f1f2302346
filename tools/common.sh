# Shared set-up for the README's commands: sourced, not run.
# Installs the Debian packages the project needs (only those missing), then configures
# and builds incrementally in build/<name>.

PRESENCE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian 12 packages needed to build and test everything.
# libqt6svg6 is Qt's SVG icon engine plugin: without it the application icon draws as nothing.
# libhiredis-dev is the gateway's Redis client library, found through pkg-config; redis-server
# is for the Redis tests. qt6-httpserver-dev is the gateway's admin and heartbeat HTTP server (it
# brings the runtime library, libqt6httpserver6). qt6-l10n-tools (lupdate, lrelease) compiles the
# interface's translations, and qt6-tools-dev holds the CMake package that finds them
# (Qt6LinguistTools); qt6-translations-l10n is Qt's own translations (standard buttons, menus).
# dbus-daemon runs a private bus in the tests of the desktop's idle time, lock and notifications.
# fonts-noto-color-emoji: emoji in messages are drawn in colour (ui/chat/EmojiRuns.h).
# clang-format: the test command checks the sources' format (tools/check-format.sh).
# python3: it checks the include groups too (tools/include-groups.py).
# libboost1.81-dev (Boost.Asio, Beast and JSON, used as headers) builds bench/loadgen, the gateway
# benchmark's load generator, whose smoke run is part of the test command (tst_loadgen_smoke).
# clang and libclang-rt-14-dev (its sanitizer and libFuzzer runtimes) build the fuzz targets of
# tests/fuzz, which the test command runs briefly (tools/fuzz.sh runs them for longer).
# openssl: the tests of wss:// make a throw-away certificate authority with it at run time.
# lld links the build's 130-odd executables about four times faster than GNU ld.
# desktop-file-utils: desktop-file-validate checks the installed presence-chat.desktop
# (tests/install_tree.sh).
# libicu-dev: the friend list's name order uses ICU's collation directly (models/NameCollator),
# so that ranking 100,000 names keeps every sort key in one buffer; QCollator wraps the same ICU.
# clang-tidy: the test command runs .clang-tidy's checks over the sources the last commits
# changed (tools/tidy.sh --recent).
# dpkg-dev (dpkg-shlibdeps) and file: `cpack -G DEB` finds each package's library dependencies
# with them (cmake/PresencePackaging.cmake, tests/packages.sh, tools/package.sh).
PRESENCE_PACKAGES=(
    g++ cmake ninja-build
    qt6-base-dev qt6-websockets-dev qt6-httpserver-dev
    libqt6svg6
    qt6-l10n-tools qt6-tools-dev qt6-translations-l10n
    pkg-config libhiredis-dev redis-server
    dbus-daemon fonts-noto-color-emoji clang-format python3
    libboost1.81-dev libssl-dev libsystemd-dev openssl
    clang libclang-rt-14-dev lld libicu-dev desktop-file-utils
    dpkg-dev file clang-tidy
)

presence_log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

presence_die() {
    printf 'error: %s\n' "$*" >&2
    exit 1
}

# presence_ensure_packages PKG...: installs whichever of PKG are not installed yet.
presence_ensure_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
            || missing+=("$pkg")
    done
    ((${#missing[@]} == 0)) && return 0

    command -v apt-get >/dev/null \
        || presence_die "missing packages (${missing[*]}) and no apt-get: this set-up expects Debian 12"
    local sudo=()
    if ((EUID != 0)); then
        command -v sudo >/dev/null \
            || presence_die "missing packages: ${missing[*]}. Install them as root (apt-get install ${missing[*]}) or install sudo."
        sudo=(sudo)
    fi
    presence_log "installing Debian packages: ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
        || presence_die "apt-get update failed"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" || presence_die "could not install: ${missing[*]}"
}

# presence_start_test_redis BUILD: the redis-server of a test or benchmark run, started by the
# harness's presence-test-redis (built in build/BUILD): 127.0.0.1, a free port, no persistence,
# a temporary directory; the same code a test program uses when it starts one of its own. Sets
# PRESENCE_REDIS_URL (redis://127.0.0.1:PORT/0), PRESENCE_REDIS_PORT and PRESENCE_REDIS_PID, or
# returns 1. It stops on presence_stop_test_redis, and in any case when this shell ends: its
# standard input, held here, closes then.
presence_start_test_redis() {
    local program="$PRESENCE_ROOT/build/$1/tests/harness/presence-test-redis"
    [[ -x $program ]] || { echo "presence_start_test_redis: $program is not built" >&2; return 1; }
    coproc PRESENCE_REDIS { exec "$program"; }
    IFS= read -r -t 30 PRESENCE_REDIS_URL <&"${PRESENCE_REDIS[0]}" || return 1
    [[ $PRESENCE_REDIS_URL =~ ^redis://127\.0\.0\.1:([0-9]+)/0$ ]] || return 1
    PRESENCE_REDIS_PORT=${BASH_REMATCH[1]}
}

# presence_stop_test_redis: stops the redis-server of presence_start_test_redis, if it runs.
presence_stop_test_redis() {
    [[ -n ${PRESENCE_REDIS_PID-} ]] || return 0
    kill "$PRESENCE_REDIS_PID" 2>/dev/null || true
    wait "$PRESENCE_REDIS_PID" 2>/dev/null || true
    PRESENCE_REDIS_PID=
}

# presence_configure NAME [CMAKE ARGS...]: configures build/NAME. Configuring again is cheap
# when nothing changed, and applies changed options.
presence_configure() {
    local name=$1
    shift
    presence_log "configuring build/$name"
    cmake -S "$PRESENCE_ROOT" -B "$PRESENCE_ROOT/build/$name" -G Ninja "$@" >/dev/null \
        || presence_die "cmake configure failed"
}

# presence_build_targets NAME [TARGET...]: builds build/NAME incrementally (everything when no
# target is named).
presence_build_targets() {
    local name=$1 target_args=()
    shift
    (($# > 0)) && target_args=(--target "$@")
    presence_log "building build/$name${1:+ ($*)}"
    cmake --build "$PRESENCE_ROOT/build/$name" --parallel "$(nproc)" "${target_args[@]}" \
        || presence_die "build failed"
}

# presence_build NAME [CMAKE ARGS...]: configures build/NAME, then builds all of it.
presence_build() {
    presence_configure "$@"
    presence_build_targets "$1"
}

# presence_build_fuzzers: configures build/fuzz with clang (PRESENCE_FUZZ) and builds the fuzz
# targets of tests/fuzz, and only what they need.
presence_build_fuzzers() {
    presence_configure fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DPRESENCE_FUZZ=ON \
        -DPRESENCE_BUILD_TESTS=OFF -DPRESENCE_BUILD_BENCHMARKS=OFF -DPRESENCE_BUILD_TOOLS=OFF
    presence_build_targets fuzz presence_fuzzers
}
