#!/usr/bin/env python3
"""The A/B run's meta.json (scripts/load/ab.sh): service, switch, scenario, arguments, git revision, the Prometheus it
read and each arm's run id, window and exit (its verdict: 0 pass, 99 fail, 75 inconclusive, else the runner's own
status); scripts/load/ab-report.py reads it.

    ab-meta.py PATH SERVICE SWITCH ENV SCENARIO REV PROMETHEUS ARM... -- ARG...
    ARM: arm,value,testid,start,end,exit,scraped[,run]   (run: in a cluster, the runners' Indexed Job)

Tokens never reach it, nor the report made from it: an argument's IDENTITY, TOKEN, TOKENS, CALLER_TOKENS (any key
ending so, a KEY=VALUE setting or a helm --set path) and anything shaped as a JWT are recorded as <redacted>.
"""
import json
import os
import re
import sys

KEYS = ("arm", "value", "testid", "start", "end", "exit", "scraped", "run")
# the value runs to the argument's end, or to the next `,` of a helm --set list
SECRET = re.compile(r"((?:^|[.,])[A-Za-z_]*(?:TOKENS?|IDENTITY)=)[^,]*")
JWT = re.compile(r"eyJ[\w-]*\.[\w-]+\.[\w-]*")


def redact(text):
    return JWT.sub("<redacted>", SECRET.sub(r"\1<redacted>", text))


def main(argv):
    path, service, switch, var, scenario, rev, prometheus, *rest = argv
    arms, args = rest[:rest.index("--")], rest[rest.index("--") + 1:]
    meta = {"service": service, "switch": switch, "env": var, "both": " ".join(map(redact, os.environ.get("AB_ENV", "").split())),
            "scenario": scenario, "args": [redact(a) for a in args], "git": rev, "prometheus": prometheus,
            "job": f"perflab-{service}", "arms": [dict(zip(KEYS, a.split(","))) for a in arms]}
    if os.environ.get("AB_CLUSTER"):
        meta["cluster"] = json.loads(os.environ["AB_CLUSTER"])
    for a in meta["arms"]:
        a["start"], a["end"], a["scraped"], a["exit"] = float(a["start"]), float(a["end"]), float(a["scraped"]), int(a["exit"])
    with open(path, "w") as f:
        json.dump(meta, f, indent=2)


if __name__ == "__main__":
    main(sys.argv[1:])
