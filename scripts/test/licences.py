#!/usr/bin/env python3
"""Every dependency the build ships is under a licence perflab may ship, and none is on the list not to use.

  licences.py THIRD-PARTY.txt [--refused config/licences/not-to-use.tsv] [--checked config/licences/checked.tsv]

THIRD-PARTY.txt is license-maven-plugin's list of the build's resolved dependencies (compile and runtime scopes),
one a line: "(licence) (licence) name (group:artifact:version - url)". A dependency passes when one of its licences
is of a kind below (a dual licence is taken on the allowed side). One whose POM names no licence passes only when
config/licences/checked.tsv states the licence its own distribution gives, for that version. It fails when it is on
the refused list, when its only licences are the AGPL, the SSPL, the BUSL or a vendor's terms, or when none of them
is known here: a new licence is read by a person before it is added, never let through.
Prints each failure and exits 1; prints the count of dependencies by licence kind and exits 0 otherwise.
"""
import argparse
import re
import sys
from collections import Counter

# kinds of licence that may ship with perflab (Apache-2.0): permissive, weak copyleft, GPL with a linking exception
ALLOWED = [
    ("Apache", r"\bapache\b"),
    ("BSD", r"\bbsd\b|\bedl\b|eclipse distribution"),
    ("MIT", r"\bmit\b"),
    ("EPL", r"\bepl\b|eclipse public"),
    ("MPL", r"\bmpl\b|mozilla public"),
    ("CDDL", r"\bcddl\b"),
    ("LGPL", r"\blgpl\b|lesser general public"),
    ("GPL with an exception", r"\bgpl.*(\bce\b|cpe|classpath|exception)|general public license.*exception"),
    ("public domain", r"public domain|\bcc0\b"),
    ("BSD-like", r"bouncy castle|java html tidy|indiana university extreme|sax license|w3c license"),
]
REFUSED = r"affero|\bagpl\b|server side public|\bsspl\b|business source|\bbusl\b|commercial|proprietary"
LINE = re.compile(r"^\s*((?:\([^()]*\)\s*)+)(.*)\(([^:\s()]+):([^:\s()]+):([^\s()]+) - ")


def kind(licence):
    low = licence.lower()
    if re.search(REFUSED, low):
        return None
    for name, pattern in ALLOWED:
        if re.search(pattern, low):
            return name
    return None


def table(path):
    rows = {}
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                cols = line.rstrip("\n").split("\t")
                rows[cols[0]] = cols[1:]
    return rows


def check(lines, refused, checked):
    """(failures, Counter of kinds) for license-maven-plugin's lines."""
    failures, kinds = [], Counter()
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        licences = re.findall(r"\(([^()]*)\)", m.group(1))
        coordinate, version = f"{m.group(3)}:{m.group(4)}", m.group(5)
        if coordinate in refused:
            failures.append(f"{coordinate}:{version} is on the list not to use: {refused[coordinate][0]}")
            continue
        if licences == ["Unknown license"]:
            stated = checked.get(coordinate)
            if stated and stated[0] == version and kind(stated[1]):
                kinds[kind(stated[1])] += 1
            else:
                failures.append(f"{coordinate}:{version} names no licence: read its distribution's and add it to "
                                f"config/licences/checked.tsv, or drop it")
            continue
        allowed = [kind(l) for l in licences if kind(l)]
        if allowed:
            kinds[allowed[0]] += 1
        else:
            failures.append(f"{coordinate}:{version} is under {' / '.join(licences)}: not a licence perflab may ship "
                            f"(or one not read yet: see the kinds in scripts/test/licences.py)")
    return failures, kinds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("third_party")
    ap.add_argument("--refused", default="config/licences/not-to-use.tsv")
    ap.add_argument("--checked", default="config/licences/checked.tsv")
    a = ap.parse_args()
    with open(a.third_party) as f:
        lines = f.readlines()
    refused = {}
    with open(a.refused) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                group, artifact, why = line.rstrip("\n").split("\t", 2)
                refused[f"{group}:{artifact}"] = [why]
    failures, kinds = check(lines, refused, table(a.checked))
    for failure in failures:
        print(f"licence: {failure}")
    if failures or not kinds:
        if not kinds:
            print(f"licence: no dependency read from {a.third_party}")
        return 1
    print(f"{sum(kinds.values())} dependencies, every one under a licence perflab may ship: "
          + ", ".join(f"{n} {k}" for k, n in kinds.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
