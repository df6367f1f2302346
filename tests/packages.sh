#!/usr/bin/env bash
# CTest's debian_packages: `cpack -G DEB` makes the two packages the README names, each with
# exactly its files, its library dependencies from dpkg-shlibdeps, a desktop entry that
# desktop-file-validate accepts, a systemd unit that starts the packaged gateway, an example
# configuration the gateway accepts, maintainer scripts only in the gateway's, and nothing of
# the build tree.
#
# Usage: packages.sh CPACK BUILD_DIR VERSION
set -euo pipefail

cpack=$1 build=$2 version=$3
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
unset DESTDIR

fail() {
    printf 'debian_packages: FAIL: %s\n' "$*" >&2
    exit 1
}

for tool in dpkg-deb dpkg-shlibdeps desktop-file-validate; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (the set-up's packages)"
done

scratch=$(mktemp -d)
# CPack's installs leave one manifest per component in the build tree: not ours to keep.
manifests=()
for component in client gateway; do
    [[ -e $build/install_manifest_$component.txt ]] || manifests+=("$build/install_manifest_$component.txt")
done
cleanup() {
    rm -rf "$scratch"
    rm -f "${manifests[@]}"
}
trap cleanup EXIT

(cd "$scratch" && "$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$scratch/out") \
    >"$scratch/cpack.log" 2>&1 || {
    cat "$scratch/cpack.log" >&2
    fail "cpack -G DEB failed"
}

arch=$(dpkg --print-architecture)
client=$scratch/out/presence-chat_${version}_$arch.deb
gateway=$scratch/out/presence-mock-server_${version}_$arch.deb
made=$(cd "$scratch/out" && ls -- *.deb | LC_ALL=C sort | tr '\n' ' ')
[[ $made == "$(basename "$client") $(basename "$gateway") " ]] \
    || fail "cpack made '$made', expected $(basename "$client") and $(basename "$gateway")"

# check_files DEB EXPECTED...: the package holds exactly these files (not counting folders).
check_files() {
    local deb=$1 expected actual
    shift
    expected=$(printf '%s\n' "$@" | LC_ALL=C sort)
    actual=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -v '/$' | sed 's|^\./||' | LC_ALL=C sort)
    if [[ $actual != "$expected" ]]; then
        diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") >&2 || true
        fail "$(basename "$deb") does not hold the expected files (< expected, > packaged)"
    fi
}
check_files "$client" usr/bin/presence-chat usr/share/applications/presence-chat.desktop \
    usr/share/icons/hicolor/scalable/apps/presence-chat.svg
check_files "$gateway" usr/bin/presence-mock-server \
    usr/lib/systemd/system/presence-mock-server.service \
    usr/share/doc/presence-mock-server/examples/gateway.ini

# field DEB NAME: one control field.
field() { dpkg-deb -f "$1" "$2"; }
[[ $(field "$client" Package) == presence-chat ]] || fail "the client's package is not named presence-chat"
[[ $(field "$gateway" Package) == presence-mock-server ]] \
    || fail "the gateway's package is not named presence-mock-server"
for deb in "$client" "$gateway"; do
    [[ $(field "$deb" Version) == "$version" ]] || fail "$(basename "$deb"): Version is not $version"
    [[ $(field "$deb" Architecture) == "$arch" ]] || fail "$(basename "$deb"): Architecture is not $arch"
    [[ -n $(field "$deb" Maintainer) ]] || fail "$(basename "$deb"): no Maintainer"
    [[ $(field "$deb" Description | head -1) != *"built using CMake"* ]] \
        || fail "$(basename "$deb"): the summary is CMake's placeholder"
done

# depends_on DEB PACKAGE: PACKAGE is among the Depends (with or without a version).
depends_on() { field "$1" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qx "$2"; }
# dpkg-shlibdeps found the libraries each binary links; nobody wrote them down.
for library in libqt6core6 libqt6widgets6 libqt6websockets6 libc6; do
    depends_on "$client" "$library" || fail "presence-chat does not depend on $library"
done
for library in libqt6core6 libqt6websockets6 libhiredis0.14 libssl3 libsystemd0; do
    depends_on "$gateway" "$library" || fail "presence-mock-server does not depend on $library"
done
# ... and only those: the gateway has no widgets, the client no Redis.
! depends_on "$gateway" libqt6widgets6 || fail "presence-mock-server depends on libqt6widgets6"
! depends_on "$client" libhiredis0.14 || fail "presence-chat depends on libhiredis0.14"
# Loaded at run time, not linked: written by hand.
depends_on "$client" libqt6svg6 || fail "presence-chat does not depend on libqt6svg6 (its icon)"

# Maintainer scripts: the gateway's unit needs them, the client has none.
control_files() { dpkg-deb --ctrl-tarfile "$1" | tar -t | grep -v '/$' | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' '; }
[[ $(control_files "$client") == "control md5sums " ]] \
    || fail "presence-chat has control files '$(control_files "$client")'"
[[ $(control_files "$gateway") == "control md5sums postinst postrm prerm " ]] \
    || fail "presence-mock-server has control files '$(control_files "$gateway")'"
mkdir "$scratch/control"
dpkg-deb -e "$gateway" "$scratch/control"
for script in postinst prerm postrm; do
    [[ -x $scratch/control/$script ]] || fail "presence-mock-server's $script is not executable"
    sh -n "$scratch/control/$script" || fail "presence-mock-server's $script is not valid sh"
done

# Unpacked, everything works from where the package puts it.
root=$scratch/root
dpkg-deb -x "$client" "$root"
dpkg-deb -x "$gateway" "$root"
for program in presence-chat presence-mock-server; do
    binary=$root/usr/bin/$program
    [[ -x $binary ]] || fail "usr/bin/$program is not executable"
    if readelf -d "$binary" | grep -E 'R(UN)?PATH'; then
        fail "usr/bin/$program has an RPATH"
    fi
    output=$(timeout 20 "$binary" --version) || fail "usr/bin/$program --version exited with $?"
    [[ $output == "$program $version" ]] \
        || fail "usr/bin/$program --version printed '$output', expected '$program $version'"
done
if grep -rlF "$build" "$root" >&2; then
    fail "the files above name the build tree ($build)"
fi

desktop=$root/usr/share/applications/presence-chat.desktop
desktop-file-validate "$desktop" || fail "presence-chat.desktop does not validate"
exec_command=$(sed -n 's/^Exec=//p' "$desktop")
[[ -x $root/usr/bin/${exec_command%% *} ]] || fail "presence-chat.desktop: Exec=$exec_command is not packaged"
[[ $(sed -n 's/^Icon=//p' "$desktop") == presence-chat ]] || fail "presence-chat.desktop: Icon is not presence-chat"

unit=$root/usr/lib/systemd/system/presence-mock-server.service
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
[[ ${exec_start%% *} == /usr/bin/presence-mock-server ]] \
    || fail "the unit starts '${exec_start%% *}', not the packaged /usr/bin/presence-mock-server"

example=$root/usr/share/doc/presence-mock-server/examples/gateway.ini
checked=$(timeout 30 "$root/usr/bin/presence-mock-server" --config "$example" --check-config 2>&1) \
    || fail "the example configuration is refused: $checked"
[[ $checked == *"configuration OK"* ]] || fail "--check-config of the example said: $checked"

printf 'debian_packages: %s and %s hold what they should\n' "$(basename "$client")" "$(basename "$gateway")"
