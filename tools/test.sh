#!/usr/bin/env bash
# The whole test suite, headless: installs what is missing, builds with warnings as errors,
# runs every test through CTest. Exits non-zero on any failure.
# Extra arguments go to ctest (e.g. tools/test.sh -R gateway).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

presence_ensure_packages "${PRESENCE_PACKAGES[@]}"
presence_build test -DCMAKE_BUILD_TYPE=Debug -DPRESENCE_WARNINGS_AS_ERRORS=ON -DPRESENCE_BUILD_TESTS=ON

export QT_QPA_PLATFORM=offscreen
# Tests must never touch a developer's real settings or runtime files.
export XDG_CONFIG_HOME XDG_RUNTIME_DIR
XDG_CONFIG_HOME=$(mktemp -d)
XDG_RUNTIME_DIR=$(mktemp -d)
chmod 700 "$XDG_RUNTIME_DIR"

# One redis-server for the Redis tests, on a free port in a temporary directory, stopped at the
# end; tests use their own key prefixes or databases on it (PRESENCE_TEST_REDIS_URL). A test run
# on its own without this variable starts a redis-server of its own.
redis_dir=$(mktemp -d)
redis_pid=
stop_redis() {
    [[ -n $redis_pid ]] && kill "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null
    rm -rf "$redis_dir"
}
trap 'stop_redis; rm -rf "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR"' EXIT
presence_start_redis "$redis_dir" || presence_die "could not start redis-server (see $redis_dir/redis.log)"
redis_pid=$PRESENCE_REDIS_PID
export PRESENCE_TEST_REDIS_URL="redis://127.0.0.1:$PRESENCE_REDIS_PORT/0"
presence_log "redis-server for the tests on $PRESENCE_TEST_REDIS_URL"

presence_log "running the tests"
cd "$PRESENCE_ROOT/build/test"
ctest --output-on-failure --parallel "$(nproc)" --timeout 300 "$@"
