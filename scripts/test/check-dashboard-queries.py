#!/usr/bin/env python3
"""Every query of a Grafana dashboard (and every alert rule), answered by a real Prometheus.

  check-dashboard-queries.py --prometheus URL [--set NAME=VALUE]... [--empty-ok 'KEY: reason']...
                             [--window 15m] [--rules RENDERED.yaml]... [DASHBOARD.json]...

Each panel target's expression (panels inside rows too), each query variable (label_values(selector, label) is
asked as `count by (label) (selector)`) and each annotation query is evaluated through Prometheus' HTTP API with the
dashboard's variables ($name, ${name}), Grafana's intervals ($__rate_interval, $__interval, $__range) and the
chart's placeholders (__NAME__) replaced by the --set values. By default a panel query is one instant query (now);
with --window it is a range query over that last stretch, as a Grafana time series panel asks it, and answers when
any series has a sample in it. Annotations are always asked over the last hour (--window if longer).

--rules: the groups of a rendered PrometheusRule (helm template output). Each alert expression must be accepted by
Prometheus, and its left side (the expression without its final `> threshold`) must answer, or, when it is empty
because nothing happened (no 5xx, no timeout), every metric family it reads must exist for its namespace and job
(`quiet`).

A query Prometheus refuses fails; a query that returns no series fails unless it is listed with --empty-ok and a
reason (legitimately empty at rest). KEY is a panel title (all its queries), `Panel title [B]` (the target with
refId B), `variable $name`, `annotation NAME`, an alert name or `group/alert name`. An --empty-ok naming no query
fails too. Prints one line per query; exits non-zero on any failure.
"""
import argparse
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

INTERVALS = {"$__rate_interval": "1m", "$__interval": "15s", "$__range": "10m"}


def substitute(expr, values):
    for k, v in INTERVALS.items():
        expr = expr.replace(k, v)
    for name, value in values.items():
        expr = expr.replace(f"__{name.upper()}__", value).replace("${" + name + "}", value)
        expr = re.sub(r"\$" + re.escape(name) + r"\b", lambda _: value, expr)
    return expr


def seconds(text):
    m = re.fullmatch(r"(\d+)([smhd])", text)
    if not m:
        raise argparse.ArgumentTypeError(f"not a duration like 15m: {text}")
    return int(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]


def query(prometheus, expr, window=0):
    """(series with at least one sample, error)"""
    if window:
        now = time.time()
        params = {"query": expr, "start": now - window, "end": now, "step": "15"}
        url = f"{prometheus.rstrip('/')}/api/v1/query_range?" + urllib.parse.urlencode(params)
    else:
        url = f"{prometheus.rstrip('/')}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    try:
        with urllib.request.urlopen(url, timeout=20) as r:
            body = json.load(r)
    except urllib.error.HTTPError as e:
        try:
            return None, json.load(e).get("error", str(e))
        except ValueError:
            return None, str(e)
    result = body["data"]["result"]
    if body["data"]["resultType"] == "matrix":
        result = [s for s in result if s.get("values")]
    return result, None


def panels(items):
    for p in items:
        yield p
        yield from panels(p.get("panels", []))


def variable_query(var):
    q = var.get("query")
    q = q.get("query", "") if isinstance(q, dict) else (q or "")
    m = re.fullmatch(r"\s*label_values\((.+),\s*(\w+)\s*\)\s*", q, re.S)
    if m:
        return f"count by ({m.group(2)}) ({m.group(1)})", m.group(2)
    m = re.fullmatch(r"\s*query_result\((.+)\)\s*", q, re.S)
    return (m.group(1), None) if m else (None, None)


def dashboard_queries(board):
    """(key, alternative keys, expr, window override, label that must be set)"""
    for var in board.get("templating", {}).get("list", []):
        if var.get("type") == "query":
            expr, label = variable_query(var)
            if expr:
                yield f"variable ${var['name']}", (), expr, None, label
    for ann in board.get("annotations", {}).get("list", []):
        if ann.get("expr"):
            yield f"annotation {ann.get('name', '?')}", (), ann["expr"], 3600, None
    for panel in panels(board.get("panels", [])):
        title = panel.get("title", "?")
        for target in panel.get("targets", []):
            if "expr" in target:
                yield f"{title} [{target.get('refId', '?')}]", (title,), target["expr"], None, None


def rule_queries(path):
    import yaml  # only needed for --rules

    for doc in yaml.safe_load_all(open(path)):
        if not doc or doc.get("kind") != "PrometheusRule":
            continue
        for group in doc["spec"]["groups"]:
            for rule in group["rules"]:
                name = rule.get("alert") or rule.get("record")
                expr = rule["expr"].strip()
                yield f"{group['name']}/{name} (as written)", None, expr
                left = re.fullmatch(r"(.*?)\s*(?:>|<|>=|<=|==|!=)\s*-?[0-9.eE+]+", expr, re.S)
                if left:
                    yield f"{group['name']}/{name}", (name,), left.group(1)


def split_empty_ok(entry):
    """'KEY: reason'; a KEY with ': ' in it (a panel title) is written with its [refId]: 'Title: more [B]: reason'."""
    if "]: " in entry:
        key, reason = entry.split("]: ", 1)
        return key + "]", reason
    return tuple(entry.split(": ", 1))


TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\{[^}]*\}'
                   r'|([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?(\s*\()?')
GROUPING = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)")
KEYWORDS = {"and", "or", "unless", "bool", "offset", "inf", "nan"}
IDENTITY = re.compile(r'\b(namespace|job)\s*=\s*"[^"]*"')


def families(expr):
    """The metric families an expression reads, each with only its namespace/job matchers: what must exist for the
    expression to answer once something happens (a 5xx, a timeout)."""
    found = set()
    for m in TOKEN.finditer(re.sub(r"\[[^\]]*\]", "", GROUPING.sub(" ", expr))):
        name, matchers, call = m.groups()
        if name and not call and name not in KEYWORDS:
            found.add(name + "{" + ", ".join(x.group(0) for x in IDENTITY.finditer(matchers or "")) + "}")
    return sorted(found)


class Check:
    def __init__(self, prometheus, empty_ok, window):
        self.prometheus, self.empty_ok, self.window = prometheus, empty_ok, window
        self.used, self.known, self.total, self.failed, self.empty, self.quiet = set(), set(), 0, 0, 0, 0

    def allowed(self, key, alternatives):
        for k in (key, *alternatives):
            if k in self.empty_ok:
                self.used.add(k)
                return self.empty_ok[k]
        return None

    def run(self, key, alternatives, expr, window=None, label=None):
        self.total += 1
        self.known.update((key, *alternatives))
        w = max(window or 0, self.window) if window else self.window
        result, error = query(self.prometheus, expr, w)
        if result is not None and label:
            result = [s for s in result if s["metric"].get(label)]
        if error:
            self.failed += 1
            print(f"  FAIL  {key}: Prometheus refused it: {error}\n        {expr}")
        elif not result:
            reason = self.allowed(key, alternatives)
            if reason:
                self.empty += 1
                print(f"  empty {key} (allowed: {reason})")
            else:
                self.failed += 1
                print(f"  FAIL  {key}: no data (a metric nobody exports, or a label nobody sets)\n        {expr}")
        else:
            print(f"  ok    {key}: {len(result)} series")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prometheus", required=True)
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--empty-ok", action="append", default=[])
    ap.add_argument("--window", type=seconds, default=0)
    ap.add_argument("--rules", action="append", default=[])
    ap.add_argument("dashboards", nargs="*")
    a = ap.parse_args()
    values = dict(s.split("=", 1) for s in a.set)
    empty_ok = dict(split_empty_ok(e) for e in a.empty_ok)
    check = Check(a.prometheus, empty_ok, a.window)
    for path in a.dashboards:
        print(f"{path}:")
        for key, alternatives, expr, window, label in dashboard_queries(json.load(open(path))):
            check.run(key, alternatives, substitute(expr, values), window, label)
    for path in a.rules:
        print(f"{path} (alert rules):")
        for key, alternatives, expr in rule_queries(path):
            if alternatives is None:  # the rule as Prometheus evaluates it: accepted; empty is its normal state
                check.total += 1
                _, error = query(a.prometheus, expr)
                if error:
                    check.failed += 1
                    print(f"  FAIL  {key}: Prometheus refused it: {error}\n        {expr}")
                continue
            result, error = query(a.prometheus, expr)
            if result == [] and not check.allowed(key, alternatives):
                missing = [f for f in families(expr) if not query(a.prometheus, f"count({f})")[0]]
                if not missing:  # every family exists for this service: nothing to count at rest, 0 events
                    check.total += 1
                    check.quiet += 1
                    print(f"  quiet {key}: no series now, but every metric it reads is exported "
                          f"({', '.join(families(expr))})")
                    continue
            check.run(key, alternatives, expr)
    for key in sorted(set(empty_ok) - check.known):
        check.failed += 1
        print(f"  FAIL  --empty-ok names no query: {key}")
    for key in sorted(set(empty_ok) & check.known - check.used):
        print(f"  note  --empty-ok {key}: it answered this time")
    answered = check.total - check.failed - check.empty - check.quiet
    quiet = f", {check.quiet} quiet alert rules" if check.quiet else ""
    print(f"queries: {answered} answered, {check.empty} empty as allowed{quiet}, {check.failed} failed")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
