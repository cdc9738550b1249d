#!/usr/bin/env python3
"""No artifact of a run holds a token: every file under the given paths written since --since (a run's start, epoch
seconds) is read for a JWT (a bearer token or a gateway-signed identity: base64url JSON header and payload). A token
in a report, a summary or a log can be replayed by whoever reads it until it expires.

  check-no-tokens.py --since EPOCH PATH...   exits 1 naming each file (and line) that holds one; the token itself is
                                             never printed, only its first characters
"""
import argparse
import os
import re
import stat
import sys

# a JWT's header and payload are base64url JSON objects: both begin with "eyJ" ('{"'); the signature may be empty
JWT = re.compile(rb"eyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*")
MAX_BYTES = 256 * 1024 * 1024  # larger files are the stores' data, not artifacts


def files(paths, since):
    for root in paths:
        if os.path.isfile(root):
            candidates = [root]
        else:
            candidates = (os.path.join(d, f) for d, _, names in os.walk(root) for f in names)
        for path in candidates:
            try:
                st = os.lstat(path)  # a socket or a link is no artifact
            except OSError:
                continue  # gone while walking (a log rotated)
            if stat.S_ISREG(st.st_mode) and st.st_mtime >= since and st.st_size <= MAX_BYTES:
                yield path


def findings(path):
    with open(path, "rb") as f:
        for n, line in enumerate(f, 1):
            m = JWT.search(line)
            if m:
                yield n, m.group(0)[:12].decode() + "…"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--since", type=float, required=True)
    p.add_argument("paths", nargs="+")
    a = p.parse_args()
    seen, found = 0, []
    for path in files(a.paths, a.since):
        seen += 1
        found += [f"{path}:{n}: {shown}" for n, shown in findings(path)]
    if found:
        print(f"{len(found)} token(s) in the run's artifacts:", *found[:20], sep="\n  ")
        return 1
    print(f"no token in the {seen} files this run wrote under {', '.join(a.paths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
