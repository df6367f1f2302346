#!/usr/bin/env bash
# tools/tidy.sh [--all | --recent | FILE...]: runs clang-tidy (.clang-tidy's curated checks) with
# every warning an error, and exits 1 when it reports any.
#   tools/tidy.sh           the C++ sources changed against main's merge base: committed on
#                           this branch, staged, unstaged or untracked (seconds; before a commit)
#   tools/tidy.sh --recent  what the test command runs: the sources uncommitted or changed by the
#                           last 5 commits of main's line, newest first, at most 10 (minutes)
#   tools/tidy.sh --all     every source of the tree, tests and benchmarks included (about half
#                           an hour on 2 cores)
#   tools/tidy.sh FILE...   these files
# A changed header is checked through the source file of the same name, or, lacking one, through
# every source the last build compiled with it (tools/header-users.py). It builds build/test first (incrementally), for the compile
# commands and the files Qt generates.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$PRESENCE_ROOT"

usage() {
    sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
    exit 2
}

mode=changed
files=()
for arg in "$@"; do
    case $arg in
    --all) mode=all ;;
    --recent) mode=recent ;;
    -h | --help) usage ;;
    -*) echo "tidy: unknown option: $arg" >&2; usage ;;
    *)
        [[ -f $arg ]] || { echo "tidy: no such file: $arg" >&2; exit 2; }
        mode=files
        files+=("$arg")
        ;;
    esac
done
[[ $mode != files && ${#files[@]} -gt 0 ]] && { echo "tidy: --$mode takes no files" >&2; exit 2; }
# Sources --recent checks at most: about 3 minutes on 2 cores.
max_recent=10

presence_ensure_packages "${PRESENCE_PACKAGES[@]}"
presence_build test -DCMAKE_BUILD_TYPE=Debug -DPRESENCE_WARNINGS_AS_ERRORS=ON -DPRESENCE_BUILD_TESTS=ON

# The test build compiles with GCC's precompiled headers, which clang cannot read: a copy of its
# compile commands without them. Each source includes what it uses, so nothing is lost.
db=build/tidy
mkdir -p "$db"
python3 - "$PRESENCE_ROOT" <<'EOF'
import json, re, sys
root = sys.argv[1]
entries = json.load(open(f"{root}/build/test/compile_commands.json"))
for e in entries:
    e["command"] = re.sub(r" -Winvalid-pch| -include \S+/cmake_pch\.hxx", "", e["command"])
json.dump(entries, open(f"{root}/build/tidy/compile_commands.json", "w"), indent=1)
EOF

# Sources the compile commands know (not the files Qt generates under build/).
mapfile -t known < <(python3 -c '
import json, os, sys
root = sys.argv[1]
for e in json.load(open(f"{root}/build/tidy/compile_commands.json")):
    f = os.path.relpath(e["file"], root)
    if not f.startswith("build/"):
        print(f)' "$PRESENCE_ROOT" | sort -u)

case $mode in
all) targets=("${known[@]}") ;;
changed | files | recent)
    if [[ $mode == recent ]]; then
        # Newest first: what is not committed yet, then each commit's files back from HEAD (a
        # merge counts as the changes it brought onto this line).
        mapfile -t files < <({
            git diff --name-only --diff-filter=d HEAD -- '*.cpp' '*.h'
            git ls-files --others --exclude-standard -- '*.cpp' '*.h'
            git log --first-parent --diff-merges=first-parent -n 5 --format= --name-only \
                --diff-filter=d -- '*.cpp' '*.h'
        } | awk 'NF && !seen[$0]++' | while IFS= read -r f; do [[ -f $f ]] && echo "$f"; done)
    elif [[ $mode == changed ]]; then
        base=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)
        mapfile -t files < <({
            git diff --name-only --diff-filter=d "$base" -- '*.cpp' '*.h'
            git ls-files --others --exclude-standard -- '*.cpp' '*.h'
        } | sort -u)
    fi
    targets=()
    lone_headers=() # headers without a source of their own
    for f in "${files[@]}"; do
        case $f in
        *.cpp) targets+=("$f") ;;
        *.h)
            if [[ -f ${f%.h}.cpp ]]; then
                targets+=("${f%.h}.cpp")
            else
                lone_headers+=("$f")
            fi
            ;;
        esac
    done
    if ((${#lone_headers[@]} > 0)); then
        mapfile -t users < <(python3 tools/header-users.py "$PRESENCE_ROOT" "${lone_headers[@]}")
        targets+=("${users[@]}")
    fi
    # Only what the test build compiles (a fuzz target, say, is not in it).
    if [[ $mode == recent ]]; then
        # In the order found (newest first), each once, up to the cap.
        mapfile -t targets < <(printf '%s\n' "${targets[@]}" | awk '!seen[$0]++' \
            | grep -Fxf <(printf '%s\n' "${known[@]}") | head -n "$max_recent" || true)
    else
        mapfile -t targets < <(printf '%s\n' "${targets[@]}" | sort -u | comm -12 - <(printf '%s\n' "${known[@]}"))
    fi
    ;;
esac

if ((${#targets[@]} == 0)); then
    echo "tidy: no C++ source to check"
    exit 0
fi
presence_log "clang-tidy over ${#targets[@]} files"
[[ $mode == recent ]] && printf '  %s\n' "${targets[@]}" >&2
log=$db/last-run.log
status=0
printf '%s\n' "${targets[@]}" \
    | xargs -P "$(nproc)" -n 4 clang-tidy -p "$db" --quiet --warnings-as-errors='*' >"$log" 2>&1 \
    || status=$?
# clang-tidy prints a count of suppressed warnings on stderr even with --quiet: keep the findings.
grep -v -e '^[0-9]* warnings\? generated\.$' -e '^[0-9]* warnings\? and [0-9]* errors\? generated\.$' \
    -e '^Suppressed [0-9]* warnings' -e '^Use -header-filter' "$log" || true
if ((status != 0)); then
    count=$(grep -E ': (error|warning): .*\[[^]]+\]$' "$log" | sort -u | grep -c . || true)
    echo "tidy: $count findings in ${#targets[@]} files (log: $log)" >&2
    exit 1
fi
echo "tidy: ${#targets[@]} files clean"
