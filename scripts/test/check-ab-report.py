#!/usr/bin/env python3
"""make test's A/B step (scripts/test/test.sh): the report of a short route run has its plots, the load runner's series
of both arms in Prometheus, the service's own word that the switch flipped, B/A in seed 002's direction, and no token
in anything it keeps."""
import json
import re
import sys
from pathlib import Path

d = Path(sys.argv[1])
r = json.loads((d / "ratios.json").read_text())
page, md = (d / "report.html").read_text(), (d / "report.md").read_text()
meta = json.loads((d / "meta.json").read_text())
problems = []
if page.count("<polyline") < 12:
    problems.append("the report's plots are empty")
# the runner remote-wrote each arm's main phase under the arm's testid, and the report found it there
for title in ("Requests per second", "Latency p95"):
    plot = next((s for s in page.split("<svg")[1:] if f">{title} (" in s), "")
    if plot.count("<polyline") != 2:
        problems.append(f"the plot {title!r} has {plot.count('<polyline')} of the 2 arms' lines")
if "in effect (perflab_lab_switch_info): A jdbc-stream, B interface-projection" not in md:
    problems.append("the report does not show the service's own word that the switch flipped")
if any("exit" not in a for a in meta["arms"]):
    problems.append("an arm of meta.json has no exit")
for name, text in (("meta.json", json.dumps(meta)), ("report.md", md), ("report.html", page)):
    if re.search(r"eyJ[\w-]+\.[\w-]+\.", text):
        problems.append(f"{name} holds a token")
# B is seed 002's interface projection: slower, fewer reads per second, far more allocation per request
problems += [f"{k} B/A {r.get(k)} not {op} {x}" for k, op, x in [
    ("latency p95", ">", 2), ("iterations/s", "<", 0.5), ("allocated per request (service)", ">", 2)]
    if r.get(k) is None or not (r[k] > x if op == ">" else r[k] < x)]
if problems:
    sys.exit("A/B report wrong: " + "; ".join(problems))
print(md)
