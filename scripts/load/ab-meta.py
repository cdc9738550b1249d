#!/usr/bin/env python3
"""The A/B run's meta.json (scripts/load/ab.sh): service, switch, script, arguments, git revision, the Prometheus it read and each arm's run id and window; scripts/load/ab-report.py reads it."""
import json, os, sys
path, service, switch, var, script, rev, prometheus, *rest = sys.argv[1:]
arms, args = rest[:rest.index("--")], rest[rest.index("--") + 1:]
keys = ("arm", "value", "testid", "start", "end", "k6_exit", "scraped")
meta = {"service": service, "switch": switch, "env": var, "both": os.environ["AB_ENV"], "script": script, "args": args, "git": rev,
        "prometheus": prometheus, "job": f"perflab-{service}",
        "arms": [dict(zip(keys, a.split(","))) for a in arms]}
if os.environ["AB_CLUSTER"]:
    meta["cluster"] = json.loads(os.environ["AB_CLUSTER"])
for a in meta["arms"]:
    a["start"], a["end"], a["k6_exit"], a["scraped"] = float(a["start"]), float(a["end"]), int(a["k6_exit"]), float(a["scraped"])
json.dump(meta, open(path, "w"), indent=2)
