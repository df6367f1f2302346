#!/usr/bin/env bash
# The two Debian packages, presence-chat (the client) and presence-mock-server (the gateway),
# from a Release build in build/package: installs what is missing, builds incrementally, then
# `cpack -G DEB` (cmake/PresencePackaging.cmake). Prints where the .deb files are.
#   tools/package.sh
#   sudo apt install ./build/package/presence-chat_*.deb ./build/package/presence-mock-server_*.deb
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

(($# == 0)) || { echo "usage: $0" >&2; exit 2; }

presence_ensure_packages "${PRESENCE_PACKAGES[@]}"
# Installed into /usr like any Debian package; no tests, benchmarks or tools in this build.
presence_build package -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
    -DPRESENCE_BUILD_TESTS=OFF -DPRESENCE_BUILD_BENCHMARKS=OFF -DPRESENCE_BUILD_TOOLS=OFF
out=$PRESENCE_ROOT/build/package
presence_log "making the packages"
rm -f "$out"/*.deb
(cd "$out" && cpack -G DEB -B "$out" >/dev/null) || presence_die "cpack -G DEB failed"
rm -rf "$out/_CPack_Packages"
for deb in "$out"/*.deb; do
    printf '%s\n' "${deb#"$PRESENCE_ROOT"/}"
done
