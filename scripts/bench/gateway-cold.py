#!/usr/bin/env python3
"""bench-gateway.sh cold: the first minute of a fresh gateway from its k6 summary: readiness, dropped iterations, failed creates and redirects, the p95 and max of each."""
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
def v(name, key, default=0):
    return m.get(name, {}).get("values", {}).get(key, default)
checks = {c["name"]: c for c in json.load(open(sys.argv[1]))["root_group"]["checks"]}
def failed(name):
    c = checks.get(name, {"passes": 0, "fails": 0})
    total = c["passes"] + c["fails"]
    return f"{c['fails']} of {total} ({100 * c['fails'] / total if total else 0:.1f}%)"
print(f"cold start: ready after {sys.argv[2]} s (JVM start to readiness UP, {sys.argv[5]}), then seed 004's mix at {sys.argv[3]} it/s for {sys.argv[4]} s")
print(f"  iterations {v('iterations', 'count'):.0f} (dropped {v('dropped_iterations', 'count'):.0f})"
      f"  requests failed {100 * v('http_req_failed', 'rate'):.2f}%  checks failed {100 * (1 - v('checks', 'rate', 1)):.2f}%")
print(f"  creates failed {failed('create is 201')}, redirects failed {failed('redirect is 301 or 302')}")
print(f"  create   p95 {v('shortener_create_duration', 'p(95)'):.0f} ms  max {v('shortener_create_duration', 'max'):.0f} ms")
print(f"  redirect p95 {v('shortener_redirect_duration', 'p(95)'):.0f} ms  max {v('shortener_redirect_duration', 'max'):.0f} ms")
