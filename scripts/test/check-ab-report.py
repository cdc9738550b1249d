#!/usr/bin/env python3
"""make test's A/B step (scripts/test/test.sh): the report of a short route run has its plots, the service's own word that the switch flipped, and B/A in seed 002's direction."""
import json, sys
from pathlib import Path
d = Path(sys.argv[1])
r = json.loads((d / "ratios.json").read_text())
assert (d / "report.html").read_text().count("<polyline") >= 12, "the report's plots are empty"
assert "in effect (perflab_lab_switch_info): A jdbc-stream, B interface-projection" in (d / "report.md").read_text(), \
    "the report does not show the service's own word that the switch flipped"
# B is seed 002's interface projection: slower, fewer reads per second, far more allocation per request
problems = [f"{k} B/A {r.get(k)} not {op} {x}" for k, op, x in [
    ("latency p95", ">", 2), ("iterations/s", "<", 0.5), ("allocated per request (service)", ">", 2)]
    if r.get(k) is None or not (r[k] > x if op == ">" else r[k] < x)]
if problems:
    sys.exit("A/B direction wrong: " + "; ".join(problems))
print((d / "report.md").read_text())
