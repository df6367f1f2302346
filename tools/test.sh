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
trap 'rm -rf "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR"' EXIT

presence_log "running the tests"
cd "$PRESENCE_ROOT/build/test"
ctest --output-on-failure --parallel "$(nproc)" --timeout 300 "$@"
