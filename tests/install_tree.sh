#!/usr/bin/env bash
# CTest's install_tree: `cmake --install` into a scratch prefix gives a working installation,
# i.e. both binaries, runnable from there, the .desktop file and the icon, and nothing else
# (no test executables, no benchmarks, no static libraries).
#
# Usage: install_tree.sh CMAKE BUILD_DIR VERSION BINDIR DATADIR [CONFIG]
# (BINDIR and DATADIR as GNUInstallDirs gives them, relative to the prefix.)
set -euo pipefail

cmake=$1 build=$2 version=$3 bindir=$4 datadir=$5 config=${6:-}
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
unset DESTDIR

fail() {
    printf 'install_tree: FAIL: %s\n' "$*" >&2
    exit 1
}

prefix=$(mktemp -d)
# cmake --install rewrites the build tree's install_manifest.txt: keep the one a real
# installation left there, which its owner may need to uninstall.
manifest=$build/install_manifest.txt
saved=
if [[ -f $manifest ]]; then
    saved=$(mktemp)
    cp -p "$manifest" "$saved"
fi
cleanup() {
    rm -rf "$prefix"
    if [[ -n $saved ]]; then mv "$saved" "$manifest"; else rm -f "$manifest"; fi
}
trap cleanup EXIT

"$cmake" --install "$build" --prefix "$prefix" ${config:+--config "$config"} >/dev/null \
    || fail "cmake --install failed"

# Exactly these files, so tests and benchmarks never creep into an installation.
expected=$(LC_ALL=C sort <<EOF
$bindir/presence-chat
$bindir/presence-mock-server
$datadir/applications/presence-chat.desktop
$datadir/icons/hicolor/scalable/apps/presence-chat.svg
$datadir/doc/presence-mock-server/examples/gateway.ini
lib/systemd/system/presence-mock-server.service
EOF
)
actual=$(cd "$prefix" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort)
if [[ $actual != "$expected" ]]; then
    diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") >&2 || true
    fail "the installed files are not the expected ones (< expected, > installed)"
fi

# The installed binaries run from the prefix, away from the build tree.
cd "$prefix"
for program in presence-chat presence-mock-server; do
    binary=$prefix/$bindir/$program
    [[ -x $binary ]] || fail "$bindir/$program is not executable"
    if command -v readelf >/dev/null && readelf -d "$binary" | grep -E 'R(UN)?PATH' | grep -qF "$build"; then
        fail "$bindir/$program still points into the build tree for its libraries"
    fi
    output=$(timeout 20 "$binary" --version) || fail "$bindir/$program --version exited with $?"
    [[ $output == "$program $version" ]] \
        || fail "$bindir/$program --version printed '$output', expected '$program $version'"
done

# The menu entry launches the installed client and names the installed icon.
desktop=$prefix/$datadir/applications/presence-chat.desktop
value() { sed -n "s/^$1=//p" "$desktop"; }
[[ $(value Type) == Application ]] || fail "presence-chat.desktop: Type is not Application"
exec_command=$(value Exec)
[[ -x $prefix/$bindir/${exec_command%% *} ]] \
    || fail "presence-chat.desktop: Exec=$exec_command is not an installed binary"
[[ $(value Icon) == presence-chat ]] || fail "presence-chat.desktop: Icon is not presence-chat"
# desktop-file-validate (desktop-file-utils, in the set-up's packages): the desktop's own check.
command -v desktop-file-validate >/dev/null \
    || fail "desktop-file-validate is not installed (desktop-file-utils)"
desktop-file-validate "$desktop" || fail "presence-chat.desktop does not validate"

# The unit starts the binary installed next to it, wherever the prefix is.
exec_start=$(sed -n 's/^ExecStart=//p' "$prefix/lib/systemd/system/presence-mock-server.service")
[[ ${exec_start%% *} == "$prefix/$bindir/presence-mock-server" ]] \
    || fail "the unit starts '${exec_start%% *}', not $prefix/$bindir/presence-mock-server"

icon=$prefix/$datadir/icons/hicolor/scalable/apps/presence-chat.svg
grep -q '<svg' "$icon" || fail "the installed icon is not an SVG"

# The service runs the gateway from where it was configured to be installed, as Type=notify.
service=$prefix/lib/systemd/system/presence-mock-server.service
grep -qx 'Type=notify' "$service" || fail "presence-mock-server.service is not Type=notify"
exec_start=$(sed -n 's/^ExecStart=//p' "$service")
[[ ${exec_start%% *} == */$bindir/presence-mock-server ]] \
    || fail "presence-mock-server.service: ExecStart=$exec_start is not the installed gateway"

echo "install_tree: PASS: $(wc -l <<<"$actual") files, presence-chat and presence-mock-server $version run"
