#!/usr/bin/env python3
"""The docs' reference tables say what the code says.

  check-doc-tables.py [ROOT]

- Make targets: every target of the Makefile (its `name: ## help` lines and its .PHONY list, which must agree) has a
  row in docs/operations.md's "Make targets" table, and every row there names a real target (`make <target> ...`).
- Ports: every row of README.md's service table (Service | What it does | Port | Folder) states the port the service
  has: `port=` in services/<name>/service.env, or for the gateway PERFLAB_GATEWAY_PORT's default in
  scripts/lib/env.sh. Every folder under services/ has a row.

Prints each mismatch on a line of its own, naming the file and what differs, and exits 1; prints what it compared
otherwise.
"""
import re
import sys
from pathlib import Path

HELP_LINE = re.compile(r"^([a-z][a-z0-9-]*):.*##\s")
PHONY = re.compile(r"^\.PHONY:(.*)$", re.M)
ROW_TARGET = re.compile(r"^`make ([a-z][a-z0-9-]*)[^`]*`$")
PORT = re.compile(r"^port=(\d+)", re.M)
GATEWAY_PORT = re.compile(r"PERFLAB_GATEWAY_PORT:-(\d+)")


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table_rows(lines):
    """The rows of the first Markdown table in lines (header and separator skipped), as lists of cells."""
    rows, seen = [], False
    for line in lines:
        if line.lstrip().startswith("|"):
            seen = True
            rows.append(cells(line))
        elif seen:
            break
    return rows[2:]


def section(text, heading):
    """The lines under a `## heading` up to the next heading of level 2 or higher."""
    out, inside = [], False
    for line in text.splitlines():
        if re.match(r"^#{1,2}\s", line):
            if inside:
                break
            inside = line.lstrip("#").strip() == heading
            continue
        if inside:
            out.append(line)
    return out


def make_targets(root, problems):
    makefile = (root / "Makefile").read_text()
    helped = {m.group(1) for m in map(HELP_LINE.match, makefile.splitlines()) if m}
    phony = {t for m in PHONY.finditer(makefile) for t in m.group(1).split()}
    for t in sorted(phony - helped):
        problems.append(f"Makefile: target {t} is in .PHONY but has no `{t}: ## help` line")
    for t in sorted(helped - phony):
        problems.append(f"Makefile: target {t} has a `## help` line but is not in .PHONY")
    targets = helped | phony

    ops = root / "docs/operations.md"
    rows = table_rows(section(ops.read_text(), "Make targets"))
    if not rows:
        problems.append(f"{ops.relative_to(root)}: no table under '## Make targets'")
        return targets, set()
    listed = set()
    for row in rows:
        m = ROW_TARGET.match(row[0])
        if not m:
            problems.append(f"docs/operations.md: Make targets row {row[0]!r} does not name a target as `make <target>`")
        elif m.group(1) not in targets:
            problems.append(f"docs/operations.md: Make targets row names `make {m.group(1)}`, which the Makefile has not")
        else:
            listed.add(m.group(1))
    for t in sorted(targets - listed):
        problems.append(f"docs/operations.md: Make targets table has no row for `make {t}` (a Makefile target)")
    return targets, listed


def service_ports(root, problems):
    readme = (root / "README.md").read_text().splitlines()
    start = next((i for i, l in enumerate(readme) if re.match(r"^\|\s*Service\s*\|.*\|\s*Port\s*\|", l)), None)
    if start is None:
        problems.append("README.md: no service table (a header row with Service and Port)")
        return 0
    header = cells(readme[start])
    name_col, port_col = header.index("Service"), header.index("Port")
    rows = table_rows(readme[start:])
    named = set()
    for row in rows:
        name, stated = row[name_col].strip("`"), row[port_col]
        named.add(name)
        if name == "gateway":
            source = "scripts/lib/env.sh"
            m = GATEWAY_PORT.search((root / source).read_text())
        else:
            source = f"services/{name}/service.env"
            env = root / source
            if not env.is_file():
                problems.append(f"README.md: service table names {name}, which has no {source}")
                continue
            m = PORT.search(env.read_text())
        if not m:
            problems.append(f"{source}: no port stated for {name}")
        elif m.group(1) != stated:
            problems.append(f"README.md: service table gives {name} port {stated}, {source} says {m.group(1)}")
    for d in sorted(p.parent.name for p in (root / "services").glob("*/service.env")):
        if d not in named:
            problems.append(f"README.md: service table has no row for {d} (services/{d}/service.env)")
    return len(rows)


def main(root):
    root = Path(root)
    problems = []
    targets, listed = make_targets(root, problems)
    ports = service_ports(root, problems)
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"docs tables: {len(targets)} make targets, each a row of docs/operations.md; {ports} service ports in "
          "README.md, each its service.env's")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]))
