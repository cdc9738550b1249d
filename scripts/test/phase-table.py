#!/usr/bin/env python3
"""The phase table of one `make test` run (markdown), from scripts/test/phases.sh's TSV and the run's log.

  phase-table.py RUN.tsv test.log [cold|warm]

Per phase: wall and busy CPU seconds (the whole machine's), its budget, and the checks it made, counted in its part
of the log: JUnit tests (Maven's per-module totals), load thresholds, `ok`/`FAIL` step lines (every scripts/test/test-*.sh
step, doc command, dashboard query) and reliability cases. A run whose counts fell proved less, whatever it saved.
"""
import os
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;]*m")
JUNIT = re.compile(r"^\[(?:INFO|ERROR|WARNING)\] Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)$")
# a metric line of a load run's summary whose thresholds were judged: "... ✓" or "... ✗ THRESHOLD FAILED"
THRESHOLD = re.compile(r"^\s+\S.*\s(✓|✗)( THRESHOLD FAILED)?$")
STEP = re.compile(r"^\s{2}(ok|FAIL)\s{2,}\S")
RELIABILITY_CASE = re.compile(r"^\[perflab\] \S+: \d+ requests, .*0 bad answers")
RELIABILITY_FAILED = re.compile(r"^\[perflab\] \S+: FAILED$")


def counts(lines):
    c = {"junit": 0, "junit_failed": 0, "thresholds": 0, "thresholds_failed": 0, "steps": 0, "steps_failed": 0, "cases": 0, "cases_failed": 0}
    for raw in lines:
        line = ANSI.sub("", raw.rstrip("\n"))
        if m := JUNIT.match(line):
            c["junit"] += int(m[1]); c["junit_failed"] += int(m[2]) + int(m[3])
        elif m := THRESHOLD.match(line):
            c["thresholds"] += 1; c["thresholds_failed"] += m[1] == "✗"
        elif m := STEP.match(line):
            c["steps"] += 1; c["steps_failed"] += m[1] == "FAIL"
        elif RELIABILITY_CASE.match(line):
            c["cases"] += 1
        elif RELIABILITY_FAILED.match(line):
            c["cases"] += 1; c["cases_failed"] += 1
    return c


def describe(c):
    parts = []
    for key, word in (("junit", "JUnit"), ("thresholds", "thresholded metrics"), ("steps", "steps"), ("cases", "cases")):
        if c[key]:
            failed = c[key + "_failed"]
            parts.append(f"{c[key]} {word}" + (f" ({failed} failed)" if failed else ""))
    return ", ".join(parts) or "-"


def mmss(seconds):
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def main():
    tsv, log = sys.argv[1], sys.argv[2]
    cache = sys.argv[3] if len(sys.argv) > 3 else "?"
    with open(log, encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    rows = []
    with open(tsv) as f:
        next(f)
        for row in f:
            name, budget, wall, cpu, status, l0, l1 = row.rstrip("\n").split("\t")
            rows.append((name, int(budget), float(wall), float(cpu), status, counts(lines[int(l0):int(l1)])))
    total_wall = sum(r[2] for r in rows)
    total_cpu = sum(r[3] for r in rows)
    total_budget = sum(r[1] for r in rows)
    over = [r[0] for r in rows if r[2] > r[1]]
    everything = {k: sum(r[5][k] for r in rows) for k in rows[0][5]} if rows else counts([])
    print(f"| phase | wall | budget | CPU (machine) | checks | status |")
    print("|---|--:|--:|--:|---|---|")
    for name, budget, wall, cpu, status, c in rows:
        flag = " **over budget**" if wall > budget else ""
        print(f"| {name} | {mmss(wall)} | {mmss(budget)} | {cpu:.0f} s | {describe(c)} | {status}{flag} |")
    print(f"| **total** ({cache} tool cache) | **{mmss(total_wall)}** | {mmss(total_budget)} | {total_cpu:.0f} s "
          f"| {describe(everything)} | {'ok' if all(r[4] == 'ok' for r in rows) else 'FAILED'} |")
    print()
    print(f"Over its budget: {', '.join(over) if over else 'no phase'}. CPU is the busy time of the whole machine "
          f"during the phase (every process: stores, JVMs, the load generators, the node), out of {os.cpu_count()} x wall.")


if __name__ == "__main__":
    main()
