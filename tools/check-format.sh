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
# One clang-format for every file (one per file took over a minute on a busy machine); it
# names each place that differs as "FILE:LINE:COL: error: code should be clang-formatted".
report=$(clang-format --dry-run -Werror "${files[@]}" 2>&1 >/dev/null) || true
mapfile -t bad < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' <<<"$report" | sort -u)
if ((${#bad[@]} == 0)) && grep -q . <<<"$report"; then
    echo "check-format: clang-format failed: $report" >&2
    exit 2
fi
if ((${#bad[@]} > 0)); then
    printf 'check-format: not formatted (run clang-format -i on it): %s\n' "${bad[@]}" >&2
    exit 1
fi
echo "check-format: ${#files[@]} files formatted"
