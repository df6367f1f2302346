#!/usr/bin/env bash
# The whole test suite, headless: installs what is missing, builds with warnings as errors,
# runs every test through CTest, runs clang-tidy over the sources the last commits changed
# (tools/tidy.sh --recent, warnings as errors), then builds the gateway side again with AddressSanitizer and
# UndefinedBehaviorSanitizer (build/asan) and runs its tests there, then builds the fuzz targets
# with clang (build/fuzz) and runs each briefly. Exits non-zero on any failure.
#   tools/test.sh                   everything (what CI runs)
#   tools/test.sh ARGS...           ARGS go to ctest on the plain build only (e.g. -R gateway)
#   tools/test.sh --asan [ARGS...]  the sanitized build only, ARGS to its ctest
#   tools/test.sh --fuzz [ARGS...]  the fuzz targets only, ARGS to their ctest
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

mode=all
if [[ ${1-} == --asan || ${1-} == --fuzz ]]; then
    mode=${1#--}
    shift
elif (($# > 0)); then
    mode=plain
fi

presence_ensure_packages "${PRESENCE_PACKAGES[@]}"
if [[ $mode == all || $mode == plain ]]; then
    presence_build test -DCMAKE_BUILD_TYPE=Debug -DPRESENCE_WARNINGS_AS_ERRORS=ON -DPRESENCE_BUILD_TESTS=ON
fi

export QT_QPA_PLATFORM=offscreen
# Tests must never touch a developer's real settings or runtime files.
export XDG_CONFIG_HOME XDG_RUNTIME_DIR
XDG_CONFIG_HOME=$(mktemp -d)
XDG_RUNTIME_DIR=$(mktemp -d)
chmod 700 "$XDG_RUNTIME_DIR"

# One redis-server for the Redis tests (presence-test-redis, from the build that runs first),
# stopped at the end; tests use their own key prefixes or databases on it
# (PRESENCE_TEST_REDIS_URL). A test run on its own without this variable starts a redis-server
# of its own with the same code.
trap 'presence_stop_test_redis; rm -rf "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR"' EXIT
test_redis() {
    [[ -z ${PRESENCE_REDIS_PID-} ]] || return 0 # started for an earlier stage
    presence_start_test_redis "$1" || presence_die "could not start redis-server for the tests"
    export PRESENCE_TEST_REDIS_URL=$PRESENCE_REDIS_URL
    presence_log "redis-server for the tests on $PRESENCE_TEST_REDIS_URL"
}

status=0
if [[ $mode == all || $mode == plain ]]; then
    test_redis test
    presence_log "running the tests"
    (cd "$PRESENCE_ROOT/build/test" && ctest --output-on-failure --parallel "$(nproc)" --timeout 300 "$@") \
        || status=1
fi
if [[ $mode == all ]]; then
    presence_log "clang-tidy over the sources the last commits changed"
    "$PRESENCE_ROOT/tools/tidy.sh" --recent || status=1
fi
if [[ $mode == all || $mode == asan ]]; then
    # Only what the sanitized tests need is built: the protocol, the gateway and their tests.
    presence_configure asan -DCMAKE_BUILD_TYPE=Debug -DPRESENCE_WARNINGS_AS_ERRORS=ON \
        -DPRESENCE_BUILD_TESTS=ON -DPRESENCE_BUILD_BENCHMARKS=OFF -DPRESENCE_BUILD_TOOLS=OFF \
        -DPRESENCE_SANITIZE=address,undefined
    presence_build_targets asan presence_sanitized_tests
    test_redis asan
    # Any finding fails its test: ASan and UBSan stop the process, LeakSanitizer runs at exit.
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    presence_log "running the gateway side's tests under AddressSanitizer and UndefinedBehaviorSanitizer"
    (cd "$PRESENCE_ROOT/build/asan" && ctest --output-on-failure --parallel "$(nproc)" --timeout 300 \
        -L sanitized "$@") || status=1
fi
if [[ $mode == all || $mode == fuzz ]]; then
    presence_build_fuzzers
    presence_log "running each fuzz target briefly (tools/fuzz.sh runs them for longer)"
    (cd "$PRESENCE_ROOT/build/fuzz" && ctest --output-on-failure --parallel "$(nproc)" -L fuzz "$@") \
        || status=1
fi
exit $status
