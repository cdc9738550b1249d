#!/usr/bin/env python3
"""Every query of a Grafana dashboard, answered by a real Prometheus.

  check-dashboard-queries.py --prometheus URL [--set NAME=VALUE]... [--empty-ok 'TITLE: reason']... DASHBOARD.json...

Each panel target's expression is evaluated through Prometheus' HTTP API (instant query) with the dashboard's
variables ($name, ${name}), Grafana's intervals ($__rate_interval, $__interval, $__range) and the chart's
placeholders (__NAME__) replaced by the --set values. A query Prometheus refuses fails; a query that returns no
series fails unless its panel is listed with --empty-ok and a reason (legitimately empty at rest). Prints one line
per query; exits non-zero on any failure.
"""
import argparse
import json
import re
import sys
import urllib.parse
import urllib.request

INTERVALS = {"$__rate_interval": "1m", "$__interval": "15s", "$__range": "10m"}


def substitute(expr, values):
    for k, v in INTERVALS.items():
        expr = expr.replace(k, v)
    for name, value in values.items():
        expr = expr.replace(f"__{name.upper()}__", value).replace("${" + name + "}", value)
        expr = re.sub(r"\$" + re.escape(name) + r"\b", value, expr)
    return expr


def query(prometheus, expr):
    url = f"{prometheus.rstrip('/')}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            body = json.load(r)
    except urllib.error.HTTPError as e:
        return None, json.load(e).get("error", str(e))
    return body["data"]["result"], None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prometheus", required=True)
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--empty-ok", action="append", default=[])
    ap.add_argument("dashboards", nargs="+")
    a = ap.parse_args()
    values = dict(s.split("=", 1) for s in a.set)
    empty_ok = dict(e.split(": ", 1) for e in a.empty_ok)
    failed = total = 0
    for path in a.dashboards:
        board = json.load(open(path))
        for panel in board.get("panels", []):
            for target in panel.get("targets", []):
                if "expr" not in target:
                    continue
                total += 1
                expr = substitute(target["expr"], values)
                result, error = query(a.prometheus, expr)
                title = panel.get("title", "?")
                if error:
                    failed += 1
                    print(f"  FAIL  {title}: Prometheus refused it: {error}\n        {expr}")
                elif not result:
                    if title in empty_ok:
                        print(f"  empty {title} (allowed: {empty_ok[title]})")
                    else:
                        failed += 1
                        print(f"  FAIL  {title}: no data (a metric nobody exports, or a label nobody sets)\n        {expr}")
                else:
                    print(f"  ok    {title}: {len(result)} series")
    unused = set(empty_ok) - {p.get("title") for path in a.dashboards for p in json.load(open(path)).get("panels", [])}
    for title in sorted(unused):
        failed += 1
        print(f"  FAIL  --empty-ok names no panel: {title}")
    print(f"dashboard queries: {total - failed} answered, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
