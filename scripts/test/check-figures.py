#!/usr/bin/env python3
"""docs/figures.md's goals say what the code holds.

  check-figures.py [ROOT]

Reads the goal column of the table under "## Headline figures" in docs/figures.md. A goal cell is split at `;` into
goals; a goal that names its source is compared with that source:

- `(SLO `<service>/<endpoint>`)` or `(SLO `<service>/<endpoint>` in `<scenario>`)`: the endpoint's limits in
  load-tests/src/main/resources/slo/<service>.json: each percentile the endpoint states (p95, p99), replaced by the
  scenario's where it states one, as the load runner reads them. Each must be in the goal as `pNN ≤ N ms` with the
  same N, and the goal may state no other.
- `(bench `<label>`)`: the `line "<label>:" ... "(goal >= X` or `(goal <= X ms` of scripts/bench/bench-gateway.sh.
  The goal must state `≥ X` or `≤ X ms` with the same X.
- `(capacity target `<service>`)`: the number that starts `capacity_target` in services/<service>/service.env. The
  goal must start with that number (thousands separated by commas or not).

A goal without such a source is prose and is counted, not checked. Prints each mismatch on a line of its own, naming
the row and what differs, and exits 1; prints what it compared otherwise.
"""
import json
import re
import sys
from pathlib import Path

SLO = re.compile(r"\(SLO `([a-z0-9-]+)/([a-z0-9-]+)`(?: in `([a-z0-9/-]+)`)?\)")
BENCH = re.compile(r"\(bench `([^`]+)`\)")
CAPACITY = re.compile(r"\(capacity target `([a-z0-9-]+)`\)")
PERCENTILE = re.compile(r"\b(p\d\d) ≤ ([\d,.]+) ms")
BENCH_GOAL = re.compile(r'^line "([^"]+):".*\(goal (>=|<=) ([\d.]+)', re.M)
STATED_GOAL = re.compile(r"(≥|≤) ([\d,.]+)")
CAPACITY_TARGET = re.compile(r'^capacity_target="(\d+)', re.M)


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def figures_table(text):
    """The header and rows of the first table under `## Headline figures`."""
    lines, inside = [], False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line[3:].strip() == "Headline figures"
            continue
        if inside and line.lstrip().startswith("|"):
            lines.append(cells(line))
        elif inside and lines:
            break
    return (lines[0], lines[2:]) if len(lines) > 1 else (None, [])


def number(text):
    return float(text.replace(",", "").rstrip("."))


def check_slo(root, goal, m, what, problems):
    service, endpoint, scenario = m.groups()
    source = f"load-tests/src/main/resources/slo/{service}.json"
    path = root / source
    if not path.is_file():
        problems.append(f"docs/figures.md: {what}: SLO `{service}/{endpoint}`, but there is no {source}")
        return
    entry = json.loads(path.read_text()).get("endpoints", {}).get(endpoint)
    if entry is None:
        problems.append(f"docs/figures.md: {what}: {source} has no endpoint {endpoint}")
        return
    if scenario:
        if scenario not in entry.get("scenarios", {}):
            problems.append(f"docs/figures.md: {what}: {source} states nothing of {endpoint} in {scenario}")
            return
    own = entry.get("scenarios", {}).get(scenario, {}) if scenario else {}
    # as load-tests' Slo.latency: the endpoint's percentiles, each replaced by the scenario's where it states one
    held = {k: float(own.get(k, v)) for k, v in entry.items() if re.fullmatch(r"p\d\d", k)}
    stated = {p: number(n) for p, n in PERCENTILE.findall(goal)}
    where = f"{endpoint}" + (f" in {scenario}" if scenario else "")
    for p in sorted(held.keys() | stated.keys()):
        if p not in stated:
            problems.append(f"docs/figures.md: {what}: the goal states no {p}; {source} holds {where} {p} ≤ {held[p]:g} ms")
        elif p not in held:
            problems.append(f"docs/figures.md: {what}: the goal states {p} ≤ {stated[p]:g} ms; {source} holds no {p} for {where}")
        elif stated[p] != held[p]:
            problems.append(f"docs/figures.md: {what}: the goal states {p} ≤ {stated[p]:g} ms; {source} holds {where} "
                            f"{p} ≤ {held[p]:g} ms")


def check_bench(root, goal, m, what, problems):
    label = m.group(1)
    source = "scripts/bench/bench-gateway.sh"
    path = root / source
    goals = {l: (op, float(x)) for l, op, x in BENCH_GOAL.findall(path.read_text())} if path.is_file() else {}
    if label not in goals:
        problems.append(f"docs/figures.md: {what}: {source} holds no goal for `{label}`")
        return
    op, held = goals[label]
    stated = STATED_GOAL.search(goal)
    want = "≥" if op == ">=" else "≤"
    if not stated or stated.group(1) != want or number(stated.group(2)) != held:
        said = f"{stated.group(1)} {stated.group(2)}" if stated else "no bound"
        problems.append(f"docs/figures.md: {what}: the goal states {said}; {source} holds `{label}` {want} {held:g}")


def check_capacity(root, goal, m, what, problems):
    service = m.group(1)
    source = f"services/{service}/service.env"
    path = root / source
    held = CAPACITY_TARGET.search(path.read_text()) if path.is_file() else None
    if not held:
        problems.append(f"docs/figures.md: {what}: {source} states no capacity_target")
        return
    stated = re.match(r"\s*([\d,]+)", goal)
    if not stated or number(stated.group(1)) != float(held.group(1)):
        said = stated.group(1) if stated else "no number"
        problems.append(f"docs/figures.md: {what}: the goal states {said}; {source}'s capacity_target is {held.group(1)}")


def main(root):
    root = Path(root)
    problems = []
    header, rows = figures_table((root / "docs/figures.md").read_text())
    if header is None or "goal" not in header:
        print("docs/figures.md: no table with a goal column under '## Headline figures'")
        return 1
    col = header.index("goal")
    checked = prose = 0
    for row in rows:
        what = row[0]
        for goal in row[col].split(";"):
            goal = goal.strip()
            if goal in ("", "–", "-"):
                continue
            found = False
            for pattern, check in ((SLO, check_slo), (BENCH, check_bench), (CAPACITY, check_capacity)):
                for m in pattern.finditer(goal):
                    check(root, goal, m, what, problems)
                    found = True
            checked += found
            prose += not found
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"figures: {len(rows)} rows; {checked} goals as the SLO files, bench-gateway.sh and service.env hold them, "
          f"{prose} stated in prose (not checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]))
