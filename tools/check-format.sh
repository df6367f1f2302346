#!/usr/bin/env bash
# tools/check-format.sh [ROOT]: fails (exit 1) when a C++ source differs from what
# clang-format (.clang-format, Debian 12's clang-format 14) makes of it, naming each file;
# `clang-format -i FILE` fixes it. The test command runs it (CTest format).
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
command -v clang-format >/dev/null || { echo "check-format: clang-format is not installed" >&2; exit 2; }
cd "$root"
# The tracked sources when this is a git checkout, else every source outside build trees.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files '*.cpp' '*.h')
else
    mapfile -t files < <(find . -path ./build -prune -o -type f \( -name '*.cpp' -o -name '*.h' \) -print)
fi
((${#files[@]} > 0)) || { echo "check-format: no sources under $root" >&2; exit 2; }
bad=()
for file in "${files[@]}"; do
    clang-format --dry-run -Werror "$file" >/dev/null 2>&1 || bad+=("$file")
done
if ((${#bad[@]} > 0)); then
    printf 'check-format: not formatted (run clang-format -i on it): %s\n' "${bad[@]}" >&2
    exit 1
fi
echo "check-format: ${#files[@]} files formatted"
