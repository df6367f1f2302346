#!/usr/bin/env python3
"""tools/header-users.py ROOT HEADER...: prints the sources of build/test that the compiler
compiled with any of these headers, one per line, relative to ROOT.

It reads what the compiler recorded in the last build (ninja's deps log), not the #include
lines, so a header is matched by its path: two headers of one name in different folders do not
bring in each other's users, and a header included through another is found too."""
import json
import os
import re
import subprocess
import sys


def absolute(path, base):
    return os.path.realpath(os.path.join(base, path))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.split("\n\n")[0])
    root = os.path.realpath(sys.argv[1])
    build = os.path.join(root, "build", "test")
    wanted = {absolute(header, root) for header in sys.argv[2:]}
    source_of = {}
    with open(os.path.join(build, "compile_commands.json")) as commands:
        for entry in json.load(commands):
            output = re.search(r" -o (\S+)", entry["command"])
            if output:
                source_of[absolute(output.group(1), entry["directory"])] = absolute(
                    entry["file"], root)
    log = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True,
                         check=True).stdout
    source, users = None, set()
    for line in log.splitlines():
        if line and not line[0].isspace():
            source = source_of.get(absolute(line.split(": #deps")[0], build))
        elif source and absolute(line.strip(), build) in wanted:
            users.add(os.path.relpath(source, root))
    for user in sorted(users):
        print(user)


if __name__ == "__main__":
    main()
