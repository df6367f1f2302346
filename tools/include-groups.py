#!/usr/bin/env python3
"""tools/include-groups.py [--fix] [ROOT]: the include groups of every tracked source file in
the order ../shared/STYLE.md gives (standard library, Qt, project), each under its label:

    #include "ui/shell/MainWindow.h"  <- a .cpp file's own header first, unlabelled

    // C++
    #include <chrono>
    // System                       <- other libraries outside Qt (hiredis, POSIX)
    #include <unistd.h>

    // Qt
    #include <QObject>

    // Presence
    #include "protocol/Frame.h"

Without --fix it lists the files whose leading includes differ and exits 1; with --fix it
rewrites them. Only the first run of includes is looked at (up to the first line that is
neither an include, a label nor blank); a file with a preprocessor condition in that run is
left alone. clang-format sorts within each group. The test command runs the check
(CTest include_groups)."""

import re
import subprocess
import sys
from pathlib import Path

LABELS = ["// C++", "// System", "// Qt", "// Presence"]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
QT = re.compile(r"^(Q[A-Za-z0-9]*|Qt[A-Za-z0-9]*/.*)$")


def group_of(bracket, target):
    if bracket == '"':
        return "// Presence"
    if QT.match(target):
        return "// Qt"
    # The C++ standard library has no extension and no folder (<chrono>, <cstdlib>).
    if "." not in target and "/" not in target:
        return "// C++"
    return "// System"


def own_header(path, bracket, target):
    return (
        path.suffix == ".cpp"
        and bracket == '"'
        and Path(target).name == path.with_suffix(".h").name
    )


def rewrite(path, text):
    """The text with its leading include run regrouped, or None when nothing applies."""
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if INCLUDE.match(line)), None)
    if first is None:
        return None
    # Labels and blank lines directly above the first include belong to the run.
    while first > 0 and (lines[first - 1].strip() in LABELS):
        first -= 1
    last = first
    entries = []
    for i in range(first, len(lines)):
        line = lines[i]
        stripped = line.strip()
        match = INCLUDE.match(line)
        if match:
            entries.append((match.group(1), match.group(2), line.strip()))
            last = i
        elif stripped == "" or stripped in LABELS:
            continue
        else:
            if stripped.startswith("#") and not stripped.startswith("#pragma"):
                if re.match(r"#\s*(if|ifdef|ifndef|else|elif|endif)", stripped):
                    return None
            break
    own = [e for e in entries if own_header(path, e[0], e[1])]
    rest = [e for e in entries if e not in own]
    blocks = []
    if own:
        blocks.append([own[0][2]] + [e[2] for e in own[1:]])
    for label in LABELS:
        members = sorted({e[2] for e in rest if group_of(e[0], e[1]) == label})
        if members:
            blocks.append([label] + members)
    # C++ and System read as one block of things outside Qt and the project.
    merged = []
    for block in blocks:
        if merged and block[0] == "// System" and merged[-1][0] == "// C++":
            merged[-1].extend(block)
        else:
            merged.append(block)
    body = "\n\n".join("\n".join(block) for block in merged)
    return "\n".join(lines[:first] + body.split("\n") + lines[last + 1 :])


def main(argv):
    fix = "--fix" in argv
    args = [a for a in argv if a != "--fix"]
    root = Path(args[0]) if args else Path(__file__).resolve().parent.parent
    files = subprocess.run(
        ["git", "-C", str(root), "ls-files", "*.h", "*.cpp"],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    # Fixtures that are wrong on purpose are not the project's code.
    files = [f for f in files if not f.startswith("tests/include_direction/")]
    if not files:
        print("include-groups: no source files under", root, file=sys.stderr)
        return 2
    differing = []
    for name in files:
        path = root / name
        text = path.read_text(encoding="utf-8")
        regrouped = rewrite(Path(name), text)
        if regrouped is None or regrouped == text:
            continue
        differing.append(name)
        if fix:
            path.write_text(regrouped, encoding="utf-8")
    if differing and not fix:
        for name in differing:
            print(f"{name}: include groups not in the order C++, Qt, Presence, each labelled "
                  "(tools/include-groups.py --fix)", file=sys.stderr)
        print(f"include-groups: {len(differing)} of {len(files)} files differ", file=sys.stderr)
        return 1
    verb = "regrouped" if fix else "checked"
    print(f"include-groups: {len(files)} files {verb}"
          + (f", {len(differing)} rewritten" if fix else ", every include group in order"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
