#!/usr/bin/env python3
"""A job summary (GitHub's $GITHUB_STEP_SUMMARY markdown) of what a CI job ran.

  ci-summary.py junit DIR...      test counts per module from the surefire reports under each DIR
  ci-summary.py thresholds DIR    every threshold of the load runs' summaries (*-summary.json) under DIR, passed or not
  ci-summary.py steps LOG         the step lines (ok / FAIL) and the verdict a scripts/test/test-*.sh run printed
"""
import json
import pathlib
import re
import sys
import xml.etree.ElementTree as ET


def junit(dirs):
    rows, total = [], [0, 0, 0, 0]
    for d in dirs:
        for report_dir in sorted(pathlib.Path(d).glob("**/target/surefire-reports")):
            module = str(report_dir.parent.parent.relative_to(d)) if report_dir.parent.parent != pathlib.Path(d) else d
            counts = [0, 0, 0, 0]
            for xml in report_dir.glob("TEST-*.xml"):
                suite = ET.parse(xml).getroot()
                for i, key in enumerate(("tests", "failures", "errors", "skipped")):
                    counts[i] += int(suite.get(key, 0))
            total = [a + b for a, b in zip(total, counts)]
            rows.append(f"| {module} | {counts[0]} | {counts[1]} | {counts[2]} | {counts[3]} |")
    print("| module | tests | failures | errors | skipped |\n|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"| **all** | **{total[0]}** | **{total[1]}** | **{total[2]}** | **{total[3]}** |")
    return 0


def thresholds(directory):
    print("| run | metric | threshold | result |\n|---|---|---|---|")
    for summary in sorted(pathlib.Path(directory).rglob("*-summary.json")):
        metrics = json.loads(summary.read_text()).get("metrics", {})
        for name, metric in sorted(metrics.items()):
            for expression, verdict in (metric.get("thresholds") or {}).items():
                result = "passed" if verdict.get("ok") else "**failed**"
                print(f"| {summary.name.removesuffix('-summary.json')} | {name} | `{expression}` | {result} |")
    return 0


def steps(log):
    text = pathlib.Path(log).read_text(errors="replace")
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    lines = [l.strip() for l in text.splitlines() if re.match(r"\s+(ok|FAIL)\s{2,}", l)]
    verdicts = [l for l in text.splitlines() if re.search(r": \d+ passed, \d+ failed$", l)]
    print("```\n" + "\n".join(lines + verdicts) + "\n```")
    return 0


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    sys.exit({"junit": lambda: junit(args), "thresholds": lambda: thresholds(args[0]), "steps": lambda: steps(args[0])}[command]())
