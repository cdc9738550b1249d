#!/usr/bin/env python3
"""k6 stays gone: no file the project runs or ships builds, installs, pulls or runs it.

  check-no-k6.py [ROOT]

k6 (its Go module under go.k6.io) is AGPL-3.0 and the package registries perflab builds from list it as not to use; its operator's
TestRun path went with it (docs/load-testing.md says why and what replaced it). Every file git knows is read: in a
Markdown file only its code blocks (the commands a reader would run; prose may name k6 to compare), in any other file
every line. A line fails when it names the module, the image, the operator or its resources, the binary as a command,
its settings or the old scripts' folder. Prints each such line and exits 1; prints how many files were read otherwise.
"""
import re
import subprocess
import sys
from pathlib import Path

FORBIDDEN = [
    ("the k6 module", re.compile(r"go\.k6\.io")),
    ("the k6 image", re.compile(r"grafana/k6\b")),
    ("the k6-operator", re.compile(r"k6-operator|k6\.io/v1alpha1|\bkind:\s*TestRun\b|\btestruns?\b", re.I)),
    ("the k6 binary as a command", re.compile(r"(^|[\s;|&(`$\"'/])k6(-v[0-9.]+)?\s+(run|resume|status|pause|stop|inspect|archive|cloud|version)\b")),
    ("k6's settings", re.compile(r"\bK6_[A-Z_]+")),
    ("the k6 scripts' folder", re.compile(r"\bk6-tests/")),
]
SELF = "scripts/test/check-no-k6.py"
FENCE = re.compile(r"^\s*(```|~~~)")


def lines_to_read(path, text):
    """(number, line) of what is checked: every line, or a Markdown file's code blocks."""
    if not path.endswith(".md"):
        return enumerate(text.splitlines(), 1)
    out, inside = [], False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            inside = not inside
        elif inside:
            out.append((n, line))
    return out


def main(root):
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                           capture_output=True, text=True, check=True).stdout.split("\0")
    found, read = [], 0
    for f in filter(None, files):
        p = Path(root) / f
        if f in (SELF, "scripts/test/unit/test_check_no_k6.py") or not p.is_file() or p.is_symlink():
            continue
        try:
            text = p.read_text()
        except UnicodeDecodeError:
            continue
        read += 1
        for n, line in lines_to_read(f, text):
            for what, pattern in FORBIDDEN:
                if pattern.search(line):
                    found.append(f"{f}:{n}: {what}: {line.strip()[:140]}")
    for line in found:
        print(line)
    if found:
        print(f"k6 is back in {len(found)} line(s): it is AGPL-3.0 and listed not to use (docs/load-testing.md)")
        return 1
    print(f"no k6 in {read} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
